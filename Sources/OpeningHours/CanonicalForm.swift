// The canonical OSM spelling of a parsed `opening_hours` value: `OpeningHours.normalized`.
//
// The printer reads the syntax tree, not the text, so every tolerated deviation (`9am`, `Mo–Fr`,
// `Montag`, a missing `;`) comes out in the specification's spelling, and the result parses back
// to the same tree without warnings. Every switch here is exhaustive: a new kind of syntax node
// fails to compile until it has a spelling, and each node is rebuilt from the fields printed, so
// a new field fails to compile (or, when it has a default, the debug check) rather than being
// dropped in silence. docs/opening-hours.md, "Canonical form", lists the rules.

extension OpeningHours {
  /// The canonical spelling of the value, such as `Mo-Fr 09:00-17:00; PH off` for
  /// `mon-fri 9am-5pm; PH closed`.
  ///
  /// It parses without warnings and means the same at every instant (the property test in
  /// CanonicalFormTests checks both on the corpus and the reference engines' test values). The one
  /// exception is a doubtful value (`large-day-offset`), which keeps its meaning and its warning.
  /// - Complexity: O(n) in the size of the parsed value.
  public var normalized: String { CanonicalForm.text(of: rules) }
}

/// The printer behind `OpeningHours.normalized`.
enum CanonicalForm {
  static func text(of rules: [Rule]) -> String {
    var text = ""
    for (index, rule) in rules.enumerated() {
      var rule = rule
      if index > 0 {
        text += separator(rule.separator)
        if rule.separator == .additional, let previous = lastSelector(of: rules[index - 1]),
          previous == firstSelector(of: rule), previous != .weeks
        {
          // `Mo-Th 16:00-23:00, 16:00-24:00` would read as one rule with two spans, and
          // `Mo, Tu 10:00-12:00` as one list of weekdays: the second rule is written so that it
          // starts another way, with the same meaning.
          if previous == .times, rule.weekdays == nil {
            // No weekday selector matches every day, as `Mo-Su` does.
            rule.weekdays = WeekdaySelector(
              weekdays: [WeekdayRange(from: 0, to: 6, nth: [], offsetDays: 0)], holidays: [], intersect: false
            )
          } else {
            text.removeLast(separator(rule.separator).count)
            text += " open" + separator(rule.separator)
          }
        }
      }
      text += self.text(of: rule)
    }
    return text
  }

  /// The kinds of selector; all but weeks (`week` starts each) can be continued by a `,`.
  enum SelectorKind { case years, monthdays, weeks, weekdays, times }

  /// The kind of the last selector of `rule` when nothing (a state, a comment) follows it.
  static func lastSelector(of rule: Rule) -> SelectorKind? {
    if rule.modifier.state != nil || rule.modifier.comment != nil || rule.is247 { return nil }
    if !rule.times.isEmpty { return .times }
    if rule.weekdays != nil { return .weekdays }
    if !rule.weeks.isEmpty { return .weeks }
    if !rule.monthdays.isEmpty { return .monthdays }
    if !rule.years.isEmpty { return .years }
    return nil
  }

  static func firstSelector(of rule: Rule) -> SelectorKind? {
    if rule.is247 { return nil }
    if !rule.years.isEmpty { return .years }
    if !rule.monthdays.isEmpty { return .monthdays }
    if !rule.weeks.isEmpty { return .weeks }
    if rule.weekdays != nil { return .weekdays }
    if !rule.times.isEmpty { return .times }
    return nil
  }

  static func separator(_ separator: RuleSeparator) -> String {
    switch separator {
    case .normal: "; "
    case .additional: ", "
    case .fallback: " || "
    }
  }

