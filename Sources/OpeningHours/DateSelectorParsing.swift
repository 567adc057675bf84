// Years, dates, months and weeks of an `opening_hours` rule (the wide-range selectors), read by
// `OpeningHoursParser`.

extension OpeningHoursParser {
  /// Dates or weeks after the weekdays or times (`Mo-Su week 05 Feb`), when the rule has none yet.
  /// Years are not read here: `Mo 1900-2000` is a compact time range.
  mutating func parseLateWideRange(_ rule: inout Rule) throws(OpeningHoursParseError) -> Bool {
    guard rule.years.isEmpty, rule.monthdays.isEmpty, rule.weeks.isEmpty,
      startsDatePoint(0) && !isYear(token) || isWord(token, .week) && isNumberToken(peek())
    else { return false }
    let start = token.range.lowerBound
    try parseWideRange(&rule)
    warn(
      "selector-order", start..<tokens[index - 1].range.upperBound,
      "write years, dates and weeks first, then weekdays, then times")
    return true
  }

  func isNumberToken(_ t: Token) -> Bool {
    if case .number = t.kind { return true }
    return false
  }

  mutating func parseWideRange(_ rule: inout Rule) throws(OpeningHoursParseError) {
    var any = false
    if isYear(token), !startsDatePoint(0) {
      rule.years = try parseYears()
      any = true
    }
    if startsDatePoint(0) {
      rule.monthdays = try parseMonthdays()
      any = true
      if case .colon = token.kind, isWord(peek(), .week) {
        // `Jan 11-Jan 11: week 02: 00:00-24:00`: one colon, after the last wide-range selector.
        warn("stray-colon", token.range, "one ':' after the dates and weeks")
        advance()
      }
    }
    if isWord(token, .week) {
      _ = takeKeyword(.week)
      rule.weeks = try parseWeeks()
      any = true
      if rule.monthdays.isEmpty, startsDatePoint(0), !isYear(token) {
        // `week 05 Feb`: the month after the weeks.
        let start = token.range.lowerBound
        rule.monthdays = try parseMonthdays()
        warn("selector-order", start..<tokens[index - 1].range.upperBound, "write dates before weeks")
      }
    }
    if any, case .colon = token.kind { advance() }
  }

  mutating func parseNumber(_ range: ClosedRange<Int>, _ what: String) throws(OpeningHoursParseError) -> Int {
    guard case .number(let v, _) = token.kind, range.contains(v) else { throw error(what) }
    advance()
    return v
  }

  mutating func parseYears() throws(OpeningHoursParseError) -> [YearRange] {
    var result: [YearRange] = []
    while true {
      let from = try parseNumber(1900...9999, "a year such as 2026")
      var item = YearRange(from: from, to: from, step: 1, openEnded: false)
      if case .plus = token.kind {
        advance()
        item.to = nil
        item.openEnded = true
      } else if case .slash = token.kind, case .number = peek().kind {
        // `2055/2` (opening_hours.js): 2055, 2057, … with no end.
        advance()
        item.step = try parseNumber(1...9999, "a number of years after '/'")
        item.to = nil
        item.openEnded = true
      } else if atRangeDash(), isYear(peek()) {
        _ = takeRangeDash()
        let to = try parseNumber(from...9999, "a year not before \(from)")
        item.to = to
        if case .slash = token.kind {
          advance()
          item.step = try parseNumber(1...9999, "a number of years after '/'")
        }
      }
      result.append(item)
      if case .comma = token.kind, isYear(peek()), !startsDatePoint(1) {
        advance()
        continue
      }
      return result
    }
  }

  mutating func parseWeeks() throws(OpeningHoursParseError) -> [WeekRange] {
    var result: [WeekRange] = []
    while true {
      let from = try parseNumber(1...53, "a week number from 1 to 53")
      var item = WeekRange(from: from, to: from, step: 1)
      if atRangeDash() {
        _ = takeRangeDash()
        item.to = try parseNumber(1...53, "a week number from 1 to 53 after '-'")
        if case .slash = token.kind {
          advance()
          item.step = try parseNumber(1...53, "a number of weeks after '/'")
        }
      }
      result.append(item)
      // `week 01,03: 10:00-12:00`: a colon after the next number is the wide-range colon unless a
      // number follows it directly, as the minutes of a time (`week 01,03:00-…` is not a week list).
      if case .comma = token.kind, case .number(_, let d) = peek().kind, d <= 2, !startsClockAt(2) {
        advance()
        continue
      }
      return result
    }
  }

  /// Whether token `k` is a colon directly followed by a number (the minutes of `03:00`).
  func startsClockAt(_ k: Int) -> Bool {
    guard case .colon = peek(k).kind, case .number = peek(k + 1).kind else { return false }
    return !peek(k + 1).spaceBefore
  }

