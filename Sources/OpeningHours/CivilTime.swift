/// A moment in time, as whole seconds since 1970-01-01T00:00:00Z (leap seconds ignored, as POSIX).
///
/// Opening hours need no finer resolution; a plain integer keeps comparisons and arithmetic exact.
public struct Instant: Hashable, Comparable, Sendable, CustomStringConvertible {
  public var secondsSinceEpoch: Int64

  public init(secondsSinceEpoch: Int64) { self.secondsSinceEpoch = secondsSinceEpoch }

  public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.secondsSinceEpoch < rhs.secondsSinceEpoch }

  public static func + (lhs: Instant, seconds: Int64) -> Instant {
    Instant(secondsSinceEpoch: lhs.secondsSinceEpoch + seconds)
  }

  public static func - (lhs: Instant, seconds: Int64) -> Instant {
    Instant(secondsSinceEpoch: lhs.secondsSinceEpoch - seconds)
  }

  /// `2026-03-29T00:59:00Z`.
  public var description: String { LocalDateTime(utc: self).description + "Z" }
}

extension String {
  /// The UTF-8 text `write` appends to an empty buffer: the `String` form of a text whose rule is
  /// written once, as bytes, for the answers that write it without a `String`.
  package init(utf8Writing write: (inout [UInt8]) -> Void) {
    var bytes: [UInt8] = []
    write(&bytes)
    self.init(decoding: bytes, as: UTF8.self)
  }
}

/// A calendar date in the proleptic Gregorian calendar, with no time zone.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  /// 1...12
  public let month: Int
  /// 1...31
  public let day: Int

  /// Creates a date, or `nil` when the day does not exist (`2026-02-29`).
  public init?(year: Int, month: Int, day: Int) {
    guard (1...12).contains(month), day >= 1, day <= LocalDate.daysIn(month: month, year: year) else {
      return nil
    }
    self.year = year
    self.month = month
    self.day = day
  }

  /// The date `days` days after 1970-01-01 (negative: before).
  public init(daysSinceEpoch days: Int) {
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let dayOfEra = z - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// Days since 1970-01-01.
  public var daysSinceEpoch: Int {
    // Howard Hinnant's days_from_civil.
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Day of the week, ISO numbering: Monday 0 … Sunday 6.
  public var weekday: Int {
    let days = daysSinceEpoch
    // 1970-01-01 was a Thursday (3).
    return ((days % 7) + 7 + 3) % 7
  }

  public func adding(days: Int) -> LocalDate { LocalDate(daysSinceEpoch: daysSinceEpoch + days) }

  public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }

  public static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  public static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// `2026-11-22`.
  public var description: String { String(utf8Writing: { appendDescription(to: &$0) }) }

  /// `description`'s UTF-8 appended to `bytes`.
  public func appendDescription(to bytes: inout [UInt8]) {
    LocalDate.appendPadded(year, 4, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    LocalDate.appendPadded(month, 2, to: &bytes)
    bytes.append(UInt8(ascii: "-"))
    LocalDate.appendPadded(day, 2, to: &bytes)
  }

  static func pad(_ value: Int, _ width: Int) -> String {
    String(utf8Writing: { appendPadded(value, width, to: &$0) })
  }

  /// `value` in decimal with at least `width` digits (zeros in front), after a minus sign when it
  /// is negative, appended to `bytes`: the numbers of dates and times written without a `String`.
  static func appendPadded(_ value: Int, _ width: Int, to bytes: inout [UInt8]) {
    if value < 0 { bytes.append(UInt8(ascii: "-")) }
    var digitCount = 1
    var rest = value.magnitude
    while rest >= 10 {
      rest /= 10
      digitCount += 1
    }
    bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(width, digitCount)))
    // The digits from the last: zeros already stand where the padding goes.
    var index = bytes.count - 1
    rest = value.magnitude
    repeat {
      bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
      rest /= 10
      index -= 1
    } while rest > 0
  }
}

/// A wall-clock date and time with no time zone, to the second.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let date: LocalDate
  /// Seconds since the start of `date`, 0..<86_400.
  public let secondsIntoDay: Int

  public init(date: LocalDate, secondsIntoDay: Int) {
    precondition((0..<86_400).contains(secondsIntoDay), "secondsIntoDay out of range")
    self.date = date
    self.secondsIntoDay = secondsIntoDay
  }

  public init(date: LocalDate, hour: Int, minute: Int, second: Int = 0) {
    self.init(date: date, secondsIntoDay: hour * 3600 + minute * 60 + second)
  }

  /// The wall clock at UTC+0 for `instant`; add an offset to the instant first for other zones.
  public init(utc instant: Instant) {
    let seconds = instant.secondsSinceEpoch
    let days = Int(seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400)
    date = LocalDate(daysSinceEpoch: days)
    secondsIntoDay = Int(seconds - Int64(days) * 86_400)
  }

  /// The wall clock `offsetSeconds` east of UTC at `instant`.
  public init(_ instant: Instant, offsetSeconds: Int) {
    self.init(utc: instant + Int64(offsetSeconds))
  }

  /// The instant this wall time names at UTC+0 (subtract an offset for other zones).
  public var secondsSinceEpochAtUTC: Int64 { Int64(date.daysSinceEpoch) * 86_400 + Int64(secondsIntoDay) }

  public var hour: Int { secondsIntoDay / 3600 }
  public var minute: Int { secondsIntoDay / 60 % 60 }
  public var second: Int { secondsIntoDay % 60 }

  public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
    lhs.secondsSinceEpochAtUTC < rhs.secondsSinceEpochAtUTC
  }

  /// `07:45`, as a clock shows it.
  public var hourAndMinute: String { String(utf8Writing: { appendHourAndMinute(to: &$0) }) }

  /// `hourAndMinute`'s UTF-8 appended to `bytes`.
  public func appendHourAndMinute(to bytes: inout [UInt8]) {
    LocalDate.appendPadded(hour, 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    LocalDate.appendPadded(minute, 2, to: &bytes)
  }

  /// `2026-11-22T07:45:00`.
  public var description: String { String(utf8Writing: { appendDescription(to: &$0) }) }

  /// `description`'s UTF-8 appended to `bytes`.
  public func appendDescription(to bytes: inout [UInt8]) {
    date.appendDescription(to: &bytes)
    bytes.append(UInt8(ascii: "T"))
    LocalDate.appendPadded(hour, 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    LocalDate.appendPadded(minute, 2, to: &bytes)
    bytes.append(UInt8(ascii: ":"))
    LocalDate.appendPadded(second, 2, to: &bytes)
  }
}
