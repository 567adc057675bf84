import Foundation
import Testing

/// `stores open ID --for DUR`: `state` is the state at the time asked; the answer to "open for
/// that long?" is `open_for`, and the exit code.
@Suite struct OpenForCommandTests {
  // nw-0881 (London) is open Mo-Su 07:30-20:30.
  @Test func closingInsideTheDurationKeepsTheStateAtTheTime() throws {
    let arguments = ["open", "nw-0881", "--at", "2026-12-24T20:20:00Z", "--for", "15m"]
    let outcome = try StoresProcess.run(arguments + ["--format", "json"])
    #expect(outcome.status == 1)
    let store = try #require(try outcome.json() as? [String: Any])
    #expect(store["state"] as? String == "open")
    #expect(store["status_text"] as? String == "open until 20:30")
    let openFor = try #require(store["open_for"] as? [String: Any])
    #expect(openFor["seconds"] as? Int == 900)
    #expect(openFor["met"] as? Bool == false)
    #expect(openFor["text"] as? String == "closes before 15 min are up")
    let text = try StoresProcess.run(arguments)
    #expect(text.status == 1)
    #expect(
      text.standardOutput.contains(": open until 20:30; closes before 15 min are up"),
      "\(text.standardOutput)")
  }

  @Test func openForTheWholeDurationExitsZero() throws {
    let outcome = try StoresProcess.run([
      "open", "nw-0881", "--at", "2026-12-24T12:00:00Z", "--for", "15m", "--format", "json",
    ])
    #expect(outcome.status == 0)
    let store = try #require(try outcome.json() as? [String: Any])
    #expect(store["state"] as? String == "open")
    #expect((store["open_for"] as? [String: Any])?["met"] as? Bool == true)
    let without = try StoresProcess.run([
      "open", "nw-0881", "--at", "2026-12-24T12:00:00Z", "--format", "json",
    ])
    let plain = try #require(try without.json() as? [String: Any])
    #expect(plain["open_for"] is NSNull)
  }
}
