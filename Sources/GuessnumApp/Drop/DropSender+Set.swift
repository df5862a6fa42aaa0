import EventBus
import Foundation
import Multipeer
import SafeText
import Synchronization

/// `guessnum send A B DIR…`: several files and folders as one set, asked about once.
extension DropSender {
    /// The most files of a set under way at once (``SetWindow``) to a receiver that announced
    /// ``WireProtocol/Feature/digestAfterBytes`` but says no ``DropSetAnswer/placing`` (the
    /// release before it), which runs 16 at once and holds the others until one ends: those whose bytes all went wait for their results while the next ones
    /// go, so small files do not wait a round trip each. Memory stays bounded: a file that
    /// waits for its result, or is offered and not yet accepted, holds no bytes.
    static let setFilesAtOnce = 24
    /// The same to a receiver of an earlier release, which declines a file past its 16 at once.
    static let setFilesAtOnceEarlier = 4
    /// The most files of a set offered and still sending their bytes at once.
    static let setFilesWritingAtOnce = 4
    /// The same for small files (``setSmallFileBytes`` or less) to a receiver that takes files
    /// being put in place past its 16 receiving (``DropSetAnswer/placing``): each waits a round
    /// trip for its answer before its bytes go, so more of them keep the link busy; none holds
    /// more than its own bytes.
    static let setSmallFilesWritingAtOnce = 16
    /// The largest file that counts as small for ``setSmallFilesWritingAtOnce``: one piece of
    /// the receiver's writes.
    static let setSmallFileBytes: Int64 = 256 * 1024
    /// The most files of a set under way at once to a receiver that said how many it takes
    /// while they are put in place (``DropSetAnswer/placing``): that many, so that its 16
    /// receiving are a margin for the results on their way.
    static let setFilesAtOncePlacing = 128

    /// The window for a set's files to a receiver that answered the set with `answer`;
    /// `digestAfterBytes`: whether it announced ``WireProtocol/Feature/digestAfterBytes``.
    static func setWindow(answer: DropSetAnswer, digestAfterBytes: Bool) -> SetWindow {
        if let placing = answer.placing, placing > 0 {
            return SetWindow(
                writingAtOnce: setFilesWritingAtOnce, atOnce: min(placing, setFilesAtOncePlacing),
                smallWritingAtOnce: setSmallFilesWritingAtOnce, smallBytes: setSmallFileBytes)
        }
        return SetWindow(writingAtOnce: setFilesWritingAtOnce, atOnce: digestAfterBytes ? setFilesAtOnce : setFilesAtOnceEarlier)
    }

    /// Sends `items` (files and folders) to `target` as one set: counts them (saying what is
    /// left out), offers them in one question, then sends each file under its path, a few at
    /// a time, with one progress line for the set. A file that fails is said in a sentence and
    /// the others go on. Returns the exit code: 0 when every file was saved, 1 when some were
    /// not, 3 declined, turned away (a receiver of an earlier release, which takes one file at
    /// a time), not answering or no receiver, 64 nothing to send, 130 cancelled.
    public func run(set items: [URL], to target: DropTarget) async -> Int32 {
        let count = DropSetCount.count(items)
        for case .leftOut(let path, let reason) in count.firstLeftOut {
            output.line("\(TerminalText.quotedName(path)) is left out: \(reason).")
        }
        if count.leftOut > count.firstLeftOut.count {
            output.line("\(count.leftOut - count.firstLeftOut.count) more are left out for the same kinds of reasons.")
        }
        guard count.files > 0 else {
            output.line("There is no file to send in what was named.")
            return AppFailure.Code.usage.exitCode
        }
        do throws(MultipeerError) {
            let (receiver, peer): (DiscoveredPeer, PeerID)
            switch try await reach(target) {
            case .reached(let found, let connected): (receiver, peer) = (found, connected)
            case .failed(let kind): return kind.exitCode
            }
            guard session.supports(WireProtocol.Feature.resources | WireProtocol.Feature.folders, with: peer) else {
                output.line(Self.earlierReceiver(peer.displayName))
                return AppFailure.Code.turnedAway.exitCode
            }
            let offer = count.offer(set: UUID())
            let session = session
            // A drop before the answer: the offer goes again on the new link (the receiver
            // withdrew it, or answers again a set it knows); a drop while files go: they resume.
            // The offer goes as the link is connected, before the files under way are offered
            // again: a receiver that restarted knows the set before its files.
            let resend = session.events.observe(.stateChanged) { change in
                if change.peer == peer, change.state == .connected { try? session.send(offer, to: [peer]) }
            }
            defer { resend.cancel() }
            let reconnecting = keepConnected(to: receiver, peer: peer) {}
            defer { reconnecting.cancel() }
            guard let answer = try await answer(to: offer, from: peer) else {
                output.line("The link to \(peer.displayName) closed before an answer and did not come back within \(MultipeerError.secondsText(session.configuration.resourceResumeWindow)); send again.")
                return AppFailure.Code.runtime.exitCode
            }
            guard answer.accepted else {
                output.line("\(peer.displayName) declined \(offer.summary)\(answer.reason.map { ": \(TerminalText.sanitized($0))" } ?? "").")
                return AppFailure.Code.turnedAway.exitCode
            }
            return await send(items, as: offer, to: peer, window: Self.setWindow(answer: answer, digestAfterBytes: session.supports(WireProtocol.Feature.digestAfterBytes, with: peer)))
        } catch {
            output.line(error.message)
            return AppFailure.Code(error.code).exitCode
        }
    }

