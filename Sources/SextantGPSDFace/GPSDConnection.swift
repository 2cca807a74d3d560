import Logging
import NIOCore
import SextantCore
import SextantGPSD
import SextantHub
import SextantProtocol
import SextantTraces

/// One gpsd client, confined to the hub's event loop: it answers gpsd's requests and, as
/// its session's `SessionOutput`, writes the events the hub decided as gpsd reports.
///
/// Writes go through the same ``LineWriter`` as app.sock's: TPVs and NMEA sentences are
/// locations (the oldest dropped beyond the sensor limit, discarded when the rules stop
/// delivery); answers to requests and the no-fix TPV that follows a loss of rights are
/// never dropped. A client too far behind is disconnected.
final class GPSDConnection {
    let id: UInt64
    unowned let owner: GPSDFace
    private var hub: Hub { owner.hub }
    /// Opened once the peer is identified; requests are read only from then on.
    var session: AppSession?
    /// Who the peer is, when the kernel says (its uid at least).
    var identity: GPSDPeer?
    /// Whether the peer's socket is not on this machine (`--gpsd-listen-any`).
    var isRemote = false
    /// Monotonic time of the last request read, for the idle time-out.
    private(set) var lastRequest: Int64
    /// When the face next looks whether the client is idle.
    var idleTimer: Scheduled<Void>?
    private(set) var watch = GPSDWatch()
    /// The same outbound lines as app.sock's: outbox, turn flush, replay hold-back, close.
    let writer: LineWriter
    /// The last position TPV this client was sent, for `?POLL`; cleared when delivery stops.
    private var lastPositionTPV: String?
    /// Whether the rules let the session have positions, as last checked: a change to
    /// false is told with a no-fix TPV.
    private var positionsAllowed = false

    init(id: UInt64, channel: Channel, face: GPSDFace) {
        self.id = id
        self.owner = face
        let hub = face.hub
        self.lastRequest = face.hub.clock.monotonicNanoseconds()
        self.writer = LineWriter(
            channel: channel, clock: hub.clock, flushes: hub.flushes, logger: hub.logger, wording: ("gpsd client", "reports"))
        writer.label = { [unowned self] in label }
        writer.onDrain = { [unowned hub] in hub.clientDrained() }
    }

    var channel: Channel { writer.channel }
    var isClosed: Bool { writer.isClosed }

    var label: String {
        var s = "gpsd#\(id)"
        if let identity { s += " uid \(identity.uid)" + (identity.pid.map { " pid \($0)" } ?? "") }
        return s
    }

    // MARK: - Requests

    func handle(_ frame: GPSDFrame) {
        guard !isClosed else { return }
        lastRequest = hub.clock.monotonicNanoseconds()
        do throws(GPSDRequestError) {
            try perform(frame.get())
        } catch {
            send(GPSDReport.error(error.message), kind: .essential)
        }
    }

    private func perform(_ request: GPSDRequest) throws(GPSDRequestError) {
        let devices = owner.devices()
        switch request {
        case .version:
            send(GPSDReport.version(), kind: .essential)
        case .devices:
            send(GPSDReport.devices(devices), kind: .essential)
        case .device(let configure):
            guard !configure else { throw GPSDRequestError("Sextant's devices cannot be configured") }
            guard let first = devices.first else { throw GPSDRequestError("No devices") }
            send(GPSDReport.device(first), kind: .essential)
        case .poll:
            send(GPSDReport.poll(time: hub.clock.wallTime(), tpv: pollTPV()), kind: .essential)
        case .watch(nil):
            send(GPSDReport.devices(devices), kind: .essential)
            send(GPSDReport.watch(watch), kind: .essential)
        case .watch(let members?):
            let next = try watch.applying(members)
            if let wanted = next.device, !devices.contains(where: { $0.path == wanted }) {
                throw GPSDRequestError("No such device as \(wanted)")
            }
            send(GPSDReport.devices(devices), kind: .essential)
            send(GPSDReport.watch(next), kind: .essential)
            changeWatch(to: next)
        }
    }

    /// `?POLL`'s TPV: the last position sent while the rules still allow one, else a
    /// no-fix TPV for a watching client, else none.
    private func pollTPV() -> String? {
        if let session, hub.mayReceiveLocations(session), let lastPositionTPV { return lastPositionTPV }
        return watch.enable ? GPSDReport.noFixObject(device: owner.currentDevice()) : nil
    }

