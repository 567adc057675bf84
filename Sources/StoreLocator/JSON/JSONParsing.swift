extension JSONValue {
  /// Parses one JSON text (RFC 8259), such as a line of a JSON-lines stream.
  ///
  /// - Throws: `JSONParseError` with the character position and what was expected there.
  public init(parsing text: String) throws(JSONParseError) {
    var text = text
    let result: Result<JSONValue, JSONParseError> = text.withUTF8 { bytes in
      guard let base = bytes.baseAddress, !bytes.isEmpty else {
        return .failure(
          JSONParseError(offset: 0, message: "expected a JSON value, found the end of the input"))
      }
      var scanner = JSONScanner(base: base, start: 0, end: bytes.count)
      do throws(JSONSyntaxError) {
        let value = try scanner.parseValue()
        scanner.skipWhitespace()
        guard scanner.isAtEnd else {
          return .failure(
            JSONParseError(offset: scanner.offset, message: "expected the end of the input after the value"))
        }
        return .success(value)
      } catch {
        var message = error.expected.map { "expected \($0)" } ?? error.problem ?? "invalid JSON"
        if error.isEndOfInput { message += ", found the end of the input" }
        if let hint = error.hint { message += " " + hint }
        return .failure(JSONParseError(offset: error.offset, message: message))
      }
    }
    self = try result.get()
  }
}

/// JSON text that could not be read.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// Byte offset of the problem.
  public let offset: Int
  public let message: String
  public var description: String { "invalid JSON at byte \(offset + 1): \(message)" }
}
