import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// The stores' state applied to the catalog (`Catalog.applying(_:)`): closures, special days and
/// paused ordering in every open state, pickup and listing, taking effect and ending at their
/// local times with no reload.
@Suite struct StoreStateTests {
  /// Two stores in Berlin 220 m apart, open 07:00–22:00 but on public holidays.
  static let text = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[13.40,52.521]},"properties":{"opening_hours":"Mo-Su 07:00-22:00; PH off","timezone":"Europe/Berlin","addr:country":"DE","addr:state":"BE"}},
    {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[13.40,52.523]},"properties":{"opening_hours":"Mo-Su 07:00-22:00; PH off","timezone":"Europe/Berlin","addr:country":"DE","addr:state":"BE"}}
    ]}
    """
  static let catalog = try! Catalog(geoJSON: Array(text.utf8), source: "state.geojson")
  static let customer = try! Coordinate(latitude: 52.52, longitude: 13.40)

  static func instant(_ text: String) -> Instant {
    guard case .instant(let instant) = try! TimeQuery(parsing: text) else { fatalError(text) }
    return instant
  }

  /// The catalog with `json` applied to store `a` as one change.
  static func applying(_ json: String, to id: String = "a", now: String = "2026-12-01T12:00:00+01:00") throws
    -> Catalog
  {
    let change = try StoreStateChange(
      json: try JSONValue(parsing: json), zone: try TimeZoneRules(identifier: "Europe/Berlin"),
      now: instant(now))
    var state = change.applied(to: .unchanged)
    state.version = 7
    return catalog.applying(StoreStates(version: 7, stores: [id: state]))
  }

  func status(_ catalog: Catalog, _ id: String = "a", at text: String) -> StoreStatus {
    catalog.status(of: catalog.store(withID: id)!, at: .instant(Self.instant(text)))
  }

  func pickup(_ catalog: Catalog, at text: String, ready: Int64 = 600) throws -> PickupPlan {
    var request = PickupRequest(
      customer: Self.customer, orderedAt: Self.instant(text), ready: .after(seconds: ready))
    request.chosenStoreID = "a"
    return try catalog.planPickup(request)
  }

  @Test func aClosureClosesTheStoreAndEndsByItself() throws {
    let closed = try Self.applying(
      #"{"closures":[{"from":"2027-01-05","until":"2027-01-19","reason":"renovation"}]}"#)
    // Before: open as usual, until 22:00.
    #expect(status(closed, at: "2027-01-04T12:00:00+01:00").state == .open)
    // Inside: closed for people and machines, reopening at the first opening after it.
    let inside = status(closed, at: "2027-01-10T12:00:00+01:00")
    #expect(inside.state == .closed)
    #expect(inside.summary == "temporarily closed \"renovation\", reopens Tue 19 Jan 07:00")
    #expect(inside.nextChange == Self.instant("2027-01-19T07:00:00+01:00"))
    // The closure starts at midnight: the night of the 4th is not spilled into it.
    #expect(status(closed, at: "2027-01-05T00:30:00+01:00").state == .closed)
    // After: open again, with no reload.
    #expect(status(closed, at: "2027-01-19T07:00:00+01:00").state == .open)
    // The other store is untouched.
    #expect(status(closed, "b", at: "2027-01-10T12:00:00+01:00").state == .open)
    // Today's main: the closure is not there.
    #expect(status(Self.catalog, at: "2027-01-10T12:00:00+01:00").state == .open)
  }

  @Test func aClosureBetweenInstantsClosesOnlyThatTime() throws {
    let closed = try Self.applying(
      #"{"closures":[{"from":"2027-01-05T14:00","until":"2027-01-06T09:00","reason":"flood"}]}"#)
    #expect(status(closed, at: "2027-01-05T13:59:00+01:00").state == .open)
    #expect(status(closed, at: "2027-01-05T14:00:00+01:00").state == .closed)
    #expect(status(closed, at: "2027-01-06T08:59:00+01:00").state == .closed)
    #expect(status(closed, at: "2027-01-06T08:59:00+01:00").summary.hasSuffix("reopens Wed 6 Jan 09:00"))
    #expect(status(closed, at: "2027-01-06T09:00:00+01:00").state == .open)
  }

  @Test func pickupPassesOverAClosedStoreAndEarliestLooksPastTheClosure() throws {
    // A month-long closure of both stores: longer than the earliest search's 14 days.
    let change = #"{"closures":[{"from":"2027-01-05","until":"2027-02-05","reason":"renovation"}]}"#
    let parsed = try StoreStateChange(
      json: try JSONValue(parsing: change), zone: .utc, now: Self.instant("2026-12-01T00:00:00Z"))
    let state = parsed.applied(to: .unchanged)
    let closed = Self.catalog.applying(StoreStates(version: 3, stores: ["a": state, "b": state]))
    let plan = try pickup(closed, at: "2027-01-10T12:00:00+01:00")
    #expect(plan.assignment == nil)
    #expect(plan.passedOver.map(\.reason) == [.temporarilyClosed, .temporarilyClosed])
    #expect(plan.passedOver.first?.message.contains("renovation") == true)
    let earliest = try #require(plan.earliest)
    #expect(earliest.pickupAt == Self.instant("2027-02-05T07:00:00+01:00"))
    #expect(plan.jsonObject["state_version"] == JSONValue(3))
  }

  @Test func aSpecialDayReplacesTheWeekAndTheHoliday() throws {
    let special = try Self.applying(
      #"{"special_days":[{"date":"2026-12-25","hours":"09:00-12:00","reason":"Christmas opening"},{"date":"2027-03-03","hours":"off","reason":"staff event"},{"date":"2026-12-24","hours":"07:00-14:00"}]}"#
    )
    // 25 December is a public holiday (`PH off`): the special day opens it.
    #expect(status(Self.catalog, at: "2026-12-25T10:00:00+01:00").state == .closed)
    let christmas = status(special, at: "2026-12-25T10:00:00+01:00")
    #expect(christmas.state == .open)
    #expect(christmas.status.comment == "Christmas opening")
    #expect(christmas.nextChange == Self.instant("2026-12-25T12:00:00+01:00"))
    #expect(status(special, at: "2026-12-26T10:00:00+01:00").state == .closed)  // the next holiday stays
    #expect(status(special, at: "2026-12-24T15:00:00+01:00").state == .closed)
    #expect(status(special, at: "2026-12-24T13:00:00+01:00").summary == "open until 14:00")
    #expect(status(special, at: "2027-03-03T12:00:00+01:00").state == .closed)
    #expect(status(special, at: "2027-03-04T12:00:00+01:00").state == .open)
    // The day is listed with its reason.
    let hours = try special.answer(
      HoursRequest(
        RequestParameters(
          [(name: "id", value: "a"), (name: "at", value: "2026-12-25T08:00:00+01:00")], style: .queryString)),
      now: Self.instant("2026-12-01T00:00:00Z"))
    #expect(hours.days.first?.spans.first?.status.comment == "Christmas opening")
    #expect(hours.jsonObject["opening_hours"] == .string("Mo-Su 07:00-22:00; PH off"))
  }

  @Test func aSpecialDayThatOpensIsFoundByAnOpenSearch() throws {
    // The per-subtree "might be open" summaries come from the stores' own hours: a special day
    // opening at night must still be found (checked against every store's own status).
    let day = Instant.now().secondsSinceEpoch / 86_400 + 3
    let date = LocalDate(daysSinceEpoch: Int(day))
    let special = try Self.applying(
      "{\"special_days\":[{\"date\":\"\(date)\",\"hours\":\"23:00-23:59\"}]}", now: iso8601(.now(), in: .utc))
    let at = TimeQuery.wallTime(LocalDateTime(date: date, hour: 23, minute: 30))
    let found = special.nearest(5, to: Self.customer, open: OpeningRequirement(time: at)).map(\.store.id)
    #expect(found == ["a"])
    let instantAt = TimeQuery.instant(at.instant(in: try TimeZoneRules(identifier: "Europe/Berlin")))
    #expect(
      special.nearest(5, to: Self.customer, open: OpeningRequirement(time: instantAt)).map(\.store.id) == [
        "a"
      ])
    #expect(Self.catalog.nearest(5, to: Self.customer, open: OpeningRequirement(time: instantAt)).isEmpty)
  }

  @Test func pausedOrderingStaysListedButIsNeverAssignedAndResumesByItself() throws {
    let paused = try Self.applying(
      #"{"ordering":"paused","until":"2026-12-02T15:30:00+01:00","reason":"machine repair"}"#)
    let request = try NearestRequest(
      RequestParameters([(name: "near", value: "52.52,13.40"), (name: "k", value: "2")], style: .queryString))
    let listed = paused.answer(request, now: Self.instant("2026-12-02T12:00:00+01:00"))
    #expect(listed.matches.map(\.store.id) == ["a", "b"])
    #expect(
      listed.matches.first?.ordering
        == .paused(until: Self.instant("2026-12-02T15:30:00+01:00"), reason: "machine repair"))
    #expect(listed.jsonText.contains("\"ordering\":\"paused\""))
    #expect(listed.query["state_version"] == JSONValue(7))
    // Pickup passes it over, naming the reason, and assigns the next store.
    let plan = try pickup(paused, at: "2026-12-02T12:00:00+01:00")
    #expect(plan.assignment?.store.store.id == "b")
    let passed = try #require(plan.passedOver.first { $0.storeID == "a" })
    #expect(passed.reason == .orderingPaused)
    #expect(passed.message.contains("machine repair"))
    // At its time, it takes orders again, with no request to resume.
    #expect(try pickup(paused, at: "2026-12-02T15:31:00+01:00").assignment?.store.store.id == "a")
    let later = paused.answer(request, now: Self.instant("2026-12-02T15:31:00+01:00"))
    #expect(later.matches.first?.ordering == .open)
  }

  @Test func theSameCatalogStateRequestAndTimeGiveTheSameAnswer() throws {
    let json = #"{"ordering":"paused","closures":[{"from":"2027-01-05","until":"2027-01-19"}]}"#
    let one = try Self.applying(json)
    let two = try Self.applying(json)
    for text in ["2027-01-04T21:59:00+01:00", "2027-01-10T12:00:00+01:00", "2027-01-19T06:59:00+01:00"] {
      #expect(try pickup(one, at: text).jsonObject == (try pickup(two, at: text).jsonObject))
    }
    // An empty state changes nothing.
    #expect(Self.catalog.applying(.empty).overlay == nil)
  }

  /// Statuses with a state applied, checked against each store's own composed schedule (the
  /// rules appended by hand) at random instants.
  @Test func theOverlayAgreesWithTheHoursWrittenOut() throws {
    let special = try Self.applying(
      #"{"closures":[{"from":"2027-01-05T14:00","until":"2027-01-09"}],"special_days":[{"date":"2027-01-10","hours":"10:00-11:00,12:00-13:00","reason":"short day"}]}"#
    )
    let written = Schedule(
      try OpeningHours(
        parsing:
          #"Mo-Su 07:00-22:00; PH off; 2027 Jan 10 10:00-11:00,12:00-13:00 "short day"; 2027 Jan 05 14:00-24:00 off "temporarily closed"; 2027 Jan 06-2027 Jan 08 off "temporarily closed""#
      ), timeZone: try TimeZoneRules(identifier: "Europe/Berlin"),
      holidays: HoursResources(holidays: try HoursResources.holidayRegistry(countries: ["DE"]))
        .holidayCalendar(for: Self.catalog.store(withID: "a")!))
    var generator = SplitMix64(seed: 11)
    let start = Self.instant("2027-01-01T00:00:00+01:00").secondsSinceEpoch
    for _ in 0..<2000 {
      let at = Instant(secondsSinceEpoch: start + Int64.random(in: 0..<(20 * 86_400), using: &generator))
      let got = special.status(of: special.store(withID: "a")!, at: .instant(at))
      #expect(got.state == written.status(at: at).state, "\(at)")
      #expect(got.nextChange == written.nextStateChange(after: at, horizonDays: 30), "\(at)")
    }
  }

  @Test(arguments: [
    (#"{"ordering":"sleeping"}"#, "ordering"),
    (#"{"ordering":"paused","until":"2026-11-01T00:00:00Z"}"#, "until"),
    (#"{"ordering":"paused","until":"2026-12-24T15:30"}"#, "until"),
    (#"{"paused":true}"#, "paused"),
    (#"{"closures":[{"from":"2027-01-19","until":"2027-01-05"}]}"#, "closures[0].until"),
    (#"{"closures":[{"from":"2027-01-19"}]}"#, "closures[0].until"),
    (#"{"closures":{"from":"2027-01-19"}}"#, "closures"),
    (#"{"special_days":[{"date":"2027-02-30","hours":"off"}]}"#, "special_days[0].date"),
    (#"{"special_days":[{"date":"2027-02-03","hours":"Mo 09:00-12:00"}]}"#, "special_days[0].hours"),
    (
      #"{"special_days":[{"date":"2027-02-03","hours":"09:00-12:00; 13:00-14:00"}]}"#, "special_days[0].hours"
    ),
    (
      #"{"special_days":[{"date":"2027-02-03","hours":"off"},{"date":"2027-02-03","hours":"10:00-11:00"}]}"#,
      "special_days[1].date"
    ),
    (#"{"special_days":[{"date":"2027-02-03","hours":"off","service":"Drive"}]}"#, "special_days[0].service"),
    (#"{"reason":"why"}"#, "reason"),
  ])
  func aBadChangeNamesTheMember(json: String, member: String) throws {
    let error = #expect(throws: RequestError.self) {
      try StoreStateChange(
        json: try JSONValue(parsing: json), zone: .utc, now: Self.instant("2026-12-01T00:00:00Z"))
    }
    #expect(error?.parameter == member, "\(error?.message ?? "")")
  }

  @Test func aStoredStateReadsBackTheSame() throws {
    let json =
      #"{"ordering":"paused","until":"2026-12-24T15:30:00Z","reason":"repair","closures":[{"from":"2027-01-05","until":"2027-01-19T10:00:00Z","reason":null}],"special_days":[{"date":"2026-12-24","hours":"07:00-14:00","reason":"Eve","service":"drive_through"}]}"#
    let change = try StoreStateChange(
      json: try JSONValue(parsing: json), zone: .utc, now: Self.instant("2026-12-01T00:00:00Z"))
    let state = change.applied(to: .unchanged)
    let read = try StoreState(
      storageJSON: .object(state.storageJSON), version: 4, changedAt: Self.instant("2026-12-01T00:00:00Z"))
    #expect(read.ordering == state.ordering)
    #expect(read.closures == state.closures)
    #expect(read.specialDays == state.specialDays)
    #expect(read.version == 4)
  }
}
