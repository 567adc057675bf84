// `spill-erased`: a `;` rule replaces the whole of the days it names, so it also erases the night
// an earlier rule carries into such a day past midnight. `Mo-Th 05:30-02:30; Fr 05:30-03:30` is
// closed from midnight on Thursday night, by the specification and both reference engines, and
// RuleEvaluation.swift evaluates it so. Almost nobody who writes it means it: this finds where it
// happens and writes the value that keeps those nights, without changing any answer.
//
// How: each day is painted twice, as the specification says and "keeping spills" (a `;` rule for
// the day keeps the night that runs into it, unless the rule closes the day outright: `Sa off`,
// `PH off` say the whole day is closed, and are taken at their word). Where the two differ, a
// night was erased. The fix-it gives those hours to the rule that erased them (`Fr 00:00-02:30,
// 05:30-03:30`), or adds a `,` rule after it for the days concerned; it is offered only when the
// value it writes evaluates, on every day looked at, exactly as the "keeping spills" reading.

/// One day on which a later rule erases part of a night that runs into it.
struct SpillErasure {
  /// The local day (days since 1970-01-01).
  var day: Int
  /// The last `;` rule that replaced the day: the one whose hours the night needs.
  var eraser: Int
  /// The parts of the day the night would have kept, with its status there.
  var pieces: [SpillPiece]
}

/// A stretch of a day, in seconds from its midnight, and the status the night gave it.
struct SpillPiece: Hashable {
  var start: Int
  var end: Int
  var status: OpeningStatus
}

enum SpillErasures {
  static let code = "spill-erased"

  /// The `spill-erased` warning for `hours`, evaluated by `evaluator`, or `nil` when no later
  /// rule erases a night.
  /// - Complexity: O(rules) for most values (only a value with a span past midnight followed by a
  ///   `;` rule with times is painted): 14 day paintings for a weekly one; a dated one paints each
  ///   kind of day of the years looked at (`days(toCheck:)`) twice.
  static func warning(for hours: OpeningHours, evaluator: RuleEvaluator) -> OpeningHoursWarning? {
    guard mayErase(evaluator) else { return nil }
    let days = days(toCheck: evaluator)
    let found = erasures(in: evaluator, days: days)
    guard let first = found.first else { return nil }
    let fixIt = fixIt(for: hours, evaluator: evaluator, erasures: found, days: days)
    let range = evaluator.rules[found.map(\.eraser).min() ?? first.eraser].range
    var message =
      "a later rule replaces the whole of a day into which an earlier rule runs past midnight, "
      + "so that night closes at midnight: " + describe(found, in: hours, weekly: evaluator.isWeekly)
    if let fixIt {
      message += "; write it as `\(fixIt)`"
    } else {
      message += "; no rewrite was found that keeps only those nights: give the later rule the night's hours"
    }
    return OpeningHoursWarning(code: code, range: range, message: message, fixIt: fixIt)
  }

  // MARK: - Finding the erased nights

  /// Whether some rule runs past midnight and a later `;` rule with times could replace a day it
  /// runs into (a rule without times either closes the day outright, which is meant, or paints
  /// all of it, so no night shows through).
  static func mayErase(_ evaluator: RuleEvaluator) -> Bool {
    let rules = evaluator.rules
    guard let firstSpill = rules.firstIndex(where: runsPastMidnight) else { return false }
    return rules.indices.contains { index in
      index > firstSpill && rules[index].separator == .normal && evaluator.replaces[index]
        && !rules[index].times.isEmpty
    }
  }

  static func runsPastMidnight(_ rule: Rule) -> Bool {
    rule.times.contains { span in
      guard let end = span.end else { return false }
      if case .clock(let minutes) = end, minutes > 1440 { return true }
      return RuleEvaluator.wrapsPastMidnight(span)
    }
  }

