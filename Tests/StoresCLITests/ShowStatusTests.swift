import Foundation
import StoreLocator
import Testing

/// `stores show` says whether the store is open, like every other command that writes stores, and
/// lists its week as `stores hours` does (issue 9, item 11).
@Suite struct ShowStatusTests {
  @Test func jsonHasTheOpenStateAtNow() throws {
    let outcome = try StoresProcess.run([
      "show", "nw-1486", "--format", "json", "--now", "2026-11-24T02:00:00Z",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let store = try #require(try outcome.json() as? [String: Any])
    // 10:00 in Taipei on a Tuesday: Tu-Su 09:00-17:00.
    #expect(store["state"] as? String == "open")
    #expect(store["status_text"] as? String == "open until 17:00")
    #expect(store["next_change"] as? String == "2026-11-24T17:00:00+08:00")
    #expect(store.keys.contains("comment"))
  }

  @Test func atIsTheStoresWallTime() throws {
    let outcome = try StoresProcess.run(["show", "nw-1486", "--format", "json", "--at", "2026-11-23T10:00"])
    let store = try #require(try outcome.json() as? [String: Any])
    // Monday is off.
    #expect(store["state"] as? String == "closed")
    #expect(store["status_text"] as? String == "closed, opens Tue 09:00")
  }

  @Test func textHasAStatusLineAndTheWeekThatHoursLists() throws {
    let at = "2026-11-22T07:45"
    let show = try StoresProcess.run(["show", "nw-1486", "--at", at])
    #expect(show.status == 0, "\(show.standardError)")
    #expect(show.standardOutput.contains("Status     Sun 2026-11-22 07:45 (+08:00): closed, opens 09:00\n"))
    let hours = try StoresProcess.run(["hours", "nw-1486", "--at", at, "--days", "7"])
    // The store's own week: the seven lines after the status; the services' weeks come after.
    let afterStatus = try #require(hours.standardOutput.range(of: "\n\n"))
    let week = hours.standardOutput[afterStatus.upperBound...].split(separator: "\n").prefix(7)
    #expect(week.count == 7)
    let listed = try #require(show.standardOutput.range(of: "\nWeek\n"))
    let shownWeek = show.standardOutput[listed.upperBound...].split(separator: "\n").prefix(7)
    #expect(shownWeek.map { $0.trimmingCharacters(in: .whitespaces) } == week.map(String.init))
  }

  @Test func aStoreWithoutHoursSaysSoAndListsNoWeek() throws {
    let path = try StoresProcess.temporaryFile(
      #"{"type":"Feature","id":"n1","properties":{"name":"No hours"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = try StoresProcess.run(["show", "n1", "--data", path])
    #expect(text.status == 0, "\(text.standardError)")
    #expect(text.standardOutput.contains("Status     hours unknown"))
    #expect(!text.standardOutput.contains("Week"))
    let json = try StoresProcess.run(["show", "n1", "--data", path, "--format", "json"])
    let store = try #require(try json.json() as? [String: Any])
    #expect(store["state"] as? String == "unknown")
  }

  @Test func nowMustBeAnInstant() throws {
    let outcome = try StoresProcess.run(["show", "nw-1486", "--now", "2026-11-22T07:45"])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("--now needs an offset"))
  }
}
