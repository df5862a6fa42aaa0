import Foundation
import GuessnumTerminal
import Testing

@Suite(.timeLimit(.minutes(1))) struct HistoryStoreTests {
    @Test func usesXDGStateHomeWhenAbsolute() {
        let store = HistoryStore.standard(application: "guessnum", environment: ["XDG_STATE_HOME": "/tmp/state", "HOME": "/home/zoe"])
        #expect(store.fileURL.path == "/tmp/state/guessnum/history")
    }

    @Test(arguments: [[:], ["XDG_STATE_HOME": ""], ["XDG_STATE_HOME": "relative/state"]])
    func fallsBackToLocalStateInHome(extra: [String: String]) {
        let environment = extra.merging(["HOME": "/home/zoe"]) { $1 }
        let store = HistoryStore.standard(application: "guessnum", environment: environment)
        #expect(store.fileURL.path == "/home/zoe/.local/state/guessnum/history")
    }

    @Test func withoutHomeUsesTheAccountsHomeDirectory() {
        let store = HistoryStore.standard(application: "app", environment: [:])
        #expect(store.fileURL.path.hasSuffix("/.local/state/app/history"))
        #expect(store.fileURL.path.hasPrefix("/"))
    }

    @Test func keepsTheGivenFile() {
        let url = URL(fileURLWithPath: "/tmp/some/file")
        #expect(HistoryStore(fileURL: url).fileURL == url)
    }
}
