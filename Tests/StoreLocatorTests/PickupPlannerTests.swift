import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// Pickup assignment (docs/pickup.md) on small inline catalogs in Europe/Berlin, at fixed instants.
@Suite struct PickupPlannerTests {
  // MARK: - Fixtures

  /// The customer, in central Berlin.
  static let customer = try! Coordinate(latitude: 52.52, longitude: 13.40)

  /// A store `north` degrees of latitude north of the customer (0.001° ≈ 111 m).
  static func feature(
    _ id: String, north: Double?, hours: String?, extra: String = "", timezone: String? = "Europe/Berlin"
  ) -> String {
    let geometry =
      north.map { "{\"type\":\"Point\",\"coordinates\":[13.40,\(52.52 + $0)]}" } ?? "null"
    var properties = ["\"name\":\"Store \(id)\"", "\"addr:country\":\"DE\"", "\"addr:state\":\"BE\""]
    if let hours { properties.append("\"opening_hours\":\"\(hours)\"") }
    if let timezone { properties.append("\"timezone\":\"\(timezone)\"") }
    if !extra.isEmpty { properties.append(extra) }
    return "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":\(geometry),\"properties\":{"
      + properties.joined(separator: ",") + "}}"
  }

  /// A catalog of `features`, loaded with default options (hours evaluated with bundled holidays).
  static func catalog(_ features: String...) throws -> Catalog {
    let text = "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    return try Catalog(geoJSON: Array(text.utf8), source: "pickup.geojson")
  }

  /// An instant from ISO 8601 with an offset.
  static func at(_ text: String) throws -> Instant {
    guard case .instant(let instant) = try TimeQuery(parsing: text) else {
      Issue.record("\(text) has no offset")
      return Instant(secondsSinceEpoch: 0)
    }
    return instant
  }

  static func request(
    at time: String, ready: ReadyTime = .after(seconds: 600), chosen: String? = nil,
    travel: TravelMode = .walk, customer: Coordinate = customer
  ) throws -> PickupRequest {
    PickupRequest(
      customer: customer, orderedAt: try at(time), ready: ready, chosenStoreID: chosen, travel: travel)
  }

  // MARK: - The scenario table

  @Test func chosenStoreOpenIsAssignedEvenWhenAnotherIsNearer() throws {
    let catalog = try Self.catalog(
      Self.feature("near", north: 0.002, hours: "Mo-Su 07:00-21:00"),
      Self.feature("chosen", north: 0.007, hours: "Mo-Su 06:00-23:00"))
    // Wed 12:00 CET; ready in 10 minutes; a walk of 778 m × 1.3 takes 13 minutes, so the
    // arrival decides.
    let plan = try catalog.planPickup(Self.request(at: "2026-11-18T12:00:00+01:00", chosen: "chosen"))
    #expect(plan.status == .assigned)
    #expect(plan.store?.store.id == "chosen")
    #expect(plan.readyAt == (try Self.at("2026-11-18T12:10:00+01:00")))
    #expect(plan.pickupAt == (try Self.at("2026-11-18T12:13:00+01:00")))
    #expect(plan.alternatives.map(\.store.store.id) == ["near"])
    #expect(plan.passedOver.isEmpty)
    #expect(plan.warnings.isEmpty)
    let json = plan.jsonObject
    #expect(json["ready_at"] == .string("2026-11-18T11:10:00Z"))
    #expect(json["pickup_at"] == .string("2026-11-18T11:13:00Z"))
    #expect(json["pickup_at_local"] == .string("2026-11-18T12:13:00+01:00"))
  }

  @Test func chosenStoreClosedTheNearestOpenStoreIsTaken() throws {
    let catalog = try Self.catalog(
      Self.feature("chosen", north: 0.001, hours: "Mo-Su 07:00-09:00"),
      Self.feature("second", north: 0.004, hours: "Mo-Su 07:00-21:00"),
      Self.feature("third", north: 0.009, hours: "Mo-Su 07:00-21:00"))
    let plan = try catalog.planPickup(Self.request(at: "2026-11-18T12:00:00+01:00", chosen: "chosen"))
    #expect(plan.store?.store.id == "second")
    #expect(plan.alternatives.map(\.store.store.id) == ["third"])
    let passed = try #require(plan.passedOver.first)
    #expect(passed.storeID == "chosen")
    #expect(passed.reason == .closedAtPickup)
    #expect(passed.message == "closed at pickup at 12:10; opens Thu 07:00")
    #expect(plan.warnings.map(\.code) == [.chosenNotEligible])
    #expect(plan.warnings[0].message.contains("assigned second"))
  }

