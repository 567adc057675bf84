/// Text a request gave, as an error or a log line repeats it: cut to a bounded length, so a
/// hostile megabyte-long path or header is never echoed in full (as the library's messages do).
enum EchoedText {
  /// `text` when it is at most `limit` characters, else its first `limit`, an ellipsis and its
  /// length in bytes.
  static func shortened(_ text: some StringProtocol, limit: Int = 60) -> String {
    guard text.utf8.count > limit, text.count > limit else { return String(text) }
    return "\(text.prefix(limit))…(\(text.utf8.count) bytes)"
  }

  /// `'text'`, shortened.
  static func quoted(_ text: some StringProtocol, limit: Int = 60) -> String {
    "'\(shortened(text, limit: limit))'"
  }
}