  /// Selectors in the specification's order (years, dates and months, weeks, weekdays and
  /// holidays, times), then the state and the comment, separated by one space; no wide-range colon.
  static func text(of rule: Rule) -> String {
    assert(
      Rule(
        separator: rule.separator, is247: rule.is247, years: rule.years, monthdays: rule.monthdays,
        weeks: rule.weeks, weekdays: rule.weekdays, times: rule.times, modifier: rule.modifier,
        range: rule.range)
        == rule, "a field of Rule has no spelling in CanonicalForm")
    var parts: [String] = []
    if rule.is247 { parts.append("24/7") }
    if !rule.years.isEmpty { parts.append(rule.years.map(text(of:)).joined(separator: ",")) }
    if !rule.monthdays.isEmpty { parts.append(rule.monthdays.map(text(of:)).joined(separator: ",")) }
    if !rule.weeks.isEmpty { parts.append("week " + rule.weeks.map(text(of:)).joined(separator: ",")) }
    if let weekdays = rule.weekdays { parts.append(text(of: weekdays)) }
    if !rule.times.isEmpty { parts.append(rule.times.map(text(of:)).joined(separator: ",")) }
    assert(
      RuleModifier(state: rule.modifier.state, comment: rule.modifier.comment) == rule.modifier,
      "a field of RuleModifier has no spelling in CanonicalForm")
    if let state = rule.modifier.state { parts.append(text(of: state)) }
    if let comment = rule.modifier.comment { parts.append("\"" + comment + "\"") }
    return parts.joined(separator: " ")
  }

  /// `off` for closed, as the specification's examples write it.
  static func text(of state: OpeningState) -> String {
    switch state {
    case .open: "open"
    case .closed: "off"
    case .unknown: "unknown"
    }
  }

  // MARK: - Wide ranges

  /// `2026`, `2025-2027`, `2020-2029/3`, `2026+`, `2055/2` (every other year from 2055 on).
  static func text(of years: YearRange) -> String {
    assert(
      YearRange(from: years.from, to: years.to, step: years.step, openEnded: years.openEnded) == years,
      "a field of YearRange has no spelling in CanonicalForm")
    guard let to = years.to else { return "\(years.from)" + (years.step == 1 ? "+" : "/\(years.step)") }
    if to == years.from, years.step == 1 { return "\(years.from)" }
    return "\(years.from)-\(to)" + (years.step == 1 ? "" : "/\(years.step)")
  }

  /// `Jun-Aug`, `2026 Jan`, `Dec 25`, `Dec 24-26`, `easter -2 days-easter +2 days`, `Jan 01-31/8`.
  static func text(of range: MonthdayRange) -> String {
    switch range {
    case .months(let fromYear, let from, let toYear, let to):
      let start = (fromYear.map { "\($0) " } ?? "") + monthName(from)
      if from == to, fromYear == toYear { return start }
      return start + "-" + (toYear.map { "\($0) " } ?? "") + monthName(to)
    case .dates(let from, nil, let step):
      // A step needs an end: the parser never makes one without it.
      assert(step == 1, "a date with a step and no end has no spelling")
      // A lone nth weekday of a month is written as a range to itself: `Mar Su[-1]` alone would
      // read as the month and a weekday selector.
      if case .nthWeekday = from.anchor { return text(of: from) + "-" + text(of: from) }
      return text(of: from)
    case .dates(let from, let to?, let step):
      let stepText = step == 1 ? "" : "/\(step)"
      // `Dec 24-26`: the end's month is left out when it is the start's and nothing else differs.
      if from.year == to.year, from.offsetDays == 0, case .fixed(let m1, let d1) = from.anchor,
        case .fixed(let m2, let d2) = to.anchor, m1 == m2, d1 <= d2
      {
        return text(of: from) + "-" + twoDigits(d2) + offsetText(to.offsetDays) + stepText
      }
      return text(of: from) + "-" + text(of: to) + stepText
    }
  }

  /// `2026 Dec 24`, `easter -2 days`, `Mar Su[-1]`, `Dec 25 +1 day`.
  static func text(of point: DatePoint) -> String {
    assert(
      DatePoint(year: point.year, anchor: point.anchor, offsetDays: point.offsetDays) == point,
      "a field of DatePoint has no spelling in CanonicalForm")
    let anchor: String =
      switch point.anchor {
      case .fixed(let month, let day): monthName(month) + " " + twoDigits(day)
      case .easter: "easter"
      case .nthWeekday(let month, let weekday, let nth):
        monthName(month) + " " + weekdayName(weekday) + "[\(nth)]"
      }
    return (point.year.map { "\($0) " } ?? "") + anchor + offsetText(point.offsetDays)
  }

  /// `01`, `01-26`, `01-53/2` (the words `week` go before the list).
  static func text(of weeks: WeekRange) -> String {
    assert(
      WeekRange(from: weeks.from, to: weeks.to, step: weeks.step) == weeks,
      "a field of WeekRange has no spelling in CanonicalForm")
    if weeks.from == weeks.to, weeks.step == 1 { return twoDigits(weeks.from) }
    return twoDigits(weeks.from) + "-" + twoDigits(weeks.to) + (weeks.step == 1 ? "" : "/\(weeks.step)")
  }

