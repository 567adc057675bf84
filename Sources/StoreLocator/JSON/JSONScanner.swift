#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Why a JSON text could not be read, at a byte offset.
///
/// The message is built by the reader, which knows line numbers: "expected ',' or '}' after member
/// "name" at line 3:17, found 'N'".
struct JSONSyntaxError: Error, Sendable {
  /// Byte offset of the offending character (or of the end of the input).
  var offset: Int
  /// What the reader wanted there, such as `',' or '}' after member "name"`; `nil` when `problem`
  /// says it all.
  var expected: String?
  /// A problem that is not "expected X": `unescaped control character U+000A in a string`.
  var problem: String?
  /// Extra advice, such as `(NaN and Infinity are not JSON numbers)`.
  var hint: String?
  /// The input ended before the value did.
  var isEndOfInput: Bool
}

/// A byte-level RFC 8259 reader that produces `JSONValue`s.
///
/// It reads from memory the caller keeps alive (`base` must stay valid while the scanner is used).
/// Numbers are kept as their literal text; strings are validated as UTF-8; object members keep
/// their order, and a repeated key (the same bytes: keys are not compared by Unicode equivalence)
/// keeps the last value at the first key's place (and is recorded in `duplicateKeys`). Nesting
/// deeper than `maximumDepth` and objects of more than `maximumMembers` members are errors, so
/// hostile input can neither exhaust the stack nor make the duplicate check slow.
struct JSONScanner {
  /// The most members one object may have. Store records have tens; the cap keeps an object that
  /// is all keys (an attack, or a generator gone wrong) an error rather than a memory sink.
  static let maximumMembers = 10_000
  /// Up to this many members, a repeated key is found by comparing with each earlier one (faster
  /// than hashing for the small objects of store records); beyond it, by a hash table, so the check
  /// stays linear in the object's size.
  static let linearKeySearchLimit = 16

  let base: UnsafePointer<UInt8>
  /// One past the last byte this scanner may read.
  var end: Int
  /// The next byte to read.
  var offset: Int
  let maximumDepth: Int
  private var depth = 0
  /// Keys seen twice in one object since the caller last emptied this, with the offset of the
  /// second occurrence.
  var duplicateKeys: [(offset: Int, key: String)] = []
  /// Offsets of `\u` escapes naming a lone UTF-16 surrogate (replaced by U+FFFD).
  var loneSurrogates: [Int] = []
  private var scratch: [UInt8] = []
  /// Members and elements of the containers being read, innermost last: one growing buffer reused
  /// for every object and array, so each container is allocated once, at its final size, and its
  /// values are moved into it rather than copied.
  private let memberStack = MoveStack<JSONObject.Member>()
  private let elementStack = MoveStack<JSONValue>()
  /// Strings made recently, so the keys and values that repeat from record to record share one
  /// allocation.
  private var strings: StringCache

  init(base: UnsafePointer<UInt8>, start: Int, end: Int, maximumDepth: Int = 512) {
    self.base = base
    self.offset = start
    self.end = end
    self.maximumDepth = maximumDepth
    strings = StringCache(forInputOf: end - start)
  }

  // MARK: Bytes

  @inline(__always) var isAtEnd: Bool { offset >= end }

  /// The byte at `offset`; the caller checks `isAtEnd` first.
  @inline(__always) var current: UInt8 { base[offset] }

  @inline(__always) mutating func skipWhitespace() {
    while offset < end {
      let byte = base[offset]
      // space, \t, \n, \r
      guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
      offset &+= 1
    }
  }

  // MARK: Values

  /// Reads one value starting at the next non-whitespace byte.
  mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
    skipWhitespace()
    guard offset < end else { throw endOfInput(expecting: "a value") }
    switch base[offset] {
    case UInt8(ascii: "{"): return .object(try parseObject())
    case UInt8(ascii: "["): return .array(try parseArray())
    case UInt8(ascii: "\""): return .string(try parseString())
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
    case UInt8(ascii: "t"):
      try expectLiteral("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try expectLiteral("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try expectLiteral("null")
      return .null
    default:
      throw unexpected(expecting: "a value")
    }
  }

