/// Compact JSON written straight into bytes: what the store table keeps for each property value,
/// and what answers are rendered into from the table's rows.
///
/// `JSONValue.jsonText` is written by it too, so an answer rendered from a row equals one rendered
/// from a `Store`, byte for byte.
struct JSONBytes {
  var bytes: [UInt8] = []

  init(capacity: Int = 0) { bytes.reserveCapacity(capacity) }

  @inline(__always) mutating func append(_ byte: UInt8) { bytes.append(byte) }

  /// Raw bytes, copied whole. (`Array.append(contentsOf:)` copies a raw buffer byte by byte; a
  /// typed one in one move.)
  @inline(__always) mutating func append(_ raw: UnsafeRawBufferPointer) {
    bytes.append(contentsOf: raw.assumingMemoryBound(to: UInt8.self))
  }

  /// ASCII text known to need no escape (member names of our own, numbers).
  mutating func append(ascii text: StaticString) {
    text.withUTF8Buffer { bytes.append(contentsOf: $0) }
  }

  mutating func append(literal text: String) {
    var text = text
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// `text` as a JSON string literal: only quotes, backslashes and control characters escaped.
  mutating func appendString(_ text: String) {
    var text = text
    text.withUTF8 { appendString(utf8: UnsafeRawBufferPointer($0)) }
  }

  /// UTF-8 bytes as a JSON string literal: runs without an escape are copied whole.
  mutating func appendString(utf8 raw: UnsafeRawBufferPointer) {
    bytes.append(UInt8(ascii: "\""))
    var runStart = 0
    while let offset = Self.firstEscaped(in: raw, from: runStart) {
      if runStart < offset {
        append(UnsafeRawBufferPointer(rebasing: raw[runStart..<offset]))
      }
      appendEscape(raw[offset])
      runStart = offset + 1
    }
    if runStart < raw.count { append(UnsafeRawBufferPointer(rebasing: raw[runStart...])) }
    bytes.append(UInt8(ascii: "\""))
  }

  /// The UTF-8 text `write` appends, as a JSON string literal: written in place, and escaped
  /// afterwards only when it holds a byte that needs it.
  mutating func appendString(writing write: (inout [UInt8]) -> Void) {
    bytes.append(UInt8(ascii: "\""))
    let start = bytes.count
    write(&bytes)
    let needsEscape = bytes.withUnsafeBytes { all in
      Self.firstEscaped(in: UnsafeRawBufferPointer(rebasing: all[start...]), from: 0) != nil
    }
    guard needsEscape else {
      bytes.append(UInt8(ascii: "\""))
      return
    }
    let text = Array(bytes[start...])
    bytes.removeSubrange((start - 1)...)
    text.withUnsafeBytes { appendString(utf8: $0) }
  }

  /// Whether `byte` is written escaped in a JSON string: a quote, a backslash or a control
  /// character.
  @inline(__always) static func isEscaped(_ byte: UInt8) -> Bool {
    byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
  }

  /// The offset of the first byte at or after `start` that is written escaped, or `nil`.
  ///
  /// Eight bytes are tested at a time (most values have nothing to escape, and a byte-by-byte
  /// test was the largest part of writing a store's values). A word with a candidate is looked
  /// at byte by byte, so the word tests only need to find every escaped byte, which they do:
  /// `(w - 0x20…) & ~w & 0x80…` is non-zero when some byte of `w` is below 0x20, and `w ^ c`
  /// has a zero byte where `w` has `c`.
  @inline(__always) static func firstEscaped(in raw: UnsafeRawBufferPointer, from start: Int) -> Int? {
    let ones: UInt64 = 0x0101_0101_0101_0101
    let highs: UInt64 = 0x8080_8080_8080_8080
    var offset = start
    while offset + 8 <= raw.count {
      let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      let control = (word &- ones &* 0x20) & ~word
      let quote = word ^ (ones &* 0x22)
      let backslash = word ^ (ones &* 0x5C)
      let found = (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs
      if found != 0 { break }
      offset += 8
    }
    while offset < raw.count {
      if isEscaped(raw[offset]) { return offset }
      offset += 1
    }
    return nil
  }

  private mutating func appendEscape(_ byte: UInt8) {
    bytes.append(UInt8(ascii: "\\"))
    switch byte {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
    case UInt8(ascii: "\n"): bytes.append(UInt8(ascii: "n"))
    case UInt8(ascii: "\r"): bytes.append(UInt8(ascii: "r"))
    case UInt8(ascii: "\t"): bytes.append(UInt8(ascii: "t"))
    default:
      let digits: StaticString = "0123456789abcdef"
      bytes.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
      digits.withUTF8Buffer { hex in
        bytes.append(hex[Int(byte >> 4)])
        bytes.append(hex[Int(byte & 0xF)])
      }
    }
  }

  /// The text of `JSONValue(value)`, written without making the value: a whole number (below
  /// 10^15) without a fraction, any other finite number as Swift writes it, `null` for NaN and
  /// the infinities (JSON has none) and for no number.
  mutating func append(number value: Double?) {
    guard let value, value.isFinite else { return append(ascii: "null") }
    // Both texts are at most 15 bytes in the common case: small `String`s, not allocated.
    var text = value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : value.description
    text.withUTF8 { bytes.append(contentsOf: $0) }
  }

  /// The compact text of `value`.
  mutating func append(_ value: JSONValue) {
    switch value {
    case .null: append(ascii: "null")
    case .bool(let flag): flag ? append(ascii: "true") : append(ascii: "false")
    case .number(let literal): append(literal: literal)
    case .string(let text): appendString(text)
    case .array(let elements):
      append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { append(UInt8(ascii: ",")) }
        append(element)
      }
      append(UInt8(ascii: "]"))
    case .object(let object): append(object)
    }
  }

  mutating func append(_ object: JSONObject) {
    append(UInt8(ascii: "{"))
    for (position, member) in object.members.enumerated() {
      if position > 0 { append(UInt8(ascii: ",")) }
      appendString(member.key)
      append(UInt8(ascii: ":"))
      append(member.value)
    }
    append(UInt8(ascii: "}"))
  }

  /// `,"name":` (without the comma for the first member of an object).
  mutating func appendKey(_ name: StaticString, first: Bool = false) {
    if !first { append(UInt8(ascii: ",")) }
    append(UInt8(ascii: "\""))
    append(ascii: name)
    append(ascii: "\":")
  }

  var text: String { String(decoding: bytes, as: UTF8.self) }
}