  // MARK: - Weekdays and holidays

  /// `Mo-Fr,PH` (either), `PH Su` (a holiday on a Sunday): weekdays before holidays in a union,
  /// holidays first in an intersection, as the specification writes them.
  static func text(of selector: WeekdaySelector) -> String {
    assert(
      WeekdaySelector(weekdays: selector.weekdays, holidays: selector.holidays, intersect: selector.intersect)
        == selector, "a field of WeekdaySelector has no spelling in CanonicalForm")
    let weekdays = selector.weekdays.map(text(of:)).joined(separator: ",")
    let holidays = selector.holidays.map(text(of:)).joined(separator: ",")
    if selector.intersect { return holidays + " " + weekdays }
    return [weekdays, holidays].filter { !$0.isEmpty }.joined(separator: ",")
  }

  /// `Mo`, `Mo-Fr`, `Su[-1]`, `Mo[1,3]`, `Sa[2-4] +1 day`.
  static func text(of range: WeekdayRange) -> String {
    assert(
      WeekdayRange(from: range.from, to: range.to, nth: range.nth, offsetDays: range.offsetDays) == range,
      "a field of WeekdayRange has no spelling in CanonicalForm")
    var text = weekdayName(range.from)
    if range.to != range.from { text += "-" + weekdayName(range.to) }
    if !range.nth.isEmpty { text += "[" + nthText(range.nth) + "]" }
    return text + offsetText(range.offsetDays)
  }

  /// `1,3`, `2-4` (a run of two or more ascending positive numbers becomes a range), `-1`.
  static func nthText(_ nth: [Int]) -> String {
    var items: [String] = []
    var index = 0
    while index < nth.count {
      var last = index
      while nth[index] > 0, last + 1 < nth.count, nth[last + 1] == nth[last] + 1 { last += 1 }
      items.append(last > index ? "\(nth[index])-\(nth[last])" : "\(nth[index])")
      index = last + 1
    }
    return items.joined(separator: ",")
  }

  /// `PH`, `SH`, `PH +1 day`.
  static func text(of holiday: HolidaySelector) -> String {
    assert(
      HolidaySelector(kind: holiday.kind, offsetDays: holiday.offsetDays) == holiday,
      "a field of HolidaySelector has no spelling in CanonicalForm")
    let name =
      switch holiday.kind {
      case .publicHoliday: "PH"
      case .schoolHoliday: "SH"
      }
    return name + offsetText(holiday.offsetDays)
  }

  // MARK: - Times

  /// `09:00-18:00`, `22:00-02:00`, `18:00+`, `10:00-18:00+`, `(sunset-01:00)-24:00`.
  static func text(of span: TimeSpan) -> String {
    assert(
      TimeSpan(start: span.start, end: span.end, openEnd: span.openEnd) == span,
      "a field of TimeSpan has no spelling in CanonicalForm")
    var text = self.text(of: span.start)
    if let end = span.end { text += "-" + self.text(of: end) }
    return text + (span.openEnd ? "+" : "")
  }

  /// `09:00`, `26:00`, `sunrise`, `(sunset-01:30)`.
  static func text(of point: TimePoint) -> String {
    switch point {
    case .clock(let minutes): return clock(minutes)
    case .sun(let event, let offset):
      let name =
        switch event {
        case .dawn: "dawn"
        case .sunrise: "sunrise"
        case .sunset: "sunset"
        case .dusk: "dusk"
        }
      if offset == 0 { return name }
      return "(" + name + (offset > 0 ? "+" : "-") + clock(abs(offset)) + ")"
    }
  }

  // MARK: - Words and numbers

  static func clock(_ minutes: Int) -> String { twoDigits(minutes / 60) + ":" + twoDigits(minutes % 60) }

  static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  /// ` +1 day`, ` -2 days`, or nothing.
  static func offsetText(_ days: Int) -> String {
    if days == 0 { return "" }
    return " " + (days > 0 ? "+" : "-") + "\(abs(days)) day" + (abs(days) == 1 ? "" : "s")
  }

  static func monthName(_ month: Int) -> String { OpeningHoursParser.monthCanonical[month - 1] }

  static func weekdayName(_ weekday: Int) -> String { OpeningHoursParser.weekdayCanonical[weekday] }
}
