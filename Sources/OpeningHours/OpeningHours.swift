/// A parsed OpenStreetMap `opening_hours` value, such as `Mo-Fr 09:00-18:00; Sa 10:00-14:00; PH off`.
///
/// Parsing is tolerant where the meaning is clear (`8:00`, `Monday`, `9am-5pm`, en dashes…); each
/// tolerated deviation is listed in `warnings`. Compile it into a `Schedule` to ask questions.
/// See docs/opening-hours.md for the supported syntax and the semantic decisions.
public struct OpeningHours: Hashable, Sendable, CustomStringConvertible {
  /// The text as given.
  public let text: String
  /// Deviations from the specification that were tolerated, in text order.
  public let warnings: [OpeningHoursWarning]
  let rules: [Rule]

  /// Parses `text`.
  /// - Parameter text: an `opening_hours` value.
  /// - Throws: `OpeningHoursParseError` with the character offset and what was expected there.
  /// - Complexity: O(n) in the length of the text.
  public init(parsing text: String) throws(OpeningHoursParseError) {
    var parser = try OpeningHoursParser(text: text)
    self.rules = try parser.parse()
    self.text = text
    self.warnings = parser.warnings.sorted {
      ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound)
    }
  }

  /// Whether a rule selects public holidays (`PH`).
  public var usesPublicHolidays: Bool {
    rules.contains { $0.weekdays?.holidays.contains { $0.kind == .publicHoliday } ?? false }
  }

  /// Whether a rule selects school holidays (`SH`).
  public var usesSchoolHolidays: Bool {
    rules.contains { $0.weekdays?.holidays.contains { $0.kind == .schoolHoliday } ?? false }
  }

  /// Whether a time depends on the sun (`sunrise`, `sunset`, `dawn`, `dusk`).
  public var usesSunEvents: Bool {
    rules.contains { rule in rule.times.contains { $0.start.usesSun || ($0.end?.usesSun ?? false) } }
  }

  /// How many rules the expression has (`Mo-Fr 09:00-18:00; Sa off`: 2).
  public var ruleCount: Int { rules.count }

  public var description: String { text }

  public static func == (lhs: OpeningHours, rhs: OpeningHours) -> Bool { lhs.text == rhs.text }
  public func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// A deviation from the specification that the parser tolerated because the meaning is clear.
public struct OpeningHoursWarning: Hashable, Sendable, CustomStringConvertible {
  /// A stable kebab-case code, such as `dash-variant` (docs/opening-hours.md lists them).
  public let code: String
  /// Character offsets into the text.
  public let range: Range<Int>
  /// A sentence for people.
  public let message: String
  /// The whole value rewritten so that it means what the warning says was likely meant, when
  /// that is not what it says (`spill-erased`); `nil` for the other warnings, whose canonical
  /// form (`OpeningHours.normalized`) means the same as the text.
  public let fixIt: String?

  /// Whether the text, though readable, is unlikely to mean what it says (`large-day-offset`,
  /// and a schedule's `spill-erased`): worth a warning, where tolerated deviations have a clear
  /// meaning and are notes.
  public var isDoubtful: Bool { code == "large-day-offset" || code == SpillErasures.code }

  public init(code: String, range: Range<Int>, message: String, fixIt: String? = nil) {
    self.code = code
    self.range = range
    self.message = message
    self.fixIt = fixIt
  }

  public var description: String {
    "\(code) at characters \(range.lowerBound + 1)-\(range.upperBound): \(message)"
  }
}

/// Why a text is not a valid `opening_hours` value.
public struct OpeningHoursParseError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The whole text.
  public let text: String
  /// Character offset (0-based) of the problem.
  public let position: Int
  /// What would have been valid here, in plain words.
  public let expected: String
  /// What was found instead (`'x'`, or `end of text`).
  public let found: String

  public init(text: String, position: Int, expected: String, found: String) {
    self.text = text
    self.position = position
    self.expected = expected
    self.found = found
  }

  /// `at character 13: expected a time such as 18:00 after '-', found 'x'` (characters counted from 1).
  public var description: String { "at character \(position + 1): expected \(expected), found \(found)" }
}

/// Whether a place is open.
public enum OpeningState: String, Hashable, Sendable {
  case open, closed, unknown
}

/// The state at some moment and the comment of the rule that decided it.
public struct OpeningStatus: Hashable, Sendable, CustomStringConvertible {
  public let state: OpeningState
  public let comment: String?

  public init(state: OpeningState, comment: String? = nil) {
    self.state = state
    self.comment = comment
  }

  public static let open = OpeningStatus(state: .open)
  public static let closed = OpeningStatus(state: .closed)
  public static let unknown = OpeningStatus(state: .unknown)

  public var description: String { comment.map { "\(state.rawValue) \"\($0)\"" } ?? state.rawValue }
}
