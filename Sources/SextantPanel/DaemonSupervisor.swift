import Foundation
import NIOCore
import SextantClient
import SextantProtocol
import Synchronization

/// The panel's two links to the daemon, kept up: when the daemon goes away the pages are
/// told, and the panel connects again to the same socket, waiting between attempts from
/// 100 ms doubling to 2 s; once back, the new links watch again and the pages re-read
/// their state. The first connection alone is not retried: without a daemon at the start
/// the panel ends (exit 69), as `sextantctl` does.
final class DaemonSupervisor: Sendable {
    let path: String
    /// The connection every page's calls go through; nil while the daemon is away.
    private let calls = Mutex<SextantConnection?>(nil)

    static let firstBackoff: Duration = .milliseconds(100)
    static let maximumBackoff: Duration = .seconds(2)
    static let gone = RPCError(code: -32000, message: "the daemon closed the control connection")

    init(path: String) { self.path = path }

    /// Two connections to control.sock, opened together: one for the pages' calls, one that
    /// watches (its events go to the pages), each trusting only the daemon a `sextantctl`
    /// of this user would.
    struct Links: Sendable {
        let calls: SextantConnection
        let watching: SextantConnection

        init(path: String) throws(ClientError) {
            calls = try SextantConnection(path: path)
            watching = try SextantConnection(path: path)
        }

        func close() {
            calls.close()
            watching.close()
        }
    }

    /// A control request on the calls link, forwarded as the browser wrote it, and the
    /// daemon's own answer; while the daemon is away, an error that says so.
    func call(_ method: String, _ params: JSONValue?) async -> Result<JSONValue, RPCError> {
        guard let link = calls.withLock({ $0 }) else {
            return .failure(RPCError(code: -32000, message: "the daemon is not reachable (\(path)): sextant-panel is retrying"))
        }
        do {
            return .success(try await link.request(method, params))
        } catch .rpc(let error) {
            return .failure(error)
        } catch {
            return .failure(Self.gone)
        }
    }

    /// The first links, or the client's own message (`cannot connect to …`).
    func connect() async throws(PanelError) -> Links {
        do {
            return try Links(path: path)
        } catch {
            throw PanelError(error.description)
        }
    }

    /// Serves on `first`, then on each new pair of links, until cancelled. `watching`
    /// hears once whether the first watch was answered: refused, the panel ends.
    func run(first: Links, pages: PanelPages, watching: @escaping @Sendable (RPCError?) -> Void) async {
        var links = first
        var firstWatch: (@Sendable (RPCError?) -> Void)? = watching
        while !Task.isCancelled {
            let reason: String
            switch await serve(links, pages: pages, onWatch: firstWatch) {
            case .watchRefused(let error):
                if firstWatch != nil { return }
                reason = "the daemon refused watch: \(error.message) (error \(error.code))"
            case .closed:
                reason = "the daemon closed the control connection (\(path))"
            }
            firstWatch = nil
            guard !Task.isCancelled, let again = await reconnect(pages: pages, after: reason) else { return }
            links = again
        }
    }

    enum Ending { case watchRefused(RPCError), closed }

    /// Runs both links until the daemon closes either; the calls link serves the pages
    /// once the watch is answered.
    private func serve(_ links: Links, pages: PanelPages, onWatch: (@Sendable (RPCError?) -> Void)?) async -> Ending {
        defer {
            calls.withLock { $0 = nil }
            links.close()
        }
        do {
            _ = try await links.watching.request("watch", nil)
        } catch .rpc(let error) {
            onWatch?(error)
            return .watchRefused(error)
        } catch {
            return .closed
        }
        calls.withLock { $0 = links.calls }
        onWatch?(nil)
        pages.daemonReachable(socket: path)
        // Whichever link ends first, the other goes with it.
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await Self.forwardEvents(of: links.watching, to: pages) }
            // The calls link hears no events: its wait ends when the daemon closes it.
            group.addTask { while (try? await links.calls.notification()) != nil {} }
            await group.next()
            group.cancelAll()
        }
        return .closed
    }

    /// Hands each event's line to the pages as the daemon wrote it: the pages parse it,
    /// the panel does not.
    private static func forwardEvents(of link: SextantConnection, to pages: PanelPages) async {
        while let line = try? await link.notificationLine() { pages.publish(ByteBuffer(bytes: line)) }
    }

    /// Connects again, telling the pages why it waits; nil once cancelled.
    private func reconnect(pages: PanelPages, after reason: String) async -> Links? {
        var wait = Self.firstBackoff
        var reason = reason
        Self.say("\(reason): retrying")
        while true {
            pages.daemonUnreachable(socket: path, reason: reason)
            do { try await Task.sleep(for: wait) } catch { return nil }
            do {
                let links = try Links(path: path)
                Self.say("connected to the daemon again (\(path))")
                return links
            } catch {
                reason = error.description
            }
            wait = min(wait * 2, Self.maximumBackoff)
        }
    }

    /// A line on standard error, for the person who started the panel.
    static func say(_ text: String) {
        FileHandle.standardError.write(Data("sextant-panel: \(text)\n".utf8))
    }
}
