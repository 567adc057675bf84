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
    // The format before this one among them: its files are refused with how to rebuild them.
    for version: UInt32 in [0, SnapshotFormat.version - 1, SnapshotFormat.version + 1] {
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

  /// A GeoJSON file that happens to be named .snap still loads as GeoJSON: the magic decides.
  @Test func theMagicNotTheNameDecides() throws {
    let text = #"{"type":"Feature","id":"a","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"#
    let path = try Self.write(Array(text.utf8), name: "geojson")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog.load(contentsOf: path, options: .loaderOnly)
    #expect(!catalog.isSnapshot && catalog.stores.count == 1)
  }

  /// The bytes checksums protect (not the padding): header, section table and the sections
  /// checked on open, or (`lazy`) the sections checked on first use.
  static func coveredRanges(_ bytes: [UInt8], lazy: Bool) throws -> [Range<Int>] {
    let count = Int(bytes[12]) | Int(bytes[13]) << 8
    let tableEnd = SnapshotFormat.headerSize + count * SnapshotFormat.sectionEntrySize
    let lazySections: [SnapshotFormat.Section] = [.diagnostics, .maskPoints, .maskNodes]
    var ranges = lazy ? [] : [0..<tableEnd]
    for i in 0..<count {
      let entry = SnapshotFormat.headerSize + i * SnapshotFormat.sectionEntrySize
      func word(_ at: Int) -> Int { (0..<8).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) } }
      let offset = word(entry + 8)
      let length = word(entry + 16)
      let section = try #require(SnapshotFormat.Section(rawValue: UInt32(word(entry) & 0xFFFF_FFFF)))
      if length > 0, lazySections.contains(section) == lazy { ranges.append(offset..<offset + length) }
    }
    return ranges
  }
}
