import Logging
import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces

/// One gpsd client, confined to the hub's event loop: it answers gpsd's requests and, as
/// its session's `SessionOutput`, writes the events the hub decided as gpsd reports.
///
/// Writes go through the same bounded `Outbox` as app.sock's: TPVs and NMEA sentences are
/// locations (the oldest dropped beyond the sensor limit, discarded when the rules stop
/// delivery); answers to requests and the no-fix TPV that follows a loss of rights are
/// never dropped. A client too far behind is disconnected.
final class GPSDConnection {
    let id: UInt64
    let channel: Channel
    private unowned let hub: Hub
    /// Opened once the peer is identified; requests are read only from then on.
    var session: AppSession?
    /// Who the peer is, when /proc says.
    var identity: GPSDPeer?
    private(set) var watch = GPSDWatch()
    private var outbox = Outbox()
    private var lastProgress: Int64
    private(set) var isClosed = false
    /// The last position TPV this client was sent, for `?POLL`; cleared when delivery stops.
    private var lastPositionTPV: String?
    /// Whether the rules let the session have positions, as last checked: a change to
    /// false is told with a no-fix TPV.
    private var positionsAllowed = false

    init(id: UInt64, channel: Channel, hub: Hub) {
        self.id = id
        self.channel = channel
        self.hub = hub
        self.lastProgress = hub.clock.monotonicNanoseconds()
    }

    var label: String {
        var s = "gpsd#\(id)"
        if let identity { s += " uid \(identity.uid)" + (identity.pid.map { " pid \($0)" } ?? "") }
        return s
    }

    // MARK: - Requests

    func handle(_ frame: GPSDFrame) {
        guard !isClosed else { return }
        switch frame {
        case .tooLong:
            hub.logger.notice("gpsd client sent a request over \(GPSDRequestFramer.maxLength) bytes: closing", metadata: ["client": "\(label)"])
            sendAndClose(GPSDReport.error("request longer than \(GPSDRequestFramer.maxLength) bytes"))
        case .request(let text):
            do throws(GPSDRequestError) {
                try perform(GPSDRequest.parse(text[...]))
            } catch {
                send(GPSDReport.error(error.message), kind: .essential)
            }
        }
    }

    private func perform(_ request: GPSDRequest) throws(GPSDRequestError) {
        let devices = hub.gpsdDevices()
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
        if let session, hub.authorization.mayReceiveLocations(session.id), let lastPositionTPV { return lastPositionTPV }
        return watch.enable ? GPSDReport.noFixObject(device: hub.gpsdCurrentDevice()) : nil
    }

    private func changeWatch(to next: GPSDWatch) {
        let wasEnabled = watch.enable
        watch = next
        guard let session, next.enable != wasEnabled else { return }
        if next.enable {
            hub.startGPSDWatch(session)
            positionsAllowed = hub.authorization.mayReceiveLocations(session.id)
            if !positionsAllowed { send(GPSDReport.noFix(device: hub.gpsdCurrentDevice()), kind: .essential) }
        } else {
            hub.stopGPSDWatch(session)
        }
    }

    // MARK: - Writing

    func send(_ text: String, kind: OutboundKind) {
        guard !isClosed else { return }
        var buffer = channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        if outbox.isEmpty, channel.isWritable {
            channel.writeAndFlush(buffer, promise: nil)
            lastProgress = hub.clock.monotonicNanoseconds()
            return
        }
        switch outbox.push(buffer, kind: kind) {
        case .queued: break
        case .droppedOldest:
            if outbox.dropped == 1 || outbox.dropped % 1000 == 0 {
                hub.logger.notice("gpsd client is not reading: dropping its oldest reports", metadata: ["client": "\(label)", "dropped": "\(outbox.dropped)"])
            }
        case .overflow:
            hub.logger.warning("gpsd client's queue overflowed: disconnecting it", metadata: ["client": "\(label)", "queued": "\(outbox.count)"])
            close()
        }
    }

    /// Hands queued reports to the channel while it takes them.
    func flushOutbox() {
        guard !isClosed, channel.isWritable else { return }
        var wrote = false
        while channel.isWritable, let entry = outbox.popFirst() {
            channel.write(entry.bytes, promise: nil)
            wrote = true
        }
        if wrote { channel.flush() }
        lastProgress = hub.clock.monotonicNanoseconds()
        if outbox.isEmpty { hub.replay.clientDrained() }
    }

    /// Whether a max-speed replay should wait for this client (as app.sock's `Connection`).
    func holdsBackReplay(now: Int64) -> Bool {
        guard !isClosed, outbox.count >= Connection.replayHoldMark || !channel.isWritable else { return false }
        return now - lastProgress < 1_000_000_000
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        channel.close(promise: nil)
    }

    /// gpsd's ERROR with `message`, then the connection is closed.
    func refuse(_ message: String) { sendAndClose(GPSDReport.error(message)) }

    private func sendAndClose(_ text: String) {
        guard !isClosed else { return }
        isClosed = true
        var buffer = channel.allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        channel.writeAndFlush(buffer).whenComplete { [channel] _ in channel.close(promise: nil) }
    }
}

extension GPSDConnection: SessionOutput {
    func deliver(_ event: AppEvent) {
        switch event {
        case .location(let fix, _):
            // Only a watching session streams: the hub sends fixes only to those.
            let device = hub.gpsdCurrentDevice()
            let tpv = GPSDReport.tpvObject(fix, device: device)
            lastPositionTPV = tpv
            positionsAllowed = true
            guard watch.enable, watch.device == nil || watch.device == device else { return }
            if watch.json { send(tpv + "\r\n", kind: .location) }
            if watch.wantsNMEA {
                for sentence in NMEAEncoder.gpsdFace.sentences(for: fix) { send(sentence, kind: .location) }
            }
        case .authorization, .servicesEnabled:
            rightsMayHaveChanged()
        case .locationUnavailable:
            lastPositionTPV = nil
            if watch.enable { send(GPSDReport.noFix(device: hub.gpsdCurrentDevice()), kind: .essential) }
        case .deviceOrientation, .interfaceOrientation, .posture:
            break  // gpsd has no such reports
        }
    }

    /// A client that just lost the right to positions hears "no fix" at once, after the
    /// hub discarded what was queued (L9).
    private func rightsMayHaveChanged() {
        guard let session else { return }
        let allowed = hub.authorization.mayReceiveLocations(session.id)
        defer { positionsAllowed = allowed }
        guard positionsAllowed, !allowed else { return }
        lastPositionTPV = nil
        if watch.enable { send(GPSDReport.noFix(device: hub.gpsdCurrentDevice()), kind: .essential) }
    }

    /// The hub calls this the moment the rules stop delivery, whatever the cause (L8's
    /// move to the background has no `authorization` event): the client hears it now.
    func discardQueuedLocations() {
        outbox.discardLocations()
        lastPositionTPV = nil
        rightsMayHaveChanged()
    }

    var peer: PeerCredentials? {
        guard let identity, let pid = identity.pid else { return nil }
        return PeerCredentials(pid: pid, uid: identity.uid, gid: identity.gid ?? UInt32.max)  // (gid_t)-1: not known
    }

    var face: String { "gpsd" }
}