    /// Offers `offer` to `peer` and waits for its answer; nil when the link closed and did not
    /// come back within the resume window.
    private func answer(to offer: DropSetOffer, from peer: PeerID) async throws(MultipeerError) -> DropSetAnswer? {
        let answers = session.events.stream(.dataReceived)
        let changes = session.events.stream(.stateChanged)
        let giveUp = Task {
            for await change in changes where change.peer == peer && change.state == .notConnected {
                if !(await self.awaitConnected(peer)) { return answers.cancel() }
            }
        }
        defer {
            giveUp.cancel()
            changes.cancel()
            answers.cancel()
        }
        try session.send(offer, to: [peer])
        let code = session.verificationCode(with: peer).map { " (verification code \($0))" } ?? ""
        output.line("Offering \(offer.summary) to \(peer.displayName)\(code); waiting for an answer.")
        for await data in answers where data.peer.identity == peer.identity && data.carries(DropSetAnswer.self) {
            if let answer = try? data.decode(DropSetAnswer.self), answer.set == offer.set { return answer }
        }
        return nil
    }

    /// What the sender reads when the receiver's program takes one file at a time.
    static func earlierReceiver(_ name: String) -> String {
        "\(name)'s guessnum is of an earlier release: it takes one file at a time, not folders or several files at once. "
            + "Send each file alone (`guessnum send FILE`), or update guessnum there."
    }

    /// How a set's files went, counted as they are offered and end.
    private struct Tally {
        var saved = 0
        var savedBytes: Int64 = 0
        var offered = 0
        var offeredBytes: Int64 = 0
        /// Files the receiver had saved before, unchanged: none of their bytes went.
        var alreadyThere = 0
        /// Bytes sent twice (what was on its way when a link dropped).
        var resent: Int64 = 0
    }

    /// A ``Tally`` the files' tasks share.
    private final class SharedTally: Sendable {
        let counts = Mutex(Tally())
    }

    /// Sends the files of the accepted `offer`, walking `items` again (a file that appeared or
    /// grew since they were counted is not sent: the receiver takes no more than it accepted),
    /// then tells the receiver the set ended and says how it went.
    private func send(_ items: [URL], as offer: DropSetOffer, to peer: PeerID, window: SetWindow) async -> Int32 {
        sending.withLock { $0.started = true }
        let progress = SetProgress(name: DropSetOffer.files(offer.files), totalBytes: offer.bytes)
        let tally = SharedTally()
        var window = window
        let (steps, step) = AsyncStream.makeStream(of: SetStep.self)
        var next = steps.makeAsyncIterator()
        // Discarding: a file's task is let go of as it ends (the window is counted by `steps`),
        // so a set of any size keeps no trace of its files.
        await withDiscardingTaskGroup { group in
            let walk = DropWalk(items)
            var folders = EmptyFolders(set: offer.set, limit: offer.emptyFolders ?? 0)
            while let entry = walk.next() {
                if case .emptyFolder(let path) = entry, let batch = folders.add(path) { await sendFolders(batch, to: peer) }
                guard case .file(let url, let path, let size) = entry else { continue }
                if cancelled.withLock({ $0 }) { break }
                let fits = tally.counts.withLock { $0.offered < offer.files && $0.offeredBytes + size <= offer.bytes }
                guard fits else {
                    output.line("\(TerminalText.quotedName(path)) was not sent: it appeared or grew after the files were counted.")
                    continue
                }
                while !window.hasRoom(forBytes: size), let done = await next.next() {
                    switch done {
                    case .wroteAll(let bytes): window.wroteAll(bytes: bytes)
                    case .ended: window.ended()
                    }
                }
                guard let resource = await start(url, path: path, to: peer) else { continue }
                tally.counts.withLock {
                    $0.offered += 1
                    $0.offeredBytes += size
                }
                window.started(bytes: size)
                group.addTask {
                    await self.followSetFile(resource, bytes: size, in: progress, tally: tally, steps: step)
                }
            }
            if let batch = folders.flush() { await sendFolders(batch, to: peer) }
        }
        let ended = tally.counts.withLock { $0 }
        if ended.alreadyThere > 0 {
            output.line("\(ended.alreadyThere == 1 ? "1 file was" : "\(ended.alreadyThere) files were") saved there before and unchanged: not sent again.")
        }
        if ended.resent > 0 { output.line("\(ended.resent) bytes sent before went again (on their way when a link dropped).") }
        if await awaitConnected(peer) { try? session.send(DropSetEnd(set: offer.set, notOffered: offer.files - ended.offered), to: [peer]) }
        let name = peer.displayName
        if cancelled.withLock({ $0 }) {
            // A file that ended as it was cancelled may be saved all the same: the receiver's count is the last word.
            output.line("Stopped: \(name) had saved \(ended.saved) of the \(DropSetOffer.files(offer.files)) (\(TransferMeter.bytes(ended.savedBytes))) by then; the files under way were cancelled.")
            return AppFailure.Code.cancelled.exitCode
        }
        if ended.saved == offer.files {
            output.line("\(name) saved \(offer.files == 1 ? "the file" : "all \(offer.files) files") (\(TransferMeter.bytes(ended.savedBytes))), each one's SHA-256 checked.")
            return 0
        }
        let missing = offer.files - ended.saved
        output.line("\(name) saved \(ended.saved) of the \(DropSetOffer.files(offer.files)) (\(TransferMeter.bytes(ended.savedBytes))), each one's SHA-256 checked; "
            + "\(missing == 1 ? "1 was" : "\(missing) were") not saved (said above).")
        return AppFailure.Code.runtime.exitCode
    }

