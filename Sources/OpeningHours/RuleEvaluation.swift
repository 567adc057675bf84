// Evaluation of the rules for one local calendar day: which rules match the day, and the timeline
// of the day (from local midnight to the next) that they paint, including spans that spill over
// from the previous day.

/// The timeline of one local day: `starts[0] == 0`, strictly increasing seconds into the day, and
/// the status from each start to the next (the last one to 24:00).
struct DaySegments: Hashable, Sendable {
  var starts: [Int32]
  var statuses: [OpeningStatus]

  static let closedAllDay = DaySegments(starts: [0], statuses: [.closed])

  /// - Complexity: O(log n) in the number of segments.
  func index(at second: Int) -> Int {
    var lo = 0
    var hi = starts.count - 1
    while lo < hi {
      let mid = (lo + hi + 1) >> 1
      if Int(starts[mid]) <= second { lo = mid } else { hi = mid - 1 }
    }
    return lo
  }

  func status(at second: Int) -> OpeningStatus { statuses[index(at: second)] }
}

/// A holiday fact the calendar cannot answer (no calendar, a year it does not cover, or SH).
struct HolidayFact: Hashable {
  var kind: HolidayKind
  var day: Int
}

/// Rules ready to be evaluated day by day.
struct RuleEvaluator: Sendable {
  let rules: [Rule]
  let holidays: HolidayCalendar?
  let latitude: Double?
  let longitude: Double?
  let timeZone: TimeZoneRules
  /// Per rule: whether the selectors depend on more than the weekday.
  let dateDependent: [Bool]
  /// Per rule: its spans when they do not depend on the date (no sun times).
  let fixedSpans: [[Span]?]
  /// Holiday selectors of all rules, to find the facts a day depends on.
  let holidaySelectors: [HolidaySelector]
  /// Per rule: whether a `;` rule replaces what earlier rules said about the days it matches. A
  /// closed rule with times (`We 12:00-13:00 off`) only closes those times, as both reference
  /// engines do.
  let replaces: [Bool]

  init(
    rules: [Rule], holidays: HolidayCalendar?, latitude: Double?, longitude: Double?, timeZone: TimeZoneRules
  ) {
    self.rules = rules
    self.holidays = holidays
    self.latitude = latitude
    self.longitude = longitude
    self.timeZone = timeZone
    self.dateDependent = rules.map(Self.isDateDependent)
    self.holidaySelectors = rules.flatMap { $0.weekdays?.holidays ?? [] }
    self.replaces = rules.map { !(Self.status(of: $0).state == .closed && !$0.times.isEmpty) }
    var fixed: [[Span]?] = []
    for rule in rules {
      let usesSun = rule.times.contains { $0.start.usesSun || ($0.end?.usesSun ?? false) }
      fixed.append(
        usesSun
          ? nil
          : Self.spans(
            of: rule, on: LocalDate(year: 2000, month: 1, day: 1)!,
            seconds: { p, _ in
              if case .clock(let m) = p { return m * 60 }
              return 0
            }))
    }
    self.fixedSpans = fixed
  }

  static func isDateDependent(_ rule: Rule) -> Bool {
    if !rule.years.isEmpty || !rule.monthdays.isEmpty || !rule.weeks.isEmpty { return true }
    if let w = rule.weekdays {
      if !w.holidays.isEmpty { return true }
      if w.weekdays.contains(where: { !$0.nth.isEmpty }) { return true }
    }
    return rule.times.contains { $0.start.usesSun || ($0.end?.usesSun ?? false) }
  }

  /// Whether every rule depends on the weekday alone, so seven day timelines describe all days.
  var isWeekly: Bool { !dateDependent.contains(true) }

  // MARK: - Day timeline

