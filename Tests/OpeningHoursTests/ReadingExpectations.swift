// What the parser tests expect of a value, shared by the suites that check readings: its canonical
// form, a tolerated spelling with its warning, or a refusal with its position and reason.

import Testing

@testable import OpeningHours

/// A value as written, and its canonical form worked out by hand (`OpeningHours.normalized`).
struct Spelling: CustomTestStringConvertible, Sendable {
  let text: String
  let normalized: String
  var testDescription: String { text }
}

/// A tolerated spelling: the warning it gives (the first with `code` covers `range`) and the strict
/// spelling, which warns about nothing, that must read the same.
struct Tolerance: CustomTestStringConvertible, Sendable {
  var text: String
  var code: String
  var range: Range<Int>
  var strict: String
  var testDescription: String { text }
}

/// A value refused where the question lies, with what was expected there.
struct Refusal: CustomTestStringConvertible, Sendable {
  var text: String
  var position: Int
  var expected: String
  var testDescription: String { text }
}

/// The rules of a value without their character ranges, to compare two spellings.
func rulesIgnoringRanges(_ text: String) throws -> [Rule] {
  try OpeningHours(parsing: text).rules.map { rule in
    var rule = rule
    rule.range = 0..<0
    return rule
  }
}

/// Checks a tolerated spelling's warning and that it reads as its strict spelling.
func expectTolerated(_ t: Tolerance) throws {
  let hours = try OpeningHours(parsing: t.text)
  let match = hours.warnings.first { $0.code == t.code }
  #expect(match != nil, "\(hours.warnings)")
  #expect(match?.range == t.range, "\(hours.warnings)")
  let strict = try OpeningHours(parsing: t.strict)
  #expect(strict.warnings.isEmpty, "the strict spelling \(t.strict) warns: \(strict.warnings)")
  #expect(try rulesIgnoringRanges(t.text) == rulesIgnoringRanges(t.strict))
}

/// Checks that a value is refused at `position`, expecting what `expected` begins with.
func expectRefused(_ r: Refusal) {
  do {
    let hours = try OpeningHours(parsing: r.text)
    Issue.record("\(r.text) parsed: \(hours.normalized)")
  } catch {
    #expect(error.position == r.position, "\(error)")
    #expect(error.expected.hasPrefix(r.expected), "\(error)")
  }
}
