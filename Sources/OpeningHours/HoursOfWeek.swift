/// A set of the 168 hours of a week, Monday 00:00–01:00 first (hour 0) to Sunday 23:00–24:00
/// (hour 167): in `Schedule.possiblyOpenHours`, the UTC hours in which a place may be open.
///
/// An index uses it to skip stores that cannot be open at a given instant without evaluating
/// their schedules; the bits sit in the low 168 bits of four 64-bit words so they can be copied
/// straight into a wider mask.
public struct HoursOfWeek: Hashable, Sendable {
  /// Bit `h % 64` of word `h / 64` for hour `h`; bits 168 and above are always clear.
  public private(set) var words: SIMD4<UInt64>

  public static let hoursPerWeek = 168

  /// The empty set.
  public init() { words = .zero }

  /// Every hour of the week.
  public static let all: HoursOfWeek = {
    var hours = HoursOfWeek()
    for hour in 0..<hoursPerWeek { hours.insert(hour) }
    return hours
  }()

  public mutating func insert(_ hour: Int) {
    precondition((0..<Self.hoursPerWeek).contains(hour), "hour of the week \(hour) is outside 0..<168")
    words[hour >> 6] |= 1 << UInt64(hour & 63)
  }

  public func contains(_ hour: Int) -> Bool {
    (0..<Self.hoursPerWeek).contains(hour) && (words[hour >> 6] >> UInt64(hour & 63)) & 1 == 1
  }

  public var count: Int {
    Int(words[0].nonzeroBitCount + words[1].nonzeroBitCount + words[2].nonzeroBitCount)
  }

  /// The UTC hour of the week that `instant` falls in.
  public static func utcHour(of instant: Instant) -> Int {
    let seconds = instant.secondsSinceEpoch
    let hours = seconds >= 0 ? seconds / 3_600 : (seconds - 3_599) / 3_600
    // 1970-01-01 was a Thursday: hour 0 of the epoch is hour 72 of its week.
    let hour = (hours + 72) % 168
    return Int(hour < 0 ? hour + 168 : hour)
  }

  /// Inserts every hour that overlaps the seconds `start..<end` of the week, taken modulo a week.
  mutating func insert(secondsOfWeek start: Int64, _ end: Int64) {
    guard end > start else { return }
    if end - start >= 604_800 {
      self = .all
      return
    }
    let first = start >= 0 ? start / 3_600 : (start - 3_599) / 3_600
    let last = (end - 1) >= 0 ? (end - 1) / 3_600 : (end - 1 - 3_599) / 3_600
    for hour in first...last { insert(Int(((hour % 168) + 168) % 168)) }
  }
}

extension Schedule {
  /// The UTC hours of the week in which the schedule may be open or unknown at instants in
  /// `window`: such an instant outside them is closed (`status(at:)` says so). Outside `window`,
  /// treat every hour as possible.
  ///
  /// Answered from a week table, conservatively across time-zone changes: each local opening
  /// counts at every UTC offset the zone uses in `window` (standard and daylight time alike). A
  /// weekly schedule (weekdays and times only) uses its own table. A schedule whose date-dependent
  /// rules only close (`PH off`, `Dec 25 off`) uses the table of its other rules, which is open
  /// at least whenever the schedule is. Any other schedule (seasons, sun times, fallbacks) may be
  /// open at any hour, so it gets them all: evaluating its dates would cost more than it saves.
  /// - Complexity: O(segments × offsets).
  public func possiblyOpenHours(within window: Range<Instant>) -> HoursOfWeek {
    guard let table = week ?? weeklySuperset() else { return .all }
    let offsets = timeZone.offsets(in: window)
    var hours = HoursOfWeek()
    for (weekday, day) in table.days.enumerated() {
      for (i, status) in day.statuses.enumerated() where status.state != .closed {
        let start = Int64(weekday) * 86_400 + Int64(day.starts[i])
        let end = Int64(weekday) * 86_400 + (i + 1 < day.starts.count ? Int64(day.starts[i + 1]) : 86_400)
        for offset in offsets {
          hours.insert(secondsOfWeek: start - Int64(offset), end - Int64(offset))
        }
      }
    }
    return hours
  }

  /// The week table of the rules that do not depend on dates, when every rule that does only
  /// closes: removing a closing rule can only add open time, so this table is open whenever the
  /// schedule is. (Where holiday facts are unknown, the schedule is unknown only where one of the
  /// assumptions is open, which this table covers too.) `nil` otherwise.
  private func weeklySuperset() -> WeekTable? {
    let rules = evaluator.rules
    guard !rules.contains(where: { $0.separator == .fallback }) else { return nil }
    var kept: [Rule] = []
    for (i, rule) in rules.enumerated() {
      guard evaluator.dateDependent[i] else {
        kept.append(rule)
        continue
      }
      guard RuleEvaluator.status(of: rule).state == .closed else { return nil }
    }
    let reduced = RuleEvaluator(rules: kept, holidays: nil, latitude: nil, longitude: nil, timeZone: timeZone)
    return reduced.isWeekly ? WeekTable(reduced) : nil
  }

  /// Whether the schedule depends on the weekday and time only (a table lookup), not on dates.
  public var isWeekly: Bool { week != nil }
}

extension TimeZoneRules {
  /// The UTC offsets the zone uses at instants in `range`, ascending.
  public func offsets(in range: Range<Instant>) -> [Int] {
    var offsets: Set<Int> = [offset(at: range.lowerBound)]
    for transition in transitions(in: range) { offsets.insert(transition.offsetAfter) }
    return offsets.sorted()
  }
}
