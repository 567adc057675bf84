/// A POSIX `TZ` rule string, as found in the footer of a TZif file (RFC 8536 §3.3): the rule that
/// governs every instant after the file's last transition, such as `CET-1CEST,M3.5.0,M10.5.0/3`.
///
/// Supported: quoted (`<+1030>`) and alphabetic abbreviations; offsets `[+-]hh[:mm[:ss]]` (POSIX
/// sign: positive means *west* of UTC); the date forms `Jn` (1...365, February 29 never counted),
/// `n` (0...365, zero-based, February 29 counted) and `Mm.w.d`; transition times with the TZif v3
/// extension of hours in -167...167 (`/-1`, `/25`), which zic emits for rules such as "the day
/// after the first Sunday" or permanent daylight time (`EST5EDT,0/0,J365/25`).
struct POSIXTimeZoneRule: Hashable, Sendable {
  /// The abbreviation of standard time, such as `CET` (without the angle brackets).
  var standardAbbreviation: String
  /// Seconds *east* of UTC in standard time (the sign the rest of the module uses).
  var standardOffset: Int
  /// Daylight time, when the rule has any.
  var daylight: Daylight?

  struct Daylight: Hashable, Sendable {
    var abbreviation: String
    /// Seconds east of UTC in daylight time. Not necessarily larger than the standard offset:
    /// Europe/Dublin's rule `IST-1GMT0,M10.5.0,M3.5.0/1` has "daylight" time in winter, one hour
    /// *behind* standard time.
    var offset: Int
    var start: DateRule
    /// Seconds after local midnight of the start day, on the standard-time wall clock.
    var startTime: Int
    var end: DateRule
    /// Seconds after local midnight of the end day, on the daylight-time wall clock.
    var endTime: Int
  }

  /// Which day of a year a transition happens on.
  enum DateRule: Hashable, Sendable {
    /// `Jn`: day 1...365, February 29 is never counted (J60 is always March 1).
    case julian(Int)
    /// `n`: day 0...365, February 29 is counted in leap years.
    case zeroBased(Int)
    /// `Mm.w.d`: weekday `d` (0 = Sunday) of week `w` (1...5, 5 = the last) of month `m`.
    case monthWeekDay(month: Int, week: Int, weekday: Int)

    /// Days since 1970-01-01 of this rule's day in `year`.
    func daysSinceEpoch(year: Int) -> Int {
      switch self {
      case .julian(let n):
        return LocalDate(year: year, month: 1, day: 1)!.daysSinceEpoch + n - 1
          + (LocalDate.isLeap(year) && n >= 60 ? 1 : 0)
      case .zeroBased(let n):
        return LocalDate(year: year, month: 1, day: 1)!.daysSinceEpoch + n
      case .monthWeekDay(let month, let week, let weekday):
        let first = LocalDate(year: year, month: month, day: 1)!
        let firstWeekday = (first.weekday + 1) % 7  // ISO Monday 0 → POSIX Sunday 0
        var day = 1 + (weekday - firstWeekday + 7) % 7 + 7 * (week - 1)
        let length = LocalDate.daysIn(month: month, year: year)
        while day > length { day -= 7 }  // week 5 means "the last such weekday"
        return first.daysSinceEpoch + day - 1
      }
    }
  }

  /// One change of the offset produced by the rule.
  struct Change: Hashable, Sendable {
    var instant: Int64
    var isDaylight: Bool
  }

  /// The offset in force on the given side of a change.
  func offset(isDaylight: Bool) -> Int { isDaylight ? daylight!.offset : standardOffset }

  func abbreviation(isDaylight: Bool) -> String {
    isDaylight ? daylight!.abbreviation : standardAbbreviation
  }

  /// The changes of the years `years`, in time order. When two coincide (permanent daylight time
  /// written as `0/0,J365/25` ends one year at the very instant the next one starts), only the
  /// later-listed one is kept, and changes that switch to the state already in force are dropped.
  /// The state before the first returned change is assumed to be the opposite of its own.
  func changes(years: ClosedRange<Int>) -> [Change] {
    guard daylight != nil else { return [] }
    var raw: [Change] = []
    raw.reserveCapacity(2 * years.count)
    for year in years {
      let (first, second) = changes(year: year)
      raw.append(first)
      raw.append(second)
    }
    // Stable, so of two changes at one instant the later year's stays last.
    let ordered = raw.enumerated().sorted {
      ($0.element.instant, $0.offset) < ($1.element.instant, $1.offset)
    }
    .map(\.element)
    var result: [Change] = []
    result.reserveCapacity(ordered.count)
    for (index, change) in ordered.enumerated() {
      if index + 1 < ordered.count, ordered[index + 1].instant == change.instant { continue }
      if let last = result.last, last.isDaylight == change.isDaylight { continue }
      result.append(change)
    }
    return result
  }

