import Testing

@testable import StoreLocator

/// Parses one JSON value from `text` with the loader's scanner.
private func parse(_ text: String) -> Result<JSONValue, JSONSyntaxError> {
  let bytes = Array(text.utf8)
  return bytes.withUnsafeBufferPointer { buffer in
    // An empty buffer may have no base address; give the scanner one byte of memory to point at.
    guard let base = buffer.baseAddress else {
      return Result { () throws(JSONSyntaxError) -> JSONValue in
        try [UInt8(0)].withUnsafeBufferPointer { one throws(JSONSyntaxError) -> JSONValue in
          var scanner = JSONScanner(base: one.baseAddress!, start: 0, end: 0)
          return try scanner.parseValue()
        }
      }
    }
    var scanner = JSONScanner(base: base, start: 0, end: buffer.count)
    do throws(JSONSyntaxError) {
      let value = try scanner.parseValue()
      scanner.skipWhitespace()
      guard scanner.isAtEnd else { return .failure(scanner.unexpected(expecting: "the end")) }
      return .success(value)
    } catch {
      return .failure(error)
    }
  }
}

@Suite("JSON scanner")
struct JSONScannerTests {
  @Test(
    "valid numbers keep their text",
    arguments: [
      "0", "-0", "1", "-12", "3.25", "1e5", "1E+5", "-1.5e-300", "9007199254740993", "0.000001", "1.50",
    ])
  func validNumbers(_ literal: String) throws {
    #expect(try parse(literal).get() == .number(literal))
  }

  @Test(
    "invalid numbers",
    arguments: ["01", "1.", ".5", "-", "1e", "1e+", "+1", "NaN", "Infinity", "-Infinity", "0x10", "1.e3"])
  func invalidNumbers(_ literal: String) {
    #expect(throws: JSONSyntaxError.self) { try parse(literal).get() }
  }

  @Test func literalsAndContainers() throws {
    #expect(try parse(" true ").get() == .bool(true))
    #expect(try parse("false").get() == .bool(false))
    #expect(try parse("null").get() == .null)
    #expect(try parse("[]").get() == .array([]))
    #expect(try parse("{}").get() == .object(JSONObject()))
    #expect(try parse(#"[1, "a", [null]]"#).get() == .array([.number("1"), .string("a"), .array([.null])]))
    #expect(throws: JSONSyntaxError.self) { try parse("nul").get() }
    #expect(throws: JSONSyntaxError.self) { try parse("tru").get() }
    #expect(throws: JSONSyntaxError.self) { try parse("True").get() }
  }

  @Test func escapes() throws {
    #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#).get() == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
    #expect(try parse(#""\u0041\u00e9\u20AC""#).get() == .string("Aé€"))
    #expect(try parse(#""\ud83d\ude00 ok""#).get() == .string("😀 ok"))
    #expect(try parse(#""\u0000""#).get() == .string("\u{0}"))
    #expect(throws: JSONSyntaxError.self) { try parse(#""\x41""#).get() }
    #expect(throws: JSONSyntaxError.self) { try parse(#""\u12G4""#).get() }
  }

  @Test func loneSurrogatesBecomeReplacementCharacters() throws {
    let bytes = Array(#"["\ud83d", "\ude00x"]"#.utf8)
    try bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(base: buffer.baseAddress!, start: 0, end: buffer.count)
      let value = try scanner.parseValue()
      #expect(value == .array([.string("\u{FFFD}"), .string("\u{FFFD}x")]))
      #expect(scanner.loneSurrogates == [2, 12])
    }
  }

  @Test func utf8PassesThroughAndInvalidUTF8IsRefused() throws {
    let text = "\"São Paulo, Москва, 東京, 😀\""
    #expect(try parse(text).get() == .string("São Paulo, Москва, 東京, 😀"))
    for bad: [UInt8] in [
      [0xFF], [0xC3], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x80],
    ] {
      let bytes: [UInt8] = Array(#"{"name":"ab"#.utf8) + bad + Array(#"cd"}"#.utf8)
      let failure = bytes.withUnsafeBufferPointer { buffer -> JSONSyntaxError? in
        var scanner = JSONScanner(base: buffer.baseAddress!, start: 0, end: buffer.count)
        do throws(JSONSyntaxError) {
          _ = try scanner.parseValue()
          return nil
        } catch {
          return error
        }
      }
      let error = try #require(failure, "\(bad) was accepted")
      // The lead byte (the first byte of the bad sequence) and its offset, not a later byte.
      let lead = String(bad[0], radix: 16, uppercase: true)
      #expect(error.problem == "invalid UTF-8 byte 0x\(lead) in a string", "\(bad)")
      #expect(error.offset == 11, "\(bad)")
      #expect(!error.isEndOfInput, "\(bad)")
      #expect(error.hint?.contains("Latin-1") == true, "\(bad)")
    }
  }

