import Foundation
import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// The store table: records come back from their rows as they went in, answers rendered from the
/// rows are the bytes of the `JSONValue` path, texts are kept once, and a damaged row of a table
/// read without verifying it whole is found by its digest.
@Suite struct StoreTableTests {
  static let bundled = try! Catalog.load(contentsOf: DefaultData.bundledPath)

  /// The catalogs to check: the bundled stores with hours, and every corpus store file.
  static func catalogs() throws -> [Catalog] {
    var catalogs = [bundled]
    guard Corpus.isAvailable else { return catalogs }
    let directory = Corpus.directory + "/geojson"
    for name in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
      if let catalog = try? Catalog.load(contentsOf: directory + "/" + name), !catalog.stores.isEmpty {
        catalogs.append(catalog)
      }
    }
    return catalogs
  }

  @Test func recordsComeBackFromTheirRowsAsTheyWentIn() throws {
    let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: DefaultData.bundledPath)))
    let read = try bytes.withUnsafeBufferPointer {
      GeoJSONReader.read($0, source: "stores.geojson", keepingRecords: true)
    }.get()
    // Without hours the loader changes nothing: each row makes the record it was built from.
    let catalog = Catalog(stores: read.stores, diagnostics: read.diagnostics, source: "stores.geojson")
    #expect(catalog.stores.count == read.stores.count)
    for (position, original) in read.stores.enumerated() {
      var expected = original
      expected.catalogIndex = position
      #expect(catalog.stores[position] == expected)
    }
    #expect(catalog.diagnostics == read.diagnostics)
  }

  /// Records whose keys repeat the record before's, or not quite: the same keys in another
  /// order, one more or one fewer, a key that is canonically equivalent but not the same bytes
  /// (`é` composed and decomposed are two keys in JSON), and keys of the same lengths that differ
  /// only in their last byte, far into the row's keys. Each row gives back its own keys in order.
  @Test func keysLikeThePreviousRecordsAreTheirOwn() throws {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    let keySets: [[String]] = [
      ["a", "b"], ["a", "b"], ["b", "a"], ["a", "b", "c"], ["a", "b"], [composed], [decomposed],
      [decomposed], [], [], ["a", "b"], ["opening_hours", "brand", "name"],
      ["opening_hours", "brand", "namf"],
      ["opening_hours", "brand", "namf"],
    ]
    let stores = keySets.enumerated().map { index, keys in
      Store(
        id: "s\(index)", idSource: .feature,
        coordinate: try? Coordinate(latitude: 1, longitude: Double(index)),
        properties: JSONObject(keys.map { JSONObject.Member(key: $0, value: .string("\($0)-\(index)")) }),
        timezone: nil, position: SourcePosition(featureIndex: index, line: index + 1, column: 1))
    }
    let catalog = Catalog(stores: stores, diagnostics: [], source: "keys")
    for (position, keys) in keySets.enumerated() {
      let properties = catalog.stores[position].properties
      #expect(properties.map { Array($0.key.utf8) } == keys.map { Array($0.utf8) }, "row \(position)")
      #expect(properties.map(\.value) == keys.map { .string("\($0)-\(position)") }, "row \(position)")
    }
  }

  /// Records whose keys are those of an earlier record, not the last: three key lists
  /// alternating (as a chain's optional keys come and go), then more lists than the builder
  /// remembers, revisited in a random order, among them lists that differ only in order, in
  /// where one key ends and the next begins, or in one byte. Each row gives back its own keys in
  /// order, and the table keeps each distinct list once, numbered as first met.
  @Test func keysOfEarlierRecordsAreTheirOwn() throws {
    let lists: [[String]] = [
      ["ref", "name", "brand"], ["ref", "name", "brand", "drive_through"], ["ref", "name"],
      ["name", "ref", "brand"], ["ref", "nam", "ebrand"], ["ref", "name", "branc"], [],
      ["ref", "name", "brand", "drive_through", "phone"], ["phone"], ["ref", "name", "drive_through"],
      ["brand", "name", "ref"], ["ref", "name", "brand", "phone"],
    ]
    var random = SplitMix64(seed: 35)
    let picks =
      (0..<300).map { _ in Int.random(in: 0..<3, using: &random) }
      + (0..<900).map { _ in Int.random(in: 0..<lists.count, using: &random) }
    let stores = picks.enumerated().map { index, list in
      Store(
        id: "s\(index)", idSource: .feature,
        coordinate: try? Coordinate(latitude: 1, longitude: Double(index % 360) - 180),
        properties: JSONObject(
          lists[list].map { JSONObject.Member(key: $0, value: .string("\($0)-\(index)")) }),
        timezone: nil, position: SourcePosition(featureIndex: index, line: index + 1, column: 1))
    }
    let catalog = Catalog(stores: stores, diagnostics: [], source: "keys")
    for (position, list) in picks.enumerated() {
      let properties = catalog.stores[position].properties
      #expect(properties.map(\.key) == lists[list], "row \(position)")
      #expect(properties.map(\.value) == lists[list].map { .string("\($0)-\(position)") }, "row \(position)")
    }
    // Each shape is two numbers: where its keys start in the shape keys, and how many.
    let shapes = catalog.table.sections[.shapes]!.count / 8
    #expect(shapes == Set(picks).count)
    var firstMet: [Int] = []
    for list in picks where !firstMet.contains(list) { firstMet.append(list) }
    let shapeKeys = UnsafeRawBufferPointer(
      rebasing: catalog.table.memory.bytes[catalog.table.sections[.shapeKeys]!])
    #expect(shapeKeys.count / 4 == firstMet.reduce(0) { $0 + lists[$1].count })
  }

  /// Every store of every catalog, with and without a distance and a status: the row's rendering
  /// is the tree's, for the JSON object and the GeoJSON feature.
  @Test func answersRenderedFromRowsAreTheBytesOfTheTreePath() throws {
    let time = TimeQuery.instant(Instant(secondsSinceEpoch: 1_790_000_000))
    var checked = 0
    for catalog in try Self.catalogs() {
      for position in catalog.stores.indices {
        let store = catalog.stores[position]
        let status = catalog.status(of: store, at: time)
        for (distance, status) in [(nil, nil), (Distance(meters: 1234.5678), status)] {
          let row = StoreMatch(table: catalog.table, position: position, distance: distance, status: status)
          let tree = StoreMatch(store: store, distance: distance, status: status)
          var rendered = JSONBytes()
          row.writeJSON(to: &rendered)
          #expect(rendered.text == JSONValue.object(tree.jsonObject).jsonText, "store \(store.id)")
          var feature = JSONBytes()
          row.writeGeoJSONFeature(to: &feature)
          #expect(feature.text == JSONValue.object(tree.geoJSONFeature).jsonText, "store \(store.id)")
          checked += 1
        }
      }
    }
    #expect(checked > 2 * Self.bundled.stores.count - 1)
  }

  /// The status texts an answer writes in place (`status_text`, `next_change`) when they hold
  /// what JSON escapes: a comment, a closure's reason and a service's note with quotes, a line
  /// break and a tab. The row's bytes are the tree's, and they read back as the status's texts.
  @Test func statusTextsThatNeedEscapesAreWrittenEscaped() throws {
    let catalog = Self.bundled
    let zone = try TimeZoneRules(identifier: "America/Los_Angeles")
    let now = Instant(secondsSinceEpoch: 1_790_000_000)
    var open = StoreStatus(
      instant: now, status: OpeningStatus(state: .open, comment: "ask for \"Sam\"\nat the door"),
      nextChange: now + 5_400, nextState: .closed, timeZone: zone)
    open.hoursNote = "the store's\thours"
    var closed = StoreStatus(
      instant: now, status: .closed, nextChange: now + 86_400 * 9, nextState: .open, timeZone: zone)
    closed.temporaryClosure = .init(reason: "flood \"B\" wing", until: now + 86_400 * 8)
    let unknown = StoreStatus(
      instant: now, status: .unknown, nextChange: nil, timeZone: nil, unavailableReason: "no \"hours\"")
    for status in [open, closed, unknown] {
      let row = StoreMatch(table: catalog.table, position: 0, distance: nil, status: status)
      let tree = StoreMatch(store: catalog.stores[0], distance: nil, status: status)
      var rendered = JSONBytes()
      row.writeJSON(to: &rendered)
      #expect(rendered.text == JSONValue.object(tree.jsonObject).jsonText)
      let object = try #require(
        try JSONSerialization.jsonObject(with: Data(rendered.bytes)) as? [String: Any])
      #expect(object["status_text"] as? String == status.summary)
      #expect(object["next_change"] as? String == status.nextChange.map(status.formatted))
      #expect(status.summary.contains("\""))
    }
  }

  /// Chains repeat values: each distinct text is in the arena once, so two stores of a brand
  /// point at the same bytes.
  @Test func repeatedValuesAreKeptOnce() throws {
    let catalog = try load(
      """
      {"type": "FeatureCollection", "features": [
      {"type": "Feature", "id": "a", "geometry": {"type": "Point", "coordinates": [1, 2]},
       "properties": {"brand": "Northwind", "drive_through": "yes"}},
      {"type": "Feature", "id": "b", "geometry": {"type": "Point", "coordinates": [3, 4]},
       "properties": {"brand": "Northwind", "drive_through": "yes", "note": "Northwind"}}
      ]}
      """)
    let table = catalog.table
    let brand = try #require(table.keyNumber(of: "brand"))
    let first = try #require(table.valueJSON(key: brand, at: 0))
    let second = try #require(table.valueJSON(key: brand, at: 1))
    #expect(first.baseAddress == second.baseAddress && first.count == second.count)
    let note = try #require(table.keyNumber(of: "note"))
    #expect(table.valueJSON(key: note, at: 1)?.baseAddress == first.baseAddress)
    #expect(table.valueJSON(key: note, at: 0) == nil)
    #expect(String(decoding: first, as: UTF8.self) == "\"Northwind\"")
  }

  /// The byte-level filter of a search decides every condition as `Condition.matches` does on
  /// the store: strings, `;` lists, arrays, booleans against `yes`/`no`, numbers, escapes, null,
  /// empty and absent values.
  @Test func rowFiltersDecideAsTheStoreFilterDoes() throws {
    let values = [
      #""yes""#, #""no""#, #""true""#, #""false""#, "true", "false", "null", #""""#, "5", "-2.50", #""5""#,
      #""coffee_shop;donut""#, #""donut ; yes""#, #"["yes","x"]"#, #"["no",true]"#, #"{"a":"yes"}"#,
      #""y\"es""#, #""ye\u0073""#, #""Yes""#, #""a;  b  c ;true;;""#, #"" ; ""#, #""x;false""#,
      #""donut;\u0001""#, "\"\u{212A}\"", "\"Cafe\u{301};x\"", #""Café""#, #""K;x""#,
    ]
    let features = values.enumerated().map { index, value in
      """
      {"type": "Feature", "id": "s\(index)", "geometry": {"type": "Point", "coordinates": [\(index), 1]},
       "properties": {"tag": \(value), "other": "yes"}}
      """
    }
    let catalog = try load(
      #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",") + "]}")
    #expect(catalog.stores.count == values.count)
    let words = [
      "yes", "no", "true", "false", "5", "-2.50", "donut", "coffee_shop", "x", "", "y\"es", "Yes", "b c", "a",
      "K", "Café", " ",
    ]
    var conditions = [StoreFilter.Condition(key: "tag", test: .present)]
    conditions += [StoreFilter.Condition(key: "missing", test: .present)]
    for word in words {
      conditions += [
        StoreFilter.Condition(key: "tag", test: .equals(word)),
        StoreFilter.Condition(key: "tag", test: .notEquals(word)),
        StoreFilter.Condition(key: "missing", test: .equals(word)),
        StoreFilter.Condition(key: "missing", test: .notEquals(word)),
      ]
    }
    var decided = 0
    for condition in conditions {
      let filter = StoreFilter([condition, StoreFilter.Condition(key: "other", test: .equals("yes"))])
      let rows = RowFilter(filter, table: catalog.table)
      for position in catalog.stores.indices {
        let store = catalog.stores[position]
        #expect(
          rows.matches(catalog.table, at: position) == filter.matches(store),
          "\(condition) on \(store.properties["tag"].map { JSONValue.object(JSONObject([.init(key: "tag", value: $0)])).jsonText } ?? "-")"
        )
        decided += 1
      }
    }
    #expect(decided == conditions.count * values.count)
  }

  /// `suggestedIndexConditions` reads the rows' JSON texts; it suggests what counting the records'
  /// values does (the rule written out here), and the indexed bits are the records' answers.
  /// The suggestions, one store after another from the records: the definition.
  static func suggestions(of catalog: Catalog) -> [StoreFilter.Condition] {
    var keys: [String] = []
    var counts: [String: [String: Int]] = [:]
    var saturated: Set<String> = []
    for store in catalog.stores {
      for member in store.properties where !saturated.contains(member.key) {
        guard let text = member.value.scalarText, !text.isEmpty, text.utf8.count <= 40 else { continue }
        if counts[member.key] == nil {
          keys.append(member.key)
          counts[member.key] = [:]
        }
        counts[member.key]![text, default: 0] += 1
        if counts[member.key]!.count > 16 {
          saturated.insert(member.key)
          counts[member.key] = nil
        }
      }
    }
    var expected: [StoreFilter.Condition] = []
    for key in keys where !saturated.contains(key) {
      for (value, count) in counts[key]!.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) })
      where count < catalog.stores.count {
        expected.append(StoreFilter.Condition(key: key, test: .equals(value)))
      }
    }
    return Array(expected.prefix(64))
  }

  /// Suggestions are tallied on every processor, a run of stores each: a key whose values are
  /// few in each run but many in all is saturated, a key first seen late comes after the others,
  /// and counts add up across the runs.
  @Test func suggestionsAddUpAcrossTheRunsOfStores() throws {
    let count = 4 * 4096
    var features: [String] = []
    for index in 0..<count {
      let half = index * 2 / count
      // `split`: 10 values in each half, 20 in all; `late`: only in the second half; `few`:
      // 3 values everywhere, rarer in the first half.
      let split = "v\(half * 10 + index % 10)"
      let few = index % (half == 0 ? 7 : 2) == 0 ? "rare" : "often\(index % 2)"
      let late = half == 1 ? #", "late": "x\#(index % 3)""# : ""
      features.append(
        """
        {"type": "Feature", "id": "s\(index)", "geometry": {"type": "Point", "coordinates": [\(index % 360 - 180), 0]},
         "properties": {"split": "\(split)", "few": "\(few)"\(late)}}
        """)
    }
    let catalog = try load(
      #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",") + "]}")
    let suggested = catalog.suggestedIndexConditions()
    #expect(suggested == Self.suggestions(of: catalog))
    #expect(!suggested.contains { $0.key == "split" })
    #expect(suggested.last?.key == "late")
  }

  /// Values are told apart by their unit in the arena, and one text may be many units: here
  /// each text is written in eight ways (each "é" composed or not), 128 spellings of 16 texts,
  /// more than a key keeps units for. They still count as one text each, and a key saturates by
  /// its texts (17), not its spellings.
  @Test func suggestionsCountATextWrittenManyWaysOnce() throws {
    func spelled(_ text: Int, _ way: Int) -> String {
      (0..<3).map { way >> $0 & 1 == 0 ? "\u{E9}" : "e\u{301}" }.joined() + "\(text)"
    }
    var features: [String] = []
    // Every text 24 times; then the first 50 more times in its last spelling, which the key meets
    // after it has kept all the units it keeps: counted by text, it then comes last.
    for index in 0..<(16 * 8 * 3 + 50) {
      let way = index < 16 * 8 * 3 ? index / 16 % 8 : 7
      let text = index < 16 * 8 * 3 ? index % 16 : 0
      features.append(
        """
        {"type": "Feature", "id": "s\(index)", "geometry": {"type": "Point", "coordinates": [\(index % 360 - 180), 0]},
         "properties": {"few": "\(spelled(text, way))", "many": "\(spelled(index % 17, way))"}}
        """)
    }
    let catalog = try load(
      #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",") + "]}")
    let suggested = catalog.suggestedIndexConditions()
    #expect(suggested == Self.suggestions(of: catalog))
    #expect(suggested.count == 16 && suggested.allSatisfy { $0.key == "few" })
    #expect(suggested.last == StoreFilter.Condition(key: "few", test: .equals(spelled(0, 0))))
  }

  @Test func indexSuggestionsAndBitsFromRowsAreThoseOfTheRecords() throws {
    for catalog in try Self.catalogs() {
      let expected = Self.suggestions(of: catalog)
      let suggested = catalog.suggestedIndexConditions()
      #expect(suggested == Array(expected.prefix(64)), "\(catalog.source)")

      // Each store's bits (through a search that needs every indexed condition in turn) are the
      // records' answers.
      let indexed = catalog.indexing(suggested)
      for condition in suggested.prefix(8) {
        let filter = StoreFilter([condition])
        let everywhere = indexed.stores(
          within: .meters(20_100_000), of: Coordinate(uncheckedLatitude: 0, longitude: 0), where: filter)
        let found = Set(everywhere.map(\.store.catalogIndex))
        let wanted = Set(
          catalog.stores.filter { $0.coordinate != nil && filter.matches($0) }.map(\.catalogIndex))
        #expect(found == wanted, "\(catalog.source): \(condition)")
      }
    }
  }

  /// A table larger than the open-time check reads each row against its digest: a byte changed in
  /// a value (with the section checksums resealed, as a forger would) is found for exactly the
  /// stores whose rows refer to that byte, and `verify` refuses the file.
  @Test func aDamagedRowFailsItsDigest() throws {
    let bytes = Self.bundled.snapshotBytes()
    var forgery = try SnapshotForgery(bytes)
    // A byte inside the value of the first property of store 0.
    let damagedByte = Int(SnapshotForgery.word(forgery[.members], at: 0, size: 4)) + 1
    forgery[.texts][damagedByte] ^= 0x01
    let table = Self.bundled.table
    let arena = table.memory.base + table.sections[.texts]!.lowerBound
    func refers(_ position: Int) -> Bool {
      var texts = [
        table.idBytes(at: position), table.displayJSON(0, at: position), table.displayJSON(1, at: position),
      ]
      table.forEachMember(at: position) { _, value in texts.append(value) }
      return texts.contains { text in
        let start = text.baseAddress.map { $0 - arena } ?? -1
        return (start..<start + text.count).contains(damagedByte)
      }
    }
    let expected = table.storeCount > 0 ? (0..<table.storeCount).filter(refers) : []
    #expect(expected.first == 0)
    for (name, file) in [("intact", bytes), ("forged", forgery.bytes())] {
      let path = try SnapshotTests.write(file, name: name)
      defer { try? FileManager.default.removeItem(atPath: path) }
      let opened = try StoreTable.map(path, options: LoadOptions(), verifiedOnOpen: 0)
      #expect(opened.table.checksRows)
      let damaged = (0..<opened.table.storeCount).filter { !opened.table.rowIsIntact($0) }
      #expect(damaged == (name == "intact" ? [] : expected))
      let catalog = Catalog(table: opened.table, tree: opened.tree, storePositions: opened.storePositions)
      if name == "intact" {
        try catalog.verifySnapshotRecords()
      } else {
        #expect(throws: CatalogError.self) { try catalog.verifySnapshotRecords() }
      }
    }
  }

  /// The loaded catalog and its snapshot are one representation: the snapshot's store columns
  /// are the loaded catalog's bytes.
  @Test func aSnapshotIsTheLoadedTable() throws {
    let loaded = Self.bundled
    let reopened = try SnapshotTests.reopened(loaded)
    for section: SnapshotFormat.Section in [
      .rows, .rowChecksums, .members, .keys, .texts, .guesses, .idOrder, .shapes, .shapeKeys, .places,
      .diagnostics,
    ] {
      let a = UnsafeRawBufferPointer(rebasing: loaded.table.memory.bytes[loaded.table.sections[section]!])
      let b = UnsafeRawBufferPointer(rebasing: reopened.table.memory.bytes[reopened.table.sections[section]!])
      #expect(a.elementsEqual(b), "\(section.name)")
    }
  }
}