  /// The two changes of `year`, in time order. Requires `daylight`.
  func changes(year: Int) -> (Change, Change) {
    let daylight = daylight!
    // The start is read on the standard-time wall clock, the end on the daylight one.
    let start = Change(
      instant: Int64(daylight.start.daysSinceEpoch(year: year)) * 86_400
        + Int64(daylight.startTime - standardOffset),
      isDaylight: true)
    let end = Change(
      instant: Int64(daylight.end.daysSinceEpoch(year: year)) * 86_400
        + Int64(daylight.endTime - daylight.offset),
      isDaylight: false)
    // Southern hemisphere (and Dublin): the year begins in daylight time.
    return start.instant <= end.instant ? (start, end) : (end, start)
  }

  /// Whether daylight time is in force at `instant`.
  ///
  /// - Complexity: O(1): the changes of four years around `instant` are computed (no
  ///   allocation; about a hundred nanoseconds).
  func isDaylight(at instant: Int64) -> Bool {
    guard daylight != nil else { return false }
    let year = utcYear(instant)
    // Transition times are within ±167 h of their day, so the previous year's changes are at or
    // before `instant` and those two years on are after it. The state is that of the latest
    // change at or before `instant`; of changes at one instant the later-listed one wins, which
    // makes permanent daylight time (`0/0,J365/25`: each year ends as the next one starts) work.
    var latest = Int64.min
    var state: Bool?
    var earliest = Int64.max
    var earliestState = false
    func consider(_ change: Change) {
      if change.instant <= instant, change.instant >= latest {
        latest = change.instant
        state = change.isDaylight
      }
      if change.instant < earliest {
        earliest = change.instant
        earliestState = change.isDaylight
      }
    }
    for year in (year - 1)...(year + 2) {
      let (first, second) = changes(year: year)
      consider(first)
      consider(second)
    }
    return state ?? !earliestState
  }

  func offset(at instant: Int64) -> Int { offset(isDaylight: isDaylight(at: instant)) }

  /// The first change after `instant` that alters the offset, with the offset after it.
  func nextChange(after instant: Int64) -> (instant: Int64, offset: Int)? {
    guard let daylight, daylight.offset != standardOffset else { return nil }
    var year = utcYear(instant)
    // Two changes a year; searching a few years ahead always finds one. Each candidate is
    // checked on both sides, as the last change of a window may be an artefact of the window.
    for _ in 0..<4 {
      for change in changes(years: (year - 1)...(year + 2)) where change.instant > instant {
        let after = offset(at: change.instant)
        if offset(at: change.instant - 1) != after { return (change.instant, after) }
      }
      year += 2
    }
    return nil
  }

  /// The last change before `instant` that altered the offset, with the offsets around it.
  func previousChange(before instant: Int64) -> (instant: Int64, offset: Int)? {
    guard let daylight, daylight.offset != standardOffset else { return nil }
    var year = utcYear(instant)
    for _ in 0..<4 {
      for change in changes(years: (year - 2)...(year + 1)).reversed() where change.instant < instant {
        let after = offset(at: change.instant)
        if offset(at: change.instant - 1) != after { return (change.instant, after) }
      }
      year -= 2
    }
    return nil
  }
}

/// The UTC calendar year of an instant.
func utcYear(_ seconds: Int64) -> Int {
  let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
  return LocalDate(daysSinceEpoch: Int(days)).year
}

// MARK: - Parsing

extension POSIXTimeZoneRule {
  /// Parses a TZ string.
  /// - Throws: `TZifFormatError` naming what was expected where, when the string is malformed.
  init(parsing text: String) throws(TZifFormatError) {
    var parser = Parser(bytes: Array(text.utf8), text: text)
    self = try parser.parseRule()
  }

  private struct Parser {
    let bytes: [UInt8]
    let text: String
    var index = 0

    func fail(_ expected: String) -> TZifFormatError {
      TZifFormatError(reason: "footer TZ string '\(text)': expected \(expected) at offset \(index)")
    }

    var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func take(_ byte: UInt8) -> Bool {
      guard current == byte else { return false }
      index += 1
      return true
    }

