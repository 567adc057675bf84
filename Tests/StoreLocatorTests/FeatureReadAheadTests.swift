import Foundation
import Testing

@testable import StoreLocator

/// Reading a large features array on several threads must give exactly what reading alone gives:
/// the same stores (positions included), the same diagnostics in the same order, the same errors.
@Suite("Loading: reading ahead on several threads")
struct FeatureReadAheadTests {
  /// Plans that cut even small inputs into stretches: a few, many, and more than there are lines;
  /// then in windows of a few features, and of less than one.
  static let plans: [FeatureReadAhead.Plan] =
    [2, 3, 5, 16, 200].map { FeatureReadAhead.Plan(minimumBytes: 0, minimumStretchBytes: 1, stretches: $0) }
    + [(3, 1_500), (2, 400), (4, 60)].map {
      FeatureReadAhead.Plan(minimumBytes: 0, minimumStretchBytes: 1, stretches: $0.0, windowBytes: $0.1)
    }

  @Test func cleanCollectionIsReadAheadWhole() throws {
    let text = Generated.collection(count: 300, seed: 1, clean: true)
    let bytes = Array(text.utf8)
    let read = bytes.withUnsafeBufferPointer { buffer in
      let first = text.utf8.firstIndex(of: UInt8(ascii: "["))!.utf16Offset(in: text) + 1
      return FeatureReadAhead.Window.start(
        .array, base: buffer.baseAddress!, first: first, end: buffer.count, windowEnd: buffer.count,
        coordinatesUnusable: false, plan: Self.plans[2]
      )?.finish()
    }
    guard let stretches = read, Self.runIntoEachOther(stretches) else {
      Issue.record(
        "expected every stretch to run into the next, got \(read.map { "\($0.count) stretches" } ?? "none")")
      return
    }
    // The last feature, before ']', is read in order.
    #expect(stretches.reduce(0) { $0 + $1.features.count } == 299)
    expectSameAsAlone(bytes)
  }

  @Test func brokenStretchIsTakenOneByOne() throws {
    var text = Generated.collection(count: 300, seed: 2, clean: true)
    // A syntax error in the middle: the stretch with it stops there, and the reader reports it.
    let middle = text.index(text.startIndex, offsetBy: text.utf8.count / 2)
    text.insert(contentsOf: "}", at: middle)
    let bytes = Array(text.utf8)
    let read = bytes.withUnsafeBufferPointer { buffer in
      let first = text.utf8.firstIndex(of: UInt8(ascii: "["))!.utf16Offset(in: text) + 1
      return FeatureReadAhead.Window.start(
        .array, base: buffer.baseAddress!, first: first, end: buffer.count, windowEnd: buffer.count,
        coordinatesUnusable: false, plan: Self.plans[2]
      )?.finish()
    }
    guard let stretches = read, !Self.runIntoEachOther(stretches) else {
      Issue.record(
        "expected stretches to be taken one by one, got \(read.map { "\($0.count) stretches" } ?? "none")")
      return
    }
    expectSameAsAlone(bytes)
  }

  @Test("generated collections, with every kind of feature", arguments: [false, true])
  func generatedCollections(clean: Bool) {
    for seed in 0..<8 {
      expectSameAsAlone(Array(Generated.collection(count: 120, seed: UInt64(seed), clean: clean).utf8))
    }
  }

  @Test("generated newline-delimited features, with every kind of feature", arguments: [false, true])
  func generatedRecords(clean: Bool) {
    for seed in 0..<8 {
      expectSameAsAlone(Array(Generated.records(count: 120, seed: UInt64(seed), clean: clean).utf8))
    }
  }

  @Test func cleanRecordsAreReadAheadWhole() {
    let text = Generated.records(count: 300, seed: 7, clean: true)
    let bytes = Array(text.utf8)
    let read = bytes.withUnsafeBufferPointer { buffer in
      FeatureReadAhead.Window.start(
        .records, base: buffer.baseAddress!, first: 0, end: buffer.count, windowEnd: buffer.count,
        coordinatesUnusable: false, plan: Self.plans[2]
      )?.finish()
    }
    guard let stretches = read, Self.runIntoEachOther(stretches) else {
      Issue.record(
        "expected every stretch to run into the next, got \(read.map { "\($0.count) stretches" } ?? "none")")
      return
    }
    // Every record, the last one too: the input may end after it.
    #expect(stretches.reduce(0) { $0 + $1.features.count } == 300)
    #expect(stretches.last?.resume == bytes.count)
    expectSameAsAlone(bytes)
  }