  /// Reads an object; `offset` is at its `{`.
  mutating func parseObject() throws(JSONSyntaxError) -> JSONObject {
    try enter()
    offset &+= 1
    skipWhitespace()
    if offset < end, base[offset] == UInt8(ascii: "}") {
      offset &+= 1
      depth -= 1
      return JSONObject()
    }
    let first = memberStack.count
    // Built once the object outgrows `linearKeySearchLimit`: member key to position in memberStack.
    var positionsByKey: [ExactText: Int] = [:]
    while true {
      skipWhitespace()
      guard offset < end else {
        throw endOfInput(
          expecting: memberStack.count == first ? "a member name or '}'" : "a member name after ','")
      }
      if memberStack.count - first >= Self.maximumMembers {
        throw JSONSyntaxError(
          offset: offset, expected: nil,
          problem:
            "an object has more than \(Self.maximumMembers) members (the limit for any JSON object here)",
          hint: nil, isEndOfInput: false)
      }
      guard base[offset] == UInt8(ascii: "\"") else {
        throw unexpected(
          expecting: memberStack.count == first
            ? "a member name (a string in double quotes) or '}'" : "a member name after ','")
      }
      let keyOffset = offset
      let key = try parseString()
      skipWhitespace()
      guard offset < end, base[offset] == UInt8(ascii: ":") else {
        throw offset < end
          ? unexpected(expecting: "':' after member name \"\(key)\"")
          : endOfInput(expecting: "':' after member name \"\(key)\"")
      }
      offset &+= 1
      let value = try parseValue()
      let existing: Int?
      let members = memberStack.count - first
      if members < Self.linearKeySearchLimit {
        existing = index(of: key, from: first)
      } else {
        if members == Self.linearKeySearchLimit {
          positionsByKey.reserveCapacity(4 * Self.linearKeySearchLimit)
          for position in first..<memberStack.count {
            positionsByKey[ExactText(memberStack.pointer[position].key)] = position
          }
        }
        existing = positionsByKey[ExactText(key)]
        if existing == nil { positionsByKey[ExactText(key)] = memberStack.count }
      }
      if let existing {
        memberStack.pointer[existing].value = value
        duplicateKeys.append((keyOffset, key))
      } else {
        memberStack.append(JSONObject.Member(key: key, value: value))
      }
      skipWhitespace()
      guard offset < end else { throw endOfInput(expecting: "',' or '}' after member \"\(key)\"") }
      let byte = base[offset]
      offset &+= 1
      if byte == UInt8(ascii: ",") { continue }
      if byte == UInt8(ascii: "}") { break }
      offset &-= 1
      throw unexpected(expecting: "',' or '}' after member \"\(key)\"")
    }
    depth -= 1
    return JSONObject(memberStack.popArray(from: first))
  }

  /// Where `key` already is among the members of the object being read (from `first` on).
  @inline(__always)
  private func index(of key: String, from first: Int) -> Int? {
    // Small objects: a linear scan beats hashing. Bytes, not canonical equivalence.
    var position = first
    while position < memberStack.count {
      if memberStack.pointer[position].key.hasSameBytes(as: key) { return position }
      position &+= 1
    }
    return nil
  }

  /// Reads an array; `offset` is at its `[`.
  mutating func parseArray() throws(JSONSyntaxError) -> [JSONValue] {
    try enter()
    offset &+= 1
    skipWhitespace()
    if offset < end, base[offset] == UInt8(ascii: "]") {
      offset &+= 1
      depth -= 1
      return []
    }
    let first = elementStack.count
    while true {
      skipWhitespace()
      if offset < end, base[offset] == UInt8(ascii: "]"), elementStack.count > first {
        throw unexpected(expecting: "a value after ','", hint: "(JSON allows no trailing comma)")
      }
      let element = try parseValue()
      elementStack.append(element)
      skipWhitespace()
      let count = elementStack.count - first
      guard offset < end else { throw endOfInput(expecting: "',' or ']' after array element \(count)") }
      let byte = base[offset]
      offset &+= 1
      if byte == UInt8(ascii: ",") { continue }
      if byte == UInt8(ascii: "]") { break }
      offset &-= 1
      throw unexpected(expecting: "',' or ']' after array element \(count)")
    }
    depth -= 1
    return elementStack.popArray(from: first)
  }

