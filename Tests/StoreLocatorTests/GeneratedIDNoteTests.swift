import Foundation
import Testing

@testable import StoreLocator

/// The `generated-id` note of a feature without an id is made from its row when the diagnostics
/// are read (`GeneratedIDNotes`), as the notes of inferred zones are: the list read back must be
/// the one the loader made before, note for note, whether the features were read ahead on
/// threads or one by one, and the table must keep runs, not texts.
struct GeneratedIDNoteTests {
  /// Features without ids among features with them, bare geometries, features with diagnostics
  /// of their own and stores whose zones are inferred, so that the notes come between others.
  static func collection(count: Int) -> String {
    var features: [String] = []
    for index in 0..<count {
      let point =
        #"{"type":"Point","coordinates":[\#(Double(index % 360) - 179.5),\#(Double(index % 170) - 84.5)]}"#
      var properties = #""name":"Store \#(index)""#
      if index % 3 == 0 { properties += #","timezone":"Europe/Berlin""# }
      switch index % 11 {
      case 0:
        features.append(
          #"{"type":"Feature","id":"s\#(index)","geometry":\#(point),"properties":{\#(properties)}}"#)
      case 1:
        features.append(
          #"{"type":"Feature","geometry":\#(point),"properties":{\#(properties),"ref":"r\#(index)"}}"#)
      case 2: features.append(point)
      case 3: features.append(#"{"type":"Feature","geometry":null,"properties":{\#(properties)}}"#)
      case 4:
        features.append(
          #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2,3,4]},"properties":{\#(properties)}}"#
        )
      default: features.append(#"{"type":"Feature","geometry":\#(point),"properties":{\#(properties)}}"#)
      }
    }
    return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"
  }

  /// The note as the loader wrote it in full before it was made from rows: its text is part of
  /// the output contract (docs/diagnostics.md).
  static func expectedNote(_ store: Store) -> Diagnostic {
    Diagnostic(
      Diagnostic.Code("generated-id"), .note, at: store.position, storeID: store.id,
      "the feature has no \"id\" and no \"ref\", \"id\", \"@id\" or \"osm_id\" property, so it is called "
        + "\"\(store.id)\"; that name changes when records move, so give the feature an \"id\"")
  }

  @Test func everyStoreWithAGeneratedIDHasItsNoteInPlace() throws {
    let text = Self.collection(count: 2_000)
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "no-ids.geojson")
    let stores = Array(catalog.stores)
    let bare = Set(catalog.diagnostics("bare-geometry").compactMap(\.storeID))
    #expect(bare.count > 100)
    let generated = stores.filter { $0.idSource == .generated && !bare.contains($0.id) }
    #expect(generated.count > 1_000)
    for store in generated { #expect(store.id == "feature-\(store.position.featureIndex)") }
    #expect(catalog.diagnostics("generated-id") == generated.map(Self.expectedNote))
    // Each note sits with its feature: after the notes of the features before it, before the
    // feature's other diagnostics (its geometry's warning) and the notes of its inferred zone.
    let diagnostics = catalog.diagnostics
    for (offset, diagnostic) in diagnostics.enumerated() where diagnostic.code.rawValue == "generated-id" {
      let feature = try #require(diagnostic.position?.featureIndex)
      #expect(
        diagnostics[..<offset].allSatisfy { ($0.position?.featureIndex ?? -1) < feature }, "\(diagnostic)")
    }
    #expect(diagnostics.contains { $0.code.rawValue == "timezone-inferred" })
    #expect(diagnostics.contains { $0.code.rawValue == "extra-coordinate-values" })
  }

  /// The reader's own list, read ahead on threads and one feature at a time: the same stores,
  /// the same ids, the same notes in the same places.
  @Test func readingAheadGivesTheSameIDsAndNotes() throws {
    let bytes = Array(Self.collection(count: 3_000).utf8)
    func read(_ plan: FeatureReadAhead.Plan) throws -> GeoJSONReader.Output {
      try bytes.withUnsafeBufferPointer {
        GeoJSONReader.read($0, source: "f", readAhead: plan, keepingRecords: true)
      }.get()
    }
    let alone = try read(.sequential)
    for plan in [
      FeatureReadAhead.Plan(minimumBytes: 0, minimumStretchBytes: 1, stretches: 16),
      FeatureReadAhead.Plan(minimumBytes: 0, minimumStretchBytes: 1, stretches: 4, windowBytes: 5_000),
    ] {
      let ahead = try read(plan)
      #expect(ahead.stores.map(\.id) == alone.stores.map(\.id))
      #expect(ahead.stores.map(\.position) == alone.stores.map(\.position))
      #expect(ahead.diagnostics == alone.diagnostics)
    }
    // Stand-ins, one a generated id, in feature order.
    let standIns = alone.diagnostics.filter(GeneratedIDNotes.isPlaceholder)
    #expect(standIns.count > 1_000)
    #expect(standIns.map { $0.position!.featureIndex } == standIns.map { $0.position!.featureIndex }.sorted())
    // The fuzzers compare the reader's lists with real notes in them.
    let expanded = GeneratedIDNotes.expanded(alone.diagnostics)
    #expect(!expanded.contains(where: GeneratedIDNotes.isPlaceholder))
    #expect(expanded.filter { $0.code.rawValue == "generated-id" }.allSatisfy { !$0.message.isEmpty })
  }

  /// A snapshot gives back the same list, and keeps runs: a few bytes a note, not its text.
  @Test func aSnapshotKeepsRunsAndGivesTheSameNotesBack() throws {
    let text = Self.collection(count: 2_000)
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "no-ids.geojson")
    let path = try SnapshotTests.write(catalog.snapshotBytes(), name: "generated-ids")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let opened = try Catalog(snapshotAt: path)
    #expect(opened.diagnostics == catalog.diagnostics)
    // The section with the notes and without them: a few bytes a note (a run's entry between
    // the other diagnostics), where in full each took its message, about 200 bytes.
    let table = catalog.table
    func column(_ section: SnapshotFormat.Section) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(rebasing: table.memory.bytes[table.sections[section]!])
    }
    func sectionSize(_ diagnostics: [Diagnostic]) -> Int {
      SnapshotFormat.diagnosticsSection(
        diagnostics, rows: column(.rows), guesses: column(.guesses), places: column(.places),
        texts: column(.texts)
      ).count
    }
    let notes = catalog.diagnostics("generated-id")
    let added =
      sectionSize(catalog.diagnostics)
      - sectionSize(catalog.diagnostics.filter { $0.code != GeneratedIDNotes.code })
    #expect(added <= notes.count * 8, "\(added) bytes for \(notes.count) notes")
    #expect(table.sections[.diagnostics]!.count == sectionSize(catalog.diagnostics))
  }

  /// Runs that do not fit the rows are refused: one on a store whose id is not generated, one
  /// longer than the stores left, one going back.
  @Test func forgedRunsAreRefused() throws {
    let catalog = try Catalog(geoJSON: Array(Self.collection(count: 200).utf8), source: "f")
    let table = catalog.table
    let stores = Array(catalog.stores)
    let given = try #require(stores.firstIndex { $0.idSource != .generated })
    let generated = try #require(stores.firstIndex { $0.idSource == .generated })
    let rows = UnsafeRawBufferPointer(rebasing: table.memory.bytes[table.sections[.rows]!])
    let texts = UnsafeRawBufferPointer(rebasing: table.memory.bytes[table.sections[.texts]!])
    func row(_ position: Int) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(
        rebasing: rows[position * StoreTableLayout.rowSize..<(position + 1) * StoreTableLayout.rowSize])
    }
    func decode(_ runs: [(Int, Int)]) throws -> [Diagnostic] {
      var w = SnapshotWriter()
      w.appendVarint(runs.count)
      for (first, count) in runs {
        w.append(UInt8(2))
        w.appendVarint(first)
        w.appendVarint(count)
      }
      let bytes = w.bytes
      return try bytes.withUnsafeBytes { raw in
        var reader = SnapshotReader(raw)
        return try SnapshotFormat.decodeDiagnostics(
          &reader, storeCount: table.storeCount, hasGuess: { _ in false }, note: nil,
          generatedIDNote: { position throws(SnapshotDecodingError) in
            guard let note = GeneratedIDNotes.note(row: row(position), texts: texts) else {
              throw SnapshotDecodingError(reason: "store \(position)'s id is not generated")
            }
            return note
          })
      }
    }
    #expect(try decode([(generated, 1)]) == [Self.expectedNote(stores[generated])])
    for runs in [[(given, 1)], [(generated, table.storeCount)], [(generated, 1), (generated, 1)]] {
      #expect(throws: SnapshotDecodingError.self, "\(runs)") { try decode(runs) }
    }
  }

  /// A strict load that fails lists the notes in full, not their stand-ins.
  @Test func aStrictFailureListsTheNotesInFull() throws {
    let text =
      #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":null,"properties":{}},"#
      + #"{"type":"Feature","geometry":"nowhere","properties":{}}]}"#
    let path = try SnapshotTests.write(Array(text.utf8), name: "strict-generated")
    defer { try? FileManager.default.removeItem(atPath: path) }
    do {
      _ = try Catalog.load(contentsOf: path, options: LoadOptions(strict: true))
      Issue.record("a strict load with an error succeeded")
    } catch {
      let notes = error.diagnostics.filter { $0.code.rawValue == "generated-id" }
      #expect(notes.map(\.storeID) == ["feature-0", "feature-1"])
      #expect(notes.allSatisfy { $0.message.contains("so it is called") })
    }
  }
}