  /// `+2 days`, `-1 day` (only when a number and `day(s)` follow the sign).
  mutating func parseDayOffset() -> Int {
    var sign = 0
    if case .plus = token.kind { sign = 1 } else if case .dash = token.kind { sign = -1 }
    guard sign != 0, case .number(let v, let digits) = peek().kind, let w = peek(2).keyword,
      w == .day || w == .days
    else { return 0 }
    let start = token.range.lowerBound
    let end = peek(2).range.upperBound
    advance()
    advance()
    _ = takeKeyword(w)
    // The lexer keeps nine digits of a number; a longer offset would silently mean another one.
    if digits > 9 || v > 366 {
      warn(
        "large-day-offset", start..<end,
        "a day offset of \(digits > 9 ? "\(digits) digits" : "\(v) days") moves the date by more than a year, "
          + "so the rule is unlikely to mean what it says; it is read as \(sign * v) days")
    }
    return sign * v
  }

  /// A day of the month after a month name: a number that is not the hour of a time (`Jan 10:00`).
  func atDayOfMonth() -> Bool {
    // `Nov-Feb 00-24`: there is no day 0, so `00` is an hour.
    guard case .number(let value, let digits) = token.kind, digits <= 2, value > 0 else { return false }
    switch peek().kind {
    case .colon:
      if case .number = peek(2).kind, !peek(2).spaceBefore, !dayBeforeColonTime(0) { return false }
    case .dot: if case .number = peek(2).kind { return false }
    case .word: if let k = peek().keyword, k == .am || k == .pm || k == .h { return false }
    default: break
    }
    return true
  }

  /// `Jun01:10:00-12:00`, `May15-01:10:00` (opening-hours-rs): a day number at token `k`, glued to
  /// what comes before it, then `:HH:MM` with no space. A time has no seconds, so the number is a
  /// day of the month and the colon the wide-range colon (`Jun 01: 10:00-12:00`).
  func dayBeforeColonTime(_ k: Int) -> Bool {
    guard case .number(_, let digits) = peek(k).kind, digits <= 2, !peek(k).spaceBefore,
      case .colon = peek(k + 1).kind, !peek(k + 1).spaceBefore,
      case .number(_, 2) = peek(k + 2).kind, !peek(k + 2).spaceBefore,
      case .colon = peek(k + 3).kind, !peek(k + 3).spaceBefore,
      case .number(_, 2) = peek(k + 4).kind, !peek(k + 4).spaceBefore
    else { return false }
    return true
  }

  /// A day of the month of `month` (1…31), after a month name or a range dash, with its German
  /// dot (`Dec 24.`) and rs's wide-range colon (`Jun01:10:00`) noted. `isEnd`: the end of a range,
  /// where a day past the month's end (`Feb 31`, `Apr 31`) is read as its last day (`Feb 29`,
  /// which is Feb 28 in a common year), as opening-hours-rs reads it.
  mutating func parseDayOfMonth(_ month: Int, isEnd: Bool) throws(OpeningHoursParseError) -> Int {
    let dayToken = token
    let written = try parseNumber(1...31, "a day of the month from 1 to 31")
    var day = written
    let last = LocalDate.daysIn(month: month, year: 2000)
    let name = Self.monthCanonical[month - 1]
    if day > last {
      guard isEnd else { throw error("a day that exists in \(name)", at: dayToken) }
      warn(
        "day-past-month-end", dayToken.range,
        "\(name) has no day \(day): read as its last day (write '\(name) \(last)')")
      day = last
    }
    if case .dot = token.kind, !token.spaceBefore, !isNumberToken(peek()) {
      warn("dotted-day", token.range, "write the day without a dot: '\(name) \(LocalDate.pad(day, 2))'")
      advance()
    } else if dayBeforeColonTime(-1) {
      warn(
        "compact-date", token.range,
        "'\(LocalDate.pad(written, 2)):' is the day and the wide-range colon, not a time: "
          + "write a space after ':'")
    }
    return day
  }

  /// `/8` after a date range (`Jan 01-31/8`): every 8th day from its first; 1 when there is none.
  /// Not `7/7` (every day: `may-oct 7/7` is no range to Oct 7 with a step of 7).
  mutating func parseDateStep() throws(OpeningHoursParseError) -> Int {
    guard case .slash = token.kind, case .number = peek().kind, !startsClockAt(2) else { return 1 }
    if case .number(7, 1) = peek(-1).kind, case .number(7, 1) = peek().kind { return 1 }
    advance()
    return try parseNumber(1...366, "a number of days from 1 to 366 after '/'")
  }

