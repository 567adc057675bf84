import Foundation
import Testing

/// `stores pickup` end to end at fixed instants: the exit codes the order flow branches on, the
/// JSON members it stores, and the order write-back.
@Suite struct PickupCommandTests {
  let london = "51.5074,-0.1278"

  @Test func assignsTheNearestOpenStoreAndExitsZero() throws {
    let outcome = try StoresProcess.run([
      "pickup", "--near", london, "--ready-in", "6m", "--now", "2026-12-24T15:50:00Z", "--format", "json",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let plan = try #require(try outcome.json() as? [String: Any])
    #expect(plan["status"] as? String == "assigned")
    for member in [
      "store", "pickup_at", "pickup_at_local", "ready_at", "warnings", "passed_over", "alternatives",
      "earliest",
    ] {
      #expect(plan.keys.contains(member), "missing \(member)")
    }
    let store = try #require(plan["store"] as? [String: Any])
    #expect(store["distance_m"] is Double)
    #expect((plan["pickup_at"] as? String)?.hasSuffix("Z") == true)
    #expect((plan["pickup_at_local"] as? String)?.hasSuffix("+00:00") == true)
  }

  @Test func nothingEligibleExitsThreeWithTheEarliestPickup() throws {
    // 03:00 in London: every store within 1 km is closed.
    let outcome = try StoresProcess.run([
      "pickup", "--near", london, "--ready-in", "5m", "--now", "2026-11-23T03:00:00Z", "--within", "1km",
      "--format", "json",
    ])
    #expect(outcome.status == 3, "\(outcome.standardOutput)")
    let plan = try #require(try outcome.json() as? [String: Any])
    #expect(plan["status"] as? String == "none")
    #expect(plan["store"] is NSNull)
    let earliest = try #require(plan["earliest"] as? [String: Any])
    #expect(earliest["store_id"] is String)
    #expect(!(try #require(plan["passed_over"] as? [[String: Any]])).isEmpty)
    let text = try StoresProcess.run([
      "pickup", "--near", london, "--ready-in", "5m", "--now", "2026-11-23T03:00:00Z", "--within", "1km",
    ])
    #expect(text.status == 3)
    #expect(text.standardOutput.hasPrefix("No store can take this order."))
    #expect(text.standardOutput.contains("Earliest:"))
  }

  @Test func orderDocumentComesBackWithAPickupObject() throws {
    let order = StoresProcess.repositoryRoot.appendingPathComponent("docs/examples/order.json").path
    let outcome = try StoresProcess.run([
      "pickup", "--order", order, "--now", "2026-12-24T15:50:00Z",
    ])
    // An order goes back into the order flow: JSON without asking.
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let placed = try #require(try outcome.json() as? [String: Any])
    #expect(placed["id"] as? String == "order-1042")
    #expect(placed["note"] as? String == "no sugar")
    #expect(placed["pickup_time"] as? String == "asap")
    let pickup = try #require(placed["pickup"] as? [String: Any])
    #expect(pickup["status"] as? String == "assigned")
    // Two flat whites at 4 minutes and a croissant: 4 + 0.25 × (4 + 1) = 5.25, so 6 minutes.
    #expect(pickup["ready_at"] as? String == "2026-12-24T15:56:00Z")
  }

  @Test func badInputsSayWhatIsWrong() throws {
    let missingItems = try StoresProcess.temporaryFile(
      #"{"id": "o", "customer": {"latitude": 51.5, "longitude": -0.12}}"#, suffix: ".json")
    defer { try? FileManager.default.removeItem(atPath: missingItems) }
    let noItems = try StoresProcess.run(["pickup", "--order", missingItems])
    #expect(noItems.status == 65)
    #expect(noItems.standardError.contains("items"))
    let negative = try StoresProcess.temporaryFile(
      #"{"id": "o", "customer": {"latitude": 51.5, "longitude": -0.12}, "items": [{"name": "Tea", "quantity": -2, "prep_minutes": 2}]}"#,
      suffix: ".json")
    defer { try? FileManager.default.removeItem(atPath: negative) }
    let badQuantity = try StoresProcess.run(["pickup", "--order", negative])
    #expect(badQuantity.status == 65)
    #expect(badQuantity.standardError.contains("items[0].quantity"))
    let unknownStore = try StoresProcess.run([
      "pickup", "--near", london, "--ready-in", "5m", "--store", "nope",
    ])
    #expect(unknownStore.status == 66)
    #expect(unknownStore.standardError.contains("nope"))
    #expect(try StoresProcess.run(["pickup", "--near", london]).status == 64)
    #expect(
      try StoresProcess.run(["pickup", "--near", london, "--ready-in", "5m", "--travel", "teleport"]).status
        == 64)
    #expect(try StoresProcess.run(["pickup", "--order", "/nonexistent/order.json"]).status == 66)
  }
}
