import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// Capacity: orders per slot from the data and the state, slots at local wall times, a full slot
/// moving the pickup later or to another store, and holds that stop counting at their expiry.
@Suite struct PickupCapacityTests {
  /// Three stores in Berlin, 110 m, 330 m and 550 m north of the customer, open 07:00–22:00.
  /// `a` takes 2 orders per 15 minutes (the data's), `b` 1 per 30 minutes before 09:00 on
  /// weekdays and 3 after, with 1 drive-through order per slot; `c` has no capacity.
  static let text = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[13.40,52.521]},"properties":{"opening_hours":"Mo-Su 07:00-22:00","timezone":"Europe/Berlin","pickup:capacity":"2"}},
    {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[13.40,52.523]},"properties":{"opening_hours":"Mo-Su 07:00-22:00","timezone":"Europe/Berlin","pickup:capacity":"Mo-Fr 07:00-09:00 1; 3","pickup:slot_minutes":"30","drive_through":"yes","pickup:capacity:drive_through":"1"}},
    {"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[13.40,52.525]},"properties":{"opening_hours":"Mo-Su 07:00-22:00","timezone":"Europe/Berlin"}}
    ]}
    """
  static let catalog = try! Catalog(geoJSON: Array(text.utf8), source: "capacity.geojson")
  static let customer = try! Coordinate(latitude: 52.52, longitude: 13.40)

  static func instant(_ text: String) -> Instant {
    guard case .instant(let instant) = try! TimeQuery(parsing: text) else { fatalError(text) }
    return instant
  }

  /// An order placed at `text` (Berlin time, Wednesday 2 December 2026), ready 10 minutes later.
  static func request(_ text: String, store: String? = nil, maximumDelay: Int64? = nil) -> PickupRequest {
    var request = PickupRequest(
      customer: customer, orderedAt: instant(text), ready: .after(seconds: 600), chosenStoreID: store)
    if let maximumDelay { request.maximumDelay = maximumDelay }
    return request
  }

  /// `count` confirmed orders in `id`'s slot starting at `start`.
  static func booked(_ id: String, _ start: String, _ count: Int, service: String? = nil) -> SlotBookings {
    SlotBookings(slots: [
      SlotKey(storeID: id, service: service, start: instant(start)): SlotCount(confirmed: count)
    ])
  }

  @Test func slotLimitsReadANumberOrRulesAndSayWhatIsWrong() throws {
    #expect(try SlotLimits(parsing: "20").constant == 20)
    let rules = try SlotLimits(parsing: "Mo-Fr 07:00-09:00 20;  10 ;")
    #expect(
      rules.rules == [.init(selection: "Mo-Fr 07:00-09:00", orders: 20), .init(selection: nil, orders: 10)])
    #expect(rules.description == "Mo-Fr 07:00-09:00 20; 10")
    func message(_ text: String) -> String {
      do {
        _ = try SlotLimits(parsing: text)
        return ""
      } catch { return error.message }
    }
    #expect(message("Mo-Fr 07:00-09:00 x; 10").hasPrefix("rule 1 (\"Mo-Fr 07:00-09:00 x\") ends in \"x\""))
    #expect(message("").hasPrefix("is empty"))
    #expect(message("20001").contains("at most 10000"))
    #expect(message("Mo-Fx 07:00 3").contains("does not read as opening hours"))
    #expect(message("-3").contains("not a number of orders"))
  }

  @Test func capacityValuesThatDoNotReadAreReportedAndLimitNothing() throws {
    let text = """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","id":"x","geometry":{"type":"Point","coordinates":[13.40,52.521]},"properties":{"opening_hours":"24/7","timezone":"Europe/Berlin","pickup:capacity":"Mo-Fr 07:00-09:00 x; 10","pickup:slot_minutes:drive_through":"7"}}
      ]}
      """
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "bad.geojson")
    let messages = catalog.diagnostics.filter { $0.code.rawValue == "capacity-invalid" }.map(\.message)
    #expect(messages.count == 2, "\(messages)")
    #expect(messages.contains { $0.hasPrefix("pickup:capacity \"Mo-Fr 07:00-09:00 x; 10\" rule 1") })
    #expect(messages.contains { $0.hasPrefix("pickup:slot_minutes:drive_through must divide a day") })
    let plan = try catalog.planPickup(Self.request("2026-12-02T12:00:00+01:00"))
    #expect(plan.assignment?.store.id == "x")
    #expect(plan.assignment?.slot == nil)
  }

  @Test func withoutCapacityAPlanHasNoSlot() throws {
    let plan = try Self.catalog.planPickup(Self.request("2026-12-02T12:00:00+01:00", store: "c"))
    #expect(plan.assignment?.store.id == "c")
    #expect(plan.assignment?.slot == nil)
    #expect(plan.jsonObject["slot"] == .null)
    #expect(plan.jsonObject["reservation"] == .null)
    // Asked to reserve, a store without capacity names its 15-minute slot with no limit.
    var request = Self.request("2026-12-02T12:00:00+01:00", store: "c")
    request.reserve = true
    let slot = try #require(try Self.catalog.planPickup(request).assignment?.slot)
    #expect(slot.start == Self.instant("2026-12-02T12:00:00+01:00"))
    #expect(slot.end == Self.instant("2026-12-02T12:15:00+01:00"))
    #expect(slot.limit == nil)
  }

  @Test func theSlotIsTheOneThePickupFallsInWithItsLimitAndCount() throws {
    // Ordered 12:03, ready 12:13: the 12:00–12:15 slot of a, which holds 1 of 2.
    let catalog = Self.catalog.counting(Self.booked("a", "2026-12-02T12:00:00+01:00", 1))
    let plan = try catalog.planPickup(Self.request("2026-12-02T12:03:00+01:00"))
    let slot = try #require(plan.assignment?.slot)
    #expect(plan.assignment?.store.id == "a")
    #expect(slot.key == SlotKey(storeID: "a", service: nil, start: Self.instant("2026-12-02T12:00:00+01:00")))
    #expect(slot.limit == 2)
    #expect(slot.taken == 1)
    guard case .object(let json) = plan.jsonObject["slot"] else {
      Issue.record("no slot object")
      return
    }
    #expect(json["orders_per_slot"] == JSONValue(2))
    #expect(json["taken"] == JSONValue(1))
    // The bytes written for the service are the tree's.
    var bytes = JSONBytes(capacity: 4096)
    plan.writeJSON(to: &bytes)
    #expect(bytes.text == JSONValue.object(plan.jsonObject).jsonText)
  }

  @Test func aFullSlotMovesThePickupToTheNextSlotWithinTheDelay() throws {
    // a's 12:00 slot is full; its 12:15 slot is 2 minutes after b's pickup (12:13): kept, later.
    let catalog = Self.catalog.counting(Self.booked("a", "2026-12-02T12:00:00+01:00", 2))
    let plan = try catalog.planPickup(Self.request("2026-12-02T12:03:00+01:00"))
    #expect(plan.assignment?.store.id == "a")
    #expect(plan.assignment?.pickupAt == Self.instant("2026-12-02T12:15:00+01:00"))
    #expect(plan.assignment?.slot?.start == Self.instant("2026-12-02T12:15:00+01:00"))
    #expect(plan.assignment?.movedFrom?.taken == 2)
    let notice = try #require(plan.warnings.first { $0.code == .slotFull })
    #expect(
      notice.message == "the 12:00–12:15 slot (2 of 2 orders) is full; pickup moved to the slot at 12:15")
  }

  @Test func aFullSlotGoesToTheNextStoreWhenTheLaterSlotIsTooLate() throws {
    // With no delay allowed, b (ready at 12:13, its slot with room) takes it, and a says why.
    let catalog = Self.catalog.counting(Self.booked("a", "2026-12-02T12:00:00+01:00", 2))
    let plan = try catalog.planPickup(Self.request("2026-12-02T12:03:00+01:00", maximumDelay: 0))
    #expect(plan.assignment?.store.id == "b")
    let passed = try #require(plan.passedOver.first { $0.storeID == "a" })
    #expect(passed.reason == .slotFull)
    #expect(
      passed.message
        == "the 12:00–12:15 slot (2 of 2 orders) is full; its next free slot, at 12:15, is more than 0 seconds "
        + "after b's pickup at 12:13")
    // The chosen store, full, is named in the warning.
    let chosen = try catalog.planPickup(
      Self.request("2026-12-02T12:03:00+01:00", store: "a", maximumDelay: 0))
    #expect(chosen.assignment?.store.id == "b")
    #expect(chosen.warnings.contains { $0.code == .chosenNotEligible && $0.message.contains("slot") })
  }

  /// With every store closed, the earliest time counts slots too: a store whose opening slot is
  /// full offers its next free one, so another store's free opening slot comes first.
  @Test func theEarliestTimeSkipsFullSlots() throws {
    let order = Self.request("2026-12-02T23:00:00+01:00")
    let opening = Self.instant("2026-12-03T07:00:00+01:00")
    // a's 07:00 slot full: b (1 order before 09:00, in 30-minute slots) opens with room.
    let aFull = Self.catalog.counting(Self.booked("a", "2026-12-03T07:00:00+01:00", 2))
    let first = try aFull.planPickup(order)
    #expect(first.assignment == nil)
    #expect(first.earliest?.store.id == "b")
    #expect(first.earliest?.pickupAt == opening)
    #expect(first.earliest?.slot?.start == opening)
    // a's and b's opening slots full: c, with no capacity, at 07:00; a's next slot is 07:15.
    var bookings = Self.booked("a", "2026-12-03T07:00:00+01:00", 2)
    bookings.slots[SlotKey(storeID: "b", service: nil, start: opening)] = SlotCount(confirmed: 1)
    let second = try Self.catalog.counting(bookings).planPickup(order)
    #expect(second.earliest?.store.id == "c")
    #expect(second.earliest?.pickupAt == opening)
    #expect(second.earliest?.slot == nil)
    // Free, a (nearest) opens first, in its 07:00 slot.
    let free = try Self.catalog.planPickup(order)
    #expect(free.earliest?.store.id == "a")
    #expect(free.earliest?.slot?.start == opening)
  }

  @Test func limitsByTimeOfDayFollowTheStoresWeek() throws {
    // b before 09:00 on a weekday: 1 per 30 minutes; at 10:00: 3; on Saturday at 08:00: 3.
    func limit(_ time: String) throws -> Int? {
      let plan = try Self.catalog.planPickup(Self.request(time, store: "b"))
      return plan.assignment?.slot?.limit
    }
    #expect(try limit("2026-12-02T08:03:00+01:00") == 1)
    #expect(try limit("2026-12-02T10:03:00+01:00") == 3)
    #expect(try limit("2026-12-05T08:03:00+01:00") == 3)
    let slot = try #require(
      try Self.catalog.planPickup(Self.request("2026-12-02T08:03:00+01:00", store: "b")).assignment?.slot)
    #expect(slot.start == Self.instant("2026-12-02T08:00:00+01:00"))
    #expect(slot.end == Self.instant("2026-12-02T08:30:00+01:00"))
  }

  @Test func aServicesOwnCapacityCountsInItsOwnSlots() throws {
    var request = Self.request("2026-12-02T12:03:00+01:00", store: "b")
    request.service = "drive_through"
    let slot = try #require(try Self.catalog.planPickup(request).assignment?.slot)
    #expect(slot.key.service == "drive_through")
    #expect(slot.limit == 1)
    #expect(slot.end == Self.instant("2026-12-02T12:15:00+01:00"))
    // A service without a capacity of its own shares the store's slots.
    request.service = "takeaway"
    request.chosenStoreID = "a"
    request.allowsUnknownHours = true
    let shared = try #require(try Self.catalog.planPickup(request).assignment?.slot)
    #expect(shared.key.service == nil)
    #expect(shared.limit == 2)
  }

  @Test func theStatesCapacityWinsOverTheData() throws {
    let change = try StoreStateChange(
      json: try JSONValue(parsing: #"{"capacity":{"orders_per_slot":5,"slot_minutes":20}}"#), zone: nil,
      now: Self.instant("2026-12-01T12:00:00Z"))
    let catalog = Self.catalog.applying(
      StoreStates(version: 3, stores: ["a": change.applied(to: .unchanged)]))
    let slot = try #require(
      try catalog.planPickup(Self.request("2026-12-02T12:03:00+01:00", store: "a")).assignment?.slot)
    #expect(slot.limit == 5)
    #expect(slot.end == Self.instant("2026-12-02T12:20:00+01:00"))
    // Removing it gives the data's back.
    let removal = try StoreStateChange(
      json: try JSONValue(parsing: #"{"capacity":{"orders_per_slot":null}}"#), zone: nil,
      now: Self.instant("2026-12-01T12:00:00Z"))
    #expect(removal.applied(to: change.applied(to: .unchanged)).capacities.isEmpty)
  }

  @Test func capacityChangesSayWhichMemberIsWrong() {
    func problem(_ json: String) -> String? {
      do {
        _ = try StoreStateChange(
          json: try JSONValue(parsing: json), zone: nil, now: Self.instant("2026-12-01T12:00:00Z"))
        return nil
      } catch let error as RequestError {
        return "\(error.parameter ?? ""): \(error.message)"
      } catch { return "\(error)" }
    }
    #expect(problem(#"{"capacity":{"orders_per_slot":-1}}"#)?.hasPrefix("capacity.orders_per_slot:") == true)
    // Whole numbers as JSON may write them, and a null slot length with a removal, are fine.
    #expect(problem(#"{"capacity":{"orders_per_slot":20.0,"slot_minutes":1.5e1}}"#) == nil)
    #expect(problem(#"{"capacity":{"orders_per_slot":null,"slot_minutes":null}}"#) == nil)
    #expect(problem(#"{"capacity":{"orders_per_slot":20.5}}"#) != nil)
    #expect(
      problem(#"{"capacity":{"orders_per_slot":20,"slot_minutes":7}}"#)?.contains("divide a day") == true)
    #expect(
      problem(#"{"capacity":{"orders_per_slot":"Mo-Fr x"}}"#)?.hasPrefix("capacity.orders_per_slot:") == true)
    #expect(problem(#"{"capacity":{"slot_minutes":15}}"#)?.contains("is missing") == true)
    #expect(
      problem(#"{"capacity":{"orders_per_slot":3,"service":"Drive"}}"#)?.hasPrefix("capacity.service:")
        == true)
    #expect(
      problem(#"{"capacity":[{"orders_per_slot":3},{"orders_per_slot":4}]}"#)?.contains("given twice") == true
    )
    #expect(problem(#"{"capacity":{"orders_per_slot":3,"per":1}}"#)?.hasPrefix("capacity.per:") == true)
  }

  @Test func aHoldStopsCountingAtItsExpiry() throws {
    let start = Self.instant("2026-12-02T12:00:00+01:00")
    let expiry = Self.instant("2026-12-02T12:05:00+01:00")
    let key = SlotKey(storeID: "a", service: nil, start: start)
    let bookings = SlotBookings(slots: [key: SlotCount(confirmed: 1, holdExpiries: [expiry])])
    #expect(bookings.taken(key, at: expiry + -1) == 2)
    #expect(bookings.taken(key, at: expiry) == 1)
    // The planner reads the clock it is given: full one second before the expiry, not at it.
    let catalog = Self.catalog.counting(bookings)
    var before = Self.request("2026-12-02T12:04:59+01:00", store: "a")
    before.ready = .after(seconds: 1)
    #expect(try catalog.planPickup(before).assignment?.movedFrom != nil)
    var at = Self.request("2026-12-02T12:05:00+01:00", store: "a")
    at.ready = .after(seconds: 1)
    let plan = try catalog.planPickup(at)
    #expect(plan.assignment?.movedFrom == nil)
    #expect(plan.assignment?.slot?.taken == 1)
  }

  /// Against brute force: whatever the bookings, an assigned slot has room and contains the
  /// pickup, and every store passed over as slot-full had its slot at the pickup full.
  @Test(arguments: 0..<6) func plansNeverOverbook(seed: UInt64) throws {
    var generator = SplitMix64(seed: seed)
    let starts = (0..<16).map { Self.instant("2026-12-02T11:00:00+01:00") + Int64($0) * 900 }
    for _ in 0..<40 {
      var bookings = SlotBookings()
      for id in ["a", "b"] {
        for start in starts where generator.next() % 3 != 0 {
          bookings.slots[SlotKey(storeID: id, service: nil, start: start)] = SlotCount(
            confirmed: Int(generator.next() % 4))
        }
      }
      let minute = Int(generator.next() % 180)
      let ordered = Self.instant("2026-12-02T11:00:00+01:00") + Int64(minute * 60)
      var request = PickupRequest(customer: Self.customer, orderedAt: ordered, ready: .after(seconds: 600))
      request.maximumDelay = Int64(generator.next() % 3) * 600
      let plan = try Self.catalog.counting(bookings).planPickup(request)
      for option in [plan.assignment].compactMap({ $0 }) + plan.alternatives {
        guard let slot = option.slot else { continue }
        #expect(slot.hasRoom)
        #expect(slot.start <= option.pickupAt && option.pickupAt < slot.end)
        #expect(bookings.taken(slot.key, at: ordered) == slot.taken)
      }
      for passed in plan.passedOver where passed.reason == .slotFull {
        #expect(["a", "b"].contains(passed.storeID))
      }
    }
  }
}