  @Test func latin1ByteBeforeTheClosingQuote() throws {
    // "café" in Latin-1: the sequence 0xE9 0x22 is broken at the quote, but the bad byte is 0xE9.
    let bytes: [UInt8] = Array(#""caf"#.utf8) + [0xE9, 0x22]
    let failure = bytes.withUnsafeBufferPointer { buffer -> JSONSyntaxError? in
      var scanner = JSONScanner(base: buffer.baseAddress!, start: 0, end: buffer.count)
      do throws(JSONSyntaxError) {
        _ = try scanner.parseValue()
        return nil
      } catch {
        return error
      }
    }
    let error = try #require(failure)
    #expect(error.problem == "invalid UTF-8 byte 0xE9 in a string")
    #expect(error.offset == 4)
    #expect(error.hint?.contains("'é' in Latin-1") == true, "\(error.hint ?? "")")
  }

  @Test func controlCharactersInStrings() throws {
    let result = parse("\"line one\nline two\"")
    let error = try #require(result.failureValue)
    #expect(error.offset == 9)
    #expect(error.problem == "unescaped control character U+000A in a string")
  }

  @Test func longStringsUseTheWordLoopCorrectly() throws {
    // Special bytes at every position relative to the eight-byte stride.
    for position in 0..<24 {
      var characters = Array(repeating: Character("x"), count: 24)
      characters[position] = "é"
      let plain = String(characters)
      #expect(try parse("\"" + plain + "\"").get() == .string(plain))
      characters[position] = "\""
      let escaped = String(characters).replacingOccurrences(of: "\"", with: "\\\"")
      #expect(try parse("\"" + escaped + "\"").get() == .string(String(characters)))
    }
  }

  @Test func duplicateKeysKeepTheLastValueInTheFirstPlace() throws {
    let bytes = Array(#"{"a":1,"b":2,"a":3}"#.utf8)
    try bytes.withUnsafeBufferPointer { buffer in
      var scanner = JSONScanner(base: buffer.baseAddress!, start: 0, end: buffer.count)
      let value = try scanner.parseValue()
      #expect(
        value
          == .object(
            JSONObject([.init(key: "a", value: .number("3")), .init(key: "b", value: .number("2"))])))
      #expect(scanner.duplicateKeys.map(\.key) == ["a"])
      #expect(scanner.duplicateKeys.map(\.offset) == [13])
    }
  }

  @Test(
    "syntax errors say what was expected",
    arguments: [
      (#"{"a":1 "b":2}"#, 7, "',' or '}' after member \"a\""),
      (#"{"a":1,}"#, 7, "a member name after ','"),
      (#"[1,]"#, 3, "a value after ','"),
      (#"{"a" 1}"#, 5, "':' after member name \"a\""),
      (#"{a:1}"#, 1, "a member name (a string in double quotes) or '}'"),
      ("[1 2]", 3, "',' or ']' after array element 1"),
      ("{\"a\":// c\n1}", 5, "a value"),
    ])
  func syntaxErrors(text: String, offset: Int, expected: String) throws {
    let error = try #require(parse(text).failureValue)
    #expect(error.offset == offset)
    #expect(error.expected == expected)
    #expect(!error.isEndOfInput)
  }

  @Test func hintsForTheUsualSuspects() throws {
    #expect(try #require(parse("[NaN]").failureValue).hint?.contains("NaN and Infinity") == true)
    #expect(try #require(parse("[1,]").failureValue).hint?.contains("trailing comma") == true)
    #expect(try #require(parse("{\"a\":/*x*/1}").failureValue).hint?.contains("comments") == true)
    #expect(try #require(parse("{'a':1}").failureValue).hint?.contains("double quotes") == true)
  }

  @Test func endOfInput() throws {
    for text in ["", "{", "[1,", "{\"a\"", "{\"a\":", "\"abc", "-", "tr", "[1", "\"\\u12"] {
      let error = try #require(parse(text).failureValue, "\(text) was accepted")
      #expect(error.isEndOfInput, "\(text)")
    }
  }

  @Test func depthLimit() throws {
    let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    let error = try #require(parse(deep).failureValue)
    #expect(error.problem == "values are nested deeper than 512 levels")
    let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
    #expect(throws: Never.self) { try parse(fine).get() }
  }

  @Test func lineCounter() {
    let bytes = Array("ab\ncd\n\nef".utf8)
    bytes.withUnsafeBufferPointer { buffer in
      var lines = LineCounter(base: buffer.baseAddress!, count: buffer.count)
      #expect(lines.position(of: 0) == (1, 1))
      #expect(lines.position(of: 4) == (2, 2))
      #expect(lines.position(of: 7) == (4, 1))
      #expect(lines.position(of: 1) == (1, 2))  // backwards works too
      #expect(lines.position(of: 9) == (4, 3))
    }
  }
}

@Suite("Number conversion")
struct JSONNumberTests {
  @Test func fastPathAgreesWithTheStandardLibrary() {
    // Seeded, so a failure names literals that come back on the next run.
    var generator = SplitMix64(seed: 0x5EED_1234_ABCD_0001)
    var literals = [
      "0", "-0", "0.1", "-122.376354", "1e22", "1e23", "9007199254740993", "1.7976931348623157e308",
      "5e-324", "123456789012345678", "0.30000000000000004", "-105.132311300000012", "1E-22", "4.9e-25",
    ]
    for _ in 0..<20_000 {
      let degrees = Double.random(in: -180...180, using: &generator)
      let places = Int.random(in: 0...9, using: &generator)
      literals.append(String(format6(degrees, places: places)))
      literals.append("\(Double.random(in: -1e6...1e6, using: &generator))")
    }
    for literal in literals {
      let expected = Double(literal)!
      let got = JSONNumber.double(literal)
      #expect(got.bitPattern == expected.bitPattern, "\(literal)")
    }
  }

  private func format6(_ value: Double, places: Int) -> String {
    let scale = pow10(places)
    let scaled = (value * scale).rounded()
    var text = String(Int64(abs(scaled)))
    if places > 0 {
      while text.count <= places { text = "0" + text }
      text.insert(".", at: text.index(text.endIndex, offsetBy: -places))
    }
    return (scaled < 0 ? "-" : "") + text
  }

  private func pow10(_ n: Int) -> Double { (0..<n).reduce(1.0) { value, _ in value * 10 } }
}

/// A small deterministic generator (SplitMix64), so randomized tests reproduce.
struct SplitMix64: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension Result {
  fileprivate var failureValue: Failure? {
    if case .failure(let error) = self { error } else { nil }
  }
}
