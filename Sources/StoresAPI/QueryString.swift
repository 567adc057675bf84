import StoreLocator

/// Reads a URL's query string into the named values the library's request types read.
///
/// Decoded as HTML forms encode it (`application/x-www-form-urlencoded`): `&` separates pairs,
/// the first `=` separates name from value, `+` is a space and `%XX` a byte; a name without `=`
/// has the empty value (`open_now` alone means true, as the library reads flags).
enum QueryString {
  /// The pairs of `query` in order; repeated names are kept (`where=a&where=b`).
  /// - Throws: `Problem` (400) naming the parameter whose text is not valid percent-encoded UTF-8.
  /// - Complexity: O(n) in the length of the query.
  static func pairs(_ query: String?) throws(Problem) -> [(name: String, value: String)] {
    guard let query, !query.isEmpty else { return [] }
    var pairs: [(name: String, value: String)] = []
    for piece in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
      let equals = piece.firstIndex(of: UInt8(ascii: "="))
      let rawName = piece[..<(equals ?? piece.endIndex)]
      let rawValue = equals.map { piece[piece.index(after: $0)...] } ?? piece[piece.endIndex...]
      guard let name = decoded(rawName) else { throw malformed(rawName, parameter: nil) }
      guard let value = decoded(rawValue) else { throw malformed(rawValue, parameter: name) }
      pairs.append((name, value))
    }
    return pairs
  }

  /// A path segment (a store id): `%XX` is a byte, `+` stays a plus.
  static func pathSegment(_ text: some StringProtocol) throws(Problem) -> String {
    guard let value = decoded(Substring(text).utf8, plusIsSpace: false) else {
      throw malformed(Substring(text).utf8, parameter: "id")
    }
    return value
  }

  /// The text of percent-encoded bytes, or `nil` when an escape is cut short or not hex, or the
  /// bytes are not UTF-8.
  static func decoded(_ bytes: Substring.UTF8View, plusIsSpace: Bool = true) -> String? {
    // Most names and values (`near=47.6,-122.3`, `k=10`) have nothing to decode, and are text
    // already: copied as they are.
    if !bytes.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) {
      return String(Substring(bytes))
    }
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var position = bytes.startIndex
    while position != bytes.endIndex {
      let byte = bytes[position]
      switch byte {
      case UInt8(ascii: "+") where plusIsSpace:
        output.append(UInt8(ascii: " "))
      case UInt8(ascii: "%"):
        let high = bytes.index(after: position)
        guard high != bytes.endIndex, bytes.index(after: high) != bytes.endIndex,
          let upper = hexValue(bytes[high]), let lower = hexValue(bytes[bytes.index(after: high)])
        else { return nil }
        output.append(upper << 4 | lower)
        position = bytes.index(after: high)
      default:
        output.append(byte)
      }
      position = bytes.index(after: position)
    }
    return String(validating: output, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  private static func malformed(_ raw: Substring.UTF8View, parameter: String?) -> Problem {
    Problem(
      "invalid-request", status: .badRequest, title: "The request is not valid",
      detail: "\(EchoedText.quoted(String(decoding: raw, as: UTF8.self))) is not valid percent-encoded "
        + "UTF-8 (write a byte as %XX with two hex digits)",
      parameter: parameter.map { EchoedText.shortened($0) })
  }
}
