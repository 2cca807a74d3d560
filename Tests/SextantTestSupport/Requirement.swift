import Foundation

/// What a test needs of the machine: a program, a file, root. Outside CI a test whose
/// requirement is missing is skipped, with the reason printed; under `CI=true`, where
/// `Tools/ci/setup.sh` installs everything and CI runs as root, it fails with that reason,
/// so that nothing is left untested there unnoticed.
public struct Requirement: Sendable {
    /// What is missing and how to get it, as a skipped test prints it.
    public let reason: String
    private let check: @Sendable () -> Bool

    public init(_ reason: String, isMet check: @escaping @Sendable () -> Bool) {
        self.reason = reason
        self.check = check
    }

    public var isMet: Bool { check() }

    /// An executable at `path`, from the Debian package `package`.
    public static func tool(_ path: String, package: String) -> Requirement {
        Requirement("needs \(path) (Debian \(package): Tools/ci/setup.sh installs it)") {
            FileManager.default.isExecutableFile(atPath: path)
        }
    }

    /// A file at `path`, from the Debian package `package`.
    public static func file(_ path: String, package: String) -> Requirement {
        Requirement("needs \(path) (Debian \(package): Tools/ci/setup.sh installs it)") { FileManager.default.fileExists(atPath: path) }
    }

    /// A command that exits 0 (a Python module importable, say).
    public static func command(_ command: [String], _ reason: String) -> Requirement {
        Requirement(reason) { (try? run(command))?.status == 0 }
    }

    /// Root, for what only root may do (mount, run a program as another uid).
    public static func root(_ why: String) -> Requirement {
        Requirement("needs root: \(why)") { getuid() == 0 }
    }

    /// Every one of `requirements`.
    public static func all(_ requirements: [Requirement]) -> Requirement {
        Requirement(requirements.map(\.reason).joined(separator: "; ")) { requirements.allSatisfy(\.isMet) }
    }

    /// Whether the tests run under CI (`CI=true`), where every requirement must be met.
    public static let underCI = ProcessInfo.processInfo.environment["CI"] == "true"
}

public struct RequirementMissing: Error, CustomStringConvertible {
    public var description: String
}

// Swift Testing is there for test builds only: a release build of the package (the .deb's)
// builds this target too, without the trait.
#if canImport(Testing)
import Testing

extension Trait where Self == ConditionTrait {
    /// Runs the test (or suite) only where every requirement is met: outside CI, skipped
    /// with the reasons printed; under `CI=true`, failed with them.
    public static func requires(_ requirements: Requirement..., sourceLocation: SourceLocation = #_sourceLocation) -> Self {
        let requirement = Requirement.all(requirements)
        return .enabled(Comment(rawValue: requirement.reason), sourceLocation: sourceLocation) {
            if requirement.isMet { return true }
            if Requirement.underCI { throw RequirementMissing(description: "CI=true: \(requirement.reason)") }
            return false
        }
    }
}
#endif
