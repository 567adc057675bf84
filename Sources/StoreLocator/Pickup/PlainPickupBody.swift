/// A `POST /v1/pickup` body of the common shape read straight from its bytes: one flat object
/// whose member names and strings are printable ASCII without escapes, whose values are strings,
/// numbers, booleans, `null` or arrays of such strings, no name given twice and no `items` (an
/// order document). Anything else, valid or not, is left to the JSON parser, which reads every
/// body the same way and explains what is wrong with one.
///
/// Why: the parser sets up a 4,096-slot string cache for every text it reads, made for files of a
/// million stores; for a 50-byte body that was 8% of a pickup's time on the 1M-store snapshot.
/// The object read here is the one the parser makes of the same bytes (a test holds the two equal
/// on many bodies, valid and not).
enum PlainPickupBody {
  /// The object `body` holds, or `nil` when it is not of the plain shape.
  static func object(_ body: [UInt8]) -> JSONObject? {
    body.withUnsafeBufferPointer { bytes in
      var reader = Reader(bytes: bytes)
      return reader.object()
    }
  }

  private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func skipWhitespace() {
      while offset < bytes.count {
        let byte = bytes[offset]
        guard byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 else { return }
        offset += 1
      }
    }

    /// Takes `byte` when it comes next (after whitespace).
    mutating func take(_ byte: UInt8) -> Bool {
      skipWhitespace()
      guard offset < bytes.count, bytes[offset] == byte else { return false }
      offset += 1
      return true
    }

    mutating func object() -> JSONObject? {
      guard take(UInt8(ascii: "{")) else { return nil }
      var members: [JSONObject.Member] = []
      if !take(UInt8(ascii: "}")) {
        repeat {
          skipWhitespace()
          guard let name = string(), name != "items", take(UInt8(ascii: ":")), let value = value(),
            !members.contains(where: { $0.key == name })
          else { return nil }
          members.append(JSONObject.Member(key: name, value: value))
        } while take(UInt8(ascii: ","))
        guard take(UInt8(ascii: "}")) else { return nil }
      }
      skipWhitespace()
      return isAtEnd ? JSONObject(members) : nil
    }

    mutating func value() -> JSONValue? {
      skipWhitespace()
      guard offset < bytes.count else { return nil }
      switch bytes[offset] {
      case UInt8(ascii: "\""): return string().map(JSONValue.string)
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number().map(JSONValue.number)
      case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
      case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
      case UInt8(ascii: "n"): return literal("null") ? .null : nil
      case UInt8(ascii: "["):
        offset += 1
        var elements: [JSONValue] = []
        if !take(UInt8(ascii: "]")) {
          repeat {
            skipWhitespace()
            guard let element = string() else { return nil }
            elements.append(.string(element))
          } while take(UInt8(ascii: ","))
          guard take(UInt8(ascii: "]")) else { return nil }
        }
        return .array(elements)
      default: return nil
      }
    }

    /// A string in quotes of printable ASCII other than `"` and `\`; `offset` is at the quote.
    mutating func string() -> String? {
      guard offset < bytes.count, bytes[offset] == UInt8(ascii: "\"") else { return nil }
      let start = offset + 1
      var cursor = start
      while cursor < bytes.count {
        let byte = bytes[cursor]
        if byte == UInt8(ascii: "\"") {
          offset = cursor + 1
          return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<cursor]), as: UTF8.self)
        }
        guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
        cursor += 1
      }
      return nil
    }

    /// A number as RFC 8259 writes one, `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, as
    /// its text.
    mutating func number() -> String? {
      let start = offset
      func digits() -> Int {
        let first = offset
        while offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 { offset += 1 }
        return offset - first
      }
      if bytes[offset] == UInt8(ascii: "-") { offset += 1 }
      guard offset < bytes.count else { return nil }
      if bytes[offset] == UInt8(ascii: "0") {
        offset += 1
      } else if digits() == 0 {
        return nil
      }
      if offset < bytes.count, bytes[offset] == UInt8(ascii: ".") {
        offset += 1
        guard digits() > 0 else { return nil }
      }
      if offset < bytes.count, bytes[offset] | 0x20 == UInt8(ascii: "e") {
        offset += 1
        if offset < bytes.count, bytes[offset] == UInt8(ascii: "+") || bytes[offset] == UInt8(ascii: "-") {
          offset += 1
        }
        guard digits() > 0 else { return nil }
      }
      // A digit right after a leading zero is no number (`01`); what follows any other number
      // is for the caller to accept or not.
      if offset < bytes.count, bytes[offset] &- UInt8(ascii: "0") < 10 { return nil }
      return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<offset]), as: UTF8.self)
    }

    mutating func literal(_ text: StaticString) -> Bool {
      let count = text.utf8CodeUnitCount
      guard bytes.count - offset >= count else { return false }
      for index in 0..<count where bytes[offset + index] != text.utf8Start[index] { return false }
      offset += count
      return true
    }
  }
}
