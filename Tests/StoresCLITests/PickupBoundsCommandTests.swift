import Foundation
import Testing

/// `stores pickup`: the travel bound, dates on times that are not on the order's day, and the
/// alternatives in columns.
@Suite struct PickupBoundsCommandTests {
  let london = "51.5074,-0.1278"

  @Test func aChosenStoreOnAnotherContinentIsPassedOverAsTooFar() throws {
    // nw-0001 is in New York.
    let outcome = try StoresProcess.run([
      "pickup", "--near", london, "--ready-in", "5m", "--store", "nw-0001", "--now", "2026-12-24T15:50:00Z",
      "--format", "json",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let plan = try #require(try outcome.json() as? [String: Any])
    let store = try #require(plan["store"] as? [String: Any])
    #expect(store["id"] as? String != "nw-0001")
    #expect(try #require(store["distance_m"] as? Double) < 2000)
    let passed = try #require((plan["passed_over"] as? [[String: Any]])?.first)
    #expect(passed["store_id"] as? String == "nw-0001")
    #expect(passed["code"] as? String == "too-far")
    #expect((plan["travel"] as? [String: Any])?["max_duration_s"] as? Int == 7200)
  }

  @Test func maxTravelIsAnOption() throws {
    // London 37 is 454 m away: 8 minutes on foot.
    let outcome = try StoresProcess.run([
      "pickup", "--near", london, "--ready-in", "5m", "--now", "2026-12-24T15:50:00Z", "--max-travel", "5m",
      "--within", "1km", "--format", "json",
    ])
    #expect(outcome.status == 3, "\(outcome.standardOutput)")
    let plan = try #require(try outcome.json() as? [String: Any])
    let codes = Set((plan["passed_over"] as? [[String: Any]] ?? []).compactMap { $0["code"] as? String })
    #expect(codes == ["too-far"])
    let zero = try StoresProcess.run(["pickup", "--near", london, "--ready-in", "5m", "--max-travel", "0s"])
    #expect(zero.status == 64)
  }

  @Test func timesOnAnotherDayThanTheOrderCarryTheirDate() throws {
    let outcome = try StoresProcess.run([
      "pickup", "--near", london, "--ready-at", "2026-12-25T10:00", "--store", "nw-0881", "--now",
      "2026-12-24T15:50:00Z",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(
      outcome.standardOutput.contains("at Fri 2026-12-25 10:00 store time"), "\(outcome.standardOutput)")
    // Ready tomorrow, on the pickup's day (its time alone); the customer, leaving now, arrives
    // today, which says its date, so it never reads as the pickup's day (issue 34 §4).
    #expect(
      outcome.standardOutput.contains("ready 10:00, you arrive Thu 2026-12-24 15:58\n"),
      "\(outcome.standardOutput)")
  }

  @Test func alternativesAreInColumns() throws {
    let outcome = try StoresProcess.run([
      "pickup", "--near", london, "--ready-in", "5m", "--now", "2026-12-24T15:50:00Z", "--alternatives", "5",
    ])
    #expect(outcome.status == 0)
    let lines = outcome.standardOutput.components(separatedBy: "\n")
    let start = try #require(lines.firstIndex(of: "Alternatives:"))
    let rows = lines[(start + 1)...].prefix { !$0.isEmpty }
    #expect(rows.count == 5)
    // Names of different lengths ("London 7", "London 39") must not shift the later columns.
    let pickupColumns = Set(rows.compactMap { $0.range(of: " pickup ")?.lowerBound.utf16Offset(in: $0) })
    let distanceEnds = Set(rows.compactMap { $0.range(of: " m ")?.lowerBound.utf16Offset(in: $0) })
    #expect(pickupColumns.count == 1, "\(rows)")
    #expect(distanceEnds.count == 1, "\(rows)")
  }
}
