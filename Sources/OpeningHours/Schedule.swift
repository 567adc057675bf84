#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stretch of time with one status.
public struct ScheduleInterval: Hashable, Sendable, CustomStringConvertible {
  public let start: Instant
  public let end: Instant
  public let status: OpeningStatus

  public init(start: Instant, end: Instant, status: OpeningStatus) {
    self.start = start
    self.end = end
    self.status = status
  }

  public var description: String { "\(start)..<\(end) \(status)" }
}

/// Opening hours compiled for one place: its time zone, public holidays and coordinates.
///
/// The state at an instant is the rules evaluated at the place's wall clock at that instant
/// (docs/opening-hours.md, "DST policy"). `status(at:)`, `nextChange(after:)` and
/// `intervals(from:to:)` read the same day timelines, so they always agree. A weekly schedule (only
/// weekday and time selectors, the common case) is compiled into seven sorted boundary tables and
/// answered by a table lookup; other schedules are evaluated per local day, never re-parsed.
///
/// A value of one reference: what it compiled is held, immutable, by one shared object, so a copy
/// (a catalog hands one out for every store a query looks at, from every thread at once) costs one
/// reference count, not one for each of the dozen arrays inside. Issue 25 measured the copy of the
/// arrays themselves as 7.7% of a `nearest` with opening hours, and their reference counts are
/// written by every thread that answers a store with those hours.
public struct Schedule: Sendable {
  /// Everything compiled, shared by every copy.
  private final class Compiled: Sendable {
    let hours: OpeningHours
    let timeZone: TimeZoneRules
    let warnings: [OpeningHoursWarning]
    let evaluator: RuleEvaluator
    let week: WeekTable?
    let offsets: OffsetCache
    let days: DayTable?
    let painted: PaintedDays?
    let quiet: QuietStretch?

    init(
      hours: OpeningHours, timeZone: TimeZoneRules, warnings: [OpeningHoursWarning], evaluator: RuleEvaluator
    ) {
      self.hours = hours
      self.timeZone = timeZone
      self.warnings = warnings
      self.evaluator = evaluator
      self.week = evaluator.isWeekly ? WeekTable(evaluator) : nil
      // Days with sun times are each a timeline of their own: the last few are kept instead.
      let usesSun = evaluator.fixedSpans.contains { $0 == nil }
      self.days = evaluator.isWeekly || usesSun ? nil : DayTable()
      self.painted = usesSun ? PaintedDays() : nil
      self.quiet = evaluator.isWeekly ? nil : QuietStretch(comments: evaluator.possibleComments)
      self.offsets = OffsetCache(timeZone)
    }
  }

  private let compiled: Compiled

  // Read in place (`_read`), never copied out: a copy of a table or the evaluator would count
  // references to its arrays again on every lookup.

  /// The parsed expression.
  public var hours: OpeningHours { _read { yield compiled.hours } }
  /// The place's time zone.
  public var timeZone: TimeZoneRules { _read { yield compiled.timeZone } }
  /// Why some answers may be `unknown`: `no-holiday-data` (PH without a calendar: PH days evaluate
  /// unknown), `no-school-holidays` (SH: no data, evaluates unknown), `no-coordinates` (sun times
  /// without coordinates use the specification's defaults), `spill-erased` (a later `;` rule
  /// replaces a day into which an earlier rule runs past midnight, closing that night at
  /// midnight; its `fixIt` keeps the night: docs/opening-hours.md).
  public var warnings: [OpeningHoursWarning] { _read { yield compiled.warnings } }
  var evaluator: RuleEvaluator { _read { yield compiled.evaluator } }
  var week: WeekTable? { _read { yield compiled.week } }
  var offsets: OffsetCache { _read { yield compiled.offsets } }
  /// The days painted, for a schedule that is not weekly.
  var days: DayTable? { _read { yield compiled.days } }
  /// The last days painted, for a schedule with sun times.
  var painted: PaintedDays? { _read { yield compiled.painted } }
  /// The last stretch a search found quiet, for a schedule that is not weekly.
  var quiet: QuietStretch? { _read { yield compiled.quiet } }

