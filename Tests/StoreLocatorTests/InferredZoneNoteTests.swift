import Foundation
import Testing

@testable import StoreLocator

/// A table's `timezone-inferred` notes are not stored but made again from the rows when its
/// diagnostics are read (`InferredZoneNotes`): the list read back must be the loader's list, the
/// same values in the same order, and the notes must really be made, not stored in full.
struct InferredZoneNoteTests {
  /// The loader's catalogs: the bundled stores, every corpus store file, and generated
  /// collections with stores with and without zones and diagnostics of their own between them.
  static func catalogs() throws -> [(name: String, catalog: Catalog)] {
    var catalogs = try StoreTableTests.catalogs().map { (name: $0.source, catalog: $0) }
    for seed in [7 as UInt64, 8, 9] {
      let text = Self.collection(count: 3_000, seed: seed)
      catalogs.append(
        ("generated \(seed)", try Catalog(geoJSON: Array(text.utf8), source: "generated-\(seed).geojson")))
    }
    return catalogs
  }

  /// Stores anywhere on the sphere, some with a zone of their own, some with one that is not a
  /// zone, some without a location or with hours that do not parse or are tolerated, some with
  /// holidays to infer, so the notes of inferred zones and holidays come between other
  /// diagnostics, and some stores have none.
  static func collection(count: Int, seed: UInt64) -> String {
    var state = seed
    func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    var features: [String] = []
    for index in 0..<count {
      let longitude = Double(next() % 3_600_000) / 10_000 - 180
      let latitude = Double(next() % 1_700_000) / 10_000 - 85
      var properties = #""ref":"r\#(index)","name":"Caf\u00e9 \#(index)""#
      switch next() % 8 {
      case 0: properties += #","timezone":"Europe/Berlin""#
      case 1: properties += #","timezone":"Mars/Olympus""#
      case 2: properties += #","opening_hours":"Mo-Fr 07:00-19:00""#
      case 3: properties += #","opening_hours":"mo-fr 7:00-19:00""#
      case 4: properties += #","opening_hours":"not hours""#
      // Holidays inferred too: the country and region of the place, or the region only.
      case 5: properties += #","opening_hours":"Mo-Fr 07:00-19:00; PH off""#
      case 6: properties += #","opening_hours":"Mo-Fr 07:00-19:00; PH off","addr:country":"US""#
      default: break
      }
      if next() % 5 == 0 { properties += #","drive_through":"yes""# }
      let geometry =
        next() % 20 == 0 ? "null" : #"{"type":"Point","coordinates":[\#(longitude),\#(latitude)]}"#
      features.append(#"{"type":"Feature","geometry":\#(geometry),"properties":{\#(properties)}}"#)
    }
    return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"
  }

  @Test func notesReadBackAreTheLoadersNotes() throws {
    var derivedSomewhere = false
    for (name, loaded) in try Self.catalogs() {
      let expected = loaded.diagnostics
      let reopened = try SnapshotTests.reopened(loaded)
      #expect(reopened.diagnostics == expected, "\(name)")
      // Stored in runs, not in full: the section holds no timezone-inferred note as text.
      let table = reopened.table
      var reader = SnapshotReader(base: table.memory.base, range: table.sections[.diagnostics]!)
      let entries = try reader.readVarint()
      var stored: [Diagnostic] = []
      var messages: [String] = []
      var derived = 0
      var generated = 0
      for _ in 0..<entries {
        switch try reader.read(UInt8.self) {
        case 0:
          stored.append(try SnapshotFormat.decodeDiagnostic(&reader))
          messages.append(stored.last!.message)
        case 1:
          _ = try reader.readVarint()
          derived += try reader.readVarint()
        case 2:
          _ = try reader.readVarint()
          generated += try reader.readVarint()
        default:
          // In full but for its message, an earlier entry's.
          let diagnostic = try SnapshotFormat.decodeDiagnostic(&reader, withMessage: false)
          let message = messages[try reader.readVarint()]
          stored.append(
            Diagnostic(
              diagnostic.code, diagnostic.severity, at: diagnostic.position, storeID: diagnostic.storeID,
              message))
        }
      }
      // A run counts stores; a store has a zone note, a holidays note, or both.
      let notes = expected.filter { InferredZoneNotes.isInferredNote($0.code) }
      let storesWithNotes = Set(notes.compactMap { $0.position?.featureIndex })
      #expect(derived == storesWithNotes.count, "\(name)")
      #expect(generated == expected.filter { $0.code == GeneratedIDNotes.code }.count, "\(name)")
      #expect(
        stored
          == expected.filter {
            !InferredZoneNotes.isInferredNote($0.code) && $0.code != GeneratedIDNotes.code
          },
        "\(name)")
      derivedSomewhere = derivedSomewhere || derived > 0
    }
    #expect(derivedSomewhere, "some catalog has inferred zones")
  }

  /// The loader keeps only stand-ins for these notes, and the notes are made from the rows: what
  /// a loaded catalog lists must still be the notes its stores' records say, with their texts,
  /// one of each a store at most, after the loader's own diagnostics of the feature and before
  /// those of its hours, and no stand-in may ever be listed.
  @Test func aLoadedCatalogListsEveryStoresNotesInPlace() throws {
    for seed in [7 as UInt64, 9] {
      let text = Self.collection(count: 3_000, seed: seed)
      let catalog = try Catalog(geoJSON: Array(text.utf8), source: "generated-\(seed).geojson")
      let diagnostics = catalog.diagnostics
      #expect(!diagnostics.contains(where: InferredZoneNotes.isPlaceholder))
      var expectedZoneNotes: [Diagnostic] = []
      var expectedHolidayNotes: [Diagnostic] = []
      for store in catalog.stores {
        if let guess = store.inferredTimezone {
          expectedZoneNotes.append(
            Diagnostic(
              InferredZoneNotes.code, .note, at: store.position, storeID: store.id,
              "no usable \"timezone\": \(guess.identifier), \(guess.note)"))
        }
        if let holidays = store.inferredHolidays {
          expectedHolidayNotes.append(
            Diagnostic(
              InferredZoneNotes.holidayCode, .note, at: store.position, storeID: store.id, holidays.note))
        }
      }
      #expect(expectedZoneNotes.count > 100 && expectedHolidayNotes.count > 10)
      #expect(diagnostics.filter { $0.code == InferredZoneNotes.code } == expectedZoneNotes)
      #expect(diagnostics.filter { $0.code == InferredZoneNotes.holidayCode } == expectedHolidayNotes)
      // Within a feature's diagnostics: the reader's, then the zone's, the holidays', the hours'.
      func rank(_ code: String) -> Int {
        switch code {
        case "timezone-inferred": 1
        case "holidays-inferred": 2
        case _ where code.hasPrefix("opening-hours") || code == "no-timezone": 3
        default: 0
        }
      }
      var previous: (feature: Int, rank: Int) = (-1, 0)
      for diagnostic in diagnostics {
        guard let feature = diagnostic.position?.featureIndex else { continue }
        let current = (feature: feature, rank: rank(diagnostic.code.rawValue))
        #expect(current >= previous, "\(diagnostic)")
        previous = current
      }
    }
  }

  /// A table too large to check whole on open (here forced by `verifiedOnOpen: 0`) makes the
  /// same notes: it checks the columns the notes read once, then makes them; with a byte of the
  /// arena changed (section checksums not resealed), it checks each row against its digest and
  /// refuses the damaged one rather than making a note from it.
  @Test func aTableCheckingRowsMakesTheSameNotes() throws {
    let loaded = try #require(try Self.catalogs().first { $0.name == "generated 7" }?.catalog)
    let bytes = loaded.snapshotBytes()
    let path = try SnapshotTests.write(bytes, name: "rows")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let opened = try StoreTable.map(path, options: LoadOptions(), verifiedOnOpen: 0)
    #expect(opened.table.checksRows)
    #expect(try opened.table.decodeDiagnostics() == loaded.diagnostics)
    // Without the notes made from the rows (what the pickup planner reads): every other one, in
    // order, and as many of them as the loader made.
    let others = loaded.diagnostics.filter { !InferredZoneNotes.isInferredNote($0.code) }
    #expect(others.count < loaded.diagnostics.count)
    #expect(opened.table.diagnosticsWithoutInferredZoneNotes == others)
    #expect(loaded.table.diagnosticsWithoutInferredZoneNotes == others)

    // The first byte of the id of the first store with an inferred zone, in the arena.
    let table = opened.table
    let position = try #require((0..<table.storeCount).first { table.hasInferredTimezone(at: $0) })
    let arena = table.memory.base + table.sections[.texts]!.lowerBound
    let idByte = table.idBytes(at: position).baseAddress! - arena
    var damaged = bytes
    damaged[table.sections[.texts]!.lowerBound + idByte] ^= 0x01
    let damagedPath = try SnapshotTests.write(damaged, name: "rows-damaged")
    defer { try? FileManager.default.removeItem(atPath: damagedPath) }
    let reopened = try StoreTable.map(damagedPath, options: LoadOptions(), verifiedOnOpen: 0)
    #expect(throws: SnapshotDecodingError.self) { try reopened.table.decodeDiagnostics() }
  }

  /// A note that is not the one its row makes (here one with another message, as a loader change
  /// could make) is stored in full, and read back as it was.
  @Test func aNoteTheRowDoesNotMakeIsStoredInFull() throws {
    let loaded = try #require(try Self.catalogs().first { $0.name == "generated 7" }?.catalog)
    var diagnostics = loaded.diagnostics
    let index = try #require(diagnostics.firstIndex { $0.code == InferredZoneNotes.code })
    let original = diagnostics[index]
    diagnostics[index] = Diagnostic(
      original.code, original.severity, at: original.position, storeID: original.storeID,
      original.message + " (changed)")
    let table = loaded.table
    func column(_ section: SnapshotFormat.Section) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(rebasing: table.memory.bytes[table.sections[section]!])
    }
    let section = SnapshotFormat.diagnosticsSection(
      diagnostics, rows: column(.rows), guesses: column(.guesses), places: column(.places),
      texts: column(.texts))
    let rows = column(.rows)
    func row(_ position: Int) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(
        rebasing: rows[position * StoreTableLayout.rowSize..<(position + 1) * StoreTableLayout.rowSize])
    }
    let decoded = try section.withUnsafeBytes { bytes in
      var reader = SnapshotReader(bytes)
      return try SnapshotFormat.decodeDiagnostics(
        &reader, storeCount: table.storeCount, hasGuess: { InferredZoneNotes.hasGuess(row: row($0)) },
        note: { position throws(SnapshotDecodingError) in
          guard
            let notes = InferredZoneNotes.notes(
              row: row(position), guesses: column(.guesses), places: column(.places), texts: column(.texts))
          else { throw SnapshotDecodingError(reason: "no note for store \(position)") }
          return notes
        },
        generatedIDNote: { position throws(SnapshotDecodingError) in
          guard let note = GeneratedIDNotes.note(row: row(position), texts: column(.texts)) else {
            throw SnapshotDecodingError(reason: "no generated id for store \(position)")
          }
          return note
        })
    }
    #expect(decoded == diagnostics)
  }

  /// Forged runs are refused: one starting on a store without a guess, one longer than the stores
  /// left, one going back.
  @Test func forgedRunsAreRefused() throws {
    let loaded = try #require(try Self.catalogs().first { $0.name == "generated 7" }?.catalog)
    let table = loaded.table
    let rows = UnsafeRawBufferPointer(rebasing: table.memory.bytes[table.sections[.rows]!])
    func hasGuess(_ position: Int) -> Bool {
      InferredZoneNotes.hasGuess(
        row: UnsafeRawBufferPointer(
          rebasing: rows[position * StoreTableLayout.rowSize..<(position + 1) * StoreTableLayout.rowSize]))
    }
    let withGuess = try #require((0..<table.storeCount).first(where: hasGuess))
    let without = try #require((0..<table.storeCount).first { !hasGuess($0) })
    func section(_ runs: [(Int, Int)]) -> [UInt8] {
      var w = SnapshotWriter()
      w.appendVarint(runs.count)
      for (first, count) in runs {
        w.append(UInt8(1))
        w.appendVarint(first)
        w.appendVarint(count)
      }
      return w.bytes
    }
    for runs in [[(without, 1)], [(withGuess, table.storeCount + 1)], [(withGuess, 1), (withGuess, 1)]] {
      #expect(throws: SnapshotDecodingError.self) {
        try section(runs).withUnsafeBytes { bytes in
          var reader = SnapshotReader(bytes)
          _ = try SnapshotFormat.decodeDiagnostics(
            &reader, storeCount: table.storeCount, hasGuess: hasGuess,
            note: { _ throws(SnapshotDecodingError) in
              [Diagnostic(InferredZoneNotes.code, .note, at: nil, "")]
            },
            generatedIDNote: { _ throws(SnapshotDecodingError) in
              Diagnostic(GeneratedIDNotes.code, .note, at: nil, "")
            })
        }
      }
    }
  }
}