    /// Offers the file at `url` under `path` once the receiver is connected; nil when it could
    /// not be (said).
    private func start(_ url: URL, path: String, to peer: PeerID) async -> OutgoingResource? {
        while true {
            guard await awaitConnected(peer) else {
                output.line("\(TerminalText.quotedName(path)) was not sent: the link to \(peer.displayName) did not come back.")
                return nil
            }
            do throws(MultipeerError) {
                let resource = try session.sendResource(at: url, path: path, to: peer)
                sending.withLock { $0.resources.append(resource) }
                if cancelled.withLock({ $0 }) { resource.cancel() }
                return resource
            } catch where error.code == .peerNotConnected {
                continue  // it dropped meanwhile
            } catch {
                output.line(error.message)
                return nil
            }
        }
    }

    /// What a file of a set says to the sending loop (``SetWindow``): its bytes all went (the
    /// size it was started with), then it ended.
    enum SetStep: Sendable, Equatable {
        case wroteAll(Int64)
        case ended
    }

    /// Waits for `resource`'s end (a file of `bytes`), showing the set's progress meanwhile,
    /// and counts it; says on `steps` when its bytes all went (or it ended before), then when
    /// it ended.
    private func followSetFile(_ resource: OutgoingResource, bytes: Int64, in progress: SetProgress, tally: SharedTally, steps: AsyncStream<SetStep>.Continuation) async {
        let output = output
        let wroteAll = Mutex(false)
        let wrote: @Sendable () -> Void = {
            if wroteAll.withLock({ done in
                defer { done = true }
                return !done
            }) { steps.yield(.wroteAll(bytes)) }
        }
        let shown = Task {
            await progress.follow(resource.progressUpdates, on: output, arrived: wrote)
            wrote()  // it ended before its bytes all went
        }
        do throws(MultipeerError) {
            try await resource.outcome()
            tally.counts.withLock {
                $0.saved += 1
                $0.savedBytes += resource.totalBytes
                if resource.totalBytes > 0, resource.receiverHadIt { $0.alreadyThere += 1 }
                $0.resent += resource.resentBytes
            }
        } catch {
            if !(error.code == .cancelled && cancelled.withLock({ $0 })) { output.line(error.message) }
        }
        await shown.value
        sending.withLock { $0.resources.removeAll { $0 === resource } }
        steps.yield(.ended)
    }

    /// Sends the empty folders `batch` once `peer` is connected.
    private func sendFolders(_ batch: DropSetFolders, to peer: PeerID) async {
        if await awaitConnected(peer) { try? session.send(batch, to: [peer]) }
    }

    /// Whether `peer` is connected, waiting for it up to the resource resume window while the
    /// link is down (it is being connected again meanwhile).
    func awaitConnected(_ peer: PeerID) async -> Bool {
        if session.connectedPeers.contains(peer) { return true }
        let changes = session.events.stream(.stateChanged)
        defer { changes.cancel() }
        if session.connectedPeers.contains(peer) { return true }
        let window = session.configuration.resourceResumeWindow
        let deadline = Task {
            try? await Task.sleep(for: window)
            changes.cancel()
        }
        defer { deadline.cancel() }
        for await change in changes where change.peer == peer && change.state == .connected { return true }
        return session.connectedPeers.contains(peer)
    }
}

/// The empty folders of a set as the walk comes to them, in batches of
/// ``DropSetFolders/batch``; no more than the offer counted.
struct EmptyFolders {
    let set: UUID
    let limit: Int
    private var paths: [String] = []
    private var sent = 0

    init(set: UUID, limit: Int) {
        self.set = set
        self.limit = limit
    }

    /// Adds `path`; a batch to send when one is full.
    mutating func add(_ path: String) -> DropSetFolders? {
        guard sent + paths.count < limit else { return nil }
        paths.append(path)
        return paths.count >= DropSetFolders.batch ? flush() : nil
    }

    /// The batch of what was added since the last one, if any.
    mutating func flush() -> DropSetFolders? {
        guard !paths.isEmpty else { return nil }
        defer {
            sent += paths.count
            paths = []
        }
        return DropSetFolders(set: set, paths: paths)
    }
}
