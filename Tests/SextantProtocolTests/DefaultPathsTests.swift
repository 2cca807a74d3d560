import SextantProtocol
import Testing

@Suite("Default paths")
struct DefaultPathsTests {
    @Test("Runtime directory: SEXTANT_RUNTIME_DIR first, then /run/sextant for root, XDG_RUNTIME_DIR, else none (no shared /tmp guess)")
    func runtimeDirectory() {
        #expect(DefaultPaths.runtimeDirectory(environment: ["SEXTANT_RUNTIME_DIR": "/srv/s", "XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000) == "/srv/s")
        #expect(DefaultPaths.runtimeDirectory(environment: ["SEXTANT_RUNTIME_DIR": "/srv/s"], uid: 0) == "/srv/s")
        #expect(DefaultPaths.runtimeDirectory(environment: ["SEXTANT_RUNTIME_DIR": "", "XDG_RUNTIME_DIR": "/run/user/1000"], uid: 1000) == "/run/user/1000/sextant")
        #expect(DefaultPaths.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], uid: 0) == "/run/sextant")
        // Another user could create /tmp/sextant-UID first (issue 9): no default then.
        #expect(DefaultPaths.runtimeDirectory(environment: [:], uid: 1000) == nil)
        #expect(DefaultPaths.runtimeDirectory(environment: ["XDG_RUNTIME_DIR": ""], uid: 1000) == nil)
    }

    @Test("State directory: /var/lib/sextant for root, XDG_STATE_HOME, ~/.local/state")
    func stateDirectory() {
        #expect(DefaultPaths.stateDirectory(environment: ["XDG_STATE_HOME": "/home/a/.st"], uid: 0) == "/var/lib/sextant")
        #expect(DefaultPaths.stateDirectory(environment: ["XDG_STATE_HOME": "/home/a/.st"], uid: 1000) == "/home/a/.st/sextant")
        #expect(DefaultPaths.stateDirectory(environment: ["HOME": "/home/a"], uid: 1000) == "/home/a/.local/state/sextant")
        #expect(DefaultPaths.stateDirectory(environment: [:], uid: 1000) == nil)
    }
}
