import Foundation
import Multipeer
import SafeText

/// Sets in the drop box: a ``DropSetOffer`` is queued and asked about like a file, once for
/// all its files; accepted, it takes the sender's files (their names are paths) under the
/// directory without asking again, within what the offer said, and ends when the sender says
/// so (``DropSetEnd``) and no file of it is under way, with one line for the whole set.
extension DropBox {
    /// The event of a set message from a sender; nil for anything else.
    static func setEvent(_ data: ReceivedData, session: Session) -> Event? {
        if data.carries(DropSetOffer.self), let offer = try? data.decode(DropSetOffer.self) {
            return .setOffered(DropSetRequest(offer: offer, peer: data.peer, session: session))
        }
        if data.carries(DropSetEnd.self), let end = try? data.decode(DropSetEnd.self) {
            return .setEnded(data.peer, end)
        }
        if data.carries(DropSetFolders.self), let folders = try? data.decode(DropSetFolders.self) {
            return .setFolders(data.peer, folders)
        }
        return nil
    }

    /// A set offered: queued to be asked about, answered again when it is the sender's set
    /// under way (its answer was lost with a link), or declined.
    func offerSet(_ request: DropSetRequest, into transfers: inout Transfers) {
        guard request.offer.isValid else { return request.answer(accepted: false, reason: "its counts make no sense") }
        if transfers.endedSets.contains(request.offer.set) { return }
        if let receipt = transfers.sets[request.peer.identity] {
            if receipt.offer.set == request.offer.set { return request.answer(accepted: true, reason: nil) }
            // Its sender left since and offers another set: its program restarted (one that
            // connected again offers the same set). The set before ends, and what arrived of its
            // files under way is kept for this one.
            guard receipt.expiry != nil else {
                return request.answer(accepted: false, reason: "a set of yours is under way already; offer the next once it ends")
            }
            retire(receipt, in: &transfers)
        }
        let waiting = (transfers.queue.waiting + transfers.queue.accepted).contains { entry in
            if case .set(let queued) = entry.offer { return queued.offer.set == request.offer.set && queued.peer.identity == request.peer.identity }
            return false
        }
        if !waiting, transfers.askingAboutSet != request.offer.set { queue(.set(request), into: &transfers) }
    }

    /// How long a file of a set waits for its set when none of its sender's is known: a sender
    /// that connected again to a box that restarted offers its files under way at once, and its
    /// set just after (its messages wait for the link's resume handshake, its files do not).
    static let heldFileGrace: Duration = .seconds(10)

    /// A file of a set whose sender has no set accepted: held while its set waits for an answer,
    /// or for ``heldFileGrace`` when no set of its sender is known yet (at most a link's
    /// streams, 64); declined otherwise.
    func holdSetFile(_ offer: ResourceOffer, into transfers: inout Transfers) {
        let sender = offer.peer.identity
        guard transfers.heldFiles[sender, default: []].count < 64 else {
            return offer.decline(reason: "it belongs to no set of files that was accepted")
        }
        if transfers.heldFiles[sender] == nil, !setWaits(from: sender, in: transfers) {
            let events = inbox.continuation
            let peer = offer.peer
            transfers.heldTimers[sender]?.cancel()
            transfers.heldTimers[sender] = Task {
                guard (try? await Task.sleep(for: Self.heldFileGrace)) != nil else { return }
                events.yield(.heldExpired(peer))
            }
        }
        transfers.heldFiles[sender, default: []].append(offer)
    }

    /// Whether a set of `sender` waits for its question or its start.
    func setWaits(from sender: UUID, in transfers: Transfers) -> Bool {
        transfers.askingAboutSetFrom == sender || (transfers.queue.waiting + transfers.queue.accepted).contains { entry in
            if case .set = entry.offer { return entry.sender == sender }
            return false
        }
    }

    /// The grace of the files held for `peer` passed: unless its set came meanwhile (and waits
    /// for its answer), they are declined.
    func heldExpired(_ peer: PeerID, in transfers: inout Transfers) {
        transfers.heldTimers[peer.identity] = nil
        guard !setWaits(from: peer.identity, in: transfers) else { return }
        for offer in transfers.heldFiles.removeValue(forKey: peer.identity) ?? [] {
            offer.decline(reason: "it belongs to no set of files that was accepted")
        }
    }

