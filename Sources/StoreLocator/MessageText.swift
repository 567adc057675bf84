/// Pieces of error messages that repeat what the user gave.
enum MessageText {
  /// `'text'`, cut after `limit` characters (with how long it was), so a hostile megabyte-long
  /// value is never echoed in full into an error, a log or a terminal.
  static func quoted(_ text: String, limit: Int = 60) -> String {
    guard text.count > limit else { return "'\(text)'" }
    return "'\(text.prefix(limit))…' (\(text.utf8.count) bytes)"
  }
}
