import SextantCore
import SextantProtocol

// The device's clock (RULES C1–C10): control socket only, apps never move time.

/// `time.get`: the device's clock.
struct TimeGetMethod: RPCMethod {
    static let name = Method.timeGet
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .result(call.hub.deviceClockState.json) }
}

/// `time.set`: the device's wall clock reads `wall`; later moves the monotonic clock too (C4).
struct TimeSetMethod: RPCMethod {
    static let name = Method.timeSet
    let wall: Timestamp

    init(_ p: Params) throws(RPCError) { wall = try TimeSet(p).wall }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let wall = self.wall
        return .result(try call.hub.moveDeviceClock(by: "wall") { (clock, host) throws(DeviceClockRefusal) in try clock.set(wall: wall, host: host) }.json)
    }
}

/// `time.advance`: both clocks move forward by `seconds`; the timers due fire at once (C3, C6).
struct TimeAdvanceMethod: RPCMethod {
    static let name = Method.timeAdvance
    let nanoseconds: Int64

    init(_ p: Params) throws(RPCError) {
        // TimeAdvance bounds it to 100 years: well inside 64 bits of nanoseconds.
        nanoseconds = Int64((try TimeAdvance(p).seconds * 1e9).rounded())
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let nanoseconds = self.nanoseconds
        return .result(try call.hub.moveDeviceClock(by: "seconds") { (clock, host) throws(DeviceClockRefusal) in try clock.advance(by: nanoseconds, host: host) }.json)
    }
}

/// `time.reset`: the wall clock is the host's again; the monotonic clock keeps its lead (C5).
struct TimeResetMethod: RPCMethod {
    static let name = Method.timeReset
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .result(try call.hub.moveDeviceClock(by: "wall") { (clock, _) throws(DeviceClockRefusal) in clock.resetWall() }.json)
    }
}