  /// The timeline of local day `day` (days since 1970-01-01).
  ///
  /// - Parameter keepingSpills: `false` evaluates as the specification says. `true` is the reading
  ///   `spill-erased` compares it with (SpillErasures.swift): a `;` rule for the day keeps the
  ///   night an earlier rule carries into it, unless it closes the day explicitly (`Sa off`).
  func segments(day: Int, keepingSpills: Bool = false) -> DaySegments {
    let facts = unknownFacts(day: day)
    if facts.isEmpty { return paint(day: day, facts: [], assumed: 0, keepingSpills: keepingSpills) }
    // Evaluate under every assumption about the unknown holiday facts; where the answers differ,
    // the state is unknown.
    let n = min(facts.count, 6)
    var runs: [DaySegments] = []
    for mask in 0..<(1 << n) {
      runs.append(paint(day: day, facts: Array(facts.prefix(n)), assumed: mask, keepingSpills: keepingSpills))
    }
    let reason = facts.contains { $0.kind == .publicHoliday } ? Self.noPublicHolidays : Self.noSchoolHolidays
    return Self.combine(runs, disagreement: OpeningStatus(state: .unknown, comment: reason))
  }

  /// The comments of a day evaluated under every assumption about holidays without data.
  static let noPublicHolidays = "depends on public holidays, for which there is no data"
  static let noSchoolHolidays = "depends on school holidays, for which there is no data"

  /// Every comment a status of these rules can carry: the rules' own and the "no data" reasons.
  var possibleComments: [String] {
    rules.compactMap { Self.status(of: $0).comment } + [Self.noPublicHolidays, Self.noSchoolHolidays]
  }

  static func combine(_ runs: [DaySegments], disagreement: OpeningStatus) -> DaySegments {
    var bounds = Set<Int32>()
    for r in runs { bounds.formUnion(r.starts) }
    let sorted = bounds.sorted()
    var starts: [Int32] = []
    var statuses: [OpeningStatus] = []
    for b in sorted {
      let first = runs[0].status(at: Int(b))
      let all = runs.allSatisfy { $0.status(at: Int(b)) == first }
      let s = all ? first : disagreement
      if statuses.last != s {
        starts.append(b)
        statuses.append(s)
      }
    }
    return DaySegments(starts: starts, statuses: statuses)
  }

  /// Holiday questions about the days around `day` that the data cannot answer.
  func unknownFacts(day: Int) -> [HolidayFact] {
    var facts: [HolidayFact] = []
    for h in holidaySelectors {
      for d in [day - h.offsetDays, day - 1 - h.offsetDays] where !isKnown(h.kind, day: d) {
        let f = HolidayFact(kind: h.kind, day: d)
        if !facts.contains(f) { facts.append(f) }
      }
    }
    return facts
  }

  func isKnown(_ kind: HolidayKind, day: Int) -> Bool {
    guard kind == .publicHoliday, let holidays else { return false }
    return holidays.covers(LocalDate(daysSinceEpoch: day))
  }

  struct Paint {
    var start: Int
    var end: Int
    var status: OpeningStatus
    var fromPreviousDay: Bool
  }

