import NIOCore
import SextantCore
import SextantProtocol

/// What the hub knows of one app session beyond what the engines keep: the authorization
/// engine owns its authorization and its foreground/background state (L5–L8a), its
/// `AppInterfaceOrientation` its interface (O6–O11); this holds the connection and what
/// the app subscribed to.
package final class AppSession {
    let id: SessionID
    package let app: String
    /// The face it came through: its events go there.
    let output: SessionOutput
    // What every delivery reads, declared together so that they share few cache lines
    // (a fan-out to a thousand sessions finds each one cold).
    /// Until the session ends (`SessionTable.close`): a fan-out begun before skips it then.
    @exclusivity(unchecked) fileprivate(set) var isOpen = true
    /// Where its shared events' lines go, when its face writes them as they are
    /// (``SessionOutput/sharedLineWriter``): read here, beside what a delivery reads.
    let sharedLineWriter: LineWriter?
    /// The topics it subscribed to besides `session` and the fixes' (`orientation.start`...),
    /// a sensor kind's among them: changed through `SessionTable.subscribe`, which indexes it.
    @exclusivity(unchecked) fileprivate(set) var topics = TopicSet()
    /// What the service that hands out fixes keeps of it (``Services/SessionSlot``: its
    /// stream, its one-shot requests, its place in the fan-out): held here, as every
    /// delivery reads it, not looked up. Unchecked: a delivery reads and writes it several
    /// times, each checked access a runtime call, and every access is on the hub's loop and
    /// ends before the next begins (nothing it calls reaches back into the session).
    @exclusivity(unchecked) var fixes = Services.SessionSlot()
    /// The authorization engine's answer for this session's locations (nil: none may
    /// leave) as of the engine's generation `decidedAt` (`Hub.decidedAccuracy(of:)`).
    /// Unchecked, as `fixes` is (every delivery reads them; nothing reaches back).
    @exclusivity(unchecked) var decidedAccuracy: LocationAccuracy?
    @exclusivity(unchecked) var decidedAt: UInt64 = 0
    /// The app's interface orientation under O6–O11.
    var interface: AppInterfaceOrientation
    /// Its `apps.list` entry as the watchers were last told it (`Hub.sessionChanged`).
    var announced: JSONValue?
    /// The topics whose lists hold it (``SessionTable/subscribers(of:)``): those it
    /// subscribed to, and perhaps some it left that the list has not dropped yet.
    fileprivate var listedTopics = TopicSet()
    /// What it declared for motion data at `hello` (docs/motion.md A14, docs/platforms.md AN41).
    var motionDeclaration = MotionDeclaration()

    init(id: SessionID, app: String, output: SessionOutput, interface: AppInterfaceOrientation) {
        self.id = id
        self.app = app
        self.output = output
        self.sharedLineWriter = output.sharedLineWriter
        self.interface = interface
    }

    /// Sends a shared event the hub decided it may have.
    func deliver(_ shared: SharedEvent) {
        if let sharedLineWriter { sharedLineWriter.sendShared(shared) } else { output.deliver(shared) }
    }

    /// Sends shared events one after the other, all decided at once (``SessionOutput/deliver(run:)``).
    func deliver(run: ArraySlice<SharedEvent>) {
        if let sharedLineWriter { sharedLineWriter.sendShared(run: run) } else { output.deliver(run: run) }
    }

    /// What it streams, by topic name, sorted (`apps.list`'s `streams`): its stream of
    /// fixes and the topics it subscribed to.
    var streams: [String] {
        var names = Set(topics.map(\.name))
        if fixes.streams { names.insert(Services.SessionSlot.topic.name) }
        return names.sorted()
    }

    /// The topics every session hears without asking: the services' own
    /// (``PhoneService/heardByEverySession``: an app's regions are the app's, not a session's).
    private static let heardByEverySession = TopicSet(ServiceRegistry.all.flatMap { $0.heardByEverySession })

    private static let sessionTopic = AppTopic.session.index
    private static let fixesTopic = Services.SessionSlot.topic.index

    /// Whether it hears events of `topic` now. By the topics' numbers: a `switch` over
    /// `AppTopic` values called its `==` across modules for each case, ~200 instructions a
    /// delivery.
    func hears(_ topic: AppTopic) -> Bool {
        if topic.index == Self.sessionTopic { return true }
        if topic.index == Self.fixesTopic { return fixes.hears }
        return topics.contains(topic) || Self.heardByEverySession.contains(topic)
    }
}