  /// Goes one container deeper, as reading an object or array does: for a reader that reads a
  /// container's members itself (`FeatureDrafter`), so that the depth limit counts it.
  @inline(__always) mutating func enter() throws(JSONSyntaxError) {
    depth += 1
    if depth > maximumDepth {
      depth = 0
      throw JSONSyntaxError(
        offset: offset, expected: nil, problem: "values are nested deeper than \(maximumDepth) levels",
        hint: nil, isEndOfInput: false)
    }
  }

  /// Leaves the container `enter` went into.
  @inline(__always) mutating func leave() { depth -= 1 }

  /// Forgets the containers left open by an error, before reading the next record.
  mutating func resetDepth() {
    depth = 0
    memberStack.removeAll()
    elementStack.removeAll()
  }

  private mutating func expectLiteral(_ literal: StaticString) throws(JSONSyntaxError) {
    let count = literal.utf8CodeUnitCount
    let start = offset
    let bytes = literal.utf8Start
    for index in 0..<count {
      guard start + index < end else {
        offset = start + index
        throw endOfInput(expecting: "'\(literal)'")
      }
      guard base[start + index] == bytes[index] else {
        offset = start
        throw unexpected(expecting: "a value")
      }
    }
    offset = start + count
  }

  // MARK: Numbers

  /// Reads a number and returns its literal text; `offset` is at its first byte.
  mutating func parseNumber() throws(JSONSyntaxError) -> String {
    let start = offset
    if base[offset] == UInt8(ascii: "-") {
      offset &+= 1
      guard offset < end else { throw endOfInput(expecting: "a digit after '-'") }
    }
    // Integer part: 0 | [1-9][0-9]*
    let first = base[offset]
    if first == UInt8(ascii: "0") {
      offset &+= 1
      if offset < end, isDigit(base[offset]) {
        throw unexpected(
          expecting: "'.', 'e' or the end of the number", hint: "(JSON numbers have no leading zeros)")
      }
    } else if isDigit(first) {
      offset &+= 1
      while offset < end, isDigit(base[offset]) { offset &+= 1 }
    } else {
      throw unexpected(expecting: "a digit after '-'")
    }
    if offset < end, base[offset] == UInt8(ascii: ".") {
      offset &+= 1
      guard offset < end else { throw endOfInput(expecting: "a digit after '.'") }
      guard isDigit(base[offset]) else { throw unexpected(expecting: "a digit after '.'") }
      while offset < end, isDigit(base[offset]) { offset &+= 1 }
    }
    if offset < end, base[offset] | 0x20 == UInt8(ascii: "e") {
      offset &+= 1
      if offset < end, base[offset] == UInt8(ascii: "+") || base[offset] == UInt8(ascii: "-") { offset &+= 1 }
      guard offset < end else { throw endOfInput(expecting: "a digit in the exponent") }
      guard isDigit(base[offset]) else { throw unexpected(expecting: "a digit in the exponent") }
      while offset < end, isDigit(base[offset]) { offset &+= 1 }
    }
    return String(decoding: UnsafeBufferPointer(start: base + start, count: offset - start), as: UTF8.self)
  }

  @inline(__always) private func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

  // MARK: Strings