  /// Paints the rules onto day `day`, with unknown holiday facts answered by the bits of `assumed`.
  func paint(day: Int, facts: [HolidayFact], assumed: Int, keepingSpills: Bool = false) -> DaySegments {
    let date = LocalDate(daysSinceEpoch: day)
    let previous = LocalDate(daysSinceEpoch: day - 1)
    var paints: [Paint] = []
    for r in rules.indices {
      let rule = rules[r]
      let onDay = matches(rule, date: date, day: day, facts: facts, assumed: assumed)
      let onPrevious = matches(rule, date: previous, day: day - 1, facts: facts, assumed: assumed)
      switch rule.separator {
      case .normal where !replaces[r]:
        break
      case .normal:
        // A rule replaces the earlier rules for the days it matches: on `day` everything painted
        // so far (including the previous evening's spans spilling past midnight), and on the
        // previous day the spans that spill from it into `day`.
        if onDay {
          if keepingSpills, !Self.closesWholeDay(rule) {
            paints.removeAll { !$0.fromPreviousDay }
          } else {
            paints.removeAll()
          }
        }
        if onPrevious { paints.removeAll { $0.fromPreviousDay } }
      case .additional:
        break
      case .fallback:
        // A fallback fills the time the earlier rules leave closed, as both reference engines
        // read it: `Mo-Sa 08:00-13:00 || "by appointment"` is by appointment at 13:30, and
        // `Mo closed || 08:00-18:00` opens on Monday too (a closed rule says no more than the
        // absence of a rule would). Its spill past midnight fills the next day's closed time.
        break
      }
      // Where a fallback may not paint: the open and unknown time painted so far.
      let covered =
        rule.separator == .fallback && (onDay || onPrevious)
        ? Self.coverage(of: paints.filter { $0.status.state != .closed }) : []
      if onDay {
        for p in fixedSpans[r] ?? spans(of: rule, on: date) where p.start < 86_400 {
          for (start, end) in Self.subtracting(covered, from: (p.start, min(p.end, 86_400))) {
            paints.append(Paint(start: start, end: end, status: p.status, fromPreviousDay: false))
          }
        }
      }
      if onPrevious {
        for p in fixedSpans[r] ?? spans(of: rule, on: previous) where p.end > 86_400 {
          let spill = (max(p.start, 86_400) - 86_400, p.end - 86_400)
          for (start, end) in Self.subtracting(covered, from: spill) {
            paints.append(Paint(start: start, end: end, status: p.status, fromPreviousDay: true))
          }
        }
      }
    }
    return Self.resolve(paints)
  }

  /// The union of the painted intervals, sorted and disjoint.
  static func coverage(of paints: [Paint]) -> [(Int, Int)] {
    var merged: [(Int, Int)] = []
    for p in paints.sorted(by: { $0.start < $1.start }) where p.start < p.end {
      if let last = merged.last, p.start <= last.1 {
        merged[merged.count - 1].1 = max(last.1, p.end)
      } else {
        merged.append((p.start, p.end))
      }
    }
    return merged
  }

  /// The parts of `interval` outside the sorted, disjoint `covered` intervals.
  static func subtracting(_ covered: [(Int, Int)], from interval: (Int, Int)) -> [(Int, Int)] {
    var pieces: [(Int, Int)] = []
    var start = interval.0
    for (coveredStart, coveredEnd) in covered where coveredEnd > start && coveredStart < interval.1 {
      if coveredStart > start { pieces.append((start, coveredStart)) }
      start = max(start, coveredEnd)
    }
    if start < interval.1 { pieces.append((start, interval.1)) }
    return pieces
  }

  /// Later paints win; unpainted time is closed.
  static func resolve(_ paints: [Paint]) -> DaySegments {
    if paints.isEmpty { return .closedAllDay }
    var bounds: [Int] = [0]
    for p in paints where p.start < p.end {
      bounds.append(p.start)
      bounds.append(p.end)
    }
    bounds.sort()
    var starts: [Int32] = []
    var statuses: [OpeningStatus] = []
    var previousBound = -1
    for b in bounds where b != previousBound && b < 86_400 {
      previousBound = b
      var s = OpeningStatus.closed
      for p in paints.reversed() where p.start <= b && b < p.end {
        s = p.status
        break
      }
      if statuses.last != s {
        starts.append(Int32(b))
        statuses.append(s)
      }
    }
    return DaySegments(starts: starts, statuses: statuses)
  }

  /// A rule that closes its days outright, with no times (`Sa off`, `PH closed "holiday"`): its
  /// author said the whole day is closed, the night before's spill included.
  static func closesWholeDay(_ rule: Rule) -> Bool {
    status(of: rule).state == .closed && rule.times.isEmpty
  }

  // MARK: - Spans of a rule on a day

