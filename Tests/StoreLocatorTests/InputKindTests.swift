import Foundation
import Testing

@testable import StoreLocator

/// Input that is not GeoJSON text is named by what it looks like, with what to do about it:
/// compressed data, UTF-16 text, a snapshot whose magic is damaged, binary data.
@Suite struct InputKindTests {
  static let geoJSON =
    #"{"type":"Feature","id":"a","properties":{},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#

  /// The message of loading `bytes` as GeoJSON from a file named `source`.
  static func message(_ bytes: [UInt8], source: String = "input.geojson") -> String? {
    do {
      _ = try Catalog(geoJSON: bytes, source: source, options: .loaderOnly)
      return nil
    } catch {
      #expect(error.kind == .badData)
      return error.description
    }
  }

  @Test func gzipIsNamed() {
    let gzip: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xAB, 0x56]
    #expect(
      Self.message(gzip)
        == "input.geojson: not GeoJSON: this looks like gzip-compressed data: decompress it first (gunzip)")
    #expect(
      Self.message(Array("PK\u{3}\u{4}rest".utf8))?.contains("a zip archive: decompress it first (unzip)")
        == true)
  }

  @Test func utf16IsNamedWithOrWithoutAByteOrderMark() {
    let advice = "this file is UTF-16"
    let conversion = "convert it to UTF-8 (iconv -f UTF-16 -t UTF-8)"
    let littleEndian = Array(Self.geoJSON.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    let bigEndian = Array(Self.geoJSON.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
    for bytes in [[0xFF, 0xFE] + littleEndian, [0xFE, 0xFF] + bigEndian, littleEndian, bigEndian] {
      let message = Self.message(bytes)
      #expect(message?.contains(advice) == true, "\(message ?? "loaded")")
      #expect(message?.contains(conversion) == true)
    }
    #expect(
      Self.message(bigEndian, source: "-")?.hasPrefix("standard input: not GeoJSON: this file is UTF-16")
        == true)
  }

  /// A snapshot whose magic is damaged was called "not GeoJSON: expected '{'"; it is named as a
  /// damaged snapshot, with the command that rebuilds it from the GeoJSON it names.
  @Test func aSnapshotWithADamagedMagicIsNamed() throws {
    for damage in [[UInt8](repeating: 0, count: 8), Array("STORXSNP".utf8), Array("xxxxxxxx".utf8)] {
      var bytes = SnapshotTests.bytes
      bytes.replaceSubrange(0..<8, with: damage)
      let path = try SnapshotTests.write(bytes, name: "magic")
      defer { try? FileManager.default.removeItem(atPath: path) }
      do {
        _ = try Catalog.load(contentsOf: path)
        Issue.record("loaded a snapshot with a damaged magic")
      } catch {
        #expect(error.kind == .badData)
        #expect(
          error.description
            == "\(path): not GeoJSON: this looks like a damaged stores snapshot (its first bytes are not the "
            + "magic STORESNP); rebuild it with 'stores snapshot build \(DefaultData.bundledPath) -o \(path)'"
        )
      }
    }
  }

  @Test func otherBinaryDataIsNamed() {
    let message = Self.message([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D])
    #expect(message?.contains("input.geojson: not GeoJSON: it holds binary data, not text") == true)
    #expect(
      message?.contains("rebuild it with 'stores snapshot build STORES.geojson -o input.geojson'") == true)
  }

  /// Text GeoJSON, a UTF-8 byte-order mark, an RFC 8142 sequence and other text are not sniffed
  /// as anything else: they reach the reader as before.
  @Test func textIsLeftToTheReader() throws {
    let feature = Array(Self.geoJSON.utf8)
    for bytes in [
      feature, [0xEF, 0xBB, 0xBF] + feature, [0x1E] + feature + [0x0A], Array("\t\r\n ".utf8) + feature,
    ] {
      #expect(try Catalog(geoJSON: bytes, source: "input.geojson", options: .loaderOnly).stores.count == 1)
    }
    #expect(Self.message(Array("hello".utf8))?.contains("not GeoJSON: expected '{'") == true)
    #expect(Self.message(Array("S".utf8))?.contains("not GeoJSON: expected '{'") == true)
  }
}
