/// A time as people give it on the command line or in an API call: an instant (ISO 8601 with `Z`
/// or an offset), or a wall-clock time with no offset, which means that time at each store.
public enum TimeQuery: Hashable, Sendable, CustomStringConvertible {
  case instant(Instant)
  /// The same wall-clock time in every store's own time zone.
  case wallTime(LocalDateTime)

  /// Parses `2026-11-22T07:45:00Z`, `2026-11-22T07:45+09:00`, `2026-11-22T07:45` (wall time),
  /// or a space instead of `T`. Seconds are optional. `now` is resolved by the caller, who knows
  /// the clock.
  ///
  /// A date alone (`2026-11-22`) is refused: read as midnight at each store, it would answer
  /// "open at 2026-12-24" with the 24-hour stores only, which nobody asking means.
  ///
  /// - Throws: `TimeParseError` naming what was expected where; for a date alone, a message that
  ///   shows the full times it could have been.
  public init(parsing text: String) throws(TimeParseError) {
    var scanner = TimeScanner(text)
    let date = try scanner.date()
    // One bound on every time given (options, orders, batch lines): answers then stay in years
    // that ISO 8601 writes with four digits and that can be read back, however far they look ahead.
    guard TimeQuery.supportedYears.contains(date.year) else {
      throw TimeParseError(
        text: text, position: 0, expected: "a year",
        message: "\(text) is outside the years \(TimeQuery.supportedYears.lowerBound)–"
          + "\(TimeQuery.supportedYears.upperBound) that times are accepted in")
    }
    guard !scanner.isAtEnd else {
      throw TimeParseError(
        text: text, position: scanner.position, expected: "a time after the date",
        message: "\(text) is a date; give a time too, such as \(text)T09:00 (wall time at each store) "
          + "or \(text)T09:00:00Z")
    }
    guard scanner.take("T") || scanner.take("t") || scanner.take(" ") else {
      throw scanner.error(expected: "'T' between the date and the time")
    }
    let seconds = try scanner.timeOfDay()
    let local = LocalDateTime(date: date, secondsIntoDay: seconds)
    if scanner.isAtEnd {
      self = .wallTime(local)
      return
    }
    let offset = try scanner.offset()
    guard scanner.isAtEnd else { throw scanner.error(expected: "the end of the time") }
    let instant = Instant(secondsSinceEpoch: local.secondsSinceEpochAtUTC - Int64(offset))
    // The date as written may be in range while the instant is not (9997-12-31T23:59-18:00).
    guard TimeQuery.supportedInstants.contains(instant) else {
      throw TimeParseError(
        text: text, position: 0, expected: "a year",
        message: "\(text) is outside the years \(TimeQuery.supportedYears.lowerBound)–"
          + "\(TimeQuery.supportedYears.upperBound) that times are accepted in")
    }
    self = .instant(instant)
  }

  /// The years a time may name (of its date as written): 1900–9997, as the reference engines'
  /// suites evaluate far-off years. Every answer stays in years ISO 8601 writes with four digits
  /// and that can be read back: `next_change` stops before 9999-12-31T00:00Z (`Schedule`).
  public static let supportedYears = 1900...9997

  /// The instants of `supportedYears` in UTC: 1900-01-01T00:00:00Z up to 9998-01-01T00:00:00Z.
  public static let supportedInstants =
    Instant(secondsSinceEpoch: -2_208_988_800)..<Instant(secondsSinceEpoch: 253_339_228_800)

  /// The instant this names in `zone`: an instant as it is; a wall time resolved by the DST
  /// policy (a skipped wall time means the moment the clocks jumped; a repeated one, its first
  /// occurrence).
  public func instant(in zone: TimeZoneRules) -> Instant {
    switch self {
    case .instant(let instant): return instant
    case .wallTime(let local):
      switch zone.resolve(local) {
      case .unique(let instant): return instant
      case .skipped(let transition): return transition
      case .repeated(let first, _): return first
      }
    }
  }

  public var description: String {
    switch self {
    case .instant(let instant): instant.description
    case .wallTime(let local): local.description + " (local time at each store)"
    }
  }
}

/// Formats `instant` as ISO 8601 with the offset in force in `zone`: `2026-11-22T07:45:00+09:00`.
public func iso8601(_ instant: Instant, in zone: TimeZoneRules) -> String {
  String(utf8Writing: { appendISO8601(instant, in: zone, to: &$0) })
}

/// `iso8601(instant, in: zone)`'s UTF-8 appended to `bytes`, without making a `String`: how an
/// answer writes each store's next change (a tenth of a `nearest` answer's time went to making
/// these `String`s).
public func appendISO8601(_ instant: Instant, in zone: TimeZoneRules, to bytes: inout [UInt8]) {
  let offset = zone.offset(at: instant)
  LocalDateTime(instant, offsetSeconds: offset).appendDescription(to: &bytes)
  appendFormattedOffset(offset, to: &bytes)
}