    mutating func parseRule() throws(TZifFormatError) -> POSIXTimeZoneRule {
      let standardName = try abbreviation()
      let standardOffset = -(try time(maxHours: 24, what: "the standard-time offset"))
      var rule = POSIXTimeZoneRule(
        standardAbbreviation: standardName, standardOffset: standardOffset, daylight: nil)
      guard current != nil else { return rule }
      let daylightName = try abbreviation()
      var daylightOffset = standardOffset + 3600  // POSIX: one hour ahead unless given
      if let byte = current, byte != UInt8(ascii: ",") {
        daylightOffset = -(try time(maxHours: 24, what: "the daylight-time offset"))
      }
      // POSIX leaves a missing rule to the implementation; glibc uses the US rules, so do we.
      var start = DateRule.monthWeekDay(month: 3, week: 2, weekday: 0)
      var end = DateRule.monthWeekDay(month: 11, week: 1, weekday: 0)
      var startTime = 7200
      var endTime = 7200
      if take(UInt8(ascii: ",")) {
        start = try dateRule()
        if take(UInt8(ascii: "/")) { startTime = try time(maxHours: 167, what: "a transition time") }
        guard take(UInt8(ascii: ",")) else { throw fail("',' and the end of daylight time") }
        end = try dateRule()
        if take(UInt8(ascii: "/")) { endTime = try time(maxHours: 167, what: "a transition time") }
      }
      guard current == nil else { throw fail("the end of the string") }
      rule.daylight = Daylight(
        abbreviation: daylightName, offset: daylightOffset,
        start: start, startTime: startTime, end: end, endTime: endTime)
      return rule
    }

    mutating func abbreviation() throws(TZifFormatError) -> String {
      let begin = index
      if take(UInt8(ascii: "<")) {
        while let byte = current, byte != UInt8(ascii: ">") {
          guard isAlphanumeric(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else {
            throw fail("a letter, digit, '+' or '-' in a quoted abbreviation")
          }
          index += 1
        }
        guard take(UInt8(ascii: ">")) else { throw fail("'>'") }
        let name = String(decoding: bytes[(begin + 1)..<(index - 1)], as: UTF8.self)
        guard name.utf8.count >= 3 else { throw fail("an abbreviation of at least 3 characters") }
        return name
      }
      while let byte = current, isLetter(byte) { index += 1 }
      guard index - begin >= 3 else { throw fail("an abbreviation of at least 3 letters") }
      return String(decoding: bytes[begin..<index], as: UTF8.self)
    }

    /// `[+-]h[h[h]][:mm[:ss]]` as seconds.
    mutating func time(maxHours: Int, what: String) throws(TZifFormatError) -> Int {
      var sign = 1
      if take(UInt8(ascii: "-")) { sign = -1 } else { _ = take(UInt8(ascii: "+")) }
      let hours = try number(maxDigits: 3, what: what)
      guard hours <= maxHours else { throw fail("\(what) of at most \(maxHours) hours") }
      var seconds = hours * 3600
      if take(UInt8(ascii: ":")) {
        let minutes = try number(maxDigits: 2, what: "minutes")
        guard minutes < 60 else { throw fail("minutes below 60") }
        seconds += minutes * 60
        if take(UInt8(ascii: ":")) {
          let secs = try number(maxDigits: 2, what: "seconds")
          guard secs < 60 else { throw fail("seconds below 60") }
          seconds += secs
        }
      }
      return sign * seconds
    }

    mutating func number(maxDigits: Int, what: String) throws(TZifFormatError) -> Int {
      let begin = index
      var value = 0
      while let byte = current, isDigit(byte), index - begin < maxDigits {
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
        index += 1
      }
      guard index > begin else { throw fail(what) }
      return value
    }

    mutating func dateRule() throws(TZifFormatError) -> DateRule {
      if take(UInt8(ascii: "J")) {
        let day = try number(maxDigits: 3, what: "a day 1...365")
        guard (1...365).contains(day) else { throw fail("a day 1...365") }
        return .julian(day)
      }
      if take(UInt8(ascii: "M")) {
        let month = try number(maxDigits: 2, what: "a month")
        guard (1...12).contains(month), take(UInt8(ascii: ".")) else { throw fail("a month 1...12 and '.'") }
        let week = try number(maxDigits: 1, what: "a week")
        guard (1...5).contains(week), take(UInt8(ascii: ".")) else { throw fail("a week 1...5 and '.'") }
        let weekday = try number(maxDigits: 1, what: "a weekday")
        guard (0...6).contains(weekday) else { throw fail("a weekday 0...6") }
        return .monthWeekDay(month: month, week: week, weekday: weekday)
      }
      let day = try number(maxDigits: 3, what: "a date (Jn, n or Mm.w.d)")
      guard (0...365).contains(day) else { throw fail("a day 0...365") }
      return .zeroBased(day)
    }

    func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    func isLetter(_ byte: UInt8) -> Bool {
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }
    func isAlphanumeric(_ byte: UInt8) -> Bool { isDigit(byte) || isLetter(byte) }
  }
}