  /// Compiles `hours` for one place.
  /// - Parameters:
  ///   - hours: the parsed expression.
  ///   - timeZone: the place's IANA time zone.
  ///   - holidays: public holidays of the place's country or region; without it `PH` is unknown.
  ///   - latitude: degrees north, for sun times.
  ///   - longitude: degrees east, for sun times.
  /// - Complexity: O(rules) for a weekly schedule; O(1) otherwise.
  public init(
    _ hours: OpeningHours, timeZone: TimeZoneRules, holidays: HolidayCalendar? = nil, latitude: Double? = nil,
    longitude: Double? = nil
  ) {
    let evaluator = RuleEvaluator(
      rules: hours.rules, holidays: holidays, latitude: latitude, longitude: longitude, timeZone: timeZone)
    var warnings: [OpeningHoursWarning] = []
    func firstRange(_ predicate: (Rule) -> Bool) -> Range<Int> {
      hours.rules.first(where: predicate)?.range ?? 0..<hours.text.count
    }
    if hours.usesPublicHolidays, holidays == nil {
      warnings.append(
        OpeningHoursWarning(
          code: "no-holiday-data",
          range: firstRange { $0.weekdays?.holidays.contains { $0.kind == .publicHoliday } ?? false },
          message:
            "PH is used but no public-holiday calendar was given; where it matters the state is unknown"))
    }
    if hours.usesSchoolHolidays {
      warnings.append(
        OpeningHoursWarning(
          code: "no-school-holidays",
          range: firstRange { $0.weekdays?.holidays.contains { $0.kind == .schoolHoliday } ?? false },
          message: "SH is used but there is no school-holiday data; where it matters the state is unknown"))
    }
    if hours.usesSunEvents, latitude == nil || longitude == nil {
      warnings.append(
        OpeningHoursWarning(
          code: "no-coordinates",
          range: firstRange { r in r.times.contains { $0.start.usesSun || ($0.end?.usesSun ?? false) } },
          message: "sun times without coordinates use the defaults sunrise 06:00, sunset 18:00"))
    }
    // A night that a later `;` rule erases: evaluated as written, and said with the fix-it.
    if let warning = SpillErasures.warning(for: hours, evaluator: evaluator) { warnings.append(warning) }
    compiled = Compiled(hours: hours, timeZone: timeZone, warnings: warnings, evaluator: evaluator)
  }

  // MARK: - Day timelines

  /// Seven day timelines, Monday first, flattened for lookups.
  struct WeekTable: Sendable {
    var days: [DaySegments]
    var starts: [Int32]
    var statusIndex: [Int]
    var isOpen: [Bool]
    var statuses: [OpeningStatus]
    /// `base[w]..<base[w + 1]` are weekday `w`'s entries.
    var base: [Int]

    init(_ evaluator: RuleEvaluator) {
      // 2024-01-01 was a Monday.
      let monday = LocalDate(year: 2024, month: 1, day: 1)!.daysSinceEpoch
      days = (0..<7).map { evaluator.segments(day: monday + $0) }
      starts = []
      statusIndex = []
      isOpen = []
      statuses = []
      base = [0]
      for d in days {
        for (i, s) in d.starts.enumerated() {
          starts.append(s)
          let status = d.statuses[i]
          if let k = statuses.firstIndex(of: status) {
            statusIndex.append(k)
          } else {
            statuses.append(status)
            statusIndex.append(statuses.count - 1)
          }
          isOpen.append(status.state == .open)
        }
        base.append(starts.count)
      }
    }

    @inline(__always)
    func entry(weekday: Int, second: Int32) -> Int {
      var i = base[weekday]
      let end = base[weekday + 1]
      while i + 1 < end, starts[i + 1] <= second { i += 1 }
      return i
    }
  }

  /// The timeline of local day `day` (days since 1970-01-01).
  /// - Parameter building: whether a missing block of the day table may be painted for it; a long
  ///   search reads the blocks there are and paints the rest day by day, so that one question
  ///   about a century does not spend the table's blocks on it.
  func daySegments(_ day: Int, building: Bool = true) -> DaySegments {
    // Not `if let week`: that would copy the table's arrays out for one element.
    if week != nil { return week.unsafelyUnwrapped.days[Self.weekday(day)] }
    if days != nil {
      let table = days.unsafelyUnwrapped
      let found = building ? table.block(holding: day, evaluator: evaluator) : table.block(holding: day)
      if let found,
        let timeline = found._withUnsafeGuaranteedRef({ block in
          block.kind(of: day).map { block.timelines[$0] }
        })
      {
        return timeline
      }
    }
    return painted(day)
  }

