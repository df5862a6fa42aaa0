@testable import GuessnumApp
import Testing

@Suite("The slash-command table", .timeLimit(.minutes(1)))
struct CommandTableTests {
    @Test("Help for each role lists exactly the commands that role has, in the table's order")
    func helpFromTable() {
        for role in CommandRole.allCases {
            let help = CommandTable.help(for: role).split(separator: "\n").map(String.init)
            let listed = help.compactMap { $0.hasPrefix("/") ? String($0.prefix { $0 != " " }) : nil }
            #expect(listed == CommandTable.completions(for: role), "\(role): \(help)")
        }
        #expect(CommandTable.completions(for: .host) == ["/help", "/players", "/history", "/score", "/visible", "/new", "/kick", "/quit"])
        #expect(CommandTable.completions(for: .player) == ["/help", "/players", "/history", "/score", "/name", "/leave", "/quit"])
        #expect(CommandTable.completions(for: .lobby) == ["/help", "/quit"])
    }
}
