import Foundation
import Testing

@testable import StoreLocator

/// The JSON writer's string literals, checked against the plainest possible escaper and against
/// Foundation's reader (what every output and every HTTP answer relies on).
@Suite struct JSONWritingTests {
  /// Escapes scalar by scalar: the definition the fast writer must match byte for byte.
  static func reference(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20: output += String(format: "\\u%04x", scalar.value)
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output + "\""
  }

  static let pieces = [
    "", "a", "Meridian Osaka", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "Chūō-dōri",
    "☕", "🏳️‍🌈", "e\u{301}", "\"quoted\"", "C:\\path", "line\nbreak", "\u{2028}", " ", "{}", "</script>",
  ]

  /// Numbers written straight into an answer's bytes: whole numbers below 10^15 as digits alone,
  /// others as Swift's shortest text that reads back to the same double, `null` for what JSON
  /// cannot hold; each is a JSON number to Foundation's reader, and `JSONValue`'s text.
  @Test func numbersAreWrittenAsTheyReadBack() throws {
    var generator = SystemRandomNumberGenerator()
    var values: [Double] = [
      0, -0.0, 1, -1, 0.1, 47.6062, -122.3321, 1e15 - 1, 1e15, -1e15, 1e300, 5e-324, 123_456.789,
      .nan, .infinity, -.infinity,
    ]
    for _ in 0..<2_000 {
      values.append(Double.random(in: -180...180, using: &generator))
      values.append((Double.random(in: 0...20_000_000, using: &generator) * 1000).rounded() / 1000)
      values.append(Double(bitPattern: UInt64.random(in: 0...UInt64.max, using: &generator)))
    }
    for value in values {
      var bytes = JSONBytes()
      bytes.append(number: value)
      guard value.isFinite else {
        #expect(bytes.text == "null")
        continue
      }
      let isWhole = value == value.rounded() && abs(value) < 1e15
      #expect(!isWhole || bytes.text.allSatisfy { $0 == "-" || $0.isNumber }, "\(value)")
      #expect(Double(bytes.text) == value, "\(value)")
      #expect(
        (try? JSONSerialization.jsonObject(with: Data(bytes.bytes), options: .fragmentsAllowed)) is NSNumber,
        "\(value)")
      #expect(JSONValue(value) == .number(bytes.text))
    }
    var none = JSONBytes()
    none.append(number: nil)
    #expect(none.text == "null")
  }

  @Test func stringsAreWrittenAsTheReferenceWritesThem() throws {
    var generator = SystemRandomNumberGenerator()
    var texts = Self.pieces
    for _ in 0..<2000 {
      let count = Int.random(in: 0...8, using: &generator)
      texts.append((0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined())
    }
    for text in texts {
      var written = ""
      JSONValue.writeString(text, to: &written)
      #expect(written == Self.reference(text), "\(Array(text.unicodeScalars))")
      let read = try JSONSerialization.jsonObject(with: Data("[\(written)]".utf8)) as? [String]
      #expect(read == [text])
    }
  }

  /// The writer the table and the answers use: its eight-bytes-at-a-time search for what needs
  /// an escape, at every offset and alignment, against testing each byte.
  @Test func theBytesWriterFindsEveryEscapeAsTheReferenceDoes() throws {
    var generator = SystemRandomNumberGenerator()
    // Bytes near each escaped one (0x1F, 0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xFF) are
    // where a word test would go wrong.
    let alphabet: [UInt8] = [
      0x00, 0x01, 0x0A, 0x1F, 0x20, 0x21, 0x22, 0x23, 0x41, 0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xC3, 0xFF,
    ]
    for _ in 0..<3000 {
      let count = Int.random(in: 0...40, using: &generator)
      let escapes = Int.random(in: 0...3, using: &generator)
      var bytes = (0..<count).map { _ in UInt8.random(in: 0x23...0x5B, using: &generator) }
      for _ in 0..<min(escapes, count) {
        bytes[Int.random(in: 0..<count, using: &generator)] = alphabet.randomElement(using: &generator)!
      }
      bytes.withUnsafeBytes { raw in
        for start in 0...count {
          let expected = (start..<count).first { JSONBytes.isEscaped(bytes[$0]) }
          #expect(JSONBytes.firstEscaped(in: raw, from: start) == expected, "\(bytes) from \(start)")
        }
      }
    }
    var texts = Self.pieces
    for _ in 0..<2000 {
      let count = Int.random(in: 0...12, using: &generator)
      texts.append((0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined())
    }
    for text in texts {
      var written = JSONBytes()
      written.appendString(text)
      #expect(written.text == Self.reference(text), "\(Array(text.unicodeScalars))")
      // A store's row takes the same text, written apart when nothing needs an escape.
      var properties = JSONObject()
      properties["v"] = .string(text)
      var draft = SnapshotWriter()
      RowDraft.write(properties, into: &draft, scratch: &written)
      draft.bytes.withUnsafeBytes { raw in
        var rest = raw
        let keys = RowDraft.keys(&rest)
        var keyBytes = keys.bytes
        #expect(keys.count == 1 && String(decoding: RowDraft.nextKey(&keyBytes), as: UTF8.self) == "v")
        #expect(keyBytes.isEmpty)
        _ = RowDraft.next(&rest)
        _ = RowDraft.next(&rest)
        let value = RowDraft.next(&rest)
        #expect(String(decoding: value.text, as: UTF8.self) == Self.reference(text))
        #expect(rest.isEmpty)
      }
    }
  }

  @Test func aBridgedStringIsWrittenTheSame() {
    // An NSString-backed string has no contiguous UTF-8 and takes the scalar path.
    let bridged = NSString(string: "tab\there \"and\" café ☕").description
    var written = ""
    JSONValue.writeString(bridged, to: &written)
    #expect(written == Self.reference(bridged))
  }

  @Test func objectsKeepMemberOrderAndEscapeKeys() {
    var object = JSONObject()
    object["b\"key"] = .string("line\none")
    object["a"] = .number("1")
    #expect(JSONValue.object(object).jsonText == #"{"b\"key":"line\none","a":1}"#)
  }
}