  @Test func recordsThatAreNotPlainFeatures() {
    let text = Generated.records(count: 60, seed: 8, clean: true)
    var lines = text.split(separator: "\n").map(String.init)
    // A collection among the records, a Feature with its own time zone and crs, a Feature with a
    // features member, a bare geometry, two objects on one line, and text that is not an object.
    lines[10] = Generated.collection(count: 3, seed: 9, clean: true).replacingOccurrences(of: "\n", with: "")
    lines[20] = lines[20].replacingOccurrences(
      of: #"{"type":"Feature","#, with: #"{"type":"Feature","timezone":"Asia/Tokyo","#)
    lines[25] = lines[25].replacingOccurrences(
      of: #"{"type":"Feature","#,
      with: #"{"type":"Feature","crs":{"type":"name","properties":{"name":"EPSG:3857"}},"#)
    lines[30] = lines[30].replacingOccurrences(
      of: #"{"type":"Feature","#, with: #"{"type":"Feature","features":[],"#)
    lines[35] = #"{"type":"Point","coordinates":[1,2]}"#
    lines[40] = lines[40] + " " + lines[41]
    lines[45] = "not json"
    expectSameAsAlone(Array((lines.joined(separator: "\n") + "\n").utf8))
    expectSameAsAlone(Array(lines.joined(separator: "\n").utf8))
  }

  @Test func layouts() {
    let text = Generated.collection(count: 80, seed: 3, clean: false)
    // CRLF line ends, a byte-order mark, the first feature on the header's line, features indented,
    // a collection with a time zone and one with a projected crs, several collections in a row.
    let variants = [
      text.replacingOccurrences(of: "\n", with: "\r\n"),
      "\u{FEFF}" + text,
      text.replacingOccurrences(of: "[\n", with: "["),
      text.replacingOccurrences(of: "\n{", with: "\n  \t{"),
      text.replacingOccurrences(of: #""features""#, with: #""timezone":"Europe/Paris","features""#),
      text.replacingOccurrences(
        of: #""features""#, with: #""crs":{"type":"name","properties":{"name":"EPSG:3857"}},"features""#),
      text + "\n" + Generated.collection(count: 50, seed: 4, clean: true) + "\n"
        + Generated.collection(count: 50, seed: 5, clean: false),
    ]
    for variant in variants { expectSameAsAlone(Array(variant.utf8)) }
  }

  /// Errors at and around every place the plans cut the input: each stretch then starts inside a
  /// broken feature, or just after one, or its first feature is the broken one.
  @Test("errors near the cuts", arguments: [false, true])
  func errorsNearTheCuts(records: Bool) {
    let text =
      records
      ? Generated.records(count: 40, seed: 6, clean: true)
      : Generated.collection(count: 40, seed: 6, clean: true)
    let base = Array(text.utf8)
    let first = records ? 0 : base.firstIndex(of: UInt8(ascii: "["))! + 1
    var places = Set<Int>()
    for plan in [Self.plans[1], Self.plans[3], Self.plans[6]] {
      let starts = base.withUnsafeBufferPointer {
        FeatureReadAhead.stretchStarts(base: $0.baseAddress!, first: first, end: $0.count, plan: plan)
      }
      for start in starts { places.formUnion(max(0, start - 3)...min(base.count - 1, start + 3)) }
    }
    let insertions: [[UInt8]] =
      ["{", "}", "]", ",", "\"", "\\", "\n{", "é"].map { Array($0.utf8) } + [[0xFF]]
    let plans = [Self.plans[1], Self.plans[3], Self.plans[6]]
    for place in places.sorted() {
      var deleted = base
      deleted.remove(at: place)
      expectSameAsAlone(deleted, plans: plans)
      expectSameAsAlone(Array(base[..<place]), plans: plans)
      for insertion in insertions {
        var inserted = base
        inserted.insert(contentsOf: insertion, at: place)
        expectSameAsAlone(inserted, plans: plans)
      }
    }
  }

  @Test("the real-world corpus", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
  func corpus() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: Corpus.directory + "/geojson")
    for name in names.sorted() where name.hasSuffix("json") && !name.hasSuffix(".jsonl") {
      let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: Corpus.geojson(name))))
      expectSameAsAlone(bytes, plans: [Self.plans[0], Self.plans[3], Self.plans[5]])
    }
  }

  @Test func automaticPlanReadsLargeFilesAheadOnlyWithSeveralProcessors() {
    let plan = FeatureReadAhead.Plan.automatic
    #expect(plan.minimumBytes >= 1 << 20)
    // A window at a time, so that a large file's records are never all in memory.
    #expect(plan.windowBytes < 1 << 30)
    #expect(FeatureReadAhead.Plan.sequential.minimumBytes == .max)
  }

  /// Whether each stretch read clean features up to where the next starts.
  private static func runIntoEachOther(_ stretches: [FeatureReadAhead.Stretch]) -> Bool {
    zip(stretches, stretches.dropFirst()).allSatisfy { $0.resume == $1.start }
  }

  private func expectSameAsAlone(
    _ bytes: [UInt8], plans: [FeatureReadAhead.Plan] = plans,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let alone = read(bytes, .sequential)
    // A plan with windows also reads with the pages read past given back: what was given back
    // reads as zeros, so a reader that looked back at it would find other bytes and differ.
    let readings =
      plans.map { (plan: $0, releasing: false) }
      + plans.filter { $0.windowBytes < .max }.map { (plan: $0, releasing: true) }
    for (plan, releasing) in readings {
      switch (alone, read(bytes, plan, releasing: releasing)) {
      case (.success(let expected), .success(let found)):
        // The first difference, not the whole arrays: they can be long.
        #expect(
          firstDifference(found.stores, expected.stores) == nil, "stores", sourceLocation: sourceLocation)
        #expect(
          firstDifference(found.diagnostics.map(\.description), expected.diagnostics.map(\.description))
            == nil,
          "diagnostics", sourceLocation: sourceLocation)
        #expect(found.diagnostics == expected.diagnostics, sourceLocation: sourceLocation)
      case (.failure(let expected), .failure(let found)):
        #expect(found == expected, sourceLocation: sourceLocation)
      case (let expected, let found):
        Issue.record("read alone: \(expected); read ahead: \(found)", sourceLocation: sourceLocation)
      }
    }
  }

  /// The first place where `found` differs from `expected`, as text; `nil` when they are equal.
  private func firstDifference<Element: Equatable>(_ found: [Element], _ expected: [Element]) -> String? {
    for (index, (one, other)) in zip(found, expected).enumerated() where one != other {
      return "at \(index): \(one), expected \(other)"
    }
    return found.count == expected.count ? nil : "\(found.count) elements, expected \(expected.count)"
  }

  private func read(_ bytes: [UInt8], _ plan: FeatureReadAhead.Plan, releasing: Bool = false) -> Result<
    GeoJSONReader.Output, CatalogError
  > {
    guard releasing else {
      return bytes.withUnsafeBufferPointer {
        GeoJSONReader.read($0, source: "test.geojson", readAhead: plan, keepingRecords: true)
      }
    }
    // Memory of its own, from a page boundary, as a file read whole is.
    let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1 << 12)
    defer { copy.deallocate() }
    copy.copyMemory(from: bytes, byteCount: bytes.count)
    return GeoJSONReader.read(
      UnsafeBufferPointer(start: copy.assumingMemoryBound(to: UInt8.self), count: bytes.count),
      source: "test.geojson", readAhead: plan, keepingRecords: true, releasingReadBytes: true)
  }

  /// Without records kept, a reading thread writes each feature's keys and values into its
  /// stretch's drafts and lets the properties go, and the next window is read while the reader
  /// takes one: the catalog made from those rows is the catalog of reading alone, store for store
  /// (properties, ids, positions, locations) and diagnostic for diagnostic.
  @Test("rows from drafts whose records were let go", arguments: [false, true])
  func rowsFromDraftsAreThoseOfReadingAlone(clean: Bool) throws {
    // Each plan with windows, with and without the pages read past given back; one without.
    let windowed = Self.plans.filter { $0.windowBytes < .max }
    let readings = windowed.map { ($0, false) } + windowed.map { ($0, true) } + [(Self.plans[3], false)]
    for seed in 0..<4 {
      for text in [
        Generated.collection(count: 150, seed: UInt64(seed), clean: clean),
        Generated.records(count: 150, seed: UInt64(seed), clean: clean),
      ] {
        let bytes = Array(text.utf8)
        let alone = try catalog(bytes, .sequential)
        for (plan, releasing) in readings {
          let found = try catalog(bytes, plan, releasing: releasing)
          #expect(found.stores.count == alone.stores.count)
          #expect(
            firstDifference(Array(found.stores), Array(alone.stores)) == nil,
            "seed \(seed), plan \(plan), releasing \(releasing)")
          #expect(found.diagnostics == alone.diagnostics, "seed \(seed), releasing \(releasing)")
        }
      }
    }
  }

  /// The catalog of `bytes` read with `plan`, its records not kept, without hours; `releasing`:
  /// with the pages read past given back, from memory of its own.
  private func catalog(_ bytes: [UInt8], _ plan: FeatureReadAhead.Plan, releasing: Bool = false) throws
    -> Catalog
  {
    let copy = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1 << 12)
    defer { copy.deallocate() }
    copy.copyMemory(from: bytes, byteCount: bytes.count)
    var output = try GeoJSONReader.read(
      UnsafeBufferPointer(start: copy.assumingMemoryBound(to: UInt8.self), count: bytes.count),
      source: "test.geojson", readAhead: plan, releasingReadBytes: releasing
    ).get()
    #expect(output.assembly.records == nil)
    return try Catalog(
      assembling: &output.assembly, diagnostics: output.diagnostics, source: "test", hours: nil)
  }

  /// Reading with the pages read past given back does give them back: a window's pages read as
  /// zeros after the reader has passed them. (Without this the comparisons above would pass with
  /// nothing given back.)
  @Test func pagesReadPastAreGivenBack() throws {
    #if os(Linux)
      let text = Generated.collection(count: 2_000, seed: 3, clean: true)
      let bytes = Array(text.utf8)
      try #require(bytes.count > 16 << 12)
      let copy = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 1 << 12)
      defer { copy.deallocate() }
      copy.copyMemory(from: bytes, byteCount: bytes.count)
      let plan = FeatureReadAhead.Plan(
        minimumBytes: 0, minimumStretchBytes: 1, stretches: 2, windowBytes: 4_000)
      let output = try GeoJSONReader.read(
        UnsafeBufferPointer(start: copy.assumingMemoryBound(to: UInt8.self), count: bytes.count),
        source: "test.geojson", readAhead: plan, releasingReadBytes: true
      ).get()
      #expect(output.assembly.count == 2_000)
      let given = UnsafeRawBufferPointer(start: copy, count: 8 << 12)
      #expect(given.allSatisfy { $0 == 0 }, "the first pages still hold the file's bytes")
      let kept = UnsafeRawBufferPointer(start: copy + bytes.count - 100, count: 100)
      #expect(kept.elementsEqual(bytes[(bytes.count - 100)...]), "the last window's bytes were given back")
    #endif
  }
}

