import Foundation
@testable import GuessnumApp
import Testing

@Suite("Who this program plays as", .timeLimit(.minutes(1)))
struct LocalPlayerTests {
    let environment = ["XDG_CONFIG_HOME": FileManager.default.temporaryDirectory.appendingPathComponent("guessnum-local-\(UUID().uuidString)").path]

    @Test("The name is --name, else USER, else LOGNAME, else the system's login name")
    func names() throws {
        #expect(try LocalPlayer(name: "zoe", role: .guest, environment: environment.merging(["USER": "yann"]) { $1 }, loginName: "xavier").peer.displayName == "zoe")
        #expect(try LocalPlayer(name: nil, role: .guest, environment: environment.merging(["USER": "yann", "LOGNAME": "wim"]) { $1 }, loginName: "xavier").peer.displayName == "yann")
        #expect(try LocalPlayer(name: nil, role: .guest, environment: environment.merging(["LOGNAME": "wim"]) { $1 }, loginName: "xavier").peer.displayName == "wim")
        let system = try LocalPlayer(name: nil, role: .guest, environment: environment, loginName: "xavier")
        #expect(system.peer.displayName == "xavier")
        #expect(system.notice == nil)
    }

    @Test("Without any login name the random name is announced, with how to choose one")
    func randomNameIsAnnounced() throws {
        let player = try LocalPlayer(name: nil, role: .host, environment: environment, loginName: nil)
        let notice = try #require(player.notice)
        #expect(notice.contains("Your login name could not be found, so you play as \(player.peer.displayName); choose a name with --name."))
    }
}