  @Test func closingInsideTheBufferIsPassedOverAndJustOutsideIsAWarning() throws {
    let catalog = try Self.catalog(
      Self.feature("closing", north: 0.001, hours: "Mo-Su 07:00-21:00"),
      Self.feature("late", north: 0.005, hours: "Mo-Su 07:00-23:00"))
    // Ready at 20:52: "closing" shuts 8 minutes later, inside the 10-minute buffer.
    let tooSoon = try catalog.planPickup(
      Self.request(at: "2026-11-18T20:40:00+01:00", ready: .after(seconds: 12 * 60)))
    #expect(tooSoon.store?.store.id == "late")
    #expect(tooSoon.passedOver.map(\.reason) == [.closesTooSoon])
    #expect(tooSoon.passedOver[0].message == "closes at 21:00, 8 minutes after pickup at 20:52")

    // Ready at 20:35: 25 minutes before closing, eligible with a warning.
    let soon = try catalog.planPickup(Self.request(at: "2026-11-18T20:25:00+01:00"))
    #expect(soon.store?.store.id == "closing")
    #expect(soon.warnings.map(\.code) == [.closesSoon])
    #expect(soon.warnings[0].message == "closes at 21:00, 25 minutes after pickup")
  }

  @Test func overnightStoreServesAfterMidnightUntilTheBuffer() throws {
    let catalog = try Self.catalog(Self.feature("night", north: 0.001, hours: "Mo-Su 18:00-02:00"))
    let open = try catalog.planPickup(Self.request(at: "2026-11-19T00:30:00+01:00"))
    #expect(open.store?.store.id == "night")
    #expect(open.jsonObject["pickup_at_local"] == .string("2026-11-19T00:40:00+01:00"))

    let late = try catalog.planPickup(Self.request(at: "2026-11-19T01:45:00+01:00"))
    #expect(late.status == .none)
    #expect(late.passedOver.map(\.reason) == [.closesTooSoon])
    #expect(late.passedOver[0].message == "closes at 02:00, 5 minutes after pickup at 01:55")
    // Opens again at 18:00 the same day.
    #expect(late.earliest?.pickupAt == (try Self.at("2026-11-19T18:00:00+01:00")))
  }

  @Test func daylightSavingChangeBetweenOrderAndPickup() throws {
    let catalog = try Self.catalog(Self.feature("early", north: 0.001, hours: "Mo-Su 03:00-22:00"))
    // Ordered 01:50 CET on 2026-03-29; 20 minutes later the clocks read 03:10 CEST (02:xx is skipped).
    let plan = try catalog.planPickup(
      Self.request(at: "2026-03-29T01:50:00+01:00", ready: .after(seconds: 20 * 60)))
    #expect(plan.store?.store.id == "early")
    let json = plan.jsonObject
    #expect(json["pickup_at"] == .string("2026-03-29T01:10:00Z"))
    #expect(json["pickup_at_local"] == .string("2026-03-29T03:10:00+02:00"))

    // A wall-time ready time is read in the store's zone after the change.
    let wall = try catalog.planPickup(
      Self.request(at: "2026-03-29T01:50:00+01:00", ready: .at(TimeQuery(parsing: "2026-03-29T08:05"))))
    #expect(wall.jsonObject["pickup_at"] == .string("2026-03-29T06:05:00Z"))
  }