  /// A month, or a date: `[year] Mon [day | Su[-1]]`, `[year] easter`, plus a day offset.
  /// Returns (year, month, point) where point is nil when only a month was given.
  /// `allowNth`: read `Mon Su[-1]` as a date (the last Sunday of the month) rather than leaving
  /// `Su[-1]` to the weekday selector; see `nthDateFollowsAsRangeStart()`.
  mutating func parseDateOrMonth(
    allowNth: Bool = true, isEnd: Bool = false
  ) throws(OpeningHoursParseError) -> (year: Int?, month: Int, point: DatePoint?) {
    var year: Int?
    if isYear(token), startsDatePoint(0) {
      year = try parseNumber(1900...9999, "a year")
    }
    if isWord(token, .easter) {
      _ = takeKeyword(.easter)
      var point = DatePoint(year: year, anchor: .easter, offsetDays: 0)
      point.offsetDays = parseDayOffset()
      return (year, 0, point)
    }
    guard let month = takeMonth() else { throw error("a month such as Jan") }
    if case .dot = token.kind, !token.spaceBefore { advance() }
    if atDayOfMonth() {
      let day = try parseDayOfMonth(month, isEnd: isEnd)
      var point = DatePoint(year: year, anchor: .fixed(month: month, day: day), offsetDays: 0)
      point.offsetDays = parseDayOffset()
      return (year, month, point)
    }
    if allowNth, Self.weekday(of: token) != nil, case .leftBracket = peek().kind {
      let weekday = takeWeekday()!
      advance()
      var sign = 1
      if case .dash = token.kind {
        sign = -1
        advance()
      }
      let nth = try parseNumber(1...5, "a number from 1 to 5 inside '[ ]'") * sign
      guard case .rightBracket = token.kind else { throw error("']'") }
      advance()
      var point = DatePoint(
        year: year, anchor: .nthWeekday(month: month, weekday: weekday, nth: nth), offsetDays: 0)
      point.offsetDays = parseDayOffset()
      return (year, month, point)
    }
    return (year, month, nil)
  }