  /// Reads a string; `offset` is at its opening quote.
  mutating func parseString() throws(JSONSyntaxError) -> String {
    offset &+= 1
    let start = offset
    var cursor = try unescapedRun(from: start)
    if base[cursor] == UInt8(ascii: "\"") {
      offset = cursor &+ 1
      return strings.string(UnsafeBufferPointer(start: base + start, count: cursor - start))
    }
    // Slow path: escapes. Copy what came before, then decode the rest byte by byte.
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: UnsafeBufferPointer(start: base + start, count: cursor - start))
    while true {
      guard cursor < end else {
        offset = cursor
        throw endOfInput(expecting: "'\"' closing the string")
      }
      let byte = base[cursor]
      switch byte {
      case UInt8(ascii: "\""):
        offset = cursor &+ 1
        return String(decoding: scratch, as: UTF8.self)
      case UInt8(ascii: "\\"):
        cursor = try decodeEscape(at: cursor)
      case 0..<0x20:
        offset = cursor
        throw controlCharacter(byte)
      case 0x80...:
        let next = try validateUTF8Sequence(at: cursor)
        scratch.append(contentsOf: UnsafeBufferPointer(start: base + cursor, count: next - cursor))
        cursor = next
      default:
        scratch.append(byte)
        cursor &+= 1
      }
    }
  }

  /// Reads a string without escapes, `offset` at its opening quote, and returns where its text
  /// is (between the quotes): those bytes are its UTF-8, and with the quotes its compact JSON.
  /// `nil` when it has an escape, with `offset` left at the opening quote for `parseString`.
  mutating func plainString() throws(JSONSyntaxError) -> Range<Int>? {
    let start = offset &+ 1
    let stop = try unescapedRun(from: start)
    guard base[stop] == UInt8(ascii: "\"") else { return nil }
    offset = stop &+ 1
    return start..<stop
  }

  /// The offset of the closing quote or first backslash of the string whose text starts at
  /// `start`, every byte before it checked (no control character, valid UTF-8).
  @inline(__always) private mutating func unescapedRun(from start: Int) throws(JSONSyntaxError) -> Int {
    var cursor = start
    // Plain ASCII eight bytes at a time where possible.
    while true {
      while cursor &+ 8 <= end {
        let word = UInt64(littleEndian: UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self))
        let special = Self.specialBytes(word)
        if special != 0 {
          // Straight to the first special byte, not byte by byte.
          cursor &+= special.trailingZeroBitCount &>> 3
          break
        }
        cursor &+= 8
      }
      guard cursor < end else {
        offset = cursor
        throw endOfInput(expecting: "'\"' closing the string")
      }
      let byte = base[cursor]
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return cursor }
      if byte < 0x20 {
        offset = cursor
        throw controlCharacter(byte)
      }
      if byte >= 0x80 {
        cursor = try validateUTF8Sequence(at: cursor)
        continue
      }
      cursor &+= 1
    }
  }

  /// The text of the input's bytes in `range`, checked UTF-8 (a `plainString`).
  mutating func text(_ range: Range<Int>) -> String {
    strings.string(UnsafeBufferPointer(start: base + range.lowerBound, count: range.count))
  }

  /// The high bit of the first byte (in memory order, of a little-endian word) that is `"`, `\`, a
  /// control character or non-ASCII is set; bits of later bytes may be set too; 0 when none is.
  ///
  /// A borrow in the subtractions only starts at a byte that is special itself, so bytes before
  /// the first special one are never marked.
  @inline(__always) private static func specialBytes(_ word: UInt64) -> UInt64 {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    let quote = word ^ (ones &* 0x22)
    let backslash = word ^ (ones &* 0x5C)
    // A byte is zero in x exactly when (x - 1) & ~x has its high bit set (exact when x has no high bits).
    let quoteZero = (quote &- ones) & ~quote
    let backslashZero = (backslash &- ones) & ~backslash
    let control = (word &- (ones &* 0x20)) & ~word
    return (quoteZero | backslashZero | control | word) & highs
  }

  private func controlCharacter(_ byte: UInt8) -> JSONSyntaxError {
    let hex = String(byte, radix: 16, uppercase: true)
    return JSONSyntaxError(
      offset: offset, expected: nil,
      problem:
        "unescaped control character U+\(String(repeating: "0", count: 4 - hex.count) + hex) in a string",
      hint: byte == 0x0A
        ? "(a line break inside a string must be written \\n)" : "(write it as a \\u escape)",
      isEndOfInput: false)
  }

  /// Checks the UTF-8 sequence starting at `position` (a byte ≥ 0x80); returns the offset after it.
  @inline(__always)
  private mutating func validateUTF8Sequence(at position: Int) throws(JSONSyntaxError) -> Int {
    let lead = base[position]
    let length: Int
    var lower: UInt8 = 0x80
    var upper: UInt8 = 0xBF
    switch lead {
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      lower = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      upper = 0x9F
    case 0xF0:
      length = 4
      lower = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      upper = 0x8F
    default:
      throw invalidUTF8(at: position)
    }
    for index in 1..<length {
      guard position + index < end else {
        offset = position + index
        throw endOfInput(expecting: "the rest of a UTF-8 sequence")
      }
      let byte = base[position + index]
      let (low, high) = index == 1 ? (lower, upper) : (0x80, 0xBF)
      // The sequence is broken; the byte to blame is its lead, not the byte that broke it (in
      // Latin-1 "café\"" that would be the closing quote).
      guard byte >= low, byte <= high else { throw invalidUTF8(at: position) }
    }
    return position + length
  }

  /// "invalid UTF-8 byte 0xE9" at the lead byte of a bad sequence (a byte ≥ 0x80).
  private mutating func invalidUTF8(at position: Int) -> JSONSyntaxError {
    offset = position
    let byte = base[position]
    let hex = String(byte, radix: 16, uppercase: true)
    // A byte ≥ 0x80 that does not start a valid UTF-8 sequence is what a Latin-1 or Windows-1252
    // file looks like; name the character it would be there when it is a printable Latin-1 one.
    let character =
      byte >= 0xA1 && byte != 0xAD ? "0x\(hex) is '\(Character(Unicode.Scalar(byte)))' in Latin-1; " : ""
    return JSONSyntaxError(
      offset: position, expected: nil,
      problem: "invalid UTF-8 byte 0x\(hex.count == 1 ? "0" + hex : hex) in a string",
      hint: "(\(character)the file looks like Latin-1 or Windows-1252, not UTF-8: save it as UTF-8)",
      isEndOfInput: false)
  }

  /// Decodes the escape at `position` (its backslash) into `scratch`; returns the offset after it.
  private mutating func decodeEscape(at position: Int) throws(JSONSyntaxError) -> Int {
    guard position + 1 < end else {
      offset = position + 1
      throw endOfInput(expecting: "an escape after '\\'")
    }
    let letter = base[position + 1]
    let simple: UInt8
    switch letter {
    case UInt8(ascii: "\""): simple = 0x22
    case UInt8(ascii: "\\"): simple = 0x5C
    case UInt8(ascii: "/"): simple = 0x2F
    case UInt8(ascii: "b"): simple = 0x08
    case UInt8(ascii: "f"): simple = 0x0C
    case UInt8(ascii: "n"): simple = 0x0A
    case UInt8(ascii: "r"): simple = 0x0D
    case UInt8(ascii: "t"): simple = 0x09
    case UInt8(ascii: "u"):
      var unit = try hexQuad(at: position + 2)
      var next = position + 6
      var scalar: UInt32
      if (0xD800...0xDBFF).contains(unit) {
        // A high surrogate must be followed by \u and a low surrogate.
        if next + 1 < end, base[next] == UInt8(ascii: "\\"), base[next + 1] == UInt8(ascii: "u") {
          let low = try hexQuad(at: next + 2)
          if (0xDC00...0xDFFF).contains(low) {
            scalar = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
            next += 6
            appendScalar(scalar)
            return next
          }
        }
        loneSurrogates.append(position)
        unit = 0xFFFD
      } else if (0xDC00...0xDFFF).contains(unit) {
        loneSurrogates.append(position)
        unit = 0xFFFD
      }
      scalar = UInt32(unit)
      appendScalar(scalar)
      return next
    default:
      offset = position + 1
      throw unexpected(expecting: "an escape (one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX) after '\\'")
    }
    scratch.append(simple)
    return position + 2
  }

  private mutating func hexQuad(at position: Int) throws(JSONSyntaxError) -> UInt16 {
    var value: UInt16 = 0
    for index in 0..<4 {
      guard position + index < end else {
        offset = position + index
        throw endOfInput(expecting: "four hexadecimal digits after '\\u'")
      }
      let byte = base[position + index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        offset = position + index
        throw unexpected(expecting: "four hexadecimal digits after '\\u'")
      }
      value = value << 4 | UInt16(digit)
    }
    return value
  }

  private mutating func appendScalar(_ scalar: UInt32) {
    switch scalar {
    case 0..<0x80:
      scratch.append(UInt8(scalar))
    case 0x80..<0x800:
      scratch.append(UInt8(0xC0 | scalar >> 6))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    case 0x800..<0x10000:
      scratch.append(UInt8(0xE0 | scalar >> 12))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    default:
      scratch.append(UInt8(0xF0 | scalar >> 18))
      scratch.append(UInt8(0x80 | scalar >> 12 & 0x3F))
      scratch.append(UInt8(0x80 | scalar >> 6 & 0x3F))
      scratch.append(UInt8(0x80 | scalar & 0x3F))
    }
  }

  // MARK: Errors

  func endOfInput(expecting expected: String) -> JSONSyntaxError {
    JSONSyntaxError(offset: end, expected: expected, problem: nil, hint: nil, isEndOfInput: true)
  }

  /// "expected X, found 'c'" at `offset`, with a hint for the usual non-JSON suspects.
  func unexpected(expecting expected: String, hint: String? = nil) -> JSONSyntaxError {
    guard offset < end else { return endOfInput(expecting: expected) }
    var hint = hint
    if hint == nil {
      switch base[offset] {
      case UInt8(ascii: "N"), UInt8(ascii: "I"):
        hint = "(NaN and Infinity are not JSON numbers; write null or leave the record out)"
      case UInt8(ascii: "/"), UInt8(ascii: "#"): hint = "(JSON has no comments)"
      case UInt8(ascii: "'"): hint = "(JSON strings use double quotes)"
      case UInt8(ascii: "}"), UInt8(ascii: "]"):
        if expected.hasSuffix("after ','") { hint = "(JSON allows no trailing comma)" }
      default: break
      }
    }
    return JSONSyntaxError(offset: offset, expected: expected, problem: nil, hint: hint, isEndOfInput: false)
  }

  /// How a byte reads in a message: `'N'`, `'\n'` or `byte 0xFF`.
  static func describe(byte: UInt8) -> String {
    switch byte {
    case 0x0A: return "a line break"
    case 0x0D: return "a carriage return"
    case 0x09: return "a tab"
    case 0x1E: return "a record separator (0x1E)"
    case 0x20..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
    default:
      let hex = String(byte, radix: 16, uppercase: true)
      return "byte 0x\(hex.count == 1 ? "0" + hex : hex)"
    }
  }
}

