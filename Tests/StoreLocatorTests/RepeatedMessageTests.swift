import Foundation
import Testing

@testable import StoreLocator

/// A table keeps each distinct diagnostic message once (`SnapshotFormat` "Diagnostics", entry 3):
/// a chain whose hours are all written alike has a note a store and a handful of messages.
struct RepeatedMessageTests {
  /// Stores whose hours deviate alike (`mo-fr`, a service's `sa 8:00-12:00`), in a few texts.
  static func collection(count: Int) -> String {
    let hours = ["mo-fr 07:00-19:00", "Mo-Fr 07:00-19:00; sa 08:00-12:00", "mo-su 06:00-22:00"]
    var features: [String] = []
    for index in 0..<count {
      let properties =
        #""name":"Store \#(index)","timezone":"Europe/Berlin","opening_hours":"\#(hours[index % 3])""#
        + (index % 2 == 0 ? #","opening_hours:drive_through":"mo-fr 06:00-23:00""# : "")
      features.append(
        #"{"type":"Feature","id":"s\#(index)","geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
          + #""properties":{\#(properties)}}"#)
    }
    return #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"
  }

  @Test func aSnapshotKeepsEachMessageOnceAndGivesTheSameListBack() throws {
    let catalog = try Catalog(geoJSON: Array(Self.collection(count: 900).utf8), source: "alike.geojson")
    let notes = catalog.diagnostics.filter { $0.code.rawValue == "opening-hours-tolerated" }
    // A note a deviation of a store's hours, and of its drive-through's on every other store,
    // in a few distinct messages.
    #expect(notes.count >= 900 + 450)
    #expect(Set(notes.map(\.message)).count <= 8)
    #expect(
      notes.contains {
        $0.message
          == "opening_hours \"mo-fr 07:00-19:00\" characters 1-2: write 'Mo' for 'mo' [keyword-case]; "
          + "write it as `Mo-Fr 07:00-19:00`"
      })
    #expect(notes.contains { $0.message.hasPrefix("opening_hours:drive_through \"mo-fr 06:00-23:00\"") })

    let path = try SnapshotTests.write(catalog.snapshotBytes(), name: "alike")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let opened = try Catalog(snapshotAt: path)
    #expect(opened.diagnostics == catalog.diagnostics)
    // Each note's code, position and id, and a reference: about 40 bytes, where its message alone
    // is over 100.
    let section = try #require(catalog.table.sections[.diagnostics])
    let messages = notes.reduce(0) { $0 + $1.message.utf8.count }
    #expect(section.count < notes.count * 48, "\(section.count) bytes for \(notes.count) notes")
    #expect(section.count < messages / 2)
  }

  /// Messages that differ only in Unicode normalization (hours quoting "café" with a precomposed
  /// "é" and with "e" and a combining accent) are two messages: each store's note quotes its own
  /// bytes, loaded and read back from a snapshot (`String` equality would make them one).
  @Test func messagesAreTheSameOnlyWhenTheirBytesAre() throws {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(composed == decomposed)
    var features: [String] = []
    for (index, word) in [composed, decomposed, composed, decomposed].enumerated() {
      // The hours `mo-fr 08:00-18:00 "café"`, its quotes escaped for JSON.
      features.append(
        #"{"type":"Feature","id":"s\#(index)","geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
          + #""properties":{"timezone":"Europe/Berlin","opening_hours":"mo-fr 08:00-18:00 \"\#(word)\""}}"#)
    }
    let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "accents.geojson")
    let path = try SnapshotTests.write(catalog.snapshotBytes(), name: "accents")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let opened = try Catalog(snapshotAt: path)
    for diagnostics in [catalog.diagnostics, opened.diagnostics] {
      let quoted = diagnostics.filter { $0.code.rawValue == "opening-hours-tolerated" }.map { note in
        (note.storeID, note.message.utf8.contains(0xCC))  // 0xCC 0x81: the combining accent
      }
      #expect(quoted.count >= 4)
      for (storeID, hasCombiningAccent) in quoted {
        #expect(hasCombiningAccent == (storeID == "s1" || storeID == "s3"), "\(storeID ?? "?")")
      }
    }
  }

  /// A reference to a message no earlier entry has is refused, not read out of range.
  @Test func aReferenceToNoMessageIsRefused() throws {
    func section(reference: Int) -> [UInt8] {
      var w = SnapshotWriter()
      w.appendVarint(2)
      let diagnostic = Diagnostic(
        Diagnostic.Code("opening-hours-tolerated"), .note, at: nil, storeID: "a", "said")
      w.append(UInt8(0))
      SnapshotFormat.encode(diagnostic, to: &w)
      w.append(UInt8(3))
      SnapshotFormat.encode(diagnostic, to: &w, withMessage: false)
      w.appendVarint(reference)
      return w.bytes
    }
    func decode(_ bytes: [UInt8]) throws -> [Diagnostic] {
      try bytes.withUnsafeBytes { raw in
        var reader = SnapshotReader(raw)
        return try SnapshotFormat.decodeDiagnostics(
          &reader, storeCount: 0, hasGuess: { _ in false }, note: nil,
          generatedIDNote: { position throws(SnapshotDecodingError) in
            throw SnapshotDecodingError(reason: "no store \(position)")
          })
      }
    }
    let decoded = try decode(section(reference: 0))
    #expect(decoded.count == 2)
    #expect(decoded[0] == decoded[1])
    #expect(throws: SnapshotDecodingError.self) { try decode(section(reference: 1)) }
  }
}
