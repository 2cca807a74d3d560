import Foundation
import SextantSocket

/// Tells systemd (Type=notify) how the daemon is doing, through `$NOTIFY_SOCKET`.
/// Without that variable it does nothing.
enum SystemdNotifier {
    static func notify(_ state: String) {
        guard let path = ProcessInfo.processInfo.environment["NOTIFY_SOCKET"], !path.isEmpty,
            let address = try? UnixSocketAddress(path: path)  // a leading @: the abstract namespace
        else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        let descriptor = OwnedDescriptor(adopting: fd)
        _ = address.withSockaddr { sockaddrPointer, length in
            state.withCString { sendto(descriptor.raw, $0, strlen($0), 0, sockaddrPointer, length) }
        }
    }
}