/// A last-in, first-out buffer of values whose top run can be moved out into an array.
///
/// Unlike `Array`'s `removeLast`, moving the run out costs no retain or release per value. A class,
/// so that it can free its buffer; a scanner owns its stacks and is never copied while in use.
final class MoveStack<Element> {
  private(set) var pointer: UnsafeMutablePointer<Element>
  private(set) var count = 0
  private var capacity: Int

  init(capacity: Int = 64) {
    self.capacity = max(capacity, 1)
    pointer = .allocate(capacity: self.capacity)
  }

  deinit {
    pointer.deinitialize(count: count)
    pointer.deallocate()
  }

  @inline(__always)
  func append(_ element: consuming Element) {
    if count == capacity {
      let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
      larger.moveInitialize(from: pointer, count: count)
      pointer.deallocate()
      pointer = larger
      capacity *= 2
    }
    (pointer + count).initialize(to: element)
    count += 1
  }

  /// Moves the values from `first` to the top into a new array, leaving `first` values.
  func popArray(from first: Int) -> [Element] {
    let moved = count - first
    let source = pointer + first
    // Not `[Element](unsafeUninitializedCapacity:)`: that allocates through the standard library's
    // unspecialized entry point, which looks the storage class up in the runtime's metadata table
    // on every call (about 150 samples of the 1M load's 8,500, on every reading thread).
    // `reserveCapacity` allocates in specialized code, whose metadata access is cached.
    var array: [Element] = []
    array.reserveCapacity(moved)
    for position in 0..<moved { array.append((source + position).move()) }
    count = first
    return array
  }