/// The live app sessions: the one table of them, by id, in the order they opened and by
/// the topics they hear. Changed only through the operations below, each O(1) amortized
/// but for a search by id (``SessionList``).
final class SessionTable {
    private var byID: [SessionID: AppSession] = [:]
    /// Opening order, which is id order: events go to sessions in this order. Kept as a
    /// list so that publishing does not sort on every event.
    private var opened = SessionList()
    /// How many sessions each app has open: whether it has any, without a scan.
    private var openByApp: [String: Int] = [:]
    /// The sessions subscribed to each topic (by its index), in id order: a sample reaches
    /// the sessions that asked for it without looking at the others.
    private var byTopic: [SessionList] = []
    private var lastID: SessionID = 0
    /// How many sessions the lists' upkeep has looked at (compacting, leaving): a test's
    /// measure that it stays O(1) amortized a change.
    private(set) var sessionsVisited = 0

    subscript(id: SessionID) -> AppSession? { byID[id] }

    /// The open sessions, in opening order.
    var ordered: [AppSession] {
        if opened.hasLeavers { opened.compact { visit($0).isOpen } }
        return opened.listed
    }

    var count: Int { byID.count }

    /// How many sessions the lists hold, some that left among them (a test's measure that
    /// nothing left behind grows).
    var sessionsListed: Int {
        opened.listed.count + byTopic.reduce(0) { $0 + $1.listed.count }
    }

    /// Whether `app` has a session open.
    func hasSession(of app: String) -> Bool { openByApp[app] != nil }

    func open(app: String, output: SessionOutput, interface: AppInterfaceOrientation) -> AppSession {
        lastID += 1
        let session = AppSession(id: lastID, app: app, output: output, interface: interface)
        byID[session.id] = session
        opened.insert(session)
        openByApp[app, default: 0] += 1
        return session
    }

    func close(_ id: SessionID) -> AppSession? {
        guard let session = byID.removeValue(forKey: id) else { return nil }
        session.isOpen = false
        opened.leave { visit($0).isOpen }
        if let others = openByApp.removeValue(forKey: session.app), others > 1 { openByApp[session.app] = others - 1 }
        for topic in session.topics { unsubscribe(session, from: topic) }
        return session
    }

    /// The sessions that subscribed to `topic`, in id order.
    func subscribers(of topic: AppTopic) -> [AppSession] {
        guard topic.index < byTopic.count else { return [] }
        dropLeavers(of: topic)
        return byTopic[topic.index].listed
    }

    /// Whether any session subscribed to `topic` (asked on every fix: no array handed out).
    func isHeard(_ topic: AppTopic) -> Bool {
        guard topic.index < byTopic.count else { return false }
        dropLeavers(of: topic)
        return !byTopic[topic.index].listed.isEmpty
    }

    private func dropLeavers(of topic: AppTopic) {
        guard byTopic[topic.index].hasLeavers else { return }
        byTopic[topic.index].compact { stillSubscribed(visit($0), to: topic) }
    }

    /// `session` hears `topic` from now on.
    func subscribe(_ session: AppSession, to topic: AppTopic) {
        guard session.isOpen, session.topics.insert(topic) else { return }
        while byTopic.count <= topic.index { byTopic.append(SessionList()) }
        // One that left the topic and came back before the list dropped it is listed still.
        if session.listedTopics.insert(topic) { byTopic[topic.index].insert(session) }
    }

    /// `session` no longer hears `topic`.
    func unsubscribe(_ session: AppSession, from topic: AppTopic) {
        guard session.topics.remove(topic) else { return }
        byTopic[topic.index].leave { stillSubscribed(visit($0), to: topic) }
    }

    private func visit(_ session: AppSession) -> AppSession {
        sessionsVisited += 1
        return session
    }

    /// Whether a listed session stays in `topic`'s list; one that does not is unlisted.
    private func stillSubscribed(_ session: AppSession, to topic: AppTopic) -> Bool {
        let stays = session.isOpen && session.topics.contains(topic)
        if !stays { _ = session.listedTopics.remove(topic) }
        return stays
    }
}
