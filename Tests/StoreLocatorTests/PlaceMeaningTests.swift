import Foundation
import GeoIndex
import Testing

@testable import StoreLocator

/// Place names as people mean them (issue 34): a name several places have is the one that
/// outweighs the others, with them as alternatives; a bias, a country and the catalog's
/// countries settle the rest; suggestions rank own names before other names. The expectations
/// come from the rows of `Data/timezones/places.tsv` (`PlaceIndexTests.rows`), not from the
/// index's output.
@Suite struct PlaceMeaningTests {
  typealias Row = PlaceIndexTests.Row

  func index() throws -> PlaceIndex { try PlaceIndex.bundled() }

  /// The rows with `name` as their own name, most populous first.
  static func named(_ name: String) -> [Row] {
    let key = PlaceNameFolding.folded(name)
    return PlaceIndexTests.rows.filter { PlaceNameFolding.folded($0.name) == key }
      .sorted { $0.population > $1.population }
  }

  // MARK: A name one place outweighs

  /// The big city typed alone is that city, with its namesakes as alternatives: the rows say the
  /// city is at least 10 times as populous as every other place of the name.
  @Test(arguments: [
    ("London", "GB"), ("Berlin", "DE"), ("Sydney", "AU"), ("Moscow", "RU"), ("Delhi", "IN"),
    ("Toronto", "CA"), ("Rome", "IT"), ("Dublin", "IE"), ("Boston", "US"), ("Los Angeles", "US"),
    ("Paris", "FR"),
  ])
  func aBigCityTypedAloneIsThatCity(_ name: String, _ country: String) throws {
    let rows = PlaceIndexTests.contenders(PlaceNameFolding.folded(name))
      .sorted { $0.population > $1.population }
    try #require(rows.count > 1, "\(name) is one place's name: the test needs namesakes")
    #expect(rows[0].country == country)
    #expect(Double(rows[0].population) >= PlaceIndex.dominance * Double(rows[1].population))
    let found = try index().resolve(name)
    #expect(found.place.name == rows[0].name)
    #expect(found.place.countryCode == country)
    #expect(found.place.population == rows[0].population)
    #expect(found.alternatives.count == min(rows.count - 1, PlaceIndex.maximumCandidates))
    #expect(found.alternatives.first?.population == rows[1].population)
    #expect(!found.alternatives.contains(found.place))
  }

