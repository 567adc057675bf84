import GeoIndex
import Testing

@testable import StoreLocator

/// Catalog queries against brute force over the same records, with stores that have no location
/// mixed in so the mapping between index points and records is exercised.
@Suite struct CatalogQueryTests {
  static func makeCatalog() -> Catalog {
    var generator = QueryTestRandom(seed: 7)
    var stores: [Store] = []
    for position in 0..<3000 {
      let located = position % 17 != 0
      let coordinate =
        located
        ? Coordinate(
          uncheckedLatitude: generator.uniform(in: -60...70), longitude: generator.uniform(in: -180...180))
        : nil
      var properties = JSONObject()
      properties["name"] = .string("Store \(position)")
      properties["drive_through"] = .string(position % 10 == 3 ? "yes" : "no")
      stores.append(
        Store(
          id: "s\(position)", idSource: .feature, coordinate: coordinate, properties: properties,
          timezone: position % 2 == 0 ? "Europe/Berlin" : nil,
          position: SourcePosition(featureIndex: position, line: position + 2, column: 1)))
    }
    return Catalog(stores: stores, source: "generated")
  }

  let catalog = makeCatalog()

  func bruteForce(_ center: Coordinate, where filter: StoreFilter = .all) -> [(id: String, meters: Double)] {
    catalog.stores.enumerated()
      .compactMap { position, store -> (Int, String, Double)? in
        guard let coordinate = store.coordinate, filter.matches(store) else { return nil }
        return (position, store.id, center.distance(to: coordinate).meters)
      }
      .sorted { ($0.2, $0.0) < ($1.2, $1.0) }
      .map { (id: $0.1, meters: $0.2) }
  }

  @Test(arguments: [(10.0, 20.0), (-45.0, 179.9), (69.0, -179.99), (0.0, 0.0)])
  func nearestEqualsBruteForce(_ latitude: Double, _ longitude: Double) throws {
    let center = try Coordinate(latitude: latitude, longitude: longitude)
    let expected = bruteForce(center).prefix(25)
    let found = catalog.nearest(25, to: center)
    #expect(found.map(\.store.id) == expected.map(\.id))
    let filter = try StoreFilter(parsing: ["drive_through=yes"])
    let filtered = catalog.nearest(25, to: center, where: filter)
    #expect(filtered.map(\.store.id) == bruteForce(center, where: filter).prefix(25).map(\.id))
    #expect(filtered.count == 25)
  }

  @Test func radiusEqualsBruteForce() throws {
    let center = try Coordinate(latitude: 30, longitude: 30)
    let radius = Distance.kilometers(1500)
    let expected = bruteForce(center).filter { $0.meters <= radius.meters }
    #expect(catalog.stores(within: radius, of: center).map(\.store.id) == expected.map(\.id))
  }

  @Test func boxAcrossTheAntimeridianInInputOrder() throws {
    let box = try GeoBox(west: 170, south: -30, east: -170, north: 30)
    let expected = catalog.stores.filter { $0.coordinate.map(box.contains) ?? false }.map(\.id)
    let found = catalog.stores(in: box)
    #expect(!found.isEmpty)
    #expect(found.map(\.store.id) == expected)
    #expect(found.allSatisfy { $0.distance == nil })
  }

  @Test func storesWithoutLocationAreFoundByIDButNotBySearch() throws {
    let store = try #require(catalog.store(withID: "s17"))
    #expect(store.coordinate == nil)
    #expect(catalog.indexedCount == catalog.stores.count - catalog.stores.count { $0.coordinate == nil })
    #expect(catalog.store(withID: "nope") == nil)
  }

  @Test func summaryCountsAndBounds() throws {
    let summary = catalog.summary
    #expect(summary.recordCount == 3000)
    #expect(summary.indexedCount == catalog.indexedCount)
    #expect(summary.timezones.first?.value == "Europe/Berlin")
    #expect(summary.storesWithoutTimezone == 1500)
    let bounds = try #require(summary.bounds)
    #expect(bounds.south >= -60 && bounds.north <= 70)
  }

  @Test func attributesAreThePropertiesWithFewShortValues() throws {
    var stores: [Store] = []
    // 256 stores: 16 values shared among them all is the most d² ≤ m allows.
    for position in 0..<256 {
      var properties = JSONObject()
      properties["ref"] = .string("\(position)")  // a value per store: not an attribute
      properties["amenity"] = .string("cafe")  // the same everywhere: no use as a filter
      properties["wheelchair"] = .string(["yes", "no", "limited"][position % 3])
      if position % 4 == 0 { properties["drive_through"] = .string("yes") }  // one value, not everywhere
      properties["sixteen"] = .string("v\(position % 16)")
      properties["seventeen"] = .string("v\(position % 17)")
      properties["opening_hours"] = .string(position % 2 == 0 ? "24/7" : "Mo-Fr 08:00-18:00")
      properties["note"] = .string(position == 7 ? String(repeating: "x", count: 41) : "short")
      // Free text: a status sentence, 9 of them among 50 stores (81 > 50), as in Starbucks' data.
      if position < 50 { properties["status_text"] = .string("Open until \(position % 9 + 1):00 PM") }
      // Two values among four stores is the least that is shared enough (2² ≤ 4).
      if position < 4 { properties["smoking"] = .string(position % 2 == 0 ? "no" : "outside") }
      // Contact details, one a store, and a key one store has.
      if position < 5 { properties["phone"] = .string("+61 8 9335 \(2110 + position)") }
      if position == 9 { properties["fee"] = .string("no") }
      stores.append(
        Store(
          id: "s\(position)", idSource: .feature, coordinate: nil, properties: properties, timezone: nil,
          position: SourcePosition(featureIndex: position, line: position + 2, column: 1)))
    }
    let attributes = Catalog(stores: stores, source: "generated").summary.attributes
    #expect(attributes.map(\.key) == ["drive_through", "sixteen", "smoking", "wheelchair"])
    for attribute in attributes {
      var expected: [String: Int] = [:]
      for store in stores {
        if let value = store.properties[attribute.key]?.scalarText { expected[value, default: 0] += 1 }
      }
      #expect(Dictionary(uniqueKeysWithValues: attribute.values.map { ($0.value, $0.count) }) == expected)
      #expect(attribute.values.map(\.count) == attribute.values.map(\.count).sorted(by: >))
    }
    // One store fewer and sixteen values are too many for the stores that share them.
    let fewer = Catalog(stores: Array(stores.dropLast()), source: "generated").summary.attributes
    #expect(!fewer.map(\.key).contains("sixteen"))
    #expect(fewer.map(\.key).contains("wheelchair"))
  }

