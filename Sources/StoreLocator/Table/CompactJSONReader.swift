#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads back the compact JSON texts a store table keeps for property values (written by
/// `JSONBytes`): no whitespace, strings escaped only where JSON requires it.
///
/// A `JSONScanner` is built for files (positions, messages, caches of repeated keys); making one
/// for each value of a record cost more than the rest of making the record. This reader makes no
/// allocation beyond the values themselves and answers `nil` for anything it does not expect, so
/// a forged table is refused rather than misread.
struct CompactJSONReader {
  private let bytes: UnsafeRawBufferPointer
  private var offset = 0

  private init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

  /// The value of `text`, or `nil` when it is not one compact JSON value.
  static func value(of text: UnsafeRawBufferPointer) -> JSONValue? {
    var reader = CompactJSONReader(text)
    guard let value = reader.value(depth: 0), reader.offset == text.count else { return nil }
    return value
  }

  private mutating func value(depth: Int) -> JSONValue? {
    guard depth < 512, offset < bytes.count else { return nil }
    switch bytes[offset] {
    case UInt8(ascii: "\""): return string().map(JSONValue.string)
    case UInt8(ascii: "t"): return word("true", .bool(true))
    case UInt8(ascii: "f"): return word("false", .bool(false))
    case UInt8(ascii: "n"): return word("null", .null)
    case UInt8(ascii: "["):
      offset += 1
      var elements: [JSONValue] = []
      if next(UInt8(ascii: "]")) { return .array(elements) }
      repeat {
        guard let element = value(depth: depth + 1) else { return nil }
        elements.append(element)
      } while next(UInt8(ascii: ","))
      return next(UInt8(ascii: "]")) ? .array(elements) : nil
    case UInt8(ascii: "{"):
      offset += 1
      var members: [JSONObject.Member] = []
      if next(UInt8(ascii: "}")) { return .object(JSONObject(members)) }
      repeat {
        guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\""), let key = string(),
          next(UInt8(ascii: ":")), let member = value(depth: depth + 1)
        else { return nil }
        members.append(JSONObject.Member(key: key, value: member))
      } while next(UInt8(ascii: ","))
      return next(UInt8(ascii: "}")) ? .object(JSONObject(members)) : nil
    default: return number()
    }
  }

  private mutating func next(_ byte: UInt8) -> Bool {
    guard offset < bytes.count, bytes[offset] == byte else { return false }
    offset += 1
    return true
  }

  private mutating func word(_ text: StaticString, _ value: JSONValue) -> JSONValue? {
    let count = text.utf8CodeUnitCount
    guard bytes.count - offset >= count else { return nil }
    let matches = text.withUTF8Buffer { $0.elementsEqual(bytes[offset..<offset + count]) }
    guard matches else { return nil }
    offset += count
    return value
  }

  /// A number: its literal, checked to be JSON number syntax.
  private mutating func number() -> JSONValue? {
    let start = offset
    if next(UInt8(ascii: "-")) {}
    guard digits(), offset > start + (bytes[start] == UInt8(ascii: "-") ? 1 : 0) else { return nil }
    if next(UInt8(ascii: ".")) { guard digits() else { return nil } }
    if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
      offset += 1
      if !next(UInt8(ascii: "+")) { _ = next(UInt8(ascii: "-")) }
      guard digits() else { return nil }
    }
    return .number(String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self))
  }

  /// One or more digits.
  private mutating func digits() -> Bool {
    let start = offset
    while offset < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[offset]) {
      offset += 1
    }
    return offset > start
  }

  /// A string literal at `offset` (its opening quote), unescaped; runs without escapes are copied.
  private mutating func string() -> String? {
    offset += 1
    let start = offset
    while offset < bytes.count, bytes[offset] != UInt8(ascii: "\""), bytes[offset] != UInt8(ascii: "\\") {
      offset += 1
    }
    guard offset < bytes.count else { return nil }
    if bytes[offset] == UInt8(ascii: "\"") {
      let run = UnsafeRawBufferPointer(rebasing: bytes[start..<offset])
      offset += 1
      return Self.validUTF8(run)
    }
    var utf8 = Array(bytes[start..<offset])
    while offset < bytes.count {
      let byte = bytes[offset]
      offset += 1
      switch byte {
      case UInt8(ascii: "\""): return utf8.withUnsafeBytes { Self.validUTF8($0) }
      case UInt8(ascii: "\\"):
        guard offset < bytes.count else { return nil }
        let escape = bytes[offset]
        offset += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "u"):
          // The writer escapes only control characters this way (`\u0001`).
          guard let unit = hex4(), unit < 0x80 else { return nil }
          utf8.append(UInt8(unit))
        default: return nil
        }
      default: utf8.append(byte)
      }
    }
    return nil
  }

  /// The text of `bytes` when they are UTF-8, else `nil`.
  ///
  /// (`String(validating:as:)` is generic over the encoding and was not specialised: looking up
  /// its metadata cost more than decoding. Decoding repairs invalid bytes, so a text whose bytes
  /// come back unchanged was valid.)
  static func validUTF8(_ bytes: UnsafeRawBufferPointer) -> String? {
    let text = String(decoding: bytes.assumingMemoryBound(to: UInt8.self), as: UTF8.self)
    var copy = text
    let unchanged = copy.withUTF8 { utf8 in
      utf8.count == bytes.count
        && (bytes.isEmpty || memcmp(utf8.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
    }
    return unchanged ? text : nil
  }

  private mutating func hex4() -> UInt16? {
    guard bytes.count - offset >= 4 else { return nil }
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let digit = Character(UnicodeScalar(bytes[offset])).hexDigitValue else { return nil }
      value = value << 4 | UInt16(digit)
      offset += 1
    }
    return value
  }
}
