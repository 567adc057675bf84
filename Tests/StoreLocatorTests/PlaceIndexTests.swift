import Foundation
import GeoIndex
import Testing

@testable import StoreLocator

/// Finding places by name (`PlaceIndex`) in the bundled GeoNames places. The expected places come
/// from reading `Data/timezones/places.tsv` here, field by field, not from the index's output.
@Suite struct PlaceIndexTests {
  /// The rows of the bundled file: (country, admin1, name, population, division, alternates).
  struct Row {
    let latitude: Double
    let longitude: Double
    let country: String
    let admin1: String
    let name: String
    let population: Int
    let division: String
    let alternates: [String]
  }

  static let rows: [Row] = {
    guard let text = try? String(contentsOfFile: TimeZoneLocator.bundledPath, encoding: .utf8) else {
      return []
    }
    return text.split(separator: "\n").compactMap { line in
      guard !line.hasPrefix("#") else { return nil }
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
      guard fields.count == 10 else { return nil }
      return Row(
        latitude: Double(fields[0])!, longitude: Double(fields[1])!, country: fields[3], admin1: fields[4],
        name: fields[5], population: Int(fields[6])!, division: fields[7],
        alternates: fields[8].split(separator: "|").map(String.init))
    }
  }()

  func index() throws -> PlaceIndex { try PlaceIndex.bundled() }

  func row(_ name: String, _ country: String, _ admin1: String) throws -> Row {
    try #require(Self.rows.first { $0.name == name && $0.country == country && $0.admin1 == admin1 })
  }

  // MARK: Folding

  @Test(arguments: [
    ("Zürich", "zurich"), ("ZÜRICH", "zurich"), ("Zu\u{308}rich", "zurich"), ("Straße", "strasse"),
    ("Saint-Étienne", "saint etienne"), ("  St. John's ", "st johns"), ("O’Fallon", "ofallon"),
    ("Łódź", "lodz"), ("Ærøskøbing", "aeroskobing"), ("Kraków", "krakow"), ("İzmir", "izmir"),
    ("Москва", "москва"), ("東京", "東京"), ("São Paulo", "sao paulo"), ("Þórshöfn", "thorshofn"),
  ])
  func foldingIgnoresCaseAccentsAndPunctuation(_ text: String, _ key: String) {
    #expect(PlaceNameFolding.folded(text) == key)
  }

  // MARK: Search

  @Test func theFileHasThePopulationsAndAlternateNames() throws {
    let index = try index()
    #expect(index.count == Self.rows.count)
    #expect(index.count == 69_472)
    #expect(index.nameCount > index.count * 2)
    let seattle = try row("Seattle", "US", "WA")
    #expect(seattle.population > 700_000)
    #expect(seattle.division == "Washington")
  }

  @Test func aPrefixFindsPlacesInAnyCaseAndWithoutAccents() throws {
    let index = try index()
    let zurich = try row("Zürich", "CH", "ZH")
    for typed in ["zur", "Zür", "ZUR", "zurich", "Zürich", "ZÜRICH", "Zu\u{308}rich"] {
      let found = index.search(typed, limit: 5)
      let first = try #require(found.first, "nothing for \(typed)")
      #expect(first.place.name == "Zürich", "\(typed)")
      #expect(first.place.population == zurich.population)
      #expect(first.place.divisionCode == "ZH")
      #expect(first.place.countryCode == "CH")
    }
    // Every result has a name or an alternate name that starts with the folded query.
    for match in index.search("spring", limit: 50) {
      let names = [match.place.name] + (match.matchedName.map { [$0] } ?? [])
      #expect(names.contains { PlaceNameFolding.folded($0).hasPrefix("spring") }, "\(match.place.label)")
    }
  }

  @Test func anAlternateNameMatchesAndIsReported() throws {
    let index = try index()
    // GeoNames names the city Munich; München is one of its alternate names.
    let munich = try row("Munich", "DE", "02")
    #expect(munich.alternates.contains("München"))
    let first = try #require(index.search("munchen", limit: 3).first)
    #expect(first.place.name == "Munich")
    #expect(first.matchedName == "München")
    #expect(first.jsonObject["matched_name"] == .string("München"))
    // Its own name: no matched_name.
    let own = try #require(index.search("MUNICH", limit: 3).first)
    #expect(own.place.name == "Munich")
    #expect(own.matchedName == nil)
    #expect(own.jsonObject["matched_name"] == nil)
    // Zurigo, Zürich's Italian name.
    let zurigo = try #require(index.search("zurigo", limit: 1).first)
    #expect(zurigo.place.name == "Zürich")
    #expect(zurigo.matchedName == "Zurigo")
  }

