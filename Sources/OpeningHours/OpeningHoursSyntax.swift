// The syntax tree of an OpenStreetMap `opening_hours` value, as the parser produces it.
// Internal: the public face is `OpeningHours` (parsed text) and `Schedule` (compiled).

/// How a rule joins the rules before it.
enum RuleSeparator: Hashable, Sendable {
  /// The first rule, or a rule after `;`: for the days it matches, it replaces earlier rules.
  case normal
  /// A rule after `,`: adds to earlier rules without replacing them.
  case additional
  /// A rule after `||`: applies only on days no earlier rule matched.
  case fallback
}

/// Sun-dependent times of day.
public enum SunEvent: String, Hashable, Sendable, CaseIterable {
  case dawn, sunrise, sunset, dusk
}

/// A time of day in a time selector.
enum TimePoint: Hashable, Sendable {
  /// Minutes since the start of the day, 0...2880 (`24:00` is 1440, extended times up to `48:00`).
  case clock(minutes: Int)
  /// A sun event plus an offset in minutes, such as `(sunset-01:00)`.
  case sun(SunEvent, offsetMinutes: Int)

  var usesSun: Bool { if case .sun = self { return true } else { return false } }
}

/// `10:00-18:00`, `22:00-02:00`, `18:00+`, `10:00-18:00+`, `sunrise-sunset`.
struct TimeSpan: Hashable, Sendable {
  var start: TimePoint
  /// `nil` for an open end without an end time (`18:00+`).
  var end: TimePoint?
  /// `+` after the span: the closing time is not known.
  var openEnd: Bool
}

/// `Mo`, `Mo-Fr`, `Fr-Mo`, `Su[-1]`, `Mo[1,3]`, `Sa[2-3] +1 day`.
struct WeekdayRange: Hashable, Sendable {
  /// 0 = Monday … 6 = Sunday.
  var from: Int
  var to: Int
  /// Which occurrences in the month (1…5, -1…-5); empty for every week.
  var nth: [Int]
  /// Day offset: the rule matches the day `offset` days after the selected weekday.
  var offsetDays: Int
}

enum HolidayKind: Hashable, Sendable { case publicHoliday, schoolHoliday }

/// `PH`, `SH`, `PH +1 day`.
struct HolidaySelector: Hashable, Sendable {
  var kind: HolidayKind
  var offsetDays: Int
}

/// The weekday part of a rule: weekdays, holidays, or both.
struct WeekdaySelector: Hashable, Sendable {
  var weekdays: [WeekdayRange]
  var holidays: [HolidaySelector]
  /// `PH Su` (space): the day must be a holiday AND one of the weekdays. Otherwise (`Su,PH`) either.
  var intersect: Bool
}

/// `2026`, `2025-2027`, `2020-2029/3`, `2026+`, `2055/2` (2055, 2057, … with no end).
struct YearRange: Hashable, Sendable {
  var from: Int
  /// `nil` with `openEnded` for `2026+` and `2055/2`.
  var to: Int?
  var step: Int
  var openEnded: Bool
}

/// A date that names a day once a year is known.
enum DateAnchor: Hashable, Sendable {
  /// `Dec 25` (day 1…31).
  case fixed(month: Int, day: Int)
  /// `easter`.
  case easter
  /// `Mar Su[-1]`: the nth weekday of a month.
  case nthWeekday(month: Int, weekday: Int, nth: Int)
}

/// `2026 Dec 24`, `easter -2 days`.
struct DatePoint: Hashable, Sendable {
  var year: Int?
  var anchor: DateAnchor
  var offsetDays: Int
}

/// One item of a month-day selector.
enum MonthdayRange: Hashable, Sendable {
  /// `Jun-Aug`, `Dec-Feb`, `2026 Jan`, with optional year on each end.
  case months(fromYear: Int?, from: Int, toYear: Int?, to: Int)
  /// `Dec 25`, `Dec 24-Jan 02`, `2026 Dec 24-2027 Jan 02`, `easter`, `Mar Su[-1]-Sep 30`,
  /// `Jan 01-31/8` (every 8th day from the first: a `step` above 1 needs an end).
  case dates(from: DatePoint, to: DatePoint?, step: Int = 1)
}

/// `week 01-53/2`.
struct WeekRange: Hashable, Sendable {
  var from: Int
  var to: Int
  var step: Int
}

/// `open`, `closed "renovation"`, `"by appointment"`.
struct RuleModifier: Hashable, Sendable {
  /// `nil` when the rule has a bare comment or no modifier.
  var state: OpeningState?
  var comment: String?
}

/// One rule of an expression.
struct Rule: Hashable, Sendable {
  var separator: RuleSeparator = .normal
  var is247 = false
  var years: [YearRange] = []
  var monthdays: [MonthdayRange] = []
  var weeks: [WeekRange] = []
  var weekdays: WeekdaySelector?
  var times: [TimeSpan] = []
  var modifier = RuleModifier(state: nil, comment: nil)
  /// Character offsets of the rule in the text.
  var range: Range<Int> = 0..<0

  /// No selector at all (a rule with only a modifier or comment).
  var hasNoSelector: Bool {
    !is247 && years.isEmpty && monthdays.isEmpty && weeks.isEmpty && weekdays == nil && times.isEmpty
  }
}
