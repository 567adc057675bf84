import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// `Catalog.explainEmptyResult`: an empty answer says what was asked and, when the catalog can
/// tell, why nothing came back; `swappedCoordinateHint` names a LON,LAT location.
@Suite struct EmptyResultTests {
  /// Two Berlin stores a few hundred metres north of the customer, one without hours.
  static func catalog(_ features: String...) throws -> Catalog {
    let text = "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    return try Catalog(geoJSON: Array(text.utf8), source: "explain.geojson")
  }

  static func feature(_ id: String, north: Double, hours: String?, properties: String = "") -> String {
    var members = ["\"name\":\"Store \(id)\"", "\"timezone\":\"Europe/Berlin\"", "\"addr:country\":\"DE\""]
    if let hours { members.append("\"opening_hours\":\"\(hours)\"") }
    if !properties.isEmpty { members.append(properties) }
    return "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":"
      + "[13.40,\(52.52 + north)]},\"properties\":{" + members.joined(separator: ",") + "}}"
  }

  static let customer = try! Coordinate(latitude: 52.52, longitude: 13.40)
  /// Wednesday 2026-11-18 12:00 in Berlin (11:00Z).
  static let wednesdayNoon = TimeQuery.instant(Instant(secondsSinceEpoch: 1_794_999_600))

  @Test func anEmptyCollectionSaysTheDataHasNoStores() throws {
    let catalog = try Self.catalog()
    let explanation = catalog.explainEmptyResult(in: .nearest(to: Self.customer, within: nil))
    #expect(explanation.sentence == "No stores: explain.geojson has no stores.")
    #expect(explanation.reasons.map(\.code) == [.noStores])
  }

