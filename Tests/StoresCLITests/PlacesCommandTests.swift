import Foundation
import GeoIndex
import StoreLocator
import Testing

/// `stores places` and a place name given to `--near`, end to end.
@Suite struct PlacesCommandTests {
  @Test func placesListsTheLibrarysAnswer() throws {
    let outcome = try StoresProcess.run(["places", "zur", "--limit", "3", "--format", "json"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let expected = try PlaceIndex.bundled().answer(
      PlacesRequest(RequestParameters([("q", "zur"), ("limit", "3")], style: .commandLine)))
    #expect(outcome.standardOutput == expected.jsonText)
    let document = try #require(try outcome.json() as? [String: Any])
    let places = try #require(document["places"] as? [[String: Any]])
    #expect(places.count == 3)
    #expect(places.first?["name"] as? String == "Zürich")
    #expect(places.first?["country"] as? String == "CH")

    let text = try StoresProcess.run(["places", "ZURICH", "--limit", "1"])
    #expect(text.status == 0)
    #expect(text.standardOutput.hasPrefix("Zürich, Zürich, CH  47.3667,8.55  population 415,367"))
  }

  @Test func placesWithNearGivesDistances() throws {
    let outcome = try StoresProcess.run(
      ["places", "springfield", "--near", "39.9,-89.6", "--limit", "2", "--format", "json"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let places = try #require((try outcome.json() as? [String: Any])?["places"] as? [[String: Any]])
    #expect(places.first?["division"] as? String == "Illinois")
    #expect((places.first?["distance_m"] as? Double).map { $0 > 1000 && $0 < 20_000 } == true)
  }

  @Test(arguments: [
    (["places", "zur", "--limit", "51"], "--limit must be 1...50 (got 51)"),
    (["places", String(repeating: "x", count: 101)], "QUERY is at most 100 characters (got 101)"),
    (["places", ""], "QUERY is empty"),
  ])
  func placesRefusesBadValues(_ arguments: [String], _ message: String) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
  }

  @Test func nearestTakesAPlaceNameAndSaysWhichPlace() throws {
    let named = try StoresProcess.run(["nearest", "--near", "Seattle", "-k", "3", "--format", "json"])
    let typed = try StoresProcess.run([
      "nearest", "--near", "47.6062,-122.3321", "-k", "3", "--format", "json",
    ])
    #expect(named.status == 0, "\(named.standardError)")
    let namedDocument = try #require(try named.json() as? [String: Any])
    let typedDocument = try #require(try typed.json() as? [String: Any])
    let ids = { (document: [String: Any]) in
      (document["stores"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    }
    #expect(!ids(typedDocument).isEmpty)
    #expect(ids(namedDocument) == ids(typedDocument))
    let place = try #require((namedDocument["query"] as? [String: Any])?["near_place"] as? [String: Any])
    #expect(place["name"] as? String == "Seattle")
    #expect(place["division"] as? String == "Washington")
    #expect((typedDocument["query"] as? [String: Any])?["near_place"] == nil)
    #expect(named.standardError.contains("stores: near: Seattle, Washington, US"))

    let text = try StoresProcess.run(["nearest", "--near", "seattle", "-k", "1"])
    #expect(text.status == 0)
    #expect(
      text.standardOutput.hasPrefix("near: Seattle, Washington, US (47.6062,-122.3321; population 780,995)\n")
    )
  }

  @Test func anAmbiguousPlaceIsRefusedWithItsCandidates() throws {
    let outcome = try StoresProcess.run(["nearest", "--near", "Springfield"])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("--near: 'Springfield' names"), "\(outcome.standardError)")
    #expect(outcome.standardError.contains("Springfield, Missouri, US (population 170,188)"))
    #expect(outcome.standardOutput.isEmpty)
    let qualified = try StoresProcess.run(["nearest", "--near", "Springfield, Illinois, US", "-k", "1"])
    #expect(qualified.status == 0, "\(qualified.standardError)")
    #expect(qualified.standardOutput.hasPrefix("near: Springfield, Illinois, US"))
  }

  /// The big cities typed alone: that city, and the others of the name on the note.
  @Test(arguments: [
    ("London", "London, England, GB", "London, Ontario, CA"), ("Berlin", "Berlin, Berlin, DE", "Berlín"),
    ("Sydney", "Sydney, New South Wales, AU", "Sydney, Nova Scotia, CA"),
    ("Moscow", "Moscow, Moskva, RU", "Moscow, Idaho, US"), ("Delhi", "Delhi, Delhi, IN", "Delhi, "),
    ("Cologne", "Köln, Nordrhein-Westfalen, DE", "Cologne, Lombardia, IT"),
  ])
  func aBigCityTypedAloneIsThatCity(_ name: String, _ label: String, _ alternative: String) throws {
    let outcome = try StoresProcess.run(["nearest", "--near", name, "-k", "1"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let first = outcome.standardOutput.split(separator: "\n").first.map(String.init) ?? ""
    #expect(first.hasPrefix("near: \(label) ("), "\(first)")
    #expect(first.contains("; also named so: \(alternative)"), "\(first)")
  }

  @Test func aBiasSettlesSpringfieldAndSearchesRankOwnNamesFirst() throws {
    let refused = try StoresProcess.run(["nearest", "--near", "Springfield"])
    #expect(refused.status == 64)
    #expect(refused.standardError.contains("--bias LAT,LON"), "\(refused.standardError)")
    let biased = try StoresProcess.run([
      "nearest", "--near", "Springfield", "--bias", "39.8,-89.6", "-k", "1",
    ])
    #expect(biased.status == 0, "\(biased.standardError)")
    #expect(biased.standardOutput.hasPrefix("near: Springfield, Illinois, US"))
    let country = try StoresProcess.run(["within", "--near", "London", "--country", "CA", "--radius", "1km"])
    #expect(country.standardOutput.hasPrefix("near: London, Ontario, CA"), "\(country.standardError)")
    let sea = try StoresProcess.run(["places", "sea", "--limit", "2"])
    #expect(sea.standardOutput.hasPrefix("Seattle, Washington, US "))
    let qualified = try StoresProcess.run(["places", "seattle, wa", "--limit", "1"])
    #expect(qualified.standardOutput.hasPrefix("Seattle, Washington, US "))
  }

  @Test func anUnknownPlaceSuggestsCloseNames() throws {
    let outcome = try StoresProcess.run(["within", "--near", "Fremantel", "--radius", "5km"])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("no place is named 'Fremantel'"), "\(outcome.standardError)")
    #expect(
      outcome.standardError.contains("did you mean Fremantle, Western Australia, AU"),
      "\(outcome.standardError)")
  }
}