  /// "Cologne" is the own name of a town of 7,032 in Lombardy and another name of Köln
  /// (1,024,621): over 100 times, so Köln.
  @Test func anotherNameOfAFarLargerPlaceIsThatPlace() throws {
    let town = try #require(Self.named("Cologne").first)
    #expect(town.country == "IT")
    let koeln = try #require(
      PlaceIndexTests.rows.first { $0.alternates.contains("Cologne") && $0.country == "DE" })
    #expect(koeln.population > PlaceIndex.alternateNameDominance * town.population)
    let found = try index().resolve("Cologne")
    #expect(found.place.name == koeln.name)
    #expect(found.matchedName == "Cologne")
    #expect(found.alternatives.map(\.countryCode) == ["IT"])
  }

  /// Springfield: no place of the name is 10 times every other. Refused without a bias; with
  /// one near Illinois' capital, that Springfield.
  @Test func springfieldNeedsABias() throws {
    let springfields = Self.named("Springfield")
    #expect(Double(springfields[0].population) < PlaceIndex.dominance * Double(springfields[1].population))
    let index = try index()
    #expect(throws: PlaceLookupError.self) { try index.resolve("Springfield") }
    let bias = try Coordinate(latitude: 39.8, longitude: -89.6)
    let found = try index.resolve("Springfield", preferring: PlacePreference(bias: bias))
    #expect(found.place.division == "Illinois")
    #expect(found.place.countryCode == "US")
    #expect(found.alternatives.contains { $0.division == "Missouri" })
    // Near Missouri's, Missouri's.
    let ozarks = try Coordinate(latitude: 37.2, longitude: -93.3)
    #expect(
      try index.resolve("Springfield", preferring: PlacePreference(bias: ozarks)).place.division == "Missouri"
    )
    // A bias far from every Springfield leaves them as they are.
    let tokyo = try Coordinate(latitude: 35.7, longitude: 139.7)
    #expect(throws: PlaceLookupError.self) {
      try index.resolve("Springfield", preferring: PlacePreference(bias: tokyo))
    }
    // A bias near London, Ontario: that London.
    let ontario = try Coordinate(latitude: 43.0, longitude: -81.2)
    let london = try index.resolve("London", preferring: PlacePreference(bias: ontario))
    #expect(london.place.countryCode == "CA")
    #expect(london.alternatives.first?.countryCode == "GB")
  }

  @Test func aCountryNarrowsTheNamesakes() throws {
    let index = try index()
    let london = try index.resolve("London", preferring: PlacePreference(country: "CA"))
    #expect(london.place.division == "Ontario")
    #expect(london.alternatives.contains { $0.countryCode == "GB" })
    let australian = Self.named("Springfield").filter { $0.country == "AU" }
    try #require(australian.count == 1)
    let springfield = try index.resolve("Springfield", preferring: PlacePreference(country: "AU"))
    #expect(springfield.place.countryCode == "AU")
    #expect(springfield.place.population == australian[0].population)
    // A country with none of them weighs them all.
    #expect(throws: PlaceLookupError.self) {
      try index.resolve("Springfield", preferring: PlacePreference(country: "JP"))
    }
  }

  /// The catalog's countries settle only what nothing else does: a chain in Australia means
  /// Australia's Springfield; a chain in the United States still means Russia's Moscow.
  @Test func theCatalogsCountriesAreTheLastResort() throws {
    let index = try index()
    let springfield = try index.resolve("Springfield", preferring: PlacePreference(storeCountries: ["AU"]))
    #expect(springfield.place.countryCode == "AU")
    let moscow = try index.resolve("Moscow", preferring: PlacePreference(storeCountries: ["US"]))
    #expect(moscow.place.countryCode == "RU")
    // A bias goes first: the catalog's countries are not used with one.
    let bias = try Coordinate(latitude: 39.8, longitude: -89.6)
    let withBias = try index.resolve(
      "Springfield", preferring: PlacePreference(bias: bias, storeCountries: ["AU"]))
    #expect(withBias.place.division == "Illinois")
  }

  // MARK: Suggestions

  @Test func ownNamesComeBeforeOtherNames() throws {
    let index = try index()
    #expect(index.search("sea", limit: 1).first?.place.name == "Seattle")
    #expect(index.search("a", limit: 1).first?.matchedName == nil)
    let newY = index.search("new y", limit: 2)
    #expect(newY.first?.place.name == "New York City")
    #expect(!newY.contains { $0.place.name == "Jakarta" })
    #expect(!index.search("São", limit: 10).contains { $0.place.name == "Rio de Janeiro" })
    let lond = index.search("lond", limit: 10)
    #expect(
      !lond.contains {
        $0.matchedName == "Londinium Orientale" || $0.matchedName == "London Borough of Brent"
      })
    // Other names still find their places: München, Zurigo, Bombay.
    #expect(index.search("munchen", limit: 1).first?.place.name == "Munich")
    #expect(index.search("bombay", limit: 1).first?.place.name == "Mumbai")
  }

  /// Over the starts (1 to 4 letters) of the 100 most populous places' names, the first place
  /// a search offers is never one found by another name while an own name matches too, unless
  /// it is the place typed.
  @Test func theLargestPlacesStartsOfferOwnNamesFirst() throws {
    let index = try index()
    let largest = PlaceIndexTests.rows.sorted { $0.population > $1.population }.prefix(100)
    var offenders: [String] = []
    for row in largest {
      let key = PlaceNameFolding.folded(row.name)
      for length in 1...min(4, key.count) {
        let prefix = String(key.prefix(length))
        guard let first = index.search(prefix, limit: 1).first, let matched = first.matchedName else {
          continue
        }
        let ownMatches = PlaceIndexTests.rows.contains { PlaceNameFolding.folded($0.name).hasPrefix(prefix) }
        if ownMatches { offenders.append("\(prefix): \(first.place.name) as \(matched)") }
      }
    }
    #expect(offenders.isEmpty, "\(offenders)")
  }

  @Test func aQualifiedNameSearchesAsItResolves() throws {
    let index = try index()
    let seattle = index.search("seattle, wa", limit: 5)
    #expect(seattle.first?.place.label == "Seattle, Washington, US")
    #expect(seattle.allSatisfy { $0.place.divisionCode == "WA" })
    #expect(index.search("Paris, TX", limit: 1).first?.place.division == "Texas")
    // The last qualifier as it is being typed.
    #expect(index.search("perth, wes", limit: 1).first?.place.division == "Western Australia")
    #expect(index.search("perth, sc", limit: 1).first?.place.countryCode == "GB")
    // A comma just typed narrows nothing.
    #expect(index.search("seattle,", limit: 1).first?.place.name == "Seattle")
    #expect(index.search("seattle, zz", limit: 5).isEmpty)
  }

  @Test func didYouMeanOffersOnlyTheNamesNearTheBest() throws {
    let index = try index()
    for (typed, expected, never) in [
      ("Seatle", "Seattle", "Châtelet"), ("Gotham", "Gotha", "North Melbourne"),
      ("Berln", "Berlin", "Bergen"),
    ] {
      do {
        let found = try index.resolve(typed)
        Issue.record("\(typed) was resolved to \(found.place.label)")
      } catch {
        #expect(error.suggestions.first?.name == expected, "\(typed): \(error.suggestions.map(\.label))")
        #expect(
          !error.suggestions.contains { $0.name == never }, "\(typed): \(error.suggestions.map(\.label))")
      }
    }
  }
}