  struct Span: Sendable {
    var start: Int
    var end: Int
    var status: OpeningStatus
  }

  static func status(of rule: Rule) -> OpeningStatus {
    if let state = rule.modifier.state { return OpeningStatus(state: state, comment: rule.modifier.comment) }
    if let comment = rule.modifier.comment {
      // A bare comment: open during the times it qualifies, unknown when there are none.
      let hasTimes = !rule.times.isEmpty || rule.is247
      return OpeningStatus(state: hasTimes ? .open : .unknown, comment: comment)
    }
    return .open
  }

  /// The rule's spans on `date`, in seconds from its midnight, possibly past 24:00 (up to 48:00).
  func spans(of rule: Rule, on date: LocalDate) -> [Span] {
    Self.spans(of: rule, on: date) { point, date in seconds(point, on: date) }
  }

  static func spans(of rule: Rule, on date: LocalDate, seconds: (TimePoint, LocalDate) -> Int?) -> [Span] {
    let status = Self.status(of: rule)
    if rule.times.isEmpty { return [Span(start: 0, end: 86_400, status: status)] }
    var result: [Span] = []
    for t in rule.times {
      // A sun event that does not happen that day (polar night) leaves no span.
      guard let start = seconds(t.start, date) else { continue }
      guard let endPoint = t.end else {
        // `18:00+`: the closing time is not known.
        if start < 86_400 {
          let s = status.state == .open ? OpeningStatus(state: .unknown, comment: status.comment) : status
          result.append(Span(start: start, end: 86_400, status: s))
        }
        continue
      }
      guard var end = seconds(endPoint, date) else { continue }
      if end <= start, end <= 86_400 {
        // A span runs past midnight when it does as written (`22:00-02:00`, `sunset-02:00`), read
        // with the specification's default sun times. A sun time that moves past a fixed one
        // (`sunrise-08:00` on a day the sun rises after 08:00) leaves the span empty that day.
        guard Self.wrapsPastMidnight(t) else { continue }
        end += 86_400
      }
      end = min(end, 2 * 86_400)
      guard start < end else { continue }
      result.append(Span(start: start, end: end, status: status))
      if t.openEnd, status.state == .open, end < 86_400 {
        result.append(
          Span(start: end, end: 86_400, status: OpeningStatus(state: .unknown, comment: status.comment)))
      }
    }
    return result
  }

  /// Whether `span` runs past midnight as written, with sun events at the specification's
  /// defaults (dawn 05:30, sunrise 06:00, sunset 18:00, dusk 18:30): its end is before its start,
  /// or the same clock time (`10:00-10:00` is 24 hours; `sunrise-06:00` is not).
  static func wrapsPastMidnight(_ span: TimeSpan) -> Bool {
    guard let end = span.end else { return false }
    if case .clock(let a) = span.start, case .clock(let b) = end { return b <= a }
    return writtenMinutes(end) < writtenMinutes(span.start)
  }

  /// Minutes into the day of `point` as written, sun events at the specification's defaults.
  static func writtenMinutes(_ point: TimePoint) -> Int {
    switch point {
    case .clock(let minutes): return minutes
    case .sun(let event, let offset):
      let base =
        switch event {
        case .dawn: 5 * 60 + 30
        case .sunrise: 6 * 60
        case .sunset: 18 * 60
        case .dusk: 18 * 60 + 30
        }
      return max(0, min(2 * 1440, base + offset))
    }
  }

  func seconds(_ point: TimePoint, on date: LocalDate) -> Int? {
    switch point {
    case .clock(let minutes): return minutes * 60
    case .sun(let event, let offset):
      guard
        let base = sunEventSecondsIntoDay(
          event, on: date, latitude: latitude, longitude: longitude, timeZone: timeZone)
      else { return nil }
      return max(0, min(2 * 86_400, base + offset * 60))
    }
  }

  // MARK: - Matching a day

