import Foundation

extension ResourceReceiving {
    /// What the job of ``finish(_:received:against:)`` came to.
    private enum Finish: Sendable {
        case placed(URL)
        /// The stream ended after this many bytes, before the file's last.
        case short(UInt64)
        case mismatch
        case failed(MultipeerError)
    }

    /// The stream brought the bytes up to its end: writes those not written yet (`tail`, after
    /// the `received` written), checks the whole file against the SHA-256 the sender stated
    /// (`expected`: the whole file's, or its chunk root when that follows the bytes) and puts it
    /// in place. One job on the file's queue does all three and asks the disk's sync thread for
    /// the placing itself, so that a small file's last write, its check and its placing take no
    /// hop back to Swift's pool between them. A file saved before that the sender found the
    /// same is left as it is.
    func finish(_ tail: Data, received start: UInt64, against expected: [UInt8]) async -> Result<URL, MultipeerError> {
        let size = offer.size
        guard let file else {
            drop()
            return .failure(.resourceFailed(name, "it ended after \(start) of its \(size) bytes"))
        }
        // The link the bytes came on says which digest follows them (a sender restarted as
        // another release may say another than the first link did).
        let (root, confirming) = state.withLock { ($0.arrival.rootFollows, $0.confirmingSaved) }
        let saved = confirming ? saved : nil
        let keeping = keeping
        let reporter = reporter
        // A file of more than one batch starts to go to the disk as it arrives (as write does).
        let writingBack = size > UInt64(Self.batchBytes)
        let received = start + UInt64(tail.count)
        let outcome: Finish = await queue.runReplying { reply in
            if !tail.isEmpty {
                do throws(MultipeerError) {
                    try file.write(tail, at: start, writingBack: writingBack)
                } catch {
                    return reply(.failed(error))
                }
                let completed = self.digests.withLock { $0.add(tail) }
                keeping?.record.append(completed)
                reporter.report(Int64(received))
            }
            guard received == size else { return reply(.short(received)) }
            // Without its whole SHA-256 taken as the bytes came, it is read back from the file.
            let digest = self.digests.withLock { $0.digest(root: root) } ?? ChunkDigests.wholeDigest(size: size) { offset, count in file.read(at: offset, count: count) }
            guard let digest, digest == expected else { return reply(.mismatch) }
            if let saved {
                file.discard()
                return reply(.placed(saved))
            }
            // On the disk, name and bytes, before the sender is told it is saved; its record
            // says so as soon as it is linked.
            file.place(linked: { url in keeping?.saved(as: url, digest: digest, root: root) }) { result in
                switch result {
                case .success(let url): reply(.placed(url))
                case .failure(let error): reply(.failed(error))
                }
            }
        }
        switch outcome {
        case .placed(let url):
            return .success(url)
        case .short(let count):
            drop()
            return .failure(.resourceFailed(name, "it ended after \(count) of its \(size) bytes"))
        case .mismatch:
            drop()
            return .failure(.resourceFailed(name, "its SHA-256 does not match the sender's, so it was changed on the way"))
        case .failed(let error):
            drop()
            return .failure(error)
        }
    }
}
