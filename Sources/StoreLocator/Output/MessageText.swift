/// Pieces of error messages that repeat what the user gave.
enum MessageText {
  /// `text` as it is when it is at most `limit` characters, else its first `limit` characters, an
  /// ellipsis and how long it was, so a hostile megabyte-long value (an id, a number, a key) is
  /// never echoed in full into an error, a log or a terminal.
  static func shortened(_ text: String, limit: Int = 60) -> String {
    // Counting bytes first keeps the common short case from walking the characters.
    guard text.utf8.count > limit, text.count > limit else { return text }
    return "\(text.prefix(limit))…(\(text.utf8.count) bytes)"
  }

  /// `'text'`, cut after `limit` characters (with how long it was), so a hostile megabyte-long
  /// value is never echoed in full into an error, a log or a terminal.
  static func quoted(_ text: String, limit: Int = 60) -> String { "'\(shortened(text, limit: limit))'" }
}