  /// Day `day` painted afresh, or from the last days painted of a schedule with sun times.
  func painted(_ day: Int) -> DaySegments {
    // The evaluator is read only to paint a day the cache lacks.
    guard painted != nil else { return evaluator.segments(day: day) }
    return painted.unsafelyUnwrapped.segments(day: day) { evaluator.segments(day: $0) }
  }

  /// Whether day `day` is open at `second` into it, for a schedule that is not weekly.
  @inline(__always)
  func dayIsOpen(_ day: Int, second: Int) -> Bool {
    if days != nil, let found = days.unsafelyUnwrapped.block(holding: day, evaluator: evaluator) {
      let answer: Bool? = found._withUnsafeGuaranteedRef { block in
        guard let kind = block.kind(of: day) else { return nil }
        return block.isOpen(kind: kind, second: second)
      }
      if let answer { return answer }
    }
    let segments = painted(day)
    return segments.statuses[segments.index(at: second)].state == .open
  }

  /// The status of day `day` at `second` into it, for a schedule that is not weekly.
  @inline(__always)
  func dayStatus(_ day: Int, second: Int) -> OpeningStatus {
    if days != nil, let found = days.unsafelyUnwrapped.block(holding: day, evaluator: evaluator) {
      let answer: OpeningStatus? = found._withUnsafeGuaranteedRef { block in
        guard let kind = block.kind(of: day) else { return nil }
        return block.timelines[kind].status(at: second)
      }
      if let answer { return answer }
    }
    return painted(day).status(at: second)
  }

  @inline(__always)
  static func weekday(_ day: Int) -> Int { ((day + 3) % 7 + 7) % 7 }

  @inline(__always)
  static func split(_ local: Int64) -> (day: Int, second: Int) {
    let day = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
    return (Int(day), Int(local - day * 86_400))
  }

  /// Local wall-clock seconds (since 1970-01-01 00:00 local) at `instant`.
  @inline(__always)
  func local(_ instant: Instant) -> Int64 {
    let t = instant.secondsSinceEpoch
    if t >= offsets.start, t < offsets.end {
      var i = 0
      while i + 1 < offsets.bounds.count, offsets.bounds[i + 1] <= t { i += 1 }
      return t + Int64(offsets.offsets[i])
    }
    return t + Int64(timeZone.offset(at: instant))
  }

  /// The zone's offsets from 60 days before compilation to 400 days after, as a short list of
  /// pieces, so that `status(at:)` near the present does not search the zone's whole history.
  /// Outside the window the zone is asked directly; the answers are the same.
  struct OffsetCache: Sendable {
    var start: Int64
    var end: Int64
    /// `bounds[i]` is where piece `i` starts; `offsets[i]` its UTC offset.
    var bounds: [Int64]
    var offsets: [Int]

    init(_ zone: TimeZoneRules) {
      var now = timespec()
      clock_gettime(CLOCK_REALTIME, &now)
      let first = Instant(secondsSinceEpoch: Int64(now.tv_sec) - 60 * 86_400)
      let last = Instant(secondsSinceEpoch: Int64(now.tv_sec) + 400 * 86_400)
      start = first.secondsSinceEpoch
      end = last.secondsSinceEpoch
      bounds = [start]
      offsets = [zone.offset(at: first)]
      var cursor = first
      while bounds.count < 16, let next = zone.nextTransition(after: cursor), next < last {
        bounds.append(next.secondsSinceEpoch)
        offsets.append(zone.offset(at: next))
        cursor = next
      }
      if bounds.count >= 16 { end = bounds[bounds.count - 1] }
    }
  }

  // MARK: - Queries

  /// The state at `instant`, with the comment of the deciding rule.
  /// - Complexity: a table lookup for a weekly schedule; one day's evaluation otherwise.
  public func status(at instant: Instant) -> OpeningStatus {
    let (day, second) = Self.split(local(instant))
    if let week {
      return week.statuses[week.statusIndex[week.entry(weekday: Self.weekday(day), second: Int32(second))]]
    }
    return dayStatus(day, second: second)
  }

  /// Whether the state at `instant` is `open` (unknown counts as not open).
  /// - Complexity: a table lookup for a weekly schedule; one day's evaluation otherwise.
  public func isOpen(at instant: Instant) -> Bool {
    let (day, second) = Self.split(local(instant))
    if let week { return week.isOpen[week.entry(weekday: Self.weekday(day), second: Int32(second))] }
    return dayIsOpen(day, second: second)
  }

