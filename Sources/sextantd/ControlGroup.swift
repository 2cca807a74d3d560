import Foundation

/// `--control-group`: a group's name, looked up in the group database, or its number.
enum ControlGroup {
    static func gid(_ text: String) -> UInt32? {
        if let entry = getgrnam(text) { return entry.pointee.gr_gid }
        // A bare number need not be in the database (a group only a container or setpriv knows).
        guard let number = UInt32(text), number != UInt32.max else { return nil }
        return number
    }
}
