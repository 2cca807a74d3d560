import Foundation
import SextantCore
import Testing

/// The pure engines of issue 40.1 and 40.5: a turn by hand (RULES D7) and the gait and yaw
/// of a walk's synthesized sensors (A12), with hand-made values.
@Suite("TurnByHand (D7) and GaitSynthesis (A12)")
struct HandTurnAndGaitTests {
    static let g = 9.80665

    @Test("D7: portrait to landscapeLeft is +z at π rad/s for 25 ticks of 20 ms; gravity turns through 45° midway; a field turns with it")
    func quarterTurnD7() throws {
        let turn = try #require(TurnByHand(from: Vector3(0, Self.g, 0), to: Vector3(Self.g, 0, 0), tick: 0.02))
        #expect(turn.ticks == 25 && (turn.rate - Vector3(0, 0, .pi)).length < 1e-12)
        let half = turn.gravity(after: 12)
        #expect(abs(atan2(half.x, half.y) - 12.0 / 25 * .pi / 2) < 1e-9 && abs(half.length - Self.g) < 1e-9)
        #expect(turn.gravity(after: 25) == Vector3(Self.g, 0, 0) && turn.gravity(after: 40) == Vector3(Self.g, 0, 0))
        #expect((turn.turned(Vector3(0, -42, 21), after: 25) - Vector3(-42, 0, 21)).length < 1e-9)
        #expect(turn.rotationRate(at: 0) == .zero && turn.rotationRate(at: 1) == turn.rate && turn.rotationRate(at: 26) == .zero)
        #expect(!turn.isOver(at: 25) && turn.isOver(at: 26))
    }

    @Test("D7: a half turn goes over face up; nothing to turn is no turn; a 10° turn is one tick slower than π rad/s allows, rounded up")
    func halfAndSmallTurnsD7() throws {
        let half = try #require(TurnByHand(from: Vector3(0, Self.g, 0), to: Vector3(0, -Self.g, 0), tick: 0.02))
        #expect((half.gravity(after: half.ticks / 2) - Vector3(0, 0, Self.g)).length < 0.7, "midway face up: \(half.gravity(after: half.ticks / 2))")
        #expect(half.ticks == 50)
        #expect(TurnByHand(from: Vector3(0, Self.g, 0), to: Vector3(0, 2 * Self.g, 0), tick: 0.02) == nil)
        let small = try #require(TurnByHand(from: Vector3(0, 0, Self.g), to: Vector3(0, Self.g * sin(.pi / 18), Self.g * cos(.pi / 18)), tick: 0.02))
        #expect(small.ticks == 3 && small.rate.length <= TurnByHand.fastestRate)
    }

    @Test("A12: on foot, the bounce is ±2 m/s² along gravity at A7's cadence; off foot nothing; a 90° right turn over 1 s is −π/2 rad/s about up")
    func gaitA12() throws {
        var gait = GaitSynthesis()
        let up = Vector3(0, Self.g, 0)
        let before = gait.reading(at: 0, gravity: up)
        #expect(before == nil, "no stretch yet")
        gait.stretch(metres: 1.4, seconds: 1, bearing: 0)
        let cadence = try #require(gait.cadence)
        #expect(abs(cadence - 1.4 / 0.73) < 1e-9)
        _ = gait.reading(at: 0, gravity: up)
        let reading = gait.reading(at: Int64(0.25 / cadence * 1e9), gravity: up)
        let quarter = try #require(reading)
        #expect(abs(quarter.y - (Self.g + GaitSynthesis.amplitude)) < 1e-9 && quarter.x == 0 && quarter.z == 0)
        gait.stretch(metres: 1.4, seconds: 1, bearing: 90)
        #expect(abs(gait.yawRate + .pi / 2) < 1e-12)
        #expect((gait.rotationRate(gravity: up, sinceFix: 0.5) - Vector3(0, -.pi / 2, 0)).length < 1e-12)
        gait.stretch(metres: 1.4, seconds: 1, bearing: 90)
        #expect(gait.yawRate == 0)
        gait.stretch(metres: 0.1, seconds: 1, bearing: 90)
        let still = gait.reading(at: 2_000_000_000, gravity: up)
        #expect(gait.cadence == nil && still == nil, "0.1 m/s is standing still")
    }

    @Test("A17: on wheels gravity alone and the route's yaw rate, for as long as the stretch that turned took; standing still nothing")
    func routeOnWheelsA17() throws {
        var ride = GaitSynthesis()
        let up = Vector3(0, Self.g, 0)
        ride.stretch(metres: 10, seconds: 1, bearing: 0)
        #expect(ride.cadence == nil && ride.onWheels, "10 m/s is no walk")
        #expect(ride.reading(at: 0, gravity: up) == up, "no bounce, no acceleration of the car")
        ride.stretch(metres: 5, seconds: 0.5, bearing: 90)
        #expect((ride.rotationRate(gravity: up, sinceFix: 0.49) - Vector3(0, -.pi, 0)).length < 1e-12, "90° right in 0.5 s")
        #expect(ride.rotationRate(gravity: up, sinceFix: 0.5) == .zero, "the turn lasted its stretch's 0.5 s: ∫ = −π/2")
        ride.stretch(metres: 0.1, seconds: 1, bearing: 90)
        #expect(!ride.moving && ride.reading(at: 1, gravity: up) == nil && ride.rotationRate(gravity: up, sinceFix: 0) == .zero)
    }
}