    /// Declines the files held for `sender`'s set (it was declined, or the sender left).
    func declineHeld(from sender: UUID, into transfers: inout Transfers) {
        transfers.heldTimers.removeValue(forKey: sender)?.cancel()
        for offer in transfers.heldFiles.removeValue(forKey: sender) ?? [] { offer.decline(reason: "its set was not accepted") }
    }

    /// Ends `receipt`'s set because its sender came back with another: its files under way stop
    /// waiting, keeping what arrived (the new set's offers of them go on from it).
    func retire(_ receipt: DropSetReceipt, in transfers: inout Transfers) {
        end(receipt, in: &transfers)
        for resource in receipt.running { resource.letGo() }
        if !receipt.running.isEmpty { transfers.retired[receipt.peer.identity] = receipt }
        output.line("\(TerminalText.sanitized(receipt.peer.displayName)) came back with another set: the one before ends with \(receipt.saved) of its "
            + "\(DropSetOffer.files(receipt.offer.files)) saved here; what arrived of the files under way is kept for the new one.")
    }

    /// A file of a retired set ended (it stopped waiting): nothing more to say.
    func retiredFileFinished(_ completion: ResourceCompletion, in transfers: inout Transfers) {
        let sender = completion.peer.identity
        transfers.retired[sender]?.finished(completion.name, saved: false)
        if transfers.retired[sender]?.running.isEmpty == true { transfers.retired[sender] = nil }
    }

    /// Starts the accepted set of `request`: its files may come.
    func startSet(_ request: DropSetRequest, into transfers: inout Transfers) {
        transfers.sets[request.peer.identity] = DropSetReceipt(offer: request.offer, peer: request.peer)
        request.answer(accepted: true, reason: nil)
        let verification = session.verificationCode(with: request.peer).map { " (verification code \($0))" } ?? ""
        output.line("Receiving \(request.offer.summary) from \(TerminalText.sanitized(request.peer.displayName))\(verification) into \(directory.path).")
    }

    /// A file of the sender's set: taken under its path; held while the set has its most files
    /// at once under way (``DropSetReceipt/hasRoom``: a sender of this release keeps more in
    /// flight, so that the next file is here when one ends; at most
    /// ``DropSetReceipt/filesWaiting``); or declined when it goes past the offer.
    func takeSetFile(_ offer: ResourceOffer, into transfers: inout Transfers) async {
        let sender = offer.peer.identity
        guard var receipt = transfers.sets[sender] else { return }
        if !receipt.hasRoom, transfers.waitingSetFiles[sender, default: []].count < DropSetReceipt.filesWaiting {
            transfers.waitingSetFiles[sender, default: []].append(offer)
            return
        }
        if let refusal = receipt.admit(size: offer.size) {
            offer.decline(reason: refusal)
            output.line("\(TerminalText.quotedName(offer.name)) was declined: \(refusal).")
            transfers.sets[sender] = receipt
            return
        }
        do {
            let resource = try await offer.accept(into: directory, keepingIn: store)
            if let note = resource.keptNote { output.line(note) }
            receipt.started(resource)
            let progress = receipt.progress
            let output = output
            let events = inbox.continuation
            let (peer, name) = (offer.peer, resource.name)
            Task { await progress.follow(resource.progressUpdates, on: output) { events.yield(.setFileArrived(peer, name: name)) } }
        } catch {
            output.line(error.message)
        }
        transfers.sets[sender] = receipt
    }

    /// The bytes of a file of the sender's set all arrived: it no longer counts among those
    /// receiving, so the next one held, if any, starts.
    func setFileArrived(_ name: String, from peer: PeerID, in transfers: inout Transfers) async {
        let sender = peer.identity
        guard transfers.sets[sender] != nil else { return }
        transfers.sets[sender]?.arrived(name)
        if transfers.sets[sender]?.hasRoom == true, transfers.waitingSetFiles[sender]?.isEmpty == false,
            let next = transfers.waitingSetFiles[sender]?.removeFirst()
        {
            await takeSetFile(next, into: &transfers)
        }
    }

    /// A file of a set ended: the next one held, if any, starts; the exit code when that ends
    /// the box (`--once`, the set complete).
    func setFileFinished(_ completion: ResourceCompletion, in transfers: inout Transfers) async -> Int32? {
        let sender = completion.peer.identity
        guard var receipt = transfers.sets[sender] else { return nil }
        switch completion.result {
        case .success: receipt.finished(completion.name, saved: true)
        case .failure(let error):
            receipt.finished(completion.name, saved: false)
            output.line(error.message)
        }
        transfers.sets[sender] = receipt
        if transfers.waitingSetFiles[sender]?.isEmpty == false, let next = transfers.waitingSetFiles[sender]?.removeFirst() {
            await takeSetFile(next, into: &transfers)
        }
        return closeIfComplete(sender, in: &transfers)
    }

