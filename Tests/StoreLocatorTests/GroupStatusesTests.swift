import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// `withStatus` evaluates each distinct compiled schedule once (`GroupStatuses`) and answers as
/// evaluating every store on its own does.
@Suite struct GroupStatusesTests {
  /// Twelve stores around Berlin and New York with three hours texts: four groups (a text shared
  /// across the two zones is two schedules), a store without hours and one whose hours fail.
  static let catalog: Catalog = {
    let hours = [
      "Mo-Fr 08:00-18:00; PH off", "Mo-Sa 09:00-20:00", "Jun-Aug 07:00-22:00; Dec 24 off; Mo-Sa 10:00-19:00",
    ]
    var features: [String] = []
    for i in 0..<12 {
      let (zone, lon, lat) = i < 8 ? ("Europe/Berlin", 13.4, 52.5) : ("America/New_York", -74.0, 40.7)
      let text = i == 10 ? "" : #","opening_hours":"\#(i == 11 ? "not hours at all" : hours[i % 3])""#
      features.append(
        #"{"type":"Feature","id":"s\#(i)","properties":{"country":"DE","timezone":"\#(zone)"\#(text)},"#
          + #""geometry":{"type":"Point","coordinates":[\#(lon + Double(i) * 0.001),\#(lat)]}}"#)
    }
    let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
    return try! Catalog(geoJSON: Array(text.utf8), source: "groups.geojson")
  }()

  static let times: [TimeQuery] = try! [
    "2026-11-26T10:00:00Z", "2026-12-24T12:00:00Z", "2026-12-25T09:00:00Z", "2027-07-01T21:30:00Z",
    "2026-03-29T01:30:00Z", "2026-12-24T15:00",
  ].map { try TimeQuery(parsing: $0) }

  @Test func answersAsEachStoreOnItsOwn() throws {
    for point in [
      Coordinate(uncheckedLatitude: 52.5, longitude: 13.4), .init(uncheckedLatitude: 40.7, longitude: -74),
    ] {
      let matches = Self.catalog.nearest(12, to: point)
      #expect(matches.count == 12)
      for time in Self.times {
        let answered = Self.catalog.withStatus(matches, at: time)
        for match in answered {
          #expect(match.status == Self.catalog.status(of: match.store, at: time), "\(match.id) at \(time)")
        }
      }
    }
  }

  @Test func oneEvaluationPerDistinctSchedule() throws {
    let matches = Self.catalog.nearest(12, to: Coordinate(uncheckedLatitude: 52.5, longitude: 13.4))
    let groups = Set(
      matches.compactMap { match in match.position.flatMap { Self.catalog.table.scheduleGroup(at: $0) } })
    // Berlin's three texts, New York's two that compile (one has no hours, one fails).
    #expect(groups.count == 5)
    for time in Self.times {
      var known = GroupStatuses()
      for match in matches { _ = Self.catalog.status(of: match, at: time, known: &known) }
      #expect(known.count == groups.count)
    }
  }

  @Test func aStatusIsReusedOnlyForItsGroupAndInstant() {
    var known = GroupStatuses()
    let at = Instant(secondsSinceEpoch: 1_795_600_000)
    let status = StoreStatus(instant: at, status: .open, nextChange: nil, timeZone: nil)
    known.remember(status, ofGroup: 3)
    #expect(known.status(ofGroup: 3, at: at) == status)
    #expect(known.status(ofGroup: 4, at: at) == nil)
    #expect(known.status(ofGroup: 3, at: at + 1) == nil)
    // Past its capacity the oldest go first.
    for group in 10..<(10 + GroupStatuses.capacity) { known.remember(status, ofGroup: group) }
    #expect(known.count == GroupStatuses.capacity)
    #expect(known.status(ofGroup: 3, at: at) == nil)
    #expect(known.status(ofGroup: 10 + GroupStatuses.capacity - 1, at: at) == status)
  }

  /// The table's `RecentStatuses` serves later requests the status an earlier one found, only for
  /// its group and its exact instant, and a slot holds one entry: a newer one in the same slot
  /// replaces it, so the cache never grows.
  @Test func recentStatusesAreSharedOnlyForTheirGroupAndInstant() {
    let recent = RecentStatuses()
    let at = Instant(secondsSinceEpoch: 1_795_600_000)
    let status = StoreStatus(instant: at, status: .open, nextChange: nil, timeZone: nil)
    #expect(recent.status(ofGroup: 3, at: at) == nil)
    recent.remember(status, ofGroup: 3)
    #expect(recent.status(ofGroup: 3, at: at) == status)
    #expect(recent.status(ofGroup: 4, at: at) == nil)
    #expect(recent.status(ofGroup: 3, at: at + 1) == nil)
    // Fill every slot with other instants: group 3's entry is gone, not kept beside them.
    for second in 1...(4 * RecentStatuses.slotCount) {
      let later = StoreStatus(instant: at + Int64(second), status: .closed, nextChange: nil, timeZone: nil)
      recent.remember(later, ofGroup: 3)
    }
    #expect(recent.status(ofGroup: 3, at: at) == nil)
  }

  /// A second request at the same instant is answered from what the first found, and the answer
  /// is still each store's own status, also when the state overrides a store's hours (a closure
  /// or pause: its status is never taken from its group's).
  @Test func aLaterRequestAnswersAsEachStoreOnItsOwn() throws {
    let time = try TimeQuery(parsing: "2026-11-26T10:00:00Z")
    let matches = Self.catalog.nearest(12, to: Coordinate(uncheckedLatitude: 52.5, longitude: 13.4))
    _ = Self.catalog.withStatus(matches, at: time)
    let grouped = try #require(
      matches.first { $0.position.flatMap { Self.catalog.scheduleGroup(at: $0) } != nil })
    let group = try #require(grouped.position.flatMap { Self.catalog.scheduleGroup(at: $0) })
    let schedule = try #require(Self.catalog.schedule(for: grouped.store))
    #expect(
      Self.catalog.table.recentStatuses.status(ofGroup: group, at: time.instant(in: schedule.timeZone))
        == Self.catalog.status(of: grouped.store, at: time))
    for match in Self.catalog.withStatus(matches, at: time) {
      #expect(match.status == Self.catalog.status(of: match.store, at: time), "\(match.id)")
    }
    // The same table with s0 closed for the day: its group's status is cached as open, but s0
    // answers closed, and the others as before.
    let change = try StoreStateChange(
      json: try JSONValue(
        parsing: #"{"closures":[{"from":"2026-11-26","until":"2026-11-27","reason":"flood"}]}"#),
      zone: try TimeZoneRules(identifier: "Europe/Berlin"), now: Instant(secondsSinceEpoch: 1_795_000_000))
    var state = change.applied(to: .unchanged)
    state.version = 2
    let closed = Self.catalog.applying(StoreStates(version: 2, stores: ["s0": state]))
    #expect(closed.table === Self.catalog.table)
    let answered = closed.withStatus(matches, at: time)
    let s0 = try #require(answered.first { $0.id == "s0" })
    #expect(s0.status?.state == .closed)
    #expect(Self.catalog.status(of: s0.store, at: time).state == .open)
    for match in answered {
      #expect(match.status == closed.status(of: match.store, at: time), "\(match.id)")
    }
  }
}