  /// A value is counted by its JSON bytes once read: spellings of one text (escapes, canonically
  /// equivalent forms, a number and its digits as a string) count as that text, as many
  /// spellings as there are, and a text no attribute has still ends the key's count.
  @Test func attributeValuesSpelledApartCountAsOneText() throws {
    // Each "z" of "zzzz" written as itself, \u007a or \u007A: 81 spellings of one text.
    let zSpellings = ["z", "\\u007a", "\\u007A"]
    var features: [String] = []
    for index in 0..<162 {
      var spelled = ""
      var rest = index % 81
      for _ in 0..<4 {
        spelled += zSpellings[rest % 3]
        rest /= 3
      }
      let kind = ["A", "\\u0041", "B"][index % 3]
      let cafe = ["café", "caf\\u00e9", "cafe\u{301}", "bar"][index % 4]
      let level = index % 2 == 0 ? "1" : "\"1\""
      let later = index == 150 ? "{\"nested\": 1}" : "\"x\(index % 2)\""
      features.append(
        """
        {"type": "Feature", "id": "s\(index)", "geometry": {"type": "Point", "coordinates": [\(index % 90), 10]},
         "properties": {"zz": "\(spelled)", "kind": "\(kind)", "cafe": "\(cafe)", "level": \(level), "later": \(later)}}
        """)
    }
    let text = "{\"type\": \"FeatureCollection\", \"features\": [" + features.joined(separator: ",\n") + "]}"
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "spellings.geojson", options: .loaderOnly)
    let attributes = Dictionary(
      uniqueKeysWithValues: catalog.summary.attributes.map {
        ($0.key, $0.values.map { "\($0.value)=\($0.count)" })
      })
    #expect(attributes["zz"] == nil)  // one text every store has: no attribute, but counted whole
    #expect(attributes["kind"] == ["A=108", "B=54"])
    #expect(attributes["cafe"] == ["café=122", "bar=40"])
    #expect(attributes["level"] == nil)  // "1" for every store
    #expect(attributes["later"] == nil)  // a structured value ends the count
    // The same tallies with a text that is not "zzzz" among the 81 spellings' stores.
    let odd = text.replacingOccurrences(of: #""zz": "z\u007az\u007A""#, with: #""zz": "zzzy""#)
    #expect(odd != text)
    let oddCatalog = try Catalog(geoJSON: Array(odd.utf8), source: "odd.geojson", options: .loaderOnly)
    let zz = try #require(oddCatalog.summary.attributes.first { $0.key == "zz" })
    #expect(zz.values.map { "\($0.value)=\($0.count)" } == ["zzzz=160", "zzzy=2"])
  }

  /// What `stores info` offers as filters on the real files (issue 26 §5): Starbucks' status
  /// sentence, phone numbers, street numbers and ids no longer; the service tags still.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
  func corpusAttributesAreCategoriesStoresShare() throws {
    let expected: [String: [String]] = [
      "starbucks_los_angeles.geojson": [
        "addr:city", "drive_through", "starbucks:mobile_order", "starbucks:ownership_type",
      ],
      "osm_cafes_fremantle.geojson": ["building", "smoking", "source", "wheelchair"],
      "atp_dixy_ru.ndgeojson": [],
      "starbucks_manila.geojson": ["addr:city", "addr:state"],
    ]
    for (file, keys) in expected {
      let catalog = try Catalog.load(contentsOf: Corpus.geojson(file), options: .loaderOnly)
      #expect(catalog.summary.attributes.map(\.key) == keys, "\(file)")
    }
  }

  @Test func longitudeSpanPrefersTheNarrowBoxAcrossTheAntimeridian() throws {
    let span = try #require(Catalog.longitudeSpan(of: [178, 179.5, -179.8, -178]))
    #expect(span.west == 178 && span.east == -178)
    let plain = try #require(Catalog.longitudeSpan(of: [10, 20, 15]))
    #expect(plain.west == 10 && plain.east == 20)
    #expect(Catalog.longitudeSpan(of: []) == nil)
  }

  @Test func addressJoinsThePartsAndFlattensNewlines() {
    var properties = JSONObject()
    properties["addr:street_address"] = .string("Brent Civic Centre,\n Engineers Way")
    properties["addr:city"] = .string("Wembley")
    properties["addr:postcode"] = .string("HA9 0FJ")
    let store = Store(
      id: "w", idSource: .feature, coordinate: nil, properties: properties, timezone: nil,
      position: SourcePosition(featureIndex: 0, line: 1, column: 1))
    #expect(store.address == "Brent Civic Centre, Engineers Way, Wembley, HA9 0FJ")
  }
}

/// A small deterministic generator so the test data is the same on every run.
struct QueryTestRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
  mutating func uniform(in range: ClosedRange<Double>) -> Double {
    range.lowerBound + Double(next() >> 11) / Double(1 << 53) * (range.upperBound - range.lowerBound)
  }
}
