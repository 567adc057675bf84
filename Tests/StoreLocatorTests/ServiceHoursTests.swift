import Foundation
import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// Hours per service (`opening_hours:drive_through`): the rule for stores without their own
/// (docs/state.md), every query naming a service, and pickup going by that service's hours.
@Suite struct ServiceHoursTests {
  /// A drive-through open around the clock beside a lobby open 07:00–22:00, and the three other
  /// cases of the rule: `drive_through=no`, `drive_through=yes` without hours, nothing said.
  static let text = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","id":"dt","geometry":{"type":"Point","coordinates":[-122.33,47.60]},"properties":{"opening_hours":"Mo-Su 07:00-22:00","opening_hours:drive_through":"24/7","drive_through":"yes","timezone":"America/Los_Angeles"}},
    {"type":"Feature","id":"lobby","geometry":{"type":"Point","coordinates":[-122.331,47.601]},"properties":{"opening_hours":"Mo-Su 06:00-23:30","drive_through":"no","timezone":"America/Los_Angeles"}},
    {"type":"Feature","id":"same","geometry":{"type":"Point","coordinates":[-122.332,47.602]},"properties":{"opening_hours":"Mo-Su 06:00-23:30","drive_through":"yes","timezone":"America/Los_Angeles"}},
    {"type":"Feature","id":"quiet","geometry":{"type":"Point","coordinates":[-122.333,47.603]},"properties":{"opening_hours":"Mo-Su 06:00-23:30","timezone":"America/Los_Angeles"}},
    {"type":"Feature","id":"bad","geometry":{"type":"Point","coordinates":[-122.334,47.604]},"properties":{"opening_hours":"Mo-Su 06:00-23:30","opening_hours:drive_through":"Mo-Fr 25:00","timezone":"America/Los_Angeles"}}
    ]}
    """
  static let catalog = try! Catalog(geoJSON: Array(text.utf8), source: "services.geojson")
  static let here = try! Coordinate(latitude: 47.60, longitude: -122.33)

  static func instant(_ text: String) -> Instant {
    guard case .instant(let instant) = try! TimeQuery(parsing: text) else { fatalError(text) }
    return instant
  }

  func parameters(_ pairs: [(String, String)]) -> RequestParameters {
    RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: .queryString)
  }

  /// Which members name a service's hours or a capacity is decided by a key's first byte before
  /// any prefix is compared: the same answers as comparing both prefixes, for keys that start
  /// with the prefixes, other cases, combining marks, composed letters and anything random.
  @Test func serviceMembersAreThoseWithEitherPrefix() {
    var keys = [
      "opening_hours", "opening_hours:", "opening_hours:drive_through", "pickup:",
      "pickup:drive_through:per_15",
      "pickup", "Opening_hours:x", "PICKUP:x", "o\u{308}pening_hours:x", "\u{F6}pening_hours:x",
      "p\u{301}ickup:x",
      "", "o", "p", "brand", "\u{1F600}", "opening_hours\u{301}:x",
    ]
    var generator = SystemRandomNumberGenerator()
    let pieces = ["o", "p", "opening_hours:", "pickup:", "\u{301}", "\u{F6}", "x", ":", "\u{1F600}"]
    for _ in 0..<2_000 {
      keys.append(
        (0..<Int.random(in: 1...3, using: &generator)).map { _ in pieces.randomElement()! }.joined())
    }
    for key in keys {
      let member = JSONObject.Member(key: key, value: .string("24/7"))
      let expected = key.hasPrefix(Catalog.serviceHoursPrefix) || key.hasPrefix(HoursSubject.capacityPrefix)
      #expect(HoursSubject.isServiceMember(member) == expected, "\(Array(key.unicodeScalars))")
    }
  }

  @Test func driveThroughOpenAtElevenWhileTheLobbyIsClosed() throws {
    let at = "2026-12-02T23:00:00-08:00"
    let plain = try NearestRequest(parameters([("near", "47.60,-122.33"), ("k", "1"), ("open_at", at)]))
    #expect(Self.catalog.answer(plain, now: Self.instant(at)).matches.map(\.store.id) != ["dt"])
    let driveThrough = try NearestRequest(
      parameters([("near", "47.60,-122.33"), ("k", "1"), ("open_at", at), ("service", "drive_through")]))
    let answer = Self.catalog.answer(driveThrough, now: Self.instant(at))
    #expect(answer.matches.map(\.store.id) == ["dt"])
    #expect(answer.matches.first?.status?.state == .open)
    #expect(answer.query["service"] == .string("drive_through"))
    let store = try #require(Self.catalog.store(withID: "dt"))
    #expect(Self.catalog.status(of: store, at: .instant(Self.instant(at))).state == .closed)
    #expect(
      Self.catalog.serving("drive_through").status(of: store, at: .instant(Self.instant(at))).state == .open)
  }

  @Test func theRuleForStoresWithoutServiceHours() throws {
    let view = Self.catalog.serving("drive_through")
    let at = TimeQuery.instant(Self.instant("2026-12-02T12:00:00-08:00"))
    func status(_ id: String) -> StoreStatus { view.status(of: view.store(withID: id)!, at: at) }
    // drive_through=no: closed at every hour, saying why.
    #expect(status("lobby").state == .closed)
    #expect(status("lobby").summary.contains("drive_through not offered"))
    // drive_through=yes without hours: the store's own hours, with a note.
    #expect(status("same").state == .open)
    #expect(status("same").summary.contains("the store's hours"))
    // Nothing said: unknown, as a store without opening_hours is.
    #expect(status("quiet").state == .unknown)
    #expect(status("quiet").summary.contains("no opening_hours:drive_through"))
    // Hours that do not parse: unknown, and the loader says so naming the property.
    #expect(status("bad").state == .unknown)
    let diagnostic = try #require(Self.catalog.diagnostics.first { $0.storeID == "bad" })
    #expect(diagnostic.code.rawValue == "opening-hours-invalid")
    #expect(diagnostic.message.hasPrefix("opening_hours:drive_through \"Mo-Fr 25:00\""))
    // The store's own hours are not touched by the service's bad hours.
    #expect(Self.catalog.status(of: Self.catalog.store(withID: "bad")!, at: at).state == .open)
  }

  @Test func infoCountsTheServicesWithHours() {
    let summary = Self.catalog.summary
    #expect(summary.services.map(\.value) == ["drive_through"])
    #expect(summary.services.map(\.count) == [2])
    // The service's bad hours are not the store's: its opening_hours parse.
    #expect(summary.storesWithInvalidHours == 0)
  }

  @Test func pickupPassesOverAStoreThatDoesNotOfferTheService() throws {
    var request = PickupRequest(
      customer: try Coordinate(latitude: 47.601, longitude: -122.331),
      orderedAt: Self.instant("2026-12-02T12:00:00-08:00"), ready: .after(seconds: 300))
    request.service = "drive_through"
    request.maximumTravel = 3600
    let plan = try Self.catalog.planPickup(request)
    #expect(plan.passedOver.first { $0.storeID == "lobby" }?.reason == .serviceNotOffered)
    #expect(plan.jsonObject["service"] == .string("drive_through"))
  }

  @Test func aServiceNoStoreNamesIsSaid() throws {
    let request = try NearestRequest(parameters([("near", "47.60,-122.33"), ("service", "drive_thru")]))
    let answer = Self.catalog.answer(request, now: Self.instant("2026-12-02T12:00:00-08:00"))
    #expect(answer.notes.contains { $0.contains("drive_thru") && $0.contains("drive_through") })
    #expect(throws: RequestError.self) {
      try NearestRequest(parameters([("near", "47.60,-122.33"), ("service", "Drive Through")]))
    }
  }

  @Test func aSnapshotKeepsTheServiceHours() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("services-\(getpid()).snap").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Self.catalog.writeSnapshot(to: path)
    let snapshot = try Catalog.load(contentsOf: path)
    let at = TimeQuery.instant(Self.instant("2026-12-02T23:00:00-08:00"))
    for id in ["dt", "lobby", "same", "quiet", "bad"] {
      let mapped = snapshot.serving("drive_through")
      let loaded = Self.catalog.serving("drive_through")
      #expect(
        mapped.status(of: mapped.store(withID: id)!, at: at)
          == loaded.status(of: loaded.store(withID: id)!, at: at))
    }
  }

  /// Pickup with `service=drive_through` assigns a store only inside its drive-through hours,
  /// over random instants in zones with daylight saving time, DST days among them; checked
  /// against the service's schedule compiled on its own.
  @Test(arguments: ["America/New_York", "Europe/Berlin", "Australia/Sydney", "America/Santiago"])
  func pickupGoesByTheDriveThroughHours(zone: String) throws {
    let driveThrough = "Mo-Fr 05:30-23:45; Sa,Su 08:00-01:00"
    let lobby = "Mo-Su 09:00-17:00"
    let text = """
      {"type":"FeatureCollection","features":[{"type":"Feature","id":"s","geometry":{"type":"Point","coordinates":[0.001,0.0]},\
      "properties":{"opening_hours":"\(lobby)","opening_hours:drive_through":"\(driveThrough)","timezone":"\(zone)"}}]}
      """
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "dst.geojson")
    let rules = try TimeZoneRules(identifier: zone)
    let reference = Schedule(try OpeningHours(parsing: driveThrough), timeZone: rules)
    var generator = SplitMix64(seed: UInt64(zone.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
    // Random instants over two years, and instants around each DST change in them.
    var instants = (0..<300).map { _ in
      Instant(secondsSinceEpoch: 1_767_225_600 + Int64.random(in: 0..<(2 * 365 * 86_400), using: &generator))
    }
    var cursor = Instant(secondsSinceEpoch: 1_767_225_600)
    while let change = rules.nextTransition(after: cursor),
      change.secondsSinceEpoch < 1_767_225_600 + 2 * 365 * 86_400
    {
      for offset in stride(from: -3 * 3600, through: 3 * 3600, by: 1800) {
        instants.append(change + Int64(offset))
      }
      cursor = change
    }
    for orderedAt in instants {
      var request = PickupRequest(
        customer: try Coordinate(latitude: 0, longitude: 0), orderedAt: orderedAt, ready: .after(seconds: 600)
      )
      request.service = "drive_through"
      let plan = try catalog.planPickup(request)
      let pickup = plan.assignment?.pickupAt ?? (orderedAt + 600)
      let open = reference.isOpen(throughout: max(pickup, orderedAt + 600), seconds: request.closeBuffer)
      #expect((plan.assignment != nil) == open, "\(zone) ordered at \(orderedAt)")
    }
  }
}