/// `+09:00`, `-03:30`, `+05:45`; seconds are kept when an offset has them (`+00:19:32`).
public func formattedOffset(_ seconds: Int) -> String {
  String(utf8Writing: { appendFormattedOffset(seconds, to: &$0) })
}

/// `formattedOffset(seconds)`'s UTF-8 appended to `bytes`.
func appendFormattedOffset(_ seconds: Int, to bytes: inout [UInt8]) {
  let magnitude = abs(seconds)
  bytes.append(seconds < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
  LocalDate.appendPadded(magnitude / 3600, 2, to: &bytes)
  bytes.append(UInt8(ascii: ":"))
  LocalDate.appendPadded(magnitude / 60 % 60, 2, to: &bytes)
  if magnitude % 60 != 0 {
    bytes.append(UInt8(ascii: ":"))
    LocalDate.appendPadded(magnitude % 60, 2, to: &bytes)
  }
}

/// The longest duration `parseDuration` accepts: 366 days.
public let maximumDurationSeconds: Int64 = 366 * 86_400

/// Parses a duration: `90s`, `15m`, `1h30m`, `1h 30m`, `2h`, `1d`, ISO 8601 `PT15M` / `PT1H30M` /
/// `P1D`. Returns seconds.
///
/// Every number needs its unit: a bare `90` is refused (with a message suggesting `90s` and
/// `90m`) because a bare number as a distance means metres, and nobody should have to remember
/// which unit each option assumes.
///
/// - Throws: `TimeParseError` when the text is not a non-negative duration of at most 366 days.
public func parseDuration(_ text: String) throws(TimeParseError) -> Int64 {
  let seconds = try parseDurationUnbounded(text)
  guard seconds <= maximumDurationSeconds else {
    throw TimeParseError(text: text, position: 0, expected: "a duration of at most 366 days")
  }
  return seconds
}

private func parseDurationUnbounded(_ text: String) throws(TimeParseError) -> Int64 {
  var characters = Array(text.lowercased())
  guard !characters.isEmpty else {
    throw TimeParseError(text: text, position: 0, expected: "a duration such as 15m")
  }
  var total: Int64 = 0
  var position = 0
  if characters.first == "p" {
    // ISO 8601: P[nD][T[nH][nM][nS]]
    characters.removeFirst()
    position = 1
    var inTime = false
    var sawComponent = false
    var number: Int64? = nil
    for character in characters {
      if let digit = character.wholeNumberValue {
        number = (number ?? 0) * 10 + Int64(digit)
        guard number! < 1_000_000_000 else {
          throw TimeParseError(text: text, position: position, expected: "a shorter duration")
        }
      } else if character == "t", number == nil, !inTime {
        inTime = true
      } else if let value = number {
        let unit: Int64
        switch (character, inTime) {
        case ("d", false): unit = 86_400
        case ("w", false): unit = 7 * 86_400
        case ("h", true): unit = 3600
        case ("m", true): unit = 60
        case ("s", true): unit = 1
        default:
          throw TimeParseError(text: text, position: position, expected: "a designator D, T, H, M or S")
        }
        total += value * unit
        try checkDurationBound(total, text)
        number = nil
        sawComponent = true
      } else {
        throw TimeParseError(text: text, position: position, expected: "a number")
      }
      position += 1
    }
    guard number == nil, sawComponent else {
      throw TimeParseError(text: text, position: position, expected: "a designator after the number (PT15M)")
    }
    return total
  }
  var number: Int64? = nil
  var lastUnit: Character? = nil
  for character in characters {
    if let digit = character.wholeNumberValue {
      number = (number ?? 0) * 10 + Int64(digit)
      guard number! < 1_000_000_000 else {
        throw TimeParseError(text: text, position: position, expected: "a shorter duration")
      }
    } else if character == " " {
      // "1h 30m"
    } else if let value = number {
      switch character {
      case "d": total += value * 86_400
      case "h": total += value * 3600
      case "m": total += value * 60
      case "s": total += value
      default: throw TimeParseError(text: text, position: position, expected: "a unit d, h, m or s")
      }
      try checkDurationBound(total, text)
      number = nil
      lastUnit = character
    } else {
      throw TimeParseError(text: text, position: position, expected: "a number")
    }
    position += 1
  }
  if let number {
    // A number without a unit is a guess either way (seconds? minutes? the unit below the last
    // one, as in `1h30`?), so it is refused with the readings spelled out.
    guard let lastUnit else {
      throw TimeParseError(
        text: text, position: position, expected: "a unit after the number",
        message: "'\(text)' has no unit; write \(number)s for seconds or \(number)m for minutes "
          + "(durations are 90s, 15m, 1h30m, 1d or PT15M)")
    }
    let below: Character = lastUnit == "d" ? "h" : lastUnit == "h" ? "m" : "s"
    let written = String(text.reversed().drop { $0 == " " }.reversed())
    throw TimeParseError(
      text: text, position: position, expected: "a unit after \(number)",
      message: "'\(text)' ends in a number without a unit; write \(written)\(below) "
        + "(every number in a duration needs its unit: 1h30m, 1m30s)")
  }
  guard lastUnit != nil else {
    throw TimeParseError(text: text, position: 0, expected: "a duration such as 15m")
  }
  return total
}

/// Refuses a running total past the bound as soon as it passes, so that repeated components
/// (`P999999999W` fifteen thousand times, in a 150 kB body) end in an error and never overflow.
/// Each component is below 10^9 × 7 days, so one more never overflows a total within the bound.
private func checkDurationBound(_ total: Int64, _ text: String) throws(TimeParseError) {
  guard total <= maximumDurationSeconds else {
    throw TimeParseError(text: text, position: 0, expected: "a duration of at most 366 days")
  }
}

/// A time or duration that could not be read, with where and what was expected.
public struct TimeParseError: Error, Hashable, Sendable, CustomStringConvertible {
  public let text: String
  /// Character offset of the problem.
  public let position: Int
  public let expected: String
  /// A whole sentence for mistakes common enough to deserve one (a date without a time, a
  /// duration without a unit); `nil` for the generic "expected … at character N".
  public let message: String?

  public init(text: String, position: Int, expected: String, message: String? = nil) {
    self.text = text
    self.position = position
    self.expected = expected
    self.message = message
  }

  public var description: String {
    message ?? "'\(text)' at character \(position + 1): expected \(expected)"
  }
}

/// Reads the fixed-width fields of ISO 8601 text.
struct TimeScanner {
  let characters: [Character]
  let text: String
  var position = 0

  init(_ text: String) {
    self.text = text
    self.characters = Array(text)
  }

  var isAtEnd: Bool { position == characters.count }

  func error(expected: String) -> TimeParseError {
    TimeParseError(text: text, position: position, expected: expected)
  }

  mutating func take(_ character: Character) -> Bool {
    guard position < characters.count, characters[position] == character else { return false }
    position += 1
    return true
  }

  mutating func digits(_ count: Int, _ what: String) throws(TimeParseError) -> Int {
    var value = 0
    for _ in 0..<count {
      guard position < characters.count, let digit = characters[position].wholeNumberValue,
        characters[position].isASCII
      else { throw error(expected: what) }
      value = value * 10 + digit
      position += 1
    }
    return value
  }

  mutating func date() throws(TimeParseError) -> LocalDate {
    let year = try digits(4, "a four-digit year (YYYY-MM-DD)")
    guard take("-") else { throw error(expected: "'-' after the year (YYYY-MM-DD)") }
    let month = try digits(2, "a two-digit month (YYYY-MM-DD)")
    guard take("-") else { throw error(expected: "'-' after the month (YYYY-MM-DD)") }
    let start = position
    let day = try digits(2, "a two-digit day (YYYY-MM-DD)")
    guard let date = LocalDate(year: year, month: month, day: day) else {
      throw TimeParseError(
        text: text, position: start, expected: "a day that exists in \(year)-\(LocalDate.pad(month, 2))")
    }
    return date
  }

  mutating func timeOfDay() throws(TimeParseError) -> Int {
    let start = position
    let hour = try digits(2, "a two-digit hour (HH:MM)")
    guard take(":") else { throw error(expected: "':' after the hour (HH:MM)") }
    let minute = try digits(2, "two-digit minutes (HH:MM)")
    var second = 0
    if take(":") {
      second = try digits(2, "two-digit seconds (HH:MM:SS)")
      if take(".") || take(",") {
        while position < characters.count, characters[position].isNumber { position += 1 }
      }
    }
    guard hour < 24, minute < 60, second < 60 else {
      throw TimeParseError(text: text, position: start, expected: "a time of day from 00:00 to 23:59:59")
    }
    return hour * 3600 + minute * 60 + second
  }

  /// `Z`, `+09:00`, `-0330`, `+05`: seconds east of UTC.
  mutating func offset() throws(TimeParseError) -> Int {
    if take("Z") || take("z") { return 0 }
    let sign: Int
    if take("+") {
      sign = 1
    } else if take("-") || take("−") {
      sign = -1
    } else {
      throw error(expected: "'Z' or an offset such as +09:00")
    }
    let start = position
    let hours = try digits(2, "a two-digit offset hour (+HH:MM)")
    var minutes = 0
    if take(":") {
      minutes = try digits(2, "two-digit offset minutes (+HH:MM)")
    } else if !isAtEnd {
      minutes = try digits(2, "two-digit offset minutes (+HHMM)")
    }
    guard hours <= 18, minutes < 60 else {
      throw TimeParseError(text: text, position: start, expected: "an offset within ±18:00")
    }
    return sign * (hours * 3600 + minutes * 60)
  }
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Instant {
  /// The system clock, to the second.
  public static func now() -> Instant {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Instant(secondsSinceEpoch: Int64(time.tv_sec))
  }
}
