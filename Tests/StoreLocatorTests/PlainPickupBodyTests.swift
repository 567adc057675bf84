import Testing

@testable import StoreLocator

/// `PlainPickupBody`, the pickup body read without the JSON parser: whatever it reads is what the
/// parser makes of the same bytes, and what it does not read it leaves to the parser.
@Suite struct PlainPickupBodyTests {
  /// The object the parser makes of `body`, or `nil` when the body is not JSON or not an object.
  static func parsed(_ body: [UInt8]) -> JSONObject? {
    guard case .object(let object)? = try? JSONValue(parsing: String(decoding: body, as: UTF8.self)) else {
      return nil
    }
    return object
  }

  static let names = [
    "near", "ready_in", "ready_at", "within", "where", "alternatives", "allow_unknown", "now", "travel",
    "items", "x y", "caf\u{E9}", "a\\\"b", "",
  ]
  static let values = [
    "\"51.5,-0.12\"", "\"12m\"", "\"\"", "\"a\\\"b\"", "\"tab\there\"", "\"caf\u{E9}\"", "\"\\u0041\"",
    "0", "-0", "12", "2.5", "-1.25e3", "1E+2", "6.02e-23", "01", "1.", "-", "1e", ".5", "+1", "1.5.2",
    "true", "false", "null", "tru", "nul", "falsey", "[]", "[\"drive_through=yes\"]", "[\"a\",\"b\"]",
    "[1]", "[\"a\",]", "{\"latitude\":1,\"longitude\":2}", "{}", "[[]]",
  ]
  static let spaces = ["", " ", "\n", "\t ", "\r\n"]

  /// A body of random members, sometimes cut short or with a byte changed.
  static func body(using random: inout SplitMix64) -> [UInt8] {
    func space() -> String { spaces.randomElement(using: &random)! }
    var members: [String] = []
    for _ in 0..<Int.random(in: 0...5, using: &random) {
      let name = names.randomElement(using: &random)!
      let value = values.randomElement(using: &random)!
      members.append("\(space())\"\(name)\"\(space()):\(space())\(value)\(space())")
    }
    var bytes = Array((space() + "{" + members.joined(separator: ",") + "}" + space()).utf8)
    switch Int.random(in: 0..<6, using: &random) {
    case 0 where !bytes.isEmpty: bytes.removeLast(Int.random(in: 1...bytes.count, using: &random))
    case 1 where !bytes.isEmpty:
      bytes[Int.random(in: 0..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
    case 2: bytes += Array(",".utf8)
    default: break
    }
    return bytes
  }

  @Test func whatItReadsIsWhatTheParserReads() {
    var random = SplitMix64(seed: 0x9_1C4)
    var read = 0
    var leftToTheParser = 0
    for _ in 0..<20_000 {
      let body = Self.body(using: &random)
      guard let object = PlainPickupBody.object(body) else {
        leftToTheParser += 1
        continue
      }
      read += 1
      #expect(object == Self.parsed(body), "\(String(decoding: body, as: UTF8.self))")
      #expect(object["items"] == nil)
    }
    // Both ways are taken often enough to mean something.
    #expect(read > 2_000 && leftToTheParser > 2_000, "read \(read), left \(leftToTheParser)")
  }

  @Test func theBenchmarksBodyIsRead() {
    let body = Array(#"{"near": "-12.345678,123.456789", "ready_in": "12m"}"#.utf8)
    let object = PlainPickupBody.object(body)
    #expect(object != nil)
    #expect(object == Self.parsed(body))
  }

  @Test func repeatedNamesOrdersEscapesAndNumbersWithLeadingZerosAreLeftToTheParser() {
    for text in [
      #"{"near": "1,2", "near": "3,4"}"#, #"{"items": []}"#, #"{"near": "a\"b"}"#, #"{"alternatives": 01}"#,
      #"{"near": {"latitude": 1, "longitude": 2}}"#, #"{"near": "1,2"} x"#, "{\"near\": \"caf\u{E9}\"}",
    ] {
      #expect(PlainPickupBody.object(Array(text.utf8)) == nil, "\(text)")
    }
  }
}