  /// The first instant after `instant` at which `status(at:)` differs from `status(at: instant)`
  /// (state or comment).
  /// - Parameters:
  ///   - instant: where to start (exclusive).
  ///   - horizonDays: how far to look; answers end before 9999-12-31T00:00Z however far.
  /// - Returns: the instant, or `nil` when nothing changes within the horizon.
  /// - Complexity: O(days scanned × rules + time-zone transitions crossed): each kind of day is
  ///   painted once, later days of a kind only have their selectors checked (`2000-3000` finds
  ///   3001-01-01), and a weekly schedule stops after a quiet week.
  public func nextChange(after instant: Instant, horizonDays: Int = 400) -> Instant? {
    nextChange(after: instant, limit: Self.horizon(after: instant, days: horizonDays), sameState: false)
  }

  /// The first instant after `instant` where the *state* (open, closed, unknown) differs from the
  /// state at `instant`, ignoring changes of comment alone; `nil` when none within the horizon.
  /// "Open until 18:00" is this, not `nextChange`, when the comment changes at 12:00.
  public func nextStateChange(after instant: Instant, horizonDays: Int = 400) -> Instant? {
    nextChange(after: instant, limit: Self.horizon(after: instant, days: horizonDays), sameState: true)
  }

  /// The state over all of `[start, start + seconds)`: open when open throughout, closed when
  /// closed anywhere in it, else unknown.
  /// - Complexity: O(state changes up to the first closed moment in the window).
  public func state(throughout start: Instant, seconds: Int64) -> OpeningState {
    let end = start + max(1, seconds)
    var sawUnknown = false
    var current = start
    // One state at a time, so the first closed moment ends the walk: listing the window's
    // intervals first cost a year of spans for `open_for=P363D` on a store that closes tonight,
    // and a search over a few hundred such stores ran past the service's deadline.
    while current < end {
      switch status(at: current).state {
      case .closed: return .closed
      case .unknown: sawUnknown = true
      case .open: break
      }
      current = nextChange(after: current, limit: end, sameState: true) ?? end
    }
    return sawUnknown ? .unknown : .open
  }

  /// The intervals of constant status that cover `[from, to)`, in order; adjacent intervals differ.
  /// - Complexity: O(changes + days + transitions in the range).
  public func intervals(from: Instant, to: Instant) -> [ScheduleInterval] {
    var result: [ScheduleInterval] = []
    var current = from
    while current < to {
      let status = status(at: current)
      let next = nextChange(after: current, limit: to, sameState: false) ?? to
      result.append(ScheduleInterval(start: current, end: next, status: status))
      current = next
    }
    return result
  }

  /// Whether the place is open for all of `[start, start + seconds)` (comments may change).
  public func isOpen(throughout start: Instant, seconds: Int64) -> Bool {
    guard status(at: start).state == .open else { return false }
    if seconds <= 1 { return true }
    return nextChange(after: start, limit: start + seconds, sameState: true) == nil
  }

  /// The earliest instant `t ≥ from` such that the place is open for all of `[t, t + seconds)`.
  /// - Parameters:
  ///   - seconds: how long it must stay open.
  ///   - from: the earliest acceptable start.
  ///   - horizonDays: the latest acceptable start is `from` plus this many days.
  /// - Returns: the instant, or `nil` when there is none within the horizon.
  public func earliestOpening(lasting seconds: Int64, from: Instant, horizonDays: Int = 400) -> Instant? {
    let horizon = Self.horizon(after: from, days: horizonDays)
    var current = from
    while current <= horizon {
      if status(at: current).state == .open {
        if seconds <= 1 { return current }
        guard let change = nextChange(after: current, limit: current + seconds, sameState: true) else {
          return current
        }
        current = change
      } else {
        guard let change = nextChange(after: current, limit: horizon + 1, sameState: true) else { return nil }
        current = change
      }
    }
    return nil
  }

