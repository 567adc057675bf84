import Foundation
import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// Stores that share an id (real data repeats them): everything about a store follows the record
/// itself, in a catalog built from GeoJSON and in a snapshot of it.
@Suite struct RepeatedIDTests {
  /// Berlin (weekdays 09-17) and New York (06-07 daily), both with the id `x` (or the ref `x`).
  static func geoJSON(idMember: Bool) -> String {
    func feature(_ name: String, _ lon: Double, _ lat: Double, _ hours: String, _ zone: String) -> String {
      let id = idMember ? "\"id\": \"x\", " : ""
      let ref = idMember ? "" : "\"ref\": \"x\", "
      return """
        {"type": "Feature", \(id)"geometry": {"type": "Point", "coordinates": [\(lon), \(lat)]},
         "properties": {\(ref)"name": "\(name)", "opening_hours": "\(hours)", "timezone": "\(zone)"}}
        """
    }
    return """
      {"type": "FeatureCollection", "features": [
      \(feature("Berlin", 13.405, 52.52, "Mo-Fr 09:00-17:00", "Europe/Berlin")),
      \(feature("New York", -74.0, 40.7, "Mo-Su 06:00-07:00", "America/New_York"))]}
      """
  }

  static let newYork = try! Coordinate(latitude: 40.7, longitude: -74.0)
  /// Mon 2026-11-23 15:00 UTC: 16:00 in Berlin (open), 10:00 in New York (closed).
  static let monday = Instant(secondsSinceEpoch: 1_795_446_000)

  /// The catalog read from GeoJSON, and the same catalog written to a snapshot and mapped back.
  static func catalogs(idMember: Bool) throws -> [Catalog] {
    let catalog = try Catalog(geoJSON: Array(geoJSON(idMember: idMember).utf8), source: "dup.geojson")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-repeated-\(UUID().uuidString).snap"
    ).path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try catalog.writeSnapshot(to: path)
    return [catalog, try Catalog.load(contentsOf: path)]
  }

  @Test(arguments: [true, false])
  func eachStoreKeepsItsOwnHoursAndTimeZone(idMember: Bool) throws {
    #expect(Self.monday.description == "2026-11-23T15:00:00Z")
    for catalog in try Self.catalogs(idMember: idMember) {
      let matches = catalog.withStatus(catalog.nearest(2, to: Self.newYork), at: .instant(Self.monday))
      #expect(matches.map(\.store.name) == ["New York", "Berlin"])
      let newYork = try #require(matches.first)
      #expect(newYork.status?.state == .closed)
      #expect(newYork.status?.summary == "closed, opens Tue 06:00")
      #expect(catalog.schedule(for: newYork.store)?.timeZone.identifier == "America/New_York")
      #expect(catalog.schedule(for: newYork.store)?.hours.text == "Mo-Su 06:00-07:00")
      #expect(matches[1].status?.summary == "open until 17:00")
    }
  }

  @Test(arguments: [true, false])
  func storesWithIDListsEveryStoreInInputOrder(idMember: Bool) throws {
    for catalog in try Self.catalogs(idMember: idMember) {
      let found = catalog.stores(withID: "x")
      #expect(found.map(\.name) == ["Berlin", "New York"])
      #expect(found.map(\.catalogIndex) == [0, 1])
      #expect(catalog.stores(withID: "y").isEmpty)
      #expect(catalog.store(withID: "x")?.name == "Berlin")
    }
  }

  @Test func aStoreMadeElsewhereIsNotGivenAnotherStoresHours() throws {
    let catalog = try #require(try Self.catalogs(idMember: true).first)
    let loaded = catalog.stores[1]
    // The same record, not taken from the catalog: its id names two stores, so no guess.
    let copy = Store(
      id: loaded.id, idSource: loaded.idSource, coordinate: loaded.coordinate, properties: loaded.properties,
      timezone: loaded.timezone, position: loaded.position)
    #expect(catalog.schedule(for: copy) == nil)
    #expect(catalog.status(of: copy, at: .instant(Self.monday)).state == .unknown)
  }

  @Test func pickupPlansWithTheStoresOwnHours() throws {
    for catalog in try Self.catalogs(idMember: true) {
      let request = PickupRequest(customer: Self.newYork, orderedAt: Self.monday, ready: .after(seconds: 300))
      let plan = try catalog.planPickup(request)
      // New York is closed at 10:05 its time; Berlin's hours must not make it eligible.
      #expect(plan.status == .none)
      #expect(plan.passedOver.map(\.reason) == [.closedAtPickup])
    }
  }

  @Test func aChosenIDThatNamesSeveralStoresIsRefused() throws {
    for catalog in try Self.catalogs(idMember: true) {
      let request = PickupRequest(
        customer: Self.newYork, orderedAt: Self.monday, ready: .after(seconds: 300), chosenStoreID: "x")
      #expect {
        try catalog.planPickup(request)
      } throws: { error in
        guard let error = error as? PickupError else { return false }
        return error.kind == .ambiguousStore && error.candidates.map(\.name) == ["Berlin", "New York"]
      }
    }
  }
}

/// `Catalog.ids(resembling:limit:)`: the most similar ids first, not the first in the file.
@Suite struct IDSuggestionTests {
  static func catalog(_ ids: [String]) throws -> Catalog {
    let features = ids.enumerated().map { index, id in
      "{\"type\":\"Feature\",\"id\":\"\(id)\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[\(index),0]},"
        + "\"properties\":{}}"
    }
    let text = "{\"type\":\"FeatureCollection\",\"features\":[" + features.joined(separator: ",") + "]}"
    return try Catalog(geoJSON: Array(text.utf8), source: "ids.geojson")
  }

  @Test func closestIDsComeFirst() throws {
    let catalog = try Self.catalog(["store-zzzz", "store-1299", "store-1234", "other-1"])
    #expect(catalog.ids(resembling: "store-1235", limit: 3) == ["store-1234", "store-1299", "store-zzzz"])
    #expect(catalog.ids(resembling: "STORE-1234", limit: 1) == ["store-1234"])
  }

  @Test func typosBeyondThePrefixAndContainedIDsAreFound() throws {
    let catalog = try Self.catalog(["alpha", "nw-0001", "nw-0101"])
    // A typo in the first characters still finds the id a few edits away.
    #expect(catalog.ids(resembling: "mw-0001", limit: 3).first == "nw-0001")
    // Part of an id finds the ids containing it.
    #expect(catalog.ids(resembling: "0101", limit: 1) == ["nw-0101"])
    #expect(catalog.ids(resembling: "zzzzzzzz", limit: 3).isEmpty)
  }

  @Test func repeatedIDsAreSuggestedOnce() throws {
    let catalog = try Self.catalog(["ab-1", "ab-1", "ab-2"])
    #expect(catalog.ids(resembling: "ab-3", limit: 3) == ["ab-1", "ab-2"])
  }
}