  /// The days to paint: one week for a weekly value; otherwise every day of 2025 to 2028 (each
  /// date falls on most weekdays, and 2028 is a leap year) and of up to four more years the value
  /// names, one day of each kind (`RuleEvaluator.dayKey`). Sun times make every day a kind of its
  /// own: such a value is looked at in 2026 alone.
  static func days(toCheck evaluator: RuleEvaluator) -> [Int] {
    // 2024-01-01 is a Monday.
    let monday = LocalDate(year: 2024, month: 1, day: 1)!.daysSinceEpoch
    if evaluator.isWeekly { return Array(monday..<(monday + 7)) }
    let usesSun = evaluator.fixedSpans.contains { $0 == nil }
    var years = usesSun ? [2026] : [2025, 2026, 2027, 2028]
    var named: [Int] = []
    for rule in evaluator.rules {
      for range in rule.years { named += [range.from] + (range.to.map { [$0] } ?? []) }
      for range in rule.monthdays {
        switch range {
        case .months(let fromYear, _, let toYear, _): named += [fromYear, toYear].compactMap { $0 }
        case .dates(let from, let to, _): named += [from.year, to?.year].compactMap { $0 }
        }
      }
    }
    for year in named where (1970...2100).contains(year) && !years.contains(year) && years.count < 8 {
      years.append(year)
    }
    var days: [Int] = []
    var kinds = Set<RuleEvaluator.DayKey>()
    for year in years.sorted() {
      let first = LocalDate(year: year, month: 1, day: 1)!.daysSinceEpoch
      let last = LocalDate(year: year, month: 12, day: 31)!.daysSinceEpoch
      for day in first...last {
        if let key = evaluator.dayKey(day), !kinds.insert(key).inserted { continue }
        days.append(day)
      }
    }
    return days
  }

  /// The days among `days` on which a later rule erases part of a night, in order.
  static func erasures(in evaluator: RuleEvaluator, days: [Int]) -> [SpillErasure] {
    var found: [SpillErasure] = []
    for day in days {
      let pieces = differences(
        evaluator.segments(day: day), evaluator.segments(day: day, keepingSpills: true))
      guard !pieces.isEmpty, let eraser = lastEraser(of: day, in: evaluator) else { continue }
      found.append(SpillErasure(day: day, eraser: eraser, pieces: pieces))
    }
    return found
  }

  /// Where `kept` differs from `evaluated`, with `kept`'s status; neighbours of one status merged.
  static func differences(_ evaluated: DaySegments, _ kept: DaySegments) -> [SpillPiece] {
    let bounds = Set(evaluated.starts + kept.starts).sorted()
    var pieces: [SpillPiece] = []
    for (index, bound) in bounds.enumerated() {
      let start = Int(bound)
      let end = index + 1 < bounds.count ? Int(bounds[index + 1]) : 86_400
      let status = kept.status(at: start)
      guard status != evaluated.status(at: start) else { continue }
      if let last = pieces.last, last.end == start, last.status == status {
        pieces[pieces.count - 1].end = end
      } else {
        pieces.append(SpillPiece(start: start, end: end, status: status))
      }
    }
    return pieces
  }

  /// The last `;` rule that replaces `day` (under any assumption about holidays the data cannot
  /// answer), not counting rules that close the day outright.
  static func lastEraser(of day: Int, in evaluator: RuleEvaluator) -> Int? {
    let facts = Array(evaluator.unknownFacts(day: day).prefix(6))
    let date = LocalDate(daysSinceEpoch: day)
    var last: Int?
    for (index, rule) in evaluator.rules.enumerated()
    where rule.separator == .normal && evaluator.replaces[index] && !RuleEvaluator.closesWholeDay(rule) {
      for assumed in 0..<(1 << facts.count)
      where evaluator.matches(rule, date: date, day: day, facts: facts, assumed: assumed) {
        last = index
        break
      }
    }
    return last
  }

  // MARK: - The message

