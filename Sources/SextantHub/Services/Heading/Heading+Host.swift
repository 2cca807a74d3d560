import SextantCore

/// What the faces may ask of the heading service: the host API's heading part, kept beside
/// the service so that the hub's own files name no service.
extension Hub {
    /// The session hears every heading the engine decides, turned less than `filter` degrees ignored (H7).
    package func startHeadings(_ session: AppSession, filter: Double) { services(HeadingService.self).start(session, HeadingSubscription(filter: filter)) }

    package func stopHeadings(_ session: AppSession) { services(HeadingService.self).stop(session) }

    /// The latest heading the engine decided, in the device's natural orientation.
    package var latestHeading: Heading? { services(HeadingService.self).heading.engine.latest }

    /// Whether the magnetometer asks for calibration.
    package var compassNeedsCalibration: Bool { services(HeadingService.self).heading.engine.needsCalibration }

    /// The true heading the session may have of `heading` (H6, H8); nil when it may have none.
    package func trueHeading(of heading: Heading, for session: AppSession) -> Double? {
        services(HeadingService.self).trueHeading(of: heading, for: session)
    }
}
