import Testing

/// A value as written, and its canonical form worked out by hand (`OpeningHours.normalized`).
struct Spelling: CustomTestStringConvertible, Sendable {
  let text: String
  let normalized: String
  var testDescription: String { text }
}
