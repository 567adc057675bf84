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
