import SextantCore
import SextantProtocol
import Testing

/// The platforms' motion rules as a table (docs/platforms.md AN40, AN41, I15).
@Suite("Motion delivery by platform (AN40, AN41, I15)")
struct MotionDeliveryTests {
    static let android = DevicePlatform.android(api: 34)
    static let background = MotionAppSituation(foreground: false)

    @Test("AN40 I15: in the foreground every stream reaches the app on both platforms")
    func foregroundHearsAll() {
        for platform in [DevicePlatform.ios, Self.android] {
            for stream in MotionStream.allCases {
                #expect(MotionDelivery.mayDeliver(stream, to: MotionAppSituation(foreground: true), on: platform), "\(stream) \(platform)")
            }
        }
    }

    @Test("AN40: Android in the background: no sensor event, continuous or on-change; Play services' activity and transitions reach it")
    func testAN40_androidBackground() {
        let heard = MotionStream.allCases.filter { MotionDelivery.mayDeliver($0, to: Self.background, on: Self.android) }
        #expect(heard == [.activity, .activityTransitions])
    }

    @Test("AN40: Android with a foreground service hears every stream in the background")
    func testAN40_foregroundService() {
        let withService = MotionAppSituation(foreground: false, foregroundService: true)
        #expect(MotionStream.allCases.allSatisfy { MotionDelivery.mayDeliver($0, to: withService, on: Self.android) })
        #expect(!MotionDelivery.mayDeliver(.accelerometer, to: withService, on: .ios), "a foreground service is Android's, not iOS's")
    }

    @Test("I15: iOS suspended hears nothing; kept running by a background location session, Core Motion's streams, never light or proximity")
    func testI15_iosBackground() {
        #expect(MotionStream.allCases.allSatisfy { !MotionDelivery.mayDeliver($0, to: Self.background, on: .ios) })
        let running = MotionAppSituation(foreground: false, runsInBackground: true)
        let heard = MotionStream.allCases.filter { MotionDelivery.mayDeliver($0, to: running, on: .ios) }
        #expect(heard == [.accelerometer, .deviceMotion, .altimeter, .activity, .activityTransitions, .pedometer])
    }

    @Test("AN41: API 31+ caps the accelerometer at 200 Hz without HIGH_SAMPLING_RATE_SENSORS; API 30, a declaration, iOS, other streams: not")
    func testAN41_rateCap() {
        let none = MotionDeclaration()
        let declared = MotionDeclaration(androidPermissions: ["HIGH_SAMPLING_RATE_SENSORS"])
        #expect(MotionDelivery.interval(0, for: .accelerometer, on: .android(api: 31), declaration: none) == 0.005)
        #expect(MotionDelivery.interval(0.002, for: .accelerometer, on: .android(api: 36), declaration: none) == 0.005)
        #expect(MotionDelivery.interval(0.005, for: .accelerometer, on: .android(api: 36), declaration: none) == 0.005)
        #expect(MotionDelivery.interval(0.02, for: .accelerometer, on: .android(api: 36), declaration: none) == 0.02)
        #expect(MotionDelivery.interval(0, for: .accelerometer, on: .android(api: 30), declaration: none) == 0)
        #expect(MotionDelivery.interval(0, for: .accelerometer, on: .android(api: 31), declaration: declared) == 0)
        #expect(MotionDelivery.interval(0, for: .deviceMotion, on: .android(api: 36), declaration: none) == 0, "not in AOSP's capped set")
        #expect(MotionDelivery.interval(0, for: .accelerometer, on: .ios, declaration: none) == 0)
    }

    @Test("AN41: the manifest name with or without android.permission.; bad declarations are refused naming the member")
    func declarationParsing() throws {
        let long = try MotionDeclaration(Params(["androidPermissions": ["android.permission.HIGH_SAMPLING_RATE_SENSORS"]]))
        #expect(long.declares("HIGH_SAMPLING_RATE_SENSORS"))
        for bad: JSONValue in [["androidPermissions": [""]], ["androidPermissions": "X"], ["motionUsageDescription": ""]] {
            #expect(throws: RPCError.self) { try MotionDeclaration(Params(bad)) }
        }
    }
}