  func matches(_ rule: Rule, date: LocalDate, day: Int, facts: [HolidayFact], assumed: Int) -> Bool {
    guard Self.matchesDates(rule, date: date, day: day) else { return false }
    guard let w = rule.weekdays else { return true }
    let weekdayMatch = Self.matchesWeekdays(w, day: day)
    var holidayMatch = false
    for h in w.holidays where isHoliday(h.kind, day: day - h.offsetDays, facts: facts, assumed: assumed) {
      holidayMatch = true
      break
    }
    return w.intersect ? weekdayMatch && holidayMatch : weekdayMatch || holidayMatch
  }

  /// Whether the rule's years, dates and weeks (not its weekdays or holidays) take in the day.
  static func matchesDates(_ rule: Rule, date: LocalDate, day: Int) -> Bool {
    if !rule.years.isEmpty, !rule.years.contains(where: { matches($0, year: date.year) }) {
      return false
    }
    if !rule.monthdays.isEmpty, !rule.monthdays.contains(where: { matches($0, date: date, day: day) }) {
      return false
    }
    if !rule.weeks.isEmpty {
      let week = isoWeek(day: day)
      if !rule.weeks.contains(where: { matches($0, week: week) }) { return false }
    }
    return true
  }

  static func matchesWeekdays(_ w: WeekdaySelector, day: Int) -> Bool {
    w.weekdays.contains { matches($0, day: day) }
  }

  // MARK: - Days alike

  /// Everything a day's timeline depends on, packed: per rule whether its dates and its weekdays
  /// take in the day and the day before, and per holiday selector whether its days are holidays
  /// (no, yes, unknown). Two days with the same key paint the same timeline, so a search over
  /// years paints each kind of day once (`Schedule.nextChange`).
  struct DayKey: Hashable {
    var low: UInt64 = 0
    var high: UInt64 = 0
    var count = 0

    mutating func append(_ value: UInt64, bits: Int) -> Bool {
      guard count + bits <= 128 else { return false }
      if count < 64 {
        low |= value << UInt64(count)
        if count + bits > 64 { high |= value >> UInt64(64 - count) }
      } else {
        high |= value << UInt64(count - 64)
      }
      count += bits
      return true
    }
  }

  /// The key of local day `day`; `nil` when the day's timeline depends on its sun times, or
  /// the rules are too many to pack.
  func dayKey(_ day: Int) -> DayKey? {
    var key = DayKey()
    for d in (day - 1)...day {
      let date = LocalDate(daysSinceEpoch: d)
      for (r, rule) in rules.enumerated() {
        let dates = Self.matchesDates(rule, date: date, day: d)
        if dates, fixedSpans[r] == nil { return nil }
        let weekdays = rule.weekdays.map { Self.matchesWeekdays($0, day: d) } ?? true
        guard key.append((dates ? 1 : 0) | (weekdays ? 2 : 0), bits: 2) else { return nil }
      }
      for h in holidaySelectors {
        let target = d - h.offsetDays
        let status: UInt64 =
          isKnown(h.kind, day: target) ? (isHoliday(h.kind, day: target, facts: [], assumed: 0) ? 1 : 0) : 2
        guard key.append(status, bits: 2) else { return nil }
      }
    }
    return key
  }

  func isHoliday(_ kind: HolidayKind, day: Int, facts: [HolidayFact], assumed: Int) -> Bool {
    if isKnown(kind, day: day) { return holidays!.holiday(on: LocalDate(daysSinceEpoch: day)) != nil }
    if let i = facts.firstIndex(of: HolidayFact(kind: kind, day: day)) { return assumed & (1 << i) != 0 }
    return false
  }

  static func matches(_ y: YearRange, year: Int) -> Bool {
    guard year >= y.from else { return false }
    if let to = y.to, year > to { return false }
    return (year - y.from) % y.step == 0
  }