  static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]

  /// `Friday 00:00-02:30 (replaced by `Fr 05:30-03:30`), Saturday 00:00-03:30 (replaced by …)`; a
  /// dated value names the first day found (`days such as Friday 2025-12-26 00:00-02:00`).
  static func describe(_ erasures: [SpillErasure], in hours: OpeningHours, weekly: Bool) -> String {
    var items: [String] = []
    var seen = Set<[Int]>()
    for erasure in erasures {
      let date = LocalDate(daysSinceEpoch: erasure.day)
      let when =
        weekly ? weekdayNames[date.weekday] : "days such as \(weekdayNames[date.weekday]) \(date.description)"
      // A dated value repeats the same erasure on many days: name each (rule, hours) once.
      let key = [erasure.eraser] + erasure.pieces.flatMap { [$0.start, $0.end] }
      if !weekly, !seen.insert(key).inserted { continue }
      let times = erasure.pieces.map { piece in
        clock(piece.start) + "-" + clock(piece.end)
          + (piece.status.state == .open ? "" : " " + piece.status.state.rawValue)
      }.joined(separator: ",")
      items.append("\(when) \(times) (replaced by `\(text(of: erasure.eraser, in: hours))`)")
    }
    let shown = items.prefix(6)
    return shown.joined(separator: ", ")
      + (items.count > shown.count ? " and \(items.count - shown.count) more" : "")
  }

  /// The rule as written in the value.
  static func text(of rule: Int, in hours: OpeningHours) -> String {
    let characters = Array(hours.text)
    let range = hours.rules[rule].range.clamped(to: 0..<characters.count)
    return String(characters[range]).trimmingSpaces
  }

  static func clock(_ seconds: Int) -> String {
    let minutes = seconds / 60
    return CanonicalForm.twoDigits(minutes / 60) + ":" + CanonicalForm.twoDigits(minutes % 60)
  }

  // MARK: - The fix-it

  /// The value with the erased nights kept, in canonical form, or `nil` when no rewrite tried
  /// evaluates exactly as the "keeping spills" reading on every day of `days`.
  static func fixIt(
    for hours: OpeningHours, evaluator: RuleEvaluator, erasures: [SpillErasure], days: [Int]
  ) -> String? {
    // Times of day in whole minutes only (a sun time's seconds cannot be written).
    guard erasures.allSatisfy({ $0.pieces.allSatisfy { $0.start % 60 == 0 && $0.end % 60 == 0 } }) else {
      return nil
    }
    for merging in [true, false] {
      guard let candidate = rewrite(hours.rules, erasures, merging: merging) else { continue }
      let text = CanonicalForm.text(of: candidate)
      if keepsTheNights(text, like: evaluator, on: days) { return text }
    }
    return nil
  }

  /// Whether `text` parses and paints every day of `days` as `evaluator` does keeping spills.
  static func keepsTheNights(_ text: String, like evaluator: RuleEvaluator, on days: [Int]) -> Bool {
    guard let fixed = try? OpeningHours(parsing: text) else { return false }
    let check = RuleEvaluator(
      rules: fixed.rules, holidays: evaluator.holidays, latitude: evaluator.latitude,
      longitude: evaluator.longitude, timeZone: evaluator.timeZone)
    // The day after each day looked at too: a rewrite must not change the nights it does not keep.
    return Set(days.flatMap { [$0, $0 + 1] }).allSatisfy {
      check.segments(day: $0) == evaluator.segments(day: $0, keepingSpills: true)
    }
  }

  /// The rules with each eraser given the hours it erased. With `merging`, where the erased
  /// hours are the same on every day the eraser replaces (for a dated eraser: on every day it was
  /// found erasing), have its own status, and the eraser has times, they join its times
  /// (`Fr 00:00-02:30,05:30-03:30`); otherwise a `,` rule follows the eraser for the weekdays
  /// concerned (a weekly value) or for the eraser's own days.
  static func rewrite(_ rules: [Rule], _ erasures: [SpillErasure], merging: Bool) -> [Rule]? {
    var rules = rules
    for eraser in Set(erasures.map(\.eraser)).sorted(by: >) {
      let mine = erasures.filter { $0.eraser == eraser }
      let rule = rules[eraser]
      // Weekdays (0 = Monday) by the hours erased on them.
      var weekdaysByPieces: [[SpillPiece]: Set<Int>] = [:]
      for erasure in mine {
        weekdaysByPieces[erasure.pieces, default: []].insert(LocalDate(daysSinceEpoch: erasure.day).weekday)
      }
      let status = RuleEvaluator.status(of: rule)
      let weekly = !RuleEvaluator.isDateDependent(rule)
      // The weekdays a weekly eraser replaces (a rule without weekdays replaces every day).
      let replaced = Set(
        (0..<7).filter { weekday in rule.weekdays?.weekdays.contains { covers($0, weekday) } ?? true })
      if merging, weekdaysByPieces.count == 1, let only = weekdaysByPieces.first,
        !weekly || only.value == replaced, !rule.times.isEmpty, only.key.allSatisfy({ $0.status == status })
      {
        // In order of their starts, as people write them (a rule's spans share its status).
        rules[eraser].times = (only.key.map(timeSpan) + rule.times).sorted {
          RuleEvaluator.writtenMinutes($0.start) < RuleEvaluator.writtenMinutes($1.start)
        }
        continue
      }
      var added: [Rule] = []
      for (pieces, weekdays) in weekdaysByPieces.sorted(by: { $0.value.min()! < $1.value.min()! }) {
        var statuses: [OpeningStatus] = []
        for piece in pieces where !statuses.contains(piece.status) { statuses.append(piece.status) }
        for status in statuses {
          var addition = Rule(separator: .additional)
          if weekly {
            addition.weekdays = WeekdaySelector(
              weekdays: ranges(of: weekdays), holidays: [], intersect: false)
          } else {
            // The eraser's own days, when the same hours were erased on each of them.
            guard weekdaysByPieces.count == 1 else { return nil }
            addition.years = rule.years
            addition.monthdays = rule.monthdays
            addition.weeks = rule.weeks
            addition.weekdays = rule.weekdays
          }
          addition.times = pieces.filter { $0.status == status }.map(timeSpan)
          addition.modifier = modifier(for: status)
          added.append(addition)
        }
      }
      rules.insert(contentsOf: added, at: eraser + 1)
    }
    return rules
  }

  /// Whether a range of weekdays (without `[n]`) takes in `weekday`, 0 = Monday.
  static func covers(_ range: WeekdayRange, _ weekday: Int) -> Bool {
    range.from <= range.to
      ? (range.from...range.to).contains(weekday) : weekday >= range.from || weekday <= range.to
  }

  static func timeSpan(_ piece: SpillPiece) -> TimeSpan {
    TimeSpan(start: .clock(minutes: piece.start / 60), end: .clock(minutes: piece.end / 60), openEnd: false)
  }

  /// How a rule with times says `status`: nothing for plain open.
  static func modifier(for status: OpeningStatus) -> RuleModifier {
    if status.state == .open, status.comment == nil { return RuleModifier(state: nil, comment: nil) }
    return RuleModifier(state: status.state, comment: status.comment)
  }

  /// `Mo-Th`, `Tu,Fr`, `Sa-Mo` for a set of weekdays (0 = Monday).
  static func ranges(of weekdays: Set<Int>) -> [WeekdayRange] {
    var runs: [(from: Int, to: Int)] = []
    for day in weekdays.sorted() {
      if let last = runs.last, last.to == day - 1 {
        runs[runs.count - 1].to = day
      } else {
        runs.append((day, day))
      }
    }
    // A run to Sunday and one from Monday are one range over the week's end.
    if runs.count > 1, runs.first!.from == 0, runs.last!.to == 6 {
      let first = runs.removeFirst()
      runs[runs.count - 1].to = first.to
    }
    return runs.map { WeekdayRange(from: $0.from, to: $0.to, nth: [], offsetDays: 0) }
  }
}

extension String {
  fileprivate var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " || $0 == ";" }.reversed())
  }
}