    /// Makes the empty folders of the sender's set under the directory, as a file's folders are
    /// made (nothing followed, nothing outside it), no more than the offer counted.
    func makeFolders(_ folders: DropSetFolders, from peer: PeerID, in transfers: inout Transfers) {
        guard var receipt = transfers.sets[peer.identity], receipt.offer.set == folders.set else { return }
        for path in folders.paths {
            guard receipt.foldersMade < receipt.offer.emptyFolders ?? 0 else { break }
            receipt.foldersMade += 1
            do throws(MultipeerError) {
                try ResourcePath.makeFolder(path, in: directory, on: session.resourceFiles)
            } catch {
                output.line(error.message)
            }
        }
        transfers.sets[peer.identity] = receipt
    }

    /// The sender said its set ended.
    func setEnded(_ end: DropSetEnd, from peer: PeerID, in transfers: inout Transfers) -> Int32? {
        guard transfers.sets[peer.identity]?.offer.set == end.set else { return nil }
        transfers.sets[peer.identity]?.ended = end
        return closeIfComplete(peer.identity, in: &transfers)
    }

    /// A set's sender left: when it is not back within the resume window, the set ends there.
    func setSenderLeft(_ peer: PeerID, in transfers: inout Transfers) {
        guard let receipt = transfers.sets[peer.identity] else { return }
        receipt.expiry?.cancel()
        let window = session.configuration.resourceResumeWindow
        let events = inbox.continuation
        let set = receipt.offer.set
        transfers.sets[peer.identity]?.expiry = Task {
            guard (try? await Task.sleep(for: window)) != nil else { return }
            events.yield(.setExpired(peer, set: set))
        }
    }

    /// The resume window passed since the set's sender left: unless it is back, the set ends
    /// with what was saved (the files under way end by themselves).
    func setExpired(_ set: UUID, from peer: PeerID, in transfers: inout Transfers) -> Int32? {
        guard let receipt = transfers.sets[peer.identity], receipt.offer.set == set, session.state(of: peer) != .connected else { return nil }
        end(receipt, in: &transfers)
        output.line("\(TerminalText.sanitized(peer.displayName)) left before the whole set came: \(receipt.saved) of the \(DropSetOffer.files(receipt.offer.files)) "
            + "(\(TransferMeter.bytes(receipt.savedBytes))) were saved in \(directory.path).")
        return once ? AppFailure.Code.runtime.exitCode : nil
    }

    /// Lets go of the set of `receipt`: its sender may offer another, and this one is not asked about again.
    func end(_ receipt: DropSetReceipt, in transfers: inout Transfers) {
        receipt.expiry?.cancel()
        for offer in transfers.waitingSetFiles.removeValue(forKey: receipt.peer.identity) ?? [] { offer.decline(reason: "its set ended") }
        transfers.sets[receipt.peer.identity] = nil
        transfers.queue.finished(from: receipt.peer.identity)
        transfers.endedSets.append(receipt.offer.set)
        if transfers.endedSets.count > 64 { transfers.endedSets.removeFirst() }
    }

    /// Ends the set of `sender` when it is complete, with one line; the exit code with `--once`.
    private func closeIfComplete(_ sender: UUID, in transfers: inout Transfers) -> Int32? {
        guard let receipt = transfers.sets[sender], receipt.isComplete else { return nil }
        end(receipt, in: &transfers)
        let name = TerminalText.sanitized(receipt.peer.displayName)
        let size = TransferMeter.bytes(receipt.savedBytes)
        if receipt.missing == 0 {
            output.line("Saved \(receipt.offer.files == 1 ? "the file" : "all \(receipt.offer.files) files") (\(size)) from \(name) in \(directory.path), each one's SHA-256 checked.")
            return once ? 0 : nil
        }
        output.line("Saved \(receipt.saved) of the \(DropSetOffer.files(receipt.offer.files)) (\(size)) from \(name) in \(directory.path), each one's SHA-256 checked; "
            + "\(receipt.missing == 1 ? "1 was" : "\(receipt.missing) were") not saved (said above, or never sent).")
        return once ? AppFailure.Code.runtime.exitCode : nil
    }
}