  static func matches(_ w: WeekRange, week: Int) -> Bool {
    if w.from <= w.to {
      return week >= w.from && week <= w.to && (week - w.from) % w.step == 0
    }
    // `week 50-02`: wraps over the new year.
    let span = week >= w.from ? week - w.from : week + 53 - w.from
    return (week >= w.from || week <= w.to) && span % w.step == 0
  }

  static func matches(_ r: WeekdayRange, day: Int) -> Bool {
    let target = day - r.offsetDays
    let weekday = ((target + 3) % 7 + 7) % 7
    let inRange =
      r.from <= r.to ? (weekday >= r.from && weekday <= r.to) : (weekday >= r.from || weekday <= r.to)
    guard inRange else { return false }
    if r.nth.isEmpty { return true }
    let date = LocalDate(daysSinceEpoch: target)
    let fromStart = (date.day - 1) / 7 + 1
    let fromEnd = -((LocalDate.daysIn(month: date.month, year: date.year) - date.day) / 7 + 1)
    return r.nth.contains(fromStart) || r.nth.contains(fromEnd)
  }

  static func matches(_ m: MonthdayRange, date: LocalDate, day: Int) -> Bool {
    switch m {
    case .months(let fromYear, let from, let toYear, let to):
      if fromYear == nil, toYear == nil {
        return from <= to
          ? (date.month >= from && date.month <= to) : (date.month >= from || date.month <= to)
      }
      let fy = fromYear ?? (to < from ? toYear! - 1 : toYear!)
      let ty = toYear ?? (to < from ? fy + 1 : fy)
      let value = date.year * 12 + date.month
      return value >= fy * 12 + from && value <= ty * 12 + to
    case .dates(let from, nil, _):
      if let y = from.year { return resolve(from, year: y, as: nil)?.daysSinceEpoch == day }
      for y in (date.year - 1)...(date.year + 1) where resolve(from, year: y, as: nil)?.daysSinceEpoch == day
      {
        return true
      }
      return false
    case .dates(let from, let to?, let step):
      // `Jan 01-31/8`: a day of the range whose distance from the range's first day is a multiple
      // of the step (Jan 1, 9, 17, 25).
      if from.year == nil, let endYear = to.year {
        // `Mar 28-2027 Apr 16`: a year on the end alone. The range starts at the last `from`
        // not after its end (2027 Mar 28; `easter-2025 Jan Su[-2]` starts at Easter 2024).
        guard let b = resolve(to, year: endYear, as: .end)?.daysSinceEpoch else { return false }
        var a = resolve(from, year: endYear, as: .start)?.daysSinceEpoch
        if a.map({ $0 > b }) ?? true { a = resolve(from, year: endYear - 1, as: .start)?.daysSinceEpoch }
        guard let a else { return false }
        return day >= a && day <= b && (day - a) % step == 0
      }
      let startYears = from.year.map { $0...$0 } ?? (date.year - 1)...date.year
      for y in startYears {
        guard let a = resolve(from, year: y, as: .start)?.daysSinceEpoch,
          var b = resolve(to, year: to.year ?? y, as: .end)?.daysSinceEpoch
        else { continue }
        if to.year == nil, b < a {
          // The end comes before the start this year: the range runs over the year end when it
          // does as written (see `wrapsYearEnd`), else it is empty this year.
          guard Self.wrapsYearEnd(from: from, to: to),
            let next = resolve(to, year: y + 1, as: .end)?.daysSinceEpoch
          else { continue }
          b = next
        }
        if day >= a && day <= b && (day - a) % step == 0 { return true }
      }
      return false
    }
  }

