import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// `PickupRequest.maximumTravel`: a store the customer cannot reach in time is passed over as
/// `too-far`, the chosen store too.
@Suite struct PickupTravelBoundTests {
  typealias Fixtures = PickupPlannerTests

  @Test func aChosenStoreBeyondTheTravelBoundIsPassedOver() throws {
    // 0.2° north is 22 km: 5 h 45 min on foot.
    let catalog = try Fixtures.catalog(
      Fixtures.feature("near", north: 0.001, hours: "24/7"),
      Fixtures.feature("far", north: 0.2, hours: "24/7"))
    let plan = try catalog.planPickup(Fixtures.request(at: "2026-11-18T12:00:00+01:00", chosen: "far"))
    #expect(plan.store?.store.id == "near")
    let passed = try #require(plan.passedOver.first)
    #expect(passed.storeID == "far" && passed.reason == .tooFar)
    #expect(passed.message.contains("on foot, more than the limit of 2 h"), "\(passed.message)")
    #expect(plan.warnings.first?.code == .chosenNotEligible)
    guard case .object(let travel)? = plan.jsonObject["travel"] else {
      Issue.record("no travel object")
      return
    }
    #expect(travel["max_duration_s"] == JSONValue(7200))
  }

  @Test func theBoundIsTheRequests() throws {
    let catalog = try Fixtures.catalog(Fixtures.feature("far", north: 0.2, hours: "24/7"))
    var request = try Fixtures.request(at: "2026-11-18T12:00:00+01:00", chosen: "far")
    request.maximumTravel = 6 * 3600
    #expect(try catalog.planPickup(request).store?.store.id == "far")
    request.maximumTravel = 0
    #expect(throws: PickupError.self) { try catalog.planPickup(request) }
  }

  @Test func storesWithinTheRadiusButTooFarAreNotAssignedNorEarliest() throws {
    // 0.07° is 7.8 km: inside the 10 km radius, 2 h 02 min on foot.
    let catalog = try Fixtures.catalog(Fixtures.feature("edge", north: 0.07, hours: "24/7"))
    let plan = try catalog.planPickup(Fixtures.request(at: "2026-11-18T12:00:00+01:00"))
    #expect(plan.status == .none)
    #expect(plan.passedOver.map(\.reason) == [.tooFar])
    #expect(plan.earliest == nil)
    // The hours were never the problem, so the warning does not blame them.
    let warning = try #require(plan.warnings.last)
    #expect(warning.code == .noStoresNearby)
    #expect(warning.message.hasPrefix("no store within reach"), "\(warning.message)")
  }

  /// The earliest search skips a store whose pickup cannot come before the best opening found,
  /// but goes on past it: with a wall-clock ready time read in each store's zone, a farther store
  /// can be ready first. Here Tokyo's 09:00 comes nine hours before Berlin's.
  @Test func theEarliestSearchGoesOnPastAStoreThatCannotBeatTheBest() throws {
    let hours = "Mo-Su 10:00-18:00"
    let catalog = try Fixtures.catalog(
      Fixtures.feature("berlin", north: 0.005, hours: hours),
      Fixtures.feature("london", north: 0.015, hours: hours, timezone: "Europe/London"),
      Fixtures.feature("tokyo", north: 0.025, hours: hours, timezone: "Asia/Tokyo"))
    let request = try Fixtures.request(
      at: "2026-11-30T23:00:00Z", ready: .at(try TimeQuery(parsing: "2026-12-01T09:00")))
    let plan = try catalog.planPickup(request)
    // Each store is closed at 09:00 its time: nothing can serve the order then.
    #expect(plan.status == .none)
    // Berlin opens at 09:00Z; London's pickup (09:00Z and the walk) cannot beat that, and is
    // skipped; Tokyo, farther still, opens at 01:00Z.
    let earliest = try #require(plan.earliest)
    #expect(earliest.store.store.id == "tokyo")
    #expect(earliest.pickupAt == (try Fixtures.at("2026-12-01T01:00:00Z")))
    #expect(try catalog.referencePlanPickup(request) == plan)
  }
}