  mutating func parseMonthdays() throws(OpeningHoursParseError) -> [MonthdayRange] {
    var result: [MonthdayRange] = []
    while true {
      let first = try parseDateOrMonth(allowNth: nthDateStartsRange())
      if atRangeDash(), startsDatePoint(1) || (first.point != nil && peekIsDayNumber(1)) {
        _ = takeRangeDash()
        if let fromPoint = first.point, peekIsDayNumber(0) {
          // `Apr 10-16`: a day in the same month; `Jan Mo[1]-15`: the 15th of the nth weekday's
          // month (an empty range in a year when that weekday comes after it).
          let month: Int
          var startDay = 0
          switch fromPoint.anchor {
          case .fixed(let m, let d): (month, startDay) = (m, d)
          case .nthWeekday(let m, _, _): month = m
          case .easter: throw error("a date after '-'")
          }
          let dayToken = token
          let day = try parseDayOfMonth(month, isEnd: true)
          var to = DatePoint(year: fromPoint.year, anchor: .fixed(month: month, day: day), offsetDays: 0)
          if day < startDay {
            // `May 15-01` (opening-hours-rs): to the 1st of the next month, not the year round.
            let next = month % 12 + 1
            guard day <= LocalDate.daysIn(month: next, year: 2000) else {
              throw error("a day that exists in \(Self.monthCanonical[next - 1])", at: dayToken)
            }
            let year = month == 12 ? fromPoint.year.map { $0 + 1 } : fromPoint.year
            to = DatePoint(year: year, anchor: .fixed(month: next, day: day), offsetDays: 0)
            warn(
              "day-range-into-next-month", dayToken.range,
              "read as a day of the next month: write "
                + "'\(Self.monthCanonical[next - 1]) \(LocalDate.pad(day, 2))'")
          }
          to.offsetDays = parseDayOffset()
          result.append(.dates(from: fromPoint, to: to, step: try parseDateStep()))
        } else {
          // `Apr-Oct Su[2]`: after a month, `Su[2]` is the weekday selector; after a date
          // (`Mar Su[-1]-Dec Su[1]`), a date.
          let second = try parseDateOrMonth(allowNth: first.point != nil, isEnd: true)
          switch (first.point, second.point) {
          case (nil, nil):
            result.append(
              .months(fromYear: first.year, from: first.month, toYear: second.year, to: second.month))
          case (let a?, let b?):
            result.append(.dates(from: a, to: b, step: try parseDateStep()))
          case (nil, let b?):
            let a = DatePoint(year: first.year, anchor: .fixed(month: first.month, day: 1), offsetDays: 0)
            result.append(.dates(from: a, to: b, step: try parseDateStep()))
          case (let a?, nil):
            let last = LocalDate.daysIn(month: second.month, year: second.year ?? 2001)
            let b = DatePoint(
              year: second.year, anchor: .fixed(month: second.month, day: last), offsetDays: 0)
            result.append(.dates(from: a, to: b, step: try parseDateStep()))
          }
        }
      } else if let point = first.point, case .plus = token.kind {
        // `Dec 25+`: from that date to the end of its year; `2026 Dec 25+`: from that day on.
        let plus = token
        advance()
        let end = DatePoint(
          year: point.year.map { _ in 9999 }, anchor: .fixed(month: 12, day: 31), offsetDays: 0)
        warn(
          "open-ended-date", plus.range,
          point.year == nil
            ? "read as the date to the end of its year (write 'Dec 25-Dec 31')"
            : "read as from that date on, with no end")
        result.append(.dates(from: point, to: end))
      } else if let point = first.point {
        result.append(.dates(from: point, to: nil))
      } else {
        result.append(.months(fromYear: first.year, from: first.month, toYear: first.year, to: first.month))
      }
      if case .comma = token.kind, startsDatePoint(1) {
        advance()
        continue
      }
      // `Dec 24,25`, `Dec 11,15-17`: more days of the month of the last date.
      while case .comma = token.kind, !peek().spaceBefore, peekIsDayNumber(1),
        case .dates(_, let last, _)? = result.last,
        case .fixed(let month, _)? = (last ?? lastFrom(result)).map({ $0.anchor }),
        (last ?? lastFrom(result))?.offsetDays == 0
      {
        let comma = token
        advance()
        let year = (last ?? lastFrom(result))?.year
        let day = try parseDayOfMonth(month, isEnd: false)
        let from = DatePoint(year: year, anchor: .fixed(month: month, day: day), offsetDays: 0)
        var to: DatePoint?
        var step = 1
        if atRangeDash(), peekIsDayNumber(1) {
          _ = takeRangeDash()
          let endToken = token
          let endDay = try parseDayOfMonth(month, isEnd: true)
          guard endDay >= day else { throw error("a day of the month from \(day) to 31", at: endToken) }
          to = DatePoint(year: year, anchor: .fixed(month: month, day: endDay), offsetDays: 0)
          // `Dec 19-23/2` in the list `Dec 11,15-17,19-23/2`.
          step = try parseDateStep()
        }
        warn(
          "monthday-list", comma.range.lowerBound..<tokens[index - 1].range.upperBound,
          "write the month before each day: \(Self.monthCanonical[month - 1]) \(LocalDate.pad(day, 2))")
        result.append(.dates(from: from, to: to, step: step))
      }
      if case .comma = token.kind, startsDatePoint(1) {
        advance()
        continue
      }
      return result
    }
  }

  /// The start of the last date item when it has no end (`Dec 24` in `Dec 24,25`).
  func lastFrom(_ items: [MonthdayRange]) -> DatePoint? {
    if case .dates(let from, nil, _)? = items.last { return from }
    return nil
  }

  /// Whether `[year] Mon We[n] [±k day(s)] -` follows: a variable date that starts a date range
  /// (`Mar Su[-1]-Sep 30`). Otherwise `Mar Su[-1]` is a month and a weekday selector, which
  /// means the same for a single month.
  func nthDateStartsRange() -> Bool {
    var k = 0
    if isYear(peek(k)) { k += 1 }
    guard Self.month(of: peek(k)) != nil, Self.weekday(of: peek(k + 1)) != nil,
      case .leftBracket = peek(k + 2).kind
    else { return false }
    k += 3
    while true {
      switch peek(k).kind {
      case .rightBracket: k += 1
      case .end: return false
      default:
        k += 1
        continue
      }
      break
    }
    if case .plus = peek(k).kind, let w = peek(k + 2).keyword, w == .day || w == .days { k += 3 }
    if case .dash = peek(k).kind, case .number = peek(k + 1).kind, let w = peek(k + 2).keyword,
      w == .day || w == .days
    {
      k += 3
    }
    if case .dash = peek(k).kind { return true }
    return peek(k).keyword?.isRangeWord ?? false
  }

  func peekIsDayNumber(_ k: Int) -> Bool {
    guard case .number(_, let digits) = peek(k).kind, digits <= 2 else { return false }
    if case .colon = peek(k + 1).kind, case .number = peek(k + 2).kind, !peek(k + 2).spaceBefore,
      !dayBeforeColonTime(k)
    {
      return false
    }
    return true
  }
}