  /// Hands every value to `body`, first to last, and leaves the stack empty.
  func consumeAll(_ body: (consuming Element) -> Void) {
    for position in 0..<count { body((pointer + position).move()) }
    count = 0
  }

  func removeAll() {
    pointer.deinitialize(count: count)
    count = 0
  }
}

/// The strings a scanner made recently, looked up by their UTF-8 bytes.
///
/// Store files repeat the same property names, and often the same values (brand, opening hours),
/// in every record; a string longer than the 15 bytes Swift keeps inline costs an allocation, so
/// a repeated one is shared instead. Direct-mapped: a slot holds the last string whose bytes hash
/// to it, so a miss costs a hash and a comparison, never a search.
struct StringCache {
  /// Strings up to this long are inline (no allocation) and not worth caching.
  private static let inlineLimit = 15
  /// Longer strings are rarely repeated (descriptions, addresses) and not worth hashing.
  private static let cachedLimit = 96
  private static let slotBits = 12
  /// Inputs shorter than this get no slots: too few strings to repeat, and setting up 4,096 slots
  /// cost more than parsing a request body (8% of a pickup's time on the 1M-store snapshot).
  private static let smallestCachedInput = 64 << 10
  private var slots: [String]

  init(forInputOf byteCount: Int) {
    slots = byteCount < Self.smallestCachedInput ? [] : [String](repeating: "", count: 1 << Self.slotBits)
  }