  /// The first instant in `(instant, limit)` whose status differs from the status at `instant`
  /// (only the state when `sameState`).
  ///
  /// Walks the pieces of constant UTC offset: inside one, wall time runs with the instant, so the
  /// first differing boundary of the day timelines is the answer; at a transition the wall clock
  /// jumps, and the status just after it is compared directly.
  func nextChange(after instant: Instant, limit: Instant, sameState: Bool) -> Instant? {
    let reference = status(at: instant)
    let limit = min(limit, Self.latestChange)
    guard let quiet else {
      return search(after: instant, limit: limit, reference: reference, sameState: sameState)
    }
    var start = instant
    var from = instant
    if let known = quiet.stretch(holding: instant, status: reference, sameState: sameState) {
      // Nothing changes before `known.end`: look on from there (the status is `reference` up to it).
      if known.end >= limit { return nil }
      start = known.start
      from = max(instant, Instant(secondsSinceEpoch: known.end.secondsSinceEpoch - 1))
    }
    let found = search(after: from, limit: limit, reference: reference, sameState: sameState)
    quiet.remember(.init(status: reference, sameState: sameState, start: start, end: found ?? limit))
    return found
  }

  /// The first change after `instant` (whose status is `reference`) before `limit`.
  func search(after instant: Instant, limit: Instant, reference: OpeningStatus, sameState: Bool) -> Instant? {
    var alike = AlikeDays()
    var current = instant
    while current < limit {
      let offset = Int64(timeZone.offset(at: current))
      var pieceEnd = limit
      if let transition = timeZone.nextTransition(after: current), transition < limit {
        pieceEnd = transition
      }
      let localStart = current.secondsSinceEpoch + offset
      let localEnd = pieceEnd.secondsSinceEpoch + offset
      if let local = firstDifference(
        after: localStart, before: localEnd, from: reference, sameState: sameState, alike: &alike)
      {
        return Instant(secondsSinceEpoch: local - offset)
      }
      if pieceEnd >= limit { return nil }
      let status = status(at: pieceEnd)
      if sameState ? status.state != reference.state : status != reference { return pieceEnd }
      current = pieceEnd
    }
    return nil
  }

  /// `days` after `instant`, at most up to `latestChange` (no overflow for any `days`).
  static func horizon(after instant: Instant, days: Int) -> Instant {
    let seconds = Int64(min(max(0, days), 4_000_000)) * 86_400
    return min(instant + seconds, max(instant, latestChange))
  }

  /// The latest instant a change is looked for: answers stay in years written with four digits
  /// (9999-12-31T00:00Z is 9999-12-31 in every zone).
  static let latestChange = Instant(secondsSinceEpoch: 253_402_214_400)

  /// Kinds of whole days a search found no difference on (`RuleEvaluator.DayKey`): a later day
  /// of the same kind paints the same timeline, so it is skipped unpainted. Bounded: a search over
  /// millennia meets a few dozen kinds.
  struct AlikeDays {
    static let capacity = 64
    var quiet: [RuleEvaluator.DayKey] = []
    /// Whole days of a weekly schedule found quiet in a row: after seven, every later day repeats one.
    var quietWeekdays = 0
    /// Whole days checked. Most searches end within two, so days are keyed only after that: the
    /// key costs as much as a lookup of a painted day.
    var wholeDays = 0
  }

  /// The first local second in `(start, end)` where a day timeline starts a segment whose status
  /// differs from `reference` (the status at `start`).
  func firstDifference(
    after start: Int64, before end: Int64, from reference: OpeningStatus, sameState: Bool,
    alike: inout AlikeDays
  ) -> Int64? {
    var day = Self.split(start).day
    while Int64(day) * 86_400 < end {
      let dayStart = Int64(day) * 86_400
      // Only a whole day inside the window is the same question as another day of its kind.
      let whole = dayStart > start && dayStart + 86_400 <= end
      if whole, week != nil, alike.quietWeekdays >= 7 { return nil }
      // A day of the table is read as it is; past the first two whole days the others are keyed,
      // and painted only when their kind was not found quiet already.
      let cached = week == nil && alike.wholeDays >= 2 && days?.block(holding: day) != nil
      let key = whole && week == nil && alike.wholeDays >= 2 && !cached ? evaluator.dayKey(day) : nil
      if let key, alike.quiet.contains(key) {
        day += 1
        continue
      }
      let segments = daySegments(day, building: alike.wholeDays < 2)
      for (i, s) in segments.starts.enumerated() {
        let at = dayStart + Int64(s)
        if at <= start { continue }
        if at >= end { return nil }
        let status = segments.statuses[i]
        if sameState ? status.state != reference.state : status != reference { return at }
      }
      if let key, alike.quiet.count < AlikeDays.capacity { alike.quiet.append(key) }
      if whole { alike.wholeDays += 1 }
      if whole, week != nil { alike.quietWeekdays += 1 }
      day += 1
    }
    return nil
  }
}
