import Foundation

/// What the drop box has been offered and is dealing with, as a value: the offers waiting for
/// a question (or, with `--yes`, for a free transfer), the offers accepted that wait for one,
/// and the transfers under way, each bounded per sender, per network (an address, an IPv6 /64)
/// and in all, so that nobody can queue questions ahead of everyone, open files without end or
/// keep questions about offers whose link is gone.
///
/// Questions go round the networks: the next one is the oldest offer of the network asked
/// least recently, so a sender on another network waits for at most one question per network
/// however many offers a flood queued. Every operation costs a look at what waits (at most
/// ``Limits/waitingInAll``).
struct DropQueue<Offer: Sendable>: Sendable {
    /// How much may wait and run at once.
    struct Limits: Sendable {
        /// Offers from one sender that may wait at once (4).
        var waitingPerSender = 4
        /// Offers from one network that may wait at once (8).
        var waitingPerNetwork = 8
        /// Offers that may wait at once in all (64).
        var waitingInAll = 64
        /// Transfers from one sender under way at once (2).
        var transfersPerSender = 2
        /// Transfers under way at once in all (8).
        var transfersInAll = 8
    }

    /// One offer and where it came from.
    struct Entry: Sendable {
        let offer: Offer
        let sender: UUID
        let network: String
    }

    let limits: Limits
    /// Offers not yet asked about (or, with `--yes`, not yet taken), oldest first.
    private(set) var waiting: [Entry] = []
    /// Offers the person accepted that wait for a free transfer, oldest first.
    private(set) var accepted: [Entry] = []
    /// Transfers under way, by sender.
    private var running: [UUID: Int] = [:]
    /// When each network was last asked about, by question number.
    private var askedAt: [String: Int] = [:]
    private var questions = 0

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// How many transfers are under way.
    var transferCount: Int { running.values.reduce(0, +) }

    /// Queues `offer` from `sender` on `network`; the reason it is declined at once instead.
    mutating func add(_ offer: Offer, from sender: UUID, network: String) -> String? {
        let queued = waiting + accepted
        if queued.count(where: { $0.sender == sender }) >= limits.waitingPerSender {
            return "\(limits.waitingPerSender) of your offers wait already; offer more once they are answered"
        }
        if queued.count(where: { $0.network == network }) >= limits.waitingPerNetwork {
            return "\(limits.waitingPerNetwork) offers from your network address wait already; try again later"
        }
        if queued.count >= limits.waitingInAll { return "\(limits.waitingInAll) offers wait already; try again later" }
        waiting.append(Entry(offer: offer, sender: sender, network: network))
        return nil
    }

    /// The next offer to ask about, taken out: the oldest of the network asked least recently.
    mutating func nextQuestion() -> Entry? {
        guard let index = waiting.indices.min(by: { (askedAt[waiting[$0].network] ?? -1, $0) < (askedAt[waiting[$1].network] ?? -1, $1) })
        else { return nil }
        let entry = waiting.remove(at: index)
        askedAt[entry.network] = questions
        questions += 1
        if askedAt.count > limits.waitingInAll * 2 { askedAt = askedAt.filter { network, _ in waiting.contains { $0.network == network } } }
        return entry
    }

    /// `entry`, asked about, was accepted: it waits for a free transfer.
    mutating func accept(_ entry: Entry) {
        accepted.append(entry)
    }

    /// The offers to start now, taken out and counted as running: the accepted ones first, then
    /// (with `takingWaiting`, `--yes`) the waiting ones in question order, as long as transfers
    /// are free for their senders and in all.
    mutating func startable(takingWaiting: Bool) -> [Entry] {
        var started: [Entry] = []
        func fits(_ entry: Entry) -> Bool {
            transferCount < limits.transfersInAll && running[entry.sender, default: 0] < limits.transfersPerSender
        }
        while let index = accepted.firstIndex(where: fits) {
            let entry = accepted.remove(at: index)
            running[entry.sender, default: 0] += 1
            started.append(entry)
        }
        guard takingWaiting else { return started }
        var skipped: [Entry] = []
        while transferCount < limits.transfersInAll, let entry = nextQuestion() {
            if fits(entry) {
                running[entry.sender, default: 0] += 1
                started.append(entry)
            } else {
                skipped.append(entry)
            }
        }
        waiting.insert(contentsOf: skipped, at: 0)
        return started
    }

    /// A transfer from `sender` ended (saved, failed, or never started after all).
    mutating func finished(from sender: UUID) {
        guard let count = running[sender] else { return }
        running[sender] = count > 1 ? count - 1 : nil
    }

    /// `sender`'s link ended: its offers that wait are taken out (to be let go).
    mutating func withdraw(_ sender: UUID) -> [Entry] {
        let gone = (waiting + accepted).filter { $0.sender == sender }
        waiting.removeAll { $0.sender == sender }
        accepted.removeAll { $0.sender == sender }
        return gone
    }

    /// Everything that waits, taken out (the box is closing).
    mutating func takeAll() -> [Entry] {
        defer { waiting = []; accepted = [] }
        return waiting + accepted
    }
}