  @Test func publicHolidayClosesAStoreWithPHOff() throws {
    let catalog = try Self.catalog(
      Self.feature("weekday", north: 0.001, hours: "Mo-Sa 08:00-20:00; PH off"),
      Self.feature("always", north: 0.006, hours: "24/7"))
    // Christmas Day 2026 is a Friday.
    let holiday = try catalog.planPickup(Self.request(at: "2026-12-25T12:00:00+01:00"))
    #expect(holiday.store?.store.id == "always")
    #expect(holiday.passedOver.map(\.reason) == [.closedAtPickup])
    // The 26th (a Saturday) is a holiday too, and the 27th a Sunday.
    #expect(holiday.passedOver[0].message == "closed at pickup at 12:10; opens Mon 08:00")
    // The Friday before is an ordinary day.
    let ordinary = try catalog.planPickup(Self.request(at: "2026-12-18T12:00:00+01:00"))
    #expect(ordinary.store?.store.id == "weekday")
  }

  @Test func unknownHoursArePassedOverUnlessAllowed() throws {
    let catalog = try Self.catalog(
      Self.feature("nohours", north: 0.001, hours: nil),
      Self.feature("garbled", north: 0.002, hours: "whenever we feel like it"),
      Self.feature("known", north: 0.006, hours: "Mo-Su 07:00-21:00"))
    var request = try Self.request(at: "2026-11-18T12:00:00+01:00")
    let strict = try catalog.planPickup(request)
    #expect(strict.store?.store.id == "known")
    #expect(strict.passedOver.map(\.reason) == [.noOpeningHours, .hoursUnknown])

    request.allowsUnknownHours = true
    let lenient = try catalog.planPickup(request)
    #expect(lenient.store?.store.id == "nohours")
    #expect(lenient.warnings.map(\.code).contains(.hoursUnknown))
  }

  @Test func nothingEligibleGivesTheEarliestStore() throws {
    let catalog = try Self.catalog(
      Self.feature("late-riser", north: 0.001, hours: "Mo-Su 09:00-18:00"),
      Self.feature("early-bird", north: 0.004, hours: "Mo-Su 07:00-18:00"))
    let plan = try catalog.planPickup(Self.request(at: "2026-11-18T03:00:00+01:00"))
    #expect(plan.status == .none)
    #expect(plan.store == nil)
    #expect(plan.passedOver.map(\.storeID) == ["late-riser", "early-bird"])
    #expect(Set(plan.passedOver.map(\.reason)) == [.closedAtPickup])
    let earliest = try #require(plan.earliest)
    #expect(earliest.store.store.id == "early-bird")
    #expect(earliest.pickupAt == (try Self.at("2026-11-18T07:00:00+01:00")))
    #expect(plan.warnings.map(\.code) == [.opensLater])
    let json = plan.jsonObject
    #expect(json["status"] == .string("none"))
    #expect(json["store"] == .null)
    #expect(json["pickup_at"] == .null)
    guard case .object(let member)? = json["earliest"] else {
      Issue.record("earliest is not an object")
      return
    }
    #expect(member["store_id"] == .string("early-bird"))
    #expect(member["pickup_at_local"] == .string("2026-11-18T07:00:00+01:00"))
  }

  @Test func travelTimeMakesAStoreOpenNowClosedOnArrival() throws {
    // About 3 km: 3 km × 1.3 on foot is 47 minutes.
    let catalog = try Self.catalog(Self.feature("far", north: 0.027, hours: "Mo-Su 07:00-21:00"))
    let walking = try catalog.planPickup(Self.request(at: "2026-11-18T20:30:00+01:00"))
    #expect(walking.status == .none)
    #expect(walking.passedOver.map(\.reason) == [.closesBeforePickup])
    #expect(
      walking.passedOver[0].message.hasPrefix(
        "open at the order time but closes at 21:00, before pickup at 21:"))