/// Store files made up for these tests, the same for the same seed.
private enum Generated {
  /// A FeatureCollection of `count` features, one a line. Unless `clean`, some features get
  /// diagnostics of their own (generated ids, null or polygon geometries, swapped coordinates,
  /// a duplicate key); either way some ids and refs repeat, and strings have escapes and non-ASCII.
  static func collection(count: Int, seed: UInt64, clean: Bool) -> String {
    var random = SplitMix(state: seed)
    var lines: [String] = []
    for index in 0..<count {
      let kind = clean ? random.next() % 6 : random.next() % 12
      let id = kind == 1 && index > 3 ? "s\(index - 3)" : "s\(index)"
      let longitude = Double(random.next() % 3_600_000) / 10_000 - 180
      let latitude = Double(random.next() % 1_800_000) / 10_000 - 90
      var properties = #""ref":"\#(random.next() % UInt64(count))","brand":"Meridian Coffee Roasters""#
      switch kind {
      case 2: properties += #","name":"Caf\u00e9 \"Nord\" \\ Süd 東京","opening_hours":"Mo-Fr 07:00-19:00""#
      case 3: properties += #","timezone":"Europe/Berlin","website":"https://example.com/stores/\#(index)""#
      case 4:
        properties += #","addr:street_address":"\#(random.next() % 9999) Station Road","n":[1,{"a":null}]"#
      default: break
      }
      var geometry = #"{"type":"Point","coordinates":[\#(longitude),\#(latitude)]}"#
      var idMember = index % 7 == 5 ? #""id":\#(index),"# : #""id":"\#(id)","#
      switch kind {
      case 6: idMember = ""
      case 7: geometry = "null"
      case 8: geometry = #"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]]}"#
      case 9: geometry = #"{"type":"Point","coordinates":[\#(latitude),\#(longitude + 200)]}"#
      case 10: properties += #","brand":"Other""#
      case 11: properties += #","name":"half \ud800 a pair""#
      default: break
      }
      lines.append(#"{"type":"Feature",\#(idMember)"geometry":\#(geometry),"properties":{\#(properties)}}"#)
    }
    return #"{"type":"FeatureCollection","features":["# + "\n" + lines.joined(separator: ",\n") + "\n]}\n"
  }

  /// The same features as `collection`, as newline-delimited GeoJSON.
  static func records(count: Int, seed: UInt64, clean: Bool) -> String {
    let text = collection(count: count, seed: seed, clean: clean)
    let lines = text.split(separator: "\n").dropFirst().dropLast()
    return lines.map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }.joined(separator: "\n") + "\n"
  }

  struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }
}