  @Test func storesWithoutALocationAreNamed() throws {
    let text =
      #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"a","geometry":null,"properties":{}},"#
      + #"{"type":"Feature","id":"b","geometry":null,"properties":{}}]}"#
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "nowhere.geojson")
    let explanation = catalog.explainEmptyResult(in: .circle(center: Self.customer, radius: .kilometers(2)))
    #expect(explanation.sentence == "No stores: none of the 2 stores in nowhere.geojson has a location.")
    #expect(explanation.reasons.map(\.code) == [.noLocatedStores])
  }

  @Test func theSentenceRepeatsTheQuestion() throws {
    let catalog = try Self.catalog(Self.feature("a", north: 0.001, hours: "Mo-Su 08:00-20:00"))
    let filter = try StoreFilter(parsing: ["drive_through=yes", "amenity=cafe"])
    #expect(
      catalog.explainEmptyResult(in: .circle(center: Self.customer, radius: .kilometers(2)), where: filter)
        .sentence
        == "No stores within 2.0 km of 52.52,13.4 match drive_through=yes and amenity=cafe.")
    let open = OpeningRequirement(time: Self.wednesdayNoon, seconds: 1800)
    #expect(
      catalog.explainEmptyResult(in: .nearest(to: Self.customer, within: nil), open: open).sentence
        == "No stores near 52.52,13.4 are open at 2026-11-18T11:00:00Z for 30 min.")
    let box = try GeoBox(west: 1, south: 2, east: 3, north: 4)
    #expect(catalog.explainEmptyResult(in: .box(box)).sentence == "No stores inside 1.0,2.0,3.0,4.0.")
  }

  @Test func aKeyNoStoreHasIsNamedWithTheClosestKeys() throws {
    let catalog = try Self.catalog(
      Self.feature("a", north: 0.001, hours: nil, properties: #""drive_through":"yes""#),
      Self.feature("b", north: 0.002, hours: nil, properties: #""drive_through":"no""#))
    let filter = try StoreFilter(parsing: ["Drive_Through=YES"])
    let explanation = catalog.explainEmptyResult(in: .nearest(to: Self.customer, within: nil), where: filter)
    let reason = try #require(explanation.reasons.first)
    #expect(reason.code == .unknownProperty)
    #expect(reason.suggestions == ["drive_through"])
    #expect(reason.message == "no store has the property 'Drive_Through'; did you mean 'drive_through'?")
  }

  @Test func aValueNoStoreHasListsTheValuesSeen() throws {
    let catalog = try Self.catalog(
      Self.feature("a", north: 0.001, hours: nil, properties: #""drive_through":"yes""#),
      Self.feature("b", north: 0.002, hours: nil, properties: #""drive_through":"no""#),
      Self.feature("c", north: 0.003, hours: nil, properties: #""drive_through":"no""#))
    let filter = try StoreFilter(parsing: ["drive_through=YES"])
    let reason = try #require(
      catalog.explainEmptyResult(in: .nearest(to: Self.customer, within: nil), where: filter).reasons.first)
    #expect(reason.code == .unknownValue)
    #expect(
      reason.message
        == "no store has drive_through=YES (values seen: no, yes); did you mean drive_through=yes?")
  }

  @Test func conditionsStoresMeetGiveNoPropertyReason() throws {
    // The key and value exist, just not within 100 m: the sentence says it all.
    let catalog = try Self.catalog(
      Self.feature("a", north: 0.01, hours: nil, properties: #""drive_through":"yes""#))
    let filter = try StoreFilter(parsing: ["drive_through=yes", "wifi!=nope"])
    let explanation = catalog.explainEmptyResult(
      in: .circle(center: Self.customer, radius: .meters(100)), where: filter)
    #expect(explanation.reasons.isEmpty)
  }

  @Test func anOpeningConditionOnStoresWithoutHoursPointsAtAllowUnknown() throws {
    let catalog = try Self.catalog(
      Self.feature("a", north: 0.001, hours: nil), Self.feature("b", north: 0.002, hours: nil),
      Self.feature("far", north: 1, hours: "Mo-Su 00:00-24:00"))
    let open = OpeningRequirement(time: Self.wednesdayNoon)
    let area = SearchArea.circle(center: Self.customer, radius: .kilometers(1))
    #expect(catalog.nearest(5, to: Self.customer, within: .kilometers(1), open: open).isEmpty)
    let reason = try #require(catalog.explainEmptyResult(in: area, open: open).reasons.first)
    #expect(reason.code == .noOpeningHours)
    #expect(
      reason.message
        == "no store in reach has opening hours (none of the 2 stores within 1.0 km of 52.52,13.4 has "
        + "opening_hours); add --allow-unknown to include stores whose hours are unknown")
    // The store 111 km away has hours, so a search without bounds reaches one: it is open, and
    // the condition is not the reason.
    #expect(catalog.nearest(1, to: Self.customer, open: open).map(\.store.id) == ["far"])
  }

  @Test func closedStoresAreSaidToBeClosed() throws {
    let catalog = try Self.catalog(Self.feature("a", north: 0.001, hours: "Mo-Su 06:00-07:00"))
    let open = OpeningRequirement(time: Self.wednesdayNoon)
    let reasons = catalog.explainEmptyResult(in: .nearest(to: Self.customer, within: nil), open: open).reasons
    #expect(reasons.map(\.code) == [.allClosed])
  }

  @Test func pickupWithoutHoursInReachSaysSoAndPointsAtAllowUnknown() throws {
    let catalog = try Self.catalog(
      Self.feature("a", north: 0.001, hours: nil), Self.feature("b", north: 0.002, hours: nil))
    let request = PickupRequest(
      customer: Self.customer, orderedAt: Instant(secondsSinceEpoch: 1_794_999_600),
      ready: .after(seconds: 300))
    let plan = try catalog.planPickup(request)
    #expect(plan.status == .none)
    let notice = try #require(plan.warnings.first { $0.code == .noOpeningFound })
    #expect(notice.message.contains("no store in reach has opening hours"))
    // The pickup result is the same JSON from the command line and the service: both spellings.
    #expect(notice.message.contains("allow unknown hours (allow_unknown, --allow-unknown)"))
  }

  // MARK: Swapped coordinates

  @Test func aLocationTypedLonLatIsNamed() throws {
    let catalog = try Self.catalog(
      Self.feature("a", north: 0.001, hours: nil), Self.feature("b", north: 0.002, hours: nil),
      Self.feature("c", north: 0.2, hours: nil))
    let typed = try Coordinate(latitude: 13.40, longitude: 52.52)
    let hint = try #require(catalog.swappedCoordinateHint(for: typed))
    #expect(hint.swapped == Self.customer)
    #expect(hint.storesWithinOneKilometer == 2)
    #expect(
      hint.description.hasPrefix(
        "the nearest store is \(hint.nearestDistance.kilometersText) from 13.4,52.52; "))
    #expect(
      hint.description.hasSuffix("did you mean --near 52.52,13.4 (LAT,LON)? 2 stores are within 1 km of it"))
    #expect(
      hint.text(for: .queryString).hasSuffix(
        "did you mean near=52.52,13.4 (LAT,LON)? 2 stores are within 1 km of it"))
    // Given the right way round, nothing to say.
    #expect(catalog.swappedCoordinateHint(for: Self.customer) == nil)
  }

  /// A caller that knows the distance to the nearest store (an unfiltered query's first match)
  /// passes it, and gets the same answer without the search.
  @Test func aKnownNearestDistanceIsTheSameAnswer() throws {
    let catalog = try Self.catalog(
      Self.feature("a", north: 0.001, hours: nil), Self.feature("b", north: 0.002, hours: nil))
    let typed = try Coordinate(latitude: 13.40, longitude: 52.52)
    let nearest = try #require(catalog.nearest(1, to: typed).first?.distance)
    let hint = try #require(catalog.swappedCoordinateHint(for: typed))
    #expect(catalog.swappedCoordinateHint(for: typed, nearestDistance: nearest) == hint)
    // The distance given is the one used: a store 1 km away is no reason to suspect a swap.
    #expect(catalog.swappedCoordinateHint(for: typed, nearestDistance: .kilometers(1)) == nil)
    let close = try #require(catalog.nearest(1, to: Self.customer).first?.distance)
    #expect(catalog.swappedCoordinateHint(for: Self.customer, nearestDistance: close) == nil)
  }

  @Test func aFarAwayCustomerIsNotTakenForASwap() throws {
    let catalog = try Self.catalog(Self.feature("a", north: 0.001, hours: nil))
    // 600 km from the store, and the swapped reading (Kazakhstan) is no closer.
    #expect(catalog.swappedCoordinateHint(for: try Coordinate(latitude: 48.0, longitude: 20.0)) == nil)
    // A longitude beyond ±90 cannot be a latitude.
    #expect(catalog.swappedCoordinateHint(for: try Coordinate(latitude: 13.40, longitude: 152.52)) == nil)
  }
}