    let driving = try catalog.planPickup(Self.request(at: "2026-11-18T20:30:00+01:00", travel: .drive))
    #expect(driving.store?.store.id == "far")
    // 3 km × 1.3 at 30 km/h is 8 minutes; the order is ready after 10.
    #expect(driving.pickupAt == (try Self.at("2026-11-18T20:40:00+01:00")))
    #expect(driving.arrivalAt == (try Self.at("2026-11-18T20:38:00+01:00")))
  }

  @Test func requiredAttributesAndStoresWithoutLocation() throws {
    let catalog = try Self.catalog(
      Self.feature("walk-in", north: 0.001, hours: "24/7", extra: "\"drive_through\":\"no\""),
      Self.feature("drive", north: 0.005, hours: "24/7", extra: "\"drive_through\":\"yes\""),
      Self.feature("nowhere", north: nil, hours: "24/7", extra: "\"drive_through\":\"yes\""))
    var request = try Self.request(at: "2026-11-18T12:00:00+01:00", chosen: "nowhere")
    request.filter = try StoreFilter(parsing: ["drive_through=yes"])
    let plan = try catalog.planPickup(request)
    #expect(plan.store?.store.id == "drive")
    #expect(plan.passedOver.map(\.reason) == [.noLocation, .missingAttribute])
    #expect(plan.passedOver[1].message == "lacks drive_through=yes (has \"no\")")
    #expect(plan.warnings.first?.code == .chosenNotEligible)
  }

  @Test func chosenStoreBeyondTheRadiusIsStillEvaluated() throws {
    let catalog = try Self.catalog(
      Self.feature("near", north: 0.001, hours: "24/7"),
      Self.feature("beyond", north: 0.2, hours: "24/7"))
    var request = try Self.request(at: "2026-11-18T12:00:00+01:00", chosen: "beyond", travel: .drive)
    request.searchRadius = .kilometers(5)
    let plan = try catalog.planPickup(request)
    #expect(plan.store?.store.id == "beyond")
    #expect(plan.warnings.map(\.code).contains(.outsideSearchRadius))
    #expect(plan.warnings.map(\.code).contains(.farFromCustomer))
    #expect(plan.alternatives.map(\.store.store.id) == ["near"])
  }

  @Test func readyTimeBeforeTheOrderTimeCountsAsTheOrderTime() throws {
    let catalog = try Self.catalog(Self.feature("here", north: 0, hours: "24/7"))
    let plan = try catalog.planPickup(
      Self.request(at: "2026-11-18T12:00:00+01:00", ready: .at(TimeQuery(parsing: "2026-11-18T11:00"))))
    #expect(plan.readyAt == (try Self.at("2026-11-18T12:00:00+01:00")))
    #expect(plan.pickupAt == plan.readyAt)
    #expect(plan.warnings.map(\.code) == [.readyBeforeOrder])
  }

  @Test func unknownChosenStoreIsAnError() throws {
    let catalog = try Self.catalog(Self.feature("nw-0001", north: 0.001, hours: "24/7"))
    let request = try Self.request(at: "2026-11-18T12:00:00+01:00", chosen: "nw-0002")
    #expect {
      _ = try catalog.planPickup(request)
    } throws: { error in
      guard let error = error as? PickupError else { return false }
      return error.kind == .unknownStore && error.suggestions == ["nw-0001"]
        && error.message == "no store has the id \"nw-0002\"; did you mean \"nw-0001\"?"
    }
  }

  // MARK: - Rules

  @Test func preparationTimeRule() {
    let items = [
      OrderItem(name: "Flat white", quantity: 2, preparationMinutes: 4),
      OrderItem(name: "Croissant", quantity: 1, preparationMinutes: 1),
    ]
    // 4 + 0.25 × (4 + 1) = 5.25 minutes, rounded up to 6.
    #expect(PreparationTime.seconds(for: items) == 360)
    #expect(PreparationTime.seconds(for: [OrderItem(name: "Tea", preparationMinutes: 3)]) == 180)
    #expect(PreparationTime.seconds(for: []) == 0)
    #expect(PreparationTime.seconds(for: [OrderItem(name: "Water", quantity: 4, preparationMinutes: 0)]) == 0)
  }

  @Test func travelModes() throws {
    #expect(try TravelMode(parsing: "walk") == .walk)
    #expect(try TravelMode(parsing: "Bike") == .bike)
    #expect(try TravelMode(parsing: "drive") == .drive)
    #expect(try TravelMode(parsing: "3m/s") == .speed(metersPerSecond: 3))
    #expect(try TravelMode(parsing: "12km/h").metersPerSecond == 12 / 3.6)
    #expect(try TravelMode(parsing: "12 km/h").description == "12 km/h")
    #expect(throws: TravelModeError.self) { try TravelMode(parsing: "teleport") }
    #expect(throws: TravelModeError.self) { try TravelMode(parsing: "0km/h") }
    // 1 km × 1.3 at 5 km/h = 936 s, rounded up to 16 minutes.
    #expect(TravelMode.walk.travelSeconds(for: .kilometers(1)) == 960)
    #expect(TravelMode.walk.travelSeconds(for: .meters(0)) == 0)
  }

  // MARK: - Order documents

  static let order = """
    {"id": "order-1", "customer": {"latitude": 52.52, "longitude": 13.40},
     "items": [{"name": "Flat white", "quantity": 2, "prep_minutes": 4},
               {"name": "Croissant", "prep_minutes": 1}],
     "pickup_time": "asap", "store": "chosen", "where": ["drive_through=yes"], "note": "no sugar"}
    """

  @Test func orderDocumentIsRead() throws {
    let order = try OrderDocument(parsing: Self.order)
    #expect(order.id == "order-1")
    #expect(order.items.map(\.quantity) == [2, 1])
    #expect(order.pickup == .asap)
    #expect(order.storeID == "chosen")
    #expect(order.filter.conditions.map(\.description) == ["drive_through=yes"])
    let timed = try OrderDocument(
      parsing:
        #"{"id": 7, "customer": {"latitude": 1, "longitude": 2}, "items": [{"name": "Tea", "prep_minutes": 2.5}], "pickup_time": "2026-11-22T08:15"}"#
    )
    #expect(timed.id == "7")
    #expect(timed.pickup == .at(try TimeQuery(parsing: "2026-11-22T08:15")))
  }

  @Test(arguments: [
    (
      #"{"customer": {"latitude": 1, "longitude": 2}, "items": [{"name": "Tea", "prep_minutes": 2}]}"#, "id",
      "is missing"
    ),
    (#"{"id": "o", "items": [{"name": "Tea", "prep_minutes": 2}]}"#, "customer", "is missing"),
    (
      #"{"id": "o", "customer": {"latitude": 1}, "items": [{"name": "Tea", "prep_minutes": 2}]}"#,
      "customer.longitude", "is missing"
    ),
    (#"{"id": "o", "customer": {"latitude": 1, "longitude": 2}}"#, "items", "is missing"),
    (#"{"id": "o", "customer": {"latitude": 1, "longitude": 2}, "items": []}"#, "items", "is empty"),
    (
      #"{"id": "o", "customer": {"latitude": 1, "longitude": 2}, "items": [{"name": "Tea", "quantity": -2, "prep_minutes": 2}]}"#,
      "items[0].quantity", "must be at least 1, found -2"
    ),
    (
      #"{"id": "o", "customer": {"latitude": 1, "longitude": 2}, "items": [{"name": "Tea", "quantity": 0, "prep_minutes": 2}]}"#,
      "items[0].quantity", "must be at least 1, found 0"
    ),
    (
      #"{"id": "o", "customer": {"latitude": 1, "longitude": 2}, "items": [{"name": "Tea", "prep_minutes": "4"}]}"#,
      "items[0].prep_minutes", "must be a number of minutes, found the string \"4\""
    ),
    (
      #"{"id": "o", "customer": {"latitude": 1, "longitude": 2}, "items": [{"name": "Tea"}]}"#,
      "items[0].prep_minutes", "is missing"
    ),
    (
      #"{"id": "o", "customer": {"latitude": 1, "longitude": 2}, "items": [{"name": "Tea", "prep_minutes": 2}], "pickup_time": "tomorrow"}"#,
      "pickup_time", "must be \"asap\" or a time"
    ),
  ])
  func badOrderDocumentsNameTheMember(text: String, member: String, message: String) {
    #expect {
      _ = try OrderDocument(parsing: text)
    } throws: { error in
      guard let error = error as? OrderError else { return false }
      return error.member == member && error.message.hasPrefix(message)
    }
  }

  @Test func notJSONIsAnOrderError() {
    #expect(throws: OrderError.self) { try OrderDocument(parsing: "{\"id\": ") }
  }

  @Test func orderWriteBackKeepsEveryInputMember() throws {
    let catalog = try Self.catalog(
      Self.feature("chosen", north: 0.001, hours: "24/7", extra: "\"drive_through\":\"yes\""))
    let order = try OrderDocument(parsing: Self.order)
    let plan = try catalog.planPickup(
      order.pickupRequest(orderedAt: try Self.at("2026-11-18T12:00:00+01:00")))
    #expect(plan.store?.store.id == "chosen")
    // Ready after 6 minutes of preparation.
    #expect(plan.readyAt == (try Self.at("2026-11-18T12:06:00+01:00")))
    let written = order.writingBack(plan)
    #expect(written.map(\.key) == order.object.map(\.key) + ["pickup"])
    for member in order.object { #expect(written[member.key] == member.value) }
    #expect(written["pickup"] == .object(plan.jsonObject))
    // Writing back twice replaces the plan in place.
    #expect(OrderDocument(copying: written).writingBack(plan).map(\.key) == written.map(\.key))
  }

  // MARK: - JSON shape

  /// The documented members and their JSON types (docs/schemas/pickup-result.schema.json).
  @Test func pickupJSONHasTheDocumentedMembers() throws {
    let catalog = try Self.catalog(
      Self.feature("closed", north: 0.001, hours: "Mo-Su 07:00-09:00"),
      Self.feature("open", north: 0.004, hours: "Mo-Su 07:00-21:00"),
      Self.feature("other", north: 0.006, hours: "Mo-Su 07:00-21:00"))
    let assigned = try catalog.planPickup(Self.request(at: "2026-11-18T12:00:00+01:00", chosen: "closed"))
    let none = try catalog.planPickup(Self.request(at: "2026-11-18T03:00:00+01:00"))
    for plan in [assigned, none] {
      let json = plan.jsonObject
      #expect(
        json.map(\.key) == [
          "status", "store", "ready_at", "arrival_at", "pickup_at", "pickup_at_local", "travel",
          "close_buffer_s", "warnings", "alternatives", "passed_over", "earliest", "service", "state_version",
          "slot", "reservation",
        ])
      #expect(Self.isString(json["ready_at"], matching: "Z"))
      guard case .array(let warnings)? = json["warnings"], case .array(let passed)? = json["passed_over"],
        case .array(let alternatives)? = json["alternatives"], case .object(let travel)? = json["travel"]
      else {
        Issue.record("warnings, passed_over, alternatives and travel have the wrong types")
        continue
      }
      #expect(travel.map(\.key) == ["mode", "speed_kmh", "detour_factor", "duration_s", "max_duration_s"])
      for case .object(let warning) in warnings {
        #expect(warning.map(\.key) == ["code", "store_id", "message"])
      }
      for case .object(let entry) in passed {
        #expect(entry.map(\.key) == ["store_id", "code", "distance_m", "message"])
        #expect(Self.isString(entry["code"], matching: "-") || entry["code"] == .string("closed-at-pickup"))
      }
      for case .object(let alternative) in alternatives {
        #expect(
          alternative.map(\.key) == [
            "store", "ready_at", "arrival_at", "pickup_at", "pickup_at_local", "slot",
          ])
      }
      if plan.status == .assigned {
        guard case .object(let store)? = json["store"] else {
          Issue.record("store is not an object")
          continue
        }
        #expect(store["id"] == .string("open"))
        #expect(store["distance_m"] != .null && store["distance_m"] != nil)
        #expect(store["state"] == .string("open"))
        #expect(Self.isString(json["pickup_at"], matching: "Z"))
        #expect(Self.isString(json["pickup_at_local"], matching: "+01:00"))
        #expect(json["earliest"] == .null)
      } else {
        #expect(json["store"] == .null)
        guard case .object(let earliest)? = json["earliest"] else {
          Issue.record("earliest is not an object")
          continue
        }
        #expect(earliest.map(\.key) == ["store_id", "distance_m", "pickup_at", "pickup_at_local"])
      }
    }
  }

  static func isString(_ value: JSONValue?, matching suffix: String) -> Bool {
    guard case .string(let text)? = value else { return false }
    return text.contains(suffix)
  }
}

extension OrderDocument {
  /// Reads back an order already written.
  init(copying object: JSONObject) {
    try! self.init(json: .object(object))
  }
}