  /// Whether a yearly date range runs over the year end as written. Between fixed dates, when its
  /// end is before its start (`Dec 24-Jan 02`). With a variable date (`easter`, `Mar Su[-1]`),
  /// when that is so in most years (2000-2099): `easter-Apr 02` runs from Easter to the next
  /// Apr 2 (Easter is after Apr 2 in most years), while `easter-Apr 20` is empty in a year whose
  /// Easter is after Apr 20 (2011, 2019), as `sunrise-08:00` is on a day the sun rises after 08:00.
  static func wrapsYearEnd(from: DatePoint, to: DatePoint) -> Bool {
    if from.anchor.isFixed, to.anchor.isFixed { return true }
    var wrapping = 0
    for y in 2000..<2100 {
      if let a = resolve(from, year: y, as: .start), let b = resolve(to, year: y, as: .end), b < a {
        wrapping += 1
      }
    }
    return wrapping > 50
  }

  /// Which end of a date range a date point is.
  enum RangeEnd { case start, end }

  /// The day a date point names in `year`. A `Feb 29` of a common year names no day alone; as the
  /// start of a range it is Mar 1, as its end Feb 28 (the range keeps the days that exist).
  static func resolve(_ p: DatePoint, year: Int, as end: RangeEnd?) -> LocalDate? {
    let base: LocalDate?
    switch p.anchor {
    case .fixed(let month, let d):
      let last = LocalDate.daysIn(month: month, year: year)
      if d <= last {
        base = LocalDate(year: year, month: month, day: d)
      } else {
        switch end {
        case nil: base = nil
        case .start: base = LocalDate(year: year, month: month, day: last)?.adding(days: 1)
        case .end: base = LocalDate(year: year, month: month, day: last)
        }
      }
    case .easter:
      base = easter(year: year)
    case .nthWeekday(let month, let weekday, let nth):
      base = nthWeekday(year: year, month: month, weekday: weekday, nth: nth)
    }
    guard let base else { return nil }
    return p.offsetDays == 0 ? base : base.adding(days: p.offsetDays)
  }

  static func nthWeekday(year: Int, month: Int, weekday: Int, nth: Int) -> LocalDate? {
    if nth > 0 {
      guard let first = LocalDate(year: year, month: month, day: 1) else { return nil }
      let delta = (weekday - first.weekday + 7) % 7 + (nth - 1) * 7
      let d = first.adding(days: delta)
      return d.month == month ? d : nil
    }
    guard let last = LocalDate(year: year, month: month, day: LocalDate.daysIn(month: month, year: year))
    else {
      return nil
    }
    let delta = (last.weekday - weekday + 7) % 7 + (-nth - 1) * 7
    let d = last.adding(days: -delta)
    return d.month == month ? d : nil
  }

  /// Western (Gregorian) Easter Sunday: the anonymous Gregorian algorithm.
  static func easter(year: Int) -> LocalDate? {
    let a = year % 19
    let b = year / 100
    let c = year % 100
    let d = b / 4
    let e = b % 4
    let f = (b + 8) / 25
    let g = (b - f + 1) / 3
    let h = (19 * a + b - d - g + 15) % 30
    let i = c / 4
    let k = c % 4
    let l = (32 + 2 * e + 2 * i - h - k) % 7
    let m = (a + 11 * h + 22 * l) / 451
    let month = (h + l - 7 * m + 114) / 31
    let day = (h + l - 7 * m + 114) % 31 + 1
    return LocalDate(year: year, month: month, day: day)
  }

  /// ISO 8601 week number (1…53) of a day.
  static func isoWeek(day: Int) -> Int {
    let weekday = ((day + 3) % 7 + 7) % 7
    let thursday = LocalDate(daysSinceEpoch: day + 3 - weekday)
    let jan1 = LocalDate(year: thursday.year, month: 1, day: 1)!
    return (thursday.daysSinceEpoch - jan1.daysSinceEpoch) / 7 + 1
  }
}

extension DateAnchor {
  /// A date that is the same every year (`Dec 25`), not `easter` or an nth weekday.
  var isFixed: Bool {
    switch self {
    case .fixed: true
    case .easter, .nthWeekday: false
    }
  }
}