  /// A string of `bytes`, which are valid UTF-8.
  @inline(__always)
  mutating func string(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    let count = bytes.count
    guard count > Self.inlineLimit, count <= Self.cachedLimit, !slots.isEmpty else {
      return String(decoding: bytes, as: UTF8.self)
    }
    let slot = Self.slot(bytes)
    return slots.withUnsafeMutableBufferPointer { slots in
      let cached = slots[slot]
      if cached.utf8.count == count,
        cached.utf8.withContiguousStorageIfAvailable({
          memcmp($0.baseAddress!, bytes.baseAddress!, count) == 0
        })
          == true
      {
        return cached
      }
      let made = String(decoding: bytes, as: UTF8.self)
      slots[slot] = made
      return made
    }
  }

  /// Which slot `bytes` (more than 8 of them) belong in.
  @inline(__always)
  private static func slot(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
    let start = UnsafeRawPointer(bytes.baseAddress!)
    let count = bytes.count
    var hash = UInt64(truncatingIfNeeded: count) &* 0x9E37_79B9_7F4A_7C15
    var position = 0
    while position &+ 8 <= count {
      hash = (hash ^ start.loadUnaligned(fromByteOffset: position, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
      hash ^= hash >> 32
      position &+= 8
    }
    // The last eight bytes (overlapping the words above) cover the tail without a byte loop.
    hash = (hash ^ start.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) &* 0xC4CE_B9FE_1A85_EC53
    hash ^= hash >> 29
    return Int(truncatingIfNeeded: hash >> UInt64(64 - slotBits))
  }
}

/// Turns byte offsets into 1-based line and column numbers, reading forward from the last answer
/// (so asking in increasing order costs one pass over the input in all).
struct LineCounter {
  let base: UnsafePointer<UInt8>
  let count: Int
  private let firstLineStart: Int
  private var offset: Int
  private var line = 1
  private var lineStart: Int
  /// Where counting starts again for a byte before the last one asked about: the first line, or
  /// the last `mark(at:)` (the bytes before it may be gone).
  private var restart: (offset: Int, line: Int, lineStart: Int)

  /// - Parameter firstLineStart: where column 1 of line 1 is (after a byte-order mark).
  init(base: UnsafePointer<UInt8>, count: Int, firstLineStart: Int = 0) {
    self.base = base
    self.count = count
    self.firstLineStart = firstLineStart
    self.offset = firstLineStart
    self.lineStart = firstLineStart
    self.restart = (firstLineStart, 1, firstLineStart)
  }

  /// Counts on to `target`, and from then on counts from there, not from the first line, when
  /// asked about an earlier byte. No byte before `target` may be asked about after.
  mutating func mark(at target: Int) {
    _ = position(of: target)
    restart = (offset, line, lineStart)
  }

  /// Line and column (in bytes) of the byte at `target`.
  mutating func position(of target: Int) -> (line: Int, column: Int) {
    let target = min(max(target, firstLineStart), count)
    if target < offset {
      assert(target >= restart.offset, "a position before the bytes that are kept")
      (offset, line, lineStart) = restart
    }
    while offset < target {
      guard let found = memchr(base + offset, 0x0A, target - offset) else { break }
      let newline = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
      line += 1
      lineStart = newline + 1
      offset = newline + 1
    }
    offset = target
    return (line, target - lineStart + 1)
  }
}