    private func changeWatch(to next: GPSDWatch) {
        let wasEnabled = watch.enable
        watch = next
        owner.motionHearingChanged()
        guard let session, next.enable != wasEnabled else { return }
        if next.enable {
            owner.startWatch(session)
            positionsAllowed = hub.mayReceiveLocations(session)
            if !positionsAllowed { send(GPSDReport.noFix(device: owner.currentDevice()), kind: .essential) }
        } else {
            owner.stopWatch(session)
        }
    }

    // MARK: - Writing

    func send(_ text: String, kind: OutboundKind) { writer.send(text, kind: kind) }

    func close() { writer.close() }

    /// gpsd's ERROR with `message`, then the connection is closed.
    func refuse(_ message: String) { writer.sendAndClose(GPSDReport.error(message)) }
}

extension GPSDConnection: SessionOutput {
    /// gpsd speaks the kinds conformed to ``GPSDEncodable``; it has no report for the others.
    func deliver(_ event: any AppEventKind) {
        (event as? any GPSDEncodable)?.deliver(to: self)
    }

    /// A fix, as a TPV and NMEA sentences as the client's watch asks. Only a watching
    /// session streams: the hub sends fixes only to those.
    func receive(_ fix: LocationFix) {
        let device = owner.currentDevice()
        let tpv = GPSDReport.tpvObject(fix, device: device, declination: owner.declination(at: fix))
        lastPositionTPV = tpv
        positionsAllowed = true
        guard watch.enable, watch.device == nil || watch.device == device else { return }
        if watch.json { send(tpv + "\r\n", kind: .location) }
        if watch.wantsNMEA {
            for sentence in NMEAEncoder.gpsdFace.sentences(for: fix) { send(sentence, kind: .location) }
        }
    }

    /// A heading, as an ATT report to a client watching in JSON that may have locations
    /// now (docs/gpsd.md: a client that may not hears nothing of the compass). `heading` is
    /// in the device's natural orientation; `true` where the hub let it leave (H8). Queued
    /// as a location, so that a revoke discards what is waiting (L9).
    func receive(_ heading: Heading, withTrue: Bool) {
        guard watch.enable, watch.json, watch.device == nil || watch.device == owner.currentDevice(),
            let session, hub.mayReceiveLocations(session)
        else { return }
        let trueHeading = withTrue ? hub.trueHeading(of: heading, for: session) : nil
        let report = GPSDReport.attitude(
            heading, trueHeading: trueHeading, needsCalibration: hub.compassNeedsCalibration, device: owner.currentDevice())
        send(report, kind: .location)
    }

    /// The fused motion, as an ATT to the same clients as the compass's ATT (a client that
    /// may not have locations hears nothing of the compass, and the yaw is one).
    func receive(_ motion: DeviceMotionDecided) {
        guard hearsMotion, watch.device == nil || watch.device == owner.currentDevice(), let session, hub.mayReceiveLocations(session)
        else { return }
        send(GPSDReport.motionAttitude(motion, device: owner.currentDevice()), kind: .location)
    }

    /// Whether the client watches in JSON: the fusion runs for it (docs/gpsd.md, "Attitude").
    var hearsMotion: Bool { watch.enable && watch.json }

    /// The GPS source is gone: a watching client hears "no fix".
    func sourceLost() {
        lastPositionTPV = nil
        if watch.enable { send(GPSDReport.noFix(device: owner.currentDevice()), kind: .essential) }
    }

    /// A client that just lost the right to positions hears "no fix" at once, after the
    /// hub discarded what was queued (L9).
    func rightsMayHaveChanged() {
        guard let session else { return }
        let allowed = hub.mayReceiveLocations(session)
        defer { positionsAllowed = allowed }
        guard positionsAllowed, !allowed else { return }
        lastPositionTPV = nil
        if watch.enable { send(GPSDReport.noFix(device: owner.currentDevice()), kind: .essential) }
    }

    /// The hub calls this the moment the rules stop delivery, whatever the cause (L8's
    /// move to the background has no `authorization` event): the client hears it now.
    func discardQueuedLocations() {
        writer.discardQueuedLocations()
        lastPositionTPV = nil
        rightsMayHaveChanged()
    }

    var peer: PeerCredentials? {
        guard let identity, let pid = identity.pid else { return nil }
        return PeerCredentials(pid: pid, uid: identity.uid, gid: identity.gid ?? UInt32.max)  // (gid_t)-1: not known
    }

    var face: String { "gpsd" }
}
