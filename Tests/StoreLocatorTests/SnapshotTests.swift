import Foundation
import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// Snapshots: a catalog read back from one answers exactly as the catalog it was written from,
/// and a damaged or outdated one is refused with the command that rebuilds it.
@Suite struct SnapshotTests {
  static let original: Catalog = {
    let catalog = try! Catalog.load(contentsOf: DefaultData.bundledPath)
    return catalog.indexing(catalog.suggestedIndexConditions())
  }()
  static let bytes = original.snapshotBytes()

  static func write(_ bytes: [UInt8], name: String = "snapshot") throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-test-\(name)-\(UUID().uuidString).snap"
    ).path
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return path
  }

  static func reopened(_ catalog: Catalog) throws -> Catalog {
    let path = try write(catalog.snapshotBytes())
    defer { try? FileManager.default.removeItem(atPath: path) }
    let snapshot = try Catalog.load(contentsOf: path)
    #expect(snapshot.isSnapshot)
    return snapshot
  }

  @Test func recordsDiagnosticsAndSummaryComeBackEqual() throws {
    let snapshot = try Self.reopened(Self.original)
    #expect(snapshot.stores.count == Self.original.stores.count)
    #expect(Array(snapshot.stores) == Array(Self.original.stores))
    #expect(snapshot.diagnostics == Self.original.diagnostics)
    #expect(
      snapshot.summary.jsonObject.filter { $0.key != "snapshot" }
        == Self.original.summary.jsonObject.filter { $0.key != "snapshot" })
    #expect(snapshot.summary.snapshotPath != nil && Self.original.summary.snapshotPath == nil)
    #expect(snapshot.indexedConditions == Self.original.indexedConditions)
    #expect(snapshot.source == DefaultData.bundledPath)
    for store in Self.original.stores.prefix(50) {
      #expect(snapshot.store(withID: store.id) == store)
    }
    #expect(snapshot.store(withID: "no-such-store") == nil)
    #expect(snapshot.store(withID: "") == nil)
  }

  @Test func queriesAndHoursAnswerTheSame() throws {
    let snapshot = try Self.reopened(Self.original)
    let filters = [StoreFilter.all, try StoreFilter(parsing: ["drive_through=yes"])]
    let now = Instant.now()
    for (i, store) in Self.original.stores.enumerated() where i % 40 == 0 {
      let center = try #require(store.coordinate)
      let open = OpeningRequirement(time: .instant(now + Int64(i) * 3_917))
      for filter in filters {
        #expect(
          snapshot.nearest(10, to: center, where: filter, open: open)
            == Self.original.nearest(10, to: center, where: filter, open: open))
      }
      #expect(
        snapshot.stores(within: .kilometers(5), of: center)
          == Self.original.stores(within: .kilometers(5), of: center))
      for hours in 0..<6 {
        let time = TimeQuery.instant(now + Int64(hours) * 4 * 3_600)
        #expect(snapshot.status(of: store, at: time) == Self.original.status(of: store, at: time))
      }
    }
  }

  /// A corpus file with records the loader had to skip or flag: missing geometry, a duplicate ref.
  @Test(.enabled(if: Corpus.isAvailable, Corpus.skipMessage))
  func corpusFileComesBackEqual() throws {
    let original = try Catalog.load(contentsOf: Corpus.geojson("starbucks_worldwide_2017.geojson"))
    let snapshot = try Self.reopened(original)
    #expect(Array(snapshot.stores) == Array(original.stores))
    #expect(snapshot.diagnostics == original.diagnostics)
    #expect(snapshot.indexedCount == original.indexedCount)
    for id in ["8029", "19773-160973", "1"] {
      #expect(snapshot.store(withID: id) == original.store(withID: id), "id \(id)")
    }
  }

  /// The expected refusal: bad data, a reason, and the command that rebuilds the snapshot.
  static func expectRefused(
    _ bytes: [UInt8], _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let path = try write(bytes, name: "bad")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      let catalog = try Catalog(snapshotAt: path)
      Issue.record(
        "opened a bad snapshot with \(catalog.stores.count) stores", sourceLocation: sourceLocation)
    } catch {
      #expect(error.kind == .badData, sourceLocation: sourceLocation)
      #expect(error.message.contains(reason), "\(error.message)", sourceLocation: sourceLocation)
      #expect(
        error.message.contains("rebuild it with 'stores snapshot build"), sourceLocation: sourceLocation)
    }
  }

  @Test func truncatedSnapshotsAreRefused() throws {
    for length in [8, 63, 64, 200, Self.bytes.count / 2, Self.bytes.count - 1] {
      try Self.expectRefused(Array(Self.bytes.prefix(length)), "truncated")
    }
    // Past the header, the message names the GeoJSON file to rebuild from.
    try Self.expectRefused(Array(Self.bytes.prefix(Self.bytes.count - 1)), DefaultData.bundledPath)
    try Self.expectRefused(Self.bytes + [0], "too many")
  }

  /// Every byte the checksums verified on open cover, flipped at a sample of positions.
  @Test func corruptedSnapshotsAreRefused() throws {
    let covered = try Self.coveredRanges(Self.bytes, lazy: false)
    var positions = Array(stride(from: 0, to: 64, by: 5))
    for range in covered {
      positions += [range.lowerBound, (range.lowerBound + range.upperBound) / 2, range.upperBound - 1]
    }
    for position in Set(positions).sorted() where covered.contains(where: { $0.contains(position) }) {
      var damaged = Self.bytes
      damaged[position] ^= 0x40
      let path = try Self.write(damaged, name: "flip")
      defer { try? FileManager.default.removeItem(atPath: path) }
      #expect(throws: CatalogError.self, "byte \(position)") { try Catalog(snapshotAt: path) }
    }
  }

  @Test func otherFormatVersionsAreRefused() throws {
    // The formats before this one among them (5: 8-byte property values, a coordinate in every
    // row): their files are refused with how to rebuild them.
    for version: UInt32 in [0, 2, 3, 4, 5, SnapshotFormat.version - 1, SnapshotFormat.version + 1] {
      var bytes = Self.bytes
      withUnsafeBytes(of: version.littleEndian) { for (i, byte) in $0.enumerated() { bytes[8 + i] = byte } }
      try Self.expectRefused(
        bytes,
        version < SnapshotFormat.version ? "an older snapshot format (version \(version))" : "a newer")
    }
    try Self.expectRefused(Array("{\"type\":\"FeatureCollection\"}".utf8), "truncated")
  }

  /// Sections read on first use (summaries, diagnostics) are checked then: damaged summaries are
  /// left unused (answers stay exact), damaged diagnostics become one error saying so, and
  /// `verifySnapshotRecords()` (`stores snapshot verify`) refuses the file.
  @Test func sectionsReadLaterAreCheckedWhenRead() throws {
    let center = try Coordinate(latitude: 47.61, longitude: -122.33)
    let filter = try StoreFilter(parsing: ["drive_through=yes"])
    let open = OpeningRequirement(time: .instant(Instant.now()))
    for range in try Self.coveredRanges(Self.bytes, lazy: true) {
      var damaged = Self.bytes
      damaged[(range.lowerBound + range.upperBound) / 2] ^= 0x10
      let path = try Self.write(damaged, name: "late")
      defer { try? FileManager.default.removeItem(atPath: path) }
      let catalog = try Catalog(snapshotAt: path)
      #expect(
        catalog.nearest(10, to: center, where: filter, open: open)
          == Self.original.nearest(10, to: center, where: filter, open: open))
      #expect(throws: CatalogError.self) { try catalog.verifySnapshotRecords() }
      let diagnostics = catalog.diagnostics
      #expect(
        diagnostics == Self.original.diagnostics
          || (diagnostics.count == 1 && diagnostics[0].code.rawValue == "snapshot-corrupted"))
    }
  }

  /// A table that checks its rows as it reads them (too large to check whole on open, here
  /// `verifiedOnOpen: 0`) checks the columns of its rows whole once before a walk over every row
  /// (`summary`, `stores info`), and the walk sums up the same; with a byte of a row column
  /// changed (its checksum not resealed), the walk would check row by row and name the first
  /// damaged one.
  @Test func aWalkOverEveryRowChecksTheRowColumnsWholeOnce() throws {
    let path = try Self.write(Self.bytes, name: "walk")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let opened = try StoreTable.map(path, options: LoadOptions(), verifiedOnOpen: 0)
    #expect(opened.table.checksRows)
    #expect(opened.table.rowColumnsAreIntact())
    let catalog = Catalog(table: opened.table, tree: opened.tree, storePositions: opened.storePositions)
    #expect(
      catalog.summary.jsonObject.filter { $0.key != "snapshot" }
        == Self.original.summary.jsonObject.filter { $0.key != "snapshot" })

    for section in StoreTable.rowColumns {
      var damaged = Self.bytes
      let range = try Self.range(of: section, in: damaged)
      guard !range.isEmpty else { continue }  // no store of the bundled data has a guess
      damaged[(range.lowerBound + range.upperBound) / 2] ^= 0x04
      let damagedPath = try Self.write(damaged, name: "walk-\(section.name)")
      defer { try? FileManager.default.removeItem(atPath: damagedPath) }
      let reopened = try StoreTable.map(damagedPath, options: LoadOptions(), verifiedOnOpen: 0)
      #expect(!reopened.table.rowColumnsAreIntact(), "\(section.name)")
    }
    // A table checked whole on open needs no more checks.
    #expect(try StoreTable.map(path, options: LoadOptions()).table.rowColumnsAreIntact())
  }

  /// The byte range of `section` in `bytes`.
  static func range(of section: SnapshotFormat.Section, in bytes: [UInt8]) throws -> Range<Int> {
    let forgery = try SnapshotForgery(bytes)
    let count = Int(SnapshotForgery.word(bytes, at: 12, size: 4))
    for i in 0..<count where forgery.sections[i].kind == section {
      let entry = SnapshotFormat.headerSize + i * SnapshotFormat.sectionEntrySize
      let offset = Int(SnapshotForgery.word(bytes, at: entry + 8, size: 8))
      return offset..<offset + Int(SnapshotForgery.word(bytes, at: entry + 16, size: 8))
    }
    throw CatalogError(.badData, source: "-", "no \(section.name) section")
  }

  /// A mapped snapshot's filtered searches, which skip subtrees by the summaries read in place
  /// (each leaf's point masks checked against its digest as they are read), equal a scan of
  /// every store: indexed conditions (answered by their bit alone), an open requirement, both.
  @Test func mappedFilteredSearchesEqualBruteForce() throws {
    let snapshot = try Self.reopened(Self.original)
    let masks = try #require(snapshot.searchMasks)
    #expect(masks.masks.checksLeavesAsRead)
    let driveThrough = try StoreFilter(parsing: ["drive_through=yes"])
    #expect(snapshot.indexedConditions.contains(driveThrough.conditions[0]))
    let stores = Array(snapshot.stores)
    let instants = [
      Instant(secondsSinceEpoch: 1_795_618_800), Instant.now(), Instant.now() + 3 * 86_400 + 7_200,
    ]
    func scan(_ center: Coordinate, _ filter: StoreFilter, _ open: OpeningRequirement?) -> [(String, Double)]
    {
      stores.enumerated()
        .compactMap { position, store -> (Int, String, Double)? in
          guard let coordinate = store.coordinate, filter.matches(store),
            open.map({ $0.isMet(by: snapshot.schedule(at: position)) }) ?? true
          else { return nil }
          return (position, store.id, center.distance(to: coordinate).meters)
        }
        .sorted { ($0.2, $0.0) < ($1.2, $1.0) }
        .map { ($0.1, $0.2) }
    }
    var compared = 0
    for (i, store) in stores.enumerated() where i % 53 == 0 {
      guard let center = store.coordinate else { continue }
      for (j, instant) in instants.enumerated() {
        let open = OpeningRequirement(time: .instant(instant + Int64(i) * 3_917))
        for (filter, open) in [(driveThrough, nil), (.all, open), (driveThrough, open)] {
          let expected = scan(center, filter, open)
          let found = snapshot.nearest(10, to: center, where: filter, open: open)
          #expect(found.map(\.store.id) == expected.prefix(10).map(\.0), "store \(i) instant \(j)")
          let radius = Distance.kilometers(250)
          #expect(
            snapshot.stores(within: radius, of: center, where: filter, open: open).map(\.store.id)
              == expected.filter { $0.1 <= radius.meters }.map(\.0), "store \(i) instant \(j)")
          compared += 1
        }
      }
    }
    #expect(compared > 30)
    #expect(masks.masks.checksLeavesAsRead)
    #expect(masks.masks.firstDamagedLeaf() == nil)
    #expect(!masks.masks.checksLeavesAsRead)
  }

  /// The point masks are read in place, not checksummed on open or on first use: each leaf's are
  /// checked against the leaf's digest when a search first reads them. A damaged byte opens, is
  /// found in its leaf (`verify` refuses the file), and a search that reads the leaf ends the
  /// process with the rebuild command and exit 65, as a damaged row does: never a silent answer.
  @Test func damagedPointMasksAreFoundByTheirLeafDigest() throws {
    let range = try Self.range(of: .maskPoints, in: Self.bytes)
    #expect(range.lowerBound % 32 == 0)
    var damaged = Self.bytes
    damaged[(range.lowerBound + range.upperBound) / 2] ^= 0x10
    let path = try Self.write(damaged, name: "leaf")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog(snapshotAt: path)
    let masks = try #require(catalog.searchMasks)
    #expect(masks.masks.firstDamagedLeaf() != nil)
    #expect(throws: CatalogError.self) { try catalog.verifySnapshotRecords() }
  }

  @Test func aSearchReadingDamagedPointMasksEndsTheProcess() async {
    let result = await #expect(processExitsWith: .exitCode(65), observing: [\.standardErrorContent]) {
      // Every point mask damaged: whichever leaf the search reads first ends it.
      var damaged = SnapshotTests.bytes
      let range = try SnapshotTests.range(of: .maskPoints, in: damaged)
      for mask in stride(from: range.lowerBound, to: range.upperBound, by: 32) { damaged[mask + 9] ^= 0x10 }
      let path = try SnapshotTests.write(damaged, name: "leaves")
      let catalog = try Catalog(snapshotAt: path)
      try? FileManager.default.removeItem(atPath: path)
      let center = try Coordinate(latitude: 47.61, longitude: -122.33)
      _ = catalog.nearest(10, to: center, where: try StoreFilter(parsing: ["drive_through=yes"]))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("fail their digest") && message.contains("rebuild it with"), "\(message)")
  }

  /// A GeoJSON file that happens to be named .snap still loads as GeoJSON: the magic decides.
  @Test func theMagicNotTheNameDecides() throws {
    let text = #"{"type":"Feature","id":"a","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"#
    let path = try Self.write(Array(text.utf8), name: "geojson")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog.load(contentsOf: path, options: .loaderOnly)
    #expect(!catalog.isSnapshot && catalog.stores.count == 1)
  }

  /// The bytes checksums protect (not the padding): header, section table and the sections
  /// checked on open, or (`lazy`) the sections checked on first use; not the point masks.
  static func coveredRanges(_ bytes: [UInt8], lazy: Bool) throws -> [Range<Int>] {
    let count = Int(bytes[12]) | Int(bytes[13]) << 8
    let tableEnd = SnapshotFormat.headerSize + count * SnapshotFormat.sectionEntrySize
    let lazySections: [SnapshotFormat.Section] = [.diagnostics, .maskNodes, .maskDigests]
    var ranges = lazy ? [] : [0..<tableEnd]
    for i in 0..<count {
      let entry = SnapshotFormat.headerSize + i * SnapshotFormat.sectionEntrySize
      func word(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
      let offset = word(entry + 8)
      let length = word(entry + 16)
      let section = try #require(SnapshotFormat.Section(rawValue: UInt32(word(entry) & 0xFFFF_FFFF)))
      // The point masks are neither: each leaf is checked against its digest when read
      // (`damagedPointMasksAreFoundByTheirLeafDigest`).
      guard section != .maskPoints else { continue }
      if length > 0, lazySections.contains(section) == lazy { ranges.append(offset..<offset + length) }
    }
    return ranges
  }
}
