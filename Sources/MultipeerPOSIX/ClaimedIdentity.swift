import Foundation
import Multipeer
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A stored identity key that this process holds: while it lives, no other program that
/// claims from the same place gets the same identity.
///
/// Two programs run by one account (two terminals, or one home directory shared by NFS in a
/// classroom) must be two peers, or the second would replace the first in every session they
/// share. ``PeerIdentityStore/claim(application:fileName:environment:maximumSlots:)`` gives
/// each running program its own slot: the first program gets the identity in `peer-identity`,
/// a second one at the same time the one in `peer-identity-2`, and so on. A program started
/// after another has quit takes the lowest free slot, so a person who rejoins is usually
/// recognised. Each slot is held with an advisory lock (`flock`) on a `.lock` file beside it,
/// which the system releases when the process ends, however it ends.
public final class ClaimedIdentity: Sendable {
    /// The key held.
    public let key: PeerKey
    /// The identity an earlier release kept in the slot, replaced by `key` on this claim.
    public let replacedIdentity: UUID?
    /// The identity held: the key's.
    public var identity: UUID { key.fingerprint.identity }
    /// The file it is stored in.
    public let store: PeerIdentityStore
    /// Which slot it is (1 for the first).
    public let slot: Int
    private let lockDescriptor: Int32

    init(stored: StoredKey, store: PeerIdentityStore, slot: Int, lockDescriptor: Int32) {
        key = stored.key
        replacedIdentity = stored.replacedIdentity
        self.store = store
        self.slot = slot
        self.lockDescriptor = lockDescriptor
    }

    deinit {
        _ = close(lockDescriptor)
    }
}

extension PeerIdentityStore {
    /// Claims the first identity slot of `application` that no running program holds, and
    /// loads (or creates) its key.
    ///
    /// - Parameter maximumSlots: how many programs of one account may hold their own identity
    ///   at once.
    /// - Throws: ``MultipeerError/Code/identityStorage`` when the directory or a file cannot
    ///   be used, or every slot is taken.
    public static func claim(
        application: String,
        fileName: String = "peer-identity",
        environment: [String: String] = ProcessInfo.processInfo.environment,
        maximumSlots: Int = 64
    ) throws(MultipeerError) -> ClaimedIdentity {
        for slot in 1...max(1, maximumSlots) {
            let name = slot == 1 ? fileName : "\(fileName)-\(slot)"
            let store = PeerIdentityStore.standard(application: application, fileName: name, environment: environment)
            guard let descriptor = try store.lockIfFree() else { continue }
            do {
                return ClaimedIdentity(stored: try store.loadOrCreate(), store: store, slot: slot, lockDescriptor: descriptor)
            } catch {
                _ = close(descriptor)
                throw error
            }
        }
        throw MultipeerError(
            .identityStorage,
            "All \(maximumSlots) peer identities in \(Self.standard(application: application, fileName: fileName, environment: environment).fileURL.deletingLastPathComponent().path) are in use by running programs.")
    }

    /// The lock file beside the identity file, locked by this process; nil when another
    /// process holds it.
    private func lockIfFree() throws(MultipeerError) -> Int32? {
        let directory = fileURL.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw MultipeerError(.identityStorage, "Could not create \(directory.path) for the peer identity (\(error.localizedDescription)); check that it is writable.", underlying: error)
        }
        let lockPath = fileURL.path + ".lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw MultipeerError(.identityStorage, "Could not open \(lockPath) (\(String(cString: strerror(errno)))); check its permissions.")
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) == 0 { return descriptor }
        let failure = errno
        _ = close(descriptor)
        if failure == EWOULDBLOCK { return nil }
        throw MultipeerError(.identityStorage, "Could not lock \(lockPath) (\(String(cString: strerror(failure)))).")
    }
}
