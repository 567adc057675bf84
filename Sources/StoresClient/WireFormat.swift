import Foundation

/// How the convenience methods write Swift values into the service's query parameters.
enum WireFormat {
  /// `2026-11-25T18:00:00Z`: an instant as the document's `Instant` and `Time` take it (whole
  /// seconds, UTC; a fraction of a second is dropped, as the service would not read it).
  static func instant(_ date: Date) -> String {
    date.formatted(Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC")!))
  }

  /// A duration as the document's `Duration` grammar writes it, in the largest unit that keeps it
  /// exact: `2h`, `90m`, `45s`. A fraction of a second is rounded up: "open for at least".
  static func duration(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let total = max(0, seconds + (attoseconds > 0 ? 1 : 0))
    if total > 0, total % 86_400 == 0 { return "\(total / 86_400)d" }
    if total > 0, total % 3_600 == 0, total / 3_600 <= 999 { return "\(total / 3_600)h" }
    if total > 0, total % 60 == 0, total / 60 <= 9_999 { return "\(total / 60)m" }
    if total <= 99_999 { return "\(total)s" }
    return "\(total / 3_600)h\(total % 3_600 / 60)m\(total % 60)s"
  }

  /// `47.6062,-122.3321`: latitude first, as the document's `Location` reads it.
  static func latLon(_ coordinate: Coordinate) -> String {
    "\(coordinate.latitude),\(coordinate.longitude)"
  }
}