  @Test func rankingIsByPopulationWithoutNear() throws {
    let index = try index()
    // The Springfields of the file, most populous first: Missouri's is the largest.
    let springfields = Self.rows.filter { $0.name == "Springfield" }.sorted { $0.population > $1.population }
    #expect(springfields.count >= 10)
    let found = index.search("Springfield", limit: 50).filter { $0.place.name == "Springfield" }
    #expect(found.map(\.place.population) == springfields.map(\.population))
    #expect(found.first?.place.divisionName == "Missouri")
    // Scores never increase, and each is the documented formula.
    for query in ["spr", "lond", "new y", "sea"] {
      let all = index.search(query, limit: 50)
      #expect(zip(all, all.dropFirst()).allSatisfy { $0.score >= $1.score })
      for match in all {
        let key = PlaceNameFolding.folded(query)
        let matched = PlaceNameFolding.folded(match.matchedName ?? match.place.name)
        let whole = matched == key
        var expected = log10(Double(max(match.place.population, 1))) + (whole ? 1.0 : 0)
        if match.matchedName != nil {
          let ownWords = PlaceNameFolding.folded(match.place.name).split(separator: " ")
          let words = matched.split(separator: " ")
          let unrelated = words.count > 1 && !ownWords.contains(words[0])
          expected -= whole ? 2 : unrelated ? 3 : 1.5
        }
        #expect(
          abs(match.score - expected) < 1e-9, "\(query): \(match.place.label) \(match.matchedName ?? "")")
      }
    }
  }

  @Test func nearRanksNearerPlacesFirstAndGivesDistances() throws {
    let index = try index()
    let illinois = try row("Springfield", "US", "IL")
    let near = try Coordinate(latitude: illinois.latitude + 0.1, longitude: illinois.longitude)
    let found = index.search("springfield", near: near, limit: 5)
    let first = try #require(found.first)
    #expect(first.place.divisionCode == "IL")
    #expect(first.place.population == illinois.population)
    let distance = try #require(first.distance)
    #expect(abs(distance.meters - near.distance(to: first.place.coordinate).meters) < 0.001)
    #expect(distance.kilometers > 10 && distance.kilometers < 12)
    let expected =
      log10(Double(illinois.population)) + 1 - 2 * log10(1 + distance.kilometers / 100)
    #expect(abs(first.score - expected) < 1e-9)
    #expect(first.jsonObject["distance_m"] != nil)
    #expect(index.search("springfield", limit: 5).first?.distance == nil)
  }

  @Test func limitsAreKept() throws {
    let index = try index()
    #expect(index.search("s", limit: 1000).count == PlaceIndex.maximumLimit)
    #expect(index.search("s", limit: 3).count == 3)
    #expect(index.search("!!!", limit: 10).isEmpty)
    #expect(index.search("qqqqzzzz", limit: 10).isEmpty)
  }

  // MARK: Resolve

  @Test(arguments: [
    "Seattle", "seattle", " SEATTLE ", "Seattle, WA", "Seattle, Washington, US", "seattle,us",
  ])
  func anUnambiguousNameIsOnePlace(_ text: String) throws {
    let seattle = try row("Seattle", "US", "WA")
    let place = try index().resolve(text).place
    #expect(place.name == "Seattle")
    #expect(place.coordinate == Coordinate(uncheckedLatitude: seattle.latitude, longitude: seattle.longitude))
    #expect(place.division == "Washington")
    #expect(place.label == "Seattle, Washington, US")
  }

  /// The places a name may mean, read from the rows: those whose own name it is, and those with
  /// it as an alternate name that are larger than all of them (all of them when no place has it
  /// as its own).
  static func contenders(_ key: String, in rows: [Row] = rows) -> [Row] {
    let own = rows.filter { PlaceNameFolding.folded($0.name) == key }
    if own.isEmpty {
      let known = rows.filter { $0.alternates.contains { PlaceNameFolding.folded($0) == key } }
        .sorted { $0.population > $1.population }
      if known.count > 1,
        known[0].population > PlaceIndex.alternateNameDominance * max(known[1].population, 1)
      {
        return [known[0]]
      }
      return known
    }
    let largestOwn = own.map(\.population).max() ?? -1
    let others = rows.filter { row in
      PlaceNameFolding.folded(row.name) != key && row.population > largestOwn
        && row.alternates.contains { PlaceNameFolding.folded($0) == key }
    }
    return own + others
  }

  @Test func anAmbiguousNameListsItsCandidatesAndIsNeverGuessed() throws {
    let index = try index()
    // Portland, Oregon (652,503) is under 10 times Portland, Maine (66,881).
    let portlands = Self.contenders("portland")
    #expect(portlands.count > 1)
    do {
      let found = try index.resolve("Portland")
      Issue.record("Portland was resolved to \(found.place.label)")
    } catch {
      #expect(error.kind == .ambiguous)
      #expect(error.candidates.count == min(portlands.count, PlaceIndex.maximumCandidates))
      #expect(error.candidates.first?.division == "Oregon")
      #expect(error.candidates.map(\.population) == error.candidates.map(\.population).sorted(by: >))
      #expect(error.message.contains("'Portland' names \(portlands.count) places"))
      #expect(error.message.contains("Portland, Oregon, US (population 652,503)"))
      #expect(error.message.contains("Portland, Maine, US"))
    }
    // Parys (South Africa, 71,319 people) is also called Paris, but is smaller than Paris: it is
    // not among the places Paris may mean.
    #expect(!Self.contenders("paris").contains { $0.name == "Parys" })
    #expect(try !index.resolve("Paris").alternatives.contains { $0.name == "Parys" })
    do {
      _ = try index.resolve("Springfield, US")
      Issue.record("Springfield, US was resolved")
    } catch {
      // The US places named Springfield; the smaller ones also called so (Powder Springs,
      // Georgia) are not listed.
      let named = Self.contenders("springfield", in: Self.rows.filter { $0.country == "US" })
      #expect(named.count > PlaceIndex.maximumCandidates)
      #expect(error.kind == .ambiguous)
      #expect(error.message.hasPrefix("'Springfield' names \(named.count) places"))
      #expect(error.message.contains("Springfield, Missouri, US (population 170,188)"))
      #expect(error.message.hasSuffix("and \(named.count - PlaceIndex.maximumCandidates) more"))
    }
  }

  /// GeoNames lists "Chicago" among the names of Willard, Ohio; the name is Chicago's own, and
  /// Chicago is the larger: it is meant.
  @Test func aPlacesOwnNameComesBeforeSmallerPlacesOtherNames() throws {
    let index = try index()
    for (name, country, division) in [("Chicago", "US", "Illinois"), ("São Paulo", "BR", "São Paulo")] {
      let key = PlaceNameFolding.folded(name)
      let alsoCalled = Self.rows.filter {
        PlaceNameFolding.folded($0.name) != key
          && $0.alternates.contains { PlaceNameFolding.folded($0) == key }
      }
      #expect(!alsoCalled.isEmpty, "no other place is also called \(name): the test needs one")
      let found = try index.resolve(name)
      #expect(found.place.name == name)
      #expect(found.place.countryCode == country)
      #expect(found.place.division == division)
      #expect(found.matchedName == nil)
    }
  }

  /// No place is named "New York"; New York City, known by it, is over 100 times as populous as
  /// every other place known by it: it is meant. "Kwangchow" (Guangzhou, 16 million, and
  /// Zhanjiang, 1.4 million) is no place's own name either, but neither dwarfs the other.
  @Test func anotherNameTheLargestPlaceFarOutweighsIsThatPlace() throws {
    let index = try index()
    for (name, dominant) in [("New York", true), ("Kwangchow", false)] {
      let key = PlaceNameFolding.folded(name)
      #expect(
        !Self.rows.contains { PlaceNameFolding.folded($0.name) == key }, "\(name) is a place's own name")
      let known = Self.rows.filter { $0.alternates.contains { PlaceNameFolding.folded($0) == key } }
        .sorted { $0.population > $1.population }
      try #require(known.count > 1, "fewer than two places are known as \(name)")
      #expect((known[0].population > PlaceIndex.alternateNameDominance * known[1].population) == dominant)
      if dominant {
        let found = try index.resolve(name)
        #expect(found.place.name == known[0].name)
        #expect(found.place.population == known[0].population)
        #expect(found.matchedName == name)
      } else {
        #expect(throws: PlaceLookupError.self) { try index.resolve(name) }
      }
    }
  }

  /// "St. Petersburg" is the own name of the one in Florida and another name of the far larger
  /// Saint Petersburg in Russia: both are listed, neither is guessed.
  @Test func anotherNameOfALargerPlaceKeepsAnOwnNameAmbiguous() throws {
    let index = try index()
    let expected = Self.contenders("st petersburg")
    #expect(Set(expected.map(\.country)).isSuperset(of: ["US", "RU"]))
    do {
      let found = try index.resolve("St. Petersburg")
      Issue.record("St. Petersburg was resolved to \(found.place.label)")
    } catch {
      #expect(error.kind == .ambiguous)
      #expect(error.candidates.count == min(expected.count, PlaceIndex.maximumCandidates))
      #expect(error.candidates.first?.name == "Saint Petersburg")
      #expect(error.candidates.contains { $0.label == "St. Petersburg, Florida, US" })
    }
  }

  @Test(arguments: [
    ("Paris, FR", "FR", "11"), ("Paris, TX", "US", "TX"), ("paris,texas", "US", "TX"),
    ("Springfield, IL", "US", "IL"), ("Springfield, Illinois, US", "US", "IL"),
    ("Springfield, AU", "AU", "04"),
    // ISO 3166-2 codes where GeoNames' are numbers, and division names.
    ("Perth, WA", "AU", "08"), ("Perth, Western Australia", "AU", "08"), ("Perth, ON", "CA", "08"),
    ("London, ON", "CA", "08"), ("Sydney, NSW", "AU", "02"), ("Paris, Île-de-France", "FR", "11"),
    ("Perth, Scotland, GB", "GB", "SCT"),
  ])
  func qualifiersNarrowANameToOnePlace(_ text: String, _ country: String, _ division: String) throws {
    let place = try index().resolve(text).place
    #expect(place.countryCode == country)
    #expect(place.divisionCode == division)
  }

  @Test func anUnknownNameSuggestsCloseNames() throws {
    let index = try index()
    do {
      _ = try index.resolve("Seatle")
      Issue.record("Seatle was resolved")
    } catch {
      #expect(error.kind == .unknown)
      #expect(error.suggestions.first?.name == "Seattle")
      #expect(error.message.contains("no place is named 'Seatle'"))
      #expect(error.message.contains("did you mean Seattle, Washington, US"))
      #expect(error.message.contains("LAT,LON"))
    }
    do {
      _ = try index.resolve("Springfield, Alaska")
      Issue.record("Springfield, Alaska was resolved")
    } catch {
      #expect(error.kind == .unknown)
      #expect(error.message.contains("no place named 'Springfield' is in 'Alaska'"))
    }
  }

  @Test(arguments: ["", " ", ",", "Paris,", "Paris, Texas, US, Earth", String(repeating: "a", count: 101)])
  func malformedNamesAreRefused(_ text: String) throws {
    let index = try index()
    do throws(PlaceLookupError) {
      _ = try index.resolve(text)
      Issue.record("\(text) was resolved")
    } catch { #expect(error.kind == .malformed) }
  }

  // MARK: Time zones are unchanged

  /// The search's columns change nothing for time zones: a locator built from the first six
  /// fields (the file before they were added) answers every point as the bundled file does.
  @Test func timeZonesAreTheSameWithAndWithoutTheSearchColumns() throws {
    let text = try String(contentsOfFile: TimeZoneLocator.bundledPath, encoding: .utf8)
    let sixFields = text.split(separator: "\n").map { line in
      line.hasPrefix("#")
        ? String(line)
        : line.split(separator: "\t", omittingEmptySubsequences: false).prefix(6).joined(separator: "\t")
    }.joined(separator: "\n")
    #expect(sixFields != text)
    let old = try TimeZoneLocator(bytes: Array(sixFields.utf8), source: "six fields")
    let new = try TimeZoneLocator(contentsOf: TimeZoneLocator.bundledPath)
    #expect(old.count == new.count)
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<2000 {
      let point = Coordinate(
        uncheckedLatitude: Double.random(in: -80...80, using: &generator),
        longitude: Double.random(in: -180...180, using: &generator))
      let country = ["US", "DE", "FR", nil, "CA"].randomElement(using: &generator)!
      #expect(old.timeZone(near: point, country: country) == new.timeZone(near: point, country: country))
    }
    for row in Self.rows.prefix(500) {
      let point = Coordinate(uncheckedLatitude: row.latitude, longitude: row.longitude)
      #expect(new.timeZone(near: point)?.placeName == old.timeZone(near: point)?.placeName)
    }
  }
}
