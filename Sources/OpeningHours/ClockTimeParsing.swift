// The times of day of an `opening_hours` rule (`09:00-18:00`, `9am`, `sunset-01:00`, `18:00+`), read
// by `OpeningHoursParser`.

extension OpeningHoursParser {
  mutating func parseTimes(_ rule: inout Rule, after weekdays: Bool) throws(OpeningHoursParseError) {
    skipFromWord()
    guard startsTime(0) else { return }
    if index > 0, !token.spaceBefore, case .word = tokens[index - 1].kind {
      warn("missing-space", tokens[index - 1].range.upperBound..<token.range.lowerBound, "insert a space")
    }
    var missingComma = false
    while true {
      var previousEnd: Int?
      if case .clock(let m)? = rule.times.last?.end { previousEnd = m }
      let spanStart = token
      let span = try parseSpan(previousEnd: previousEnd)
      if missingComma, let last = rule.times.last, Self.overlap(last, span) {
        // `6.00-20.00 12.00-19.00 niedziela`: overlapping spans side by side are those of other days
        // (the second is Sunday's), not one day's two spans.
        throw error("';' between the hours of different days (the spans overlap)", at: spanStart)
      }
      missingComma = false
      rule.times.append(span)
      if case .comma = token.kind, startsTime(1) {
        advance()
        continue
      }
      if atAndWord(), startsTime(1) || peek().keyword?.isFromWord ?? false {
        warn("and-word", token.range, "write ',' between time spans")
        advance()
        skipFromWord()
        continue
      }
      if case .slash = token.kind, startsTime(1) {
        // `12h-15h / 18h-22h` (a repeat interval is read by `parseSpan`, so a slash here begins a span)
        warn("slash-between-times", token.range, "write ',' between time spans")
        advance()
        continue
      }
      if startsTime(0), sevenDaysLength() == 0 {
        if rule.times.last?.openEnd == true {
          // `08:30-12:30 + 14:00-17:00`: the '+' is more likely "and" than an open end.
          throw error("',' or ';' after an open end ('+')")
        }
        warn(
          "missing-comma", token.range.lowerBound..<token.range.lowerBound, "insert ',' between time spans")
        missingComma = true
        continue
      }
      return
    }
  }

  /// Whether two spans of clock times share a minute (an end at or before its start is on the next
  /// day: `10:00-00:00` runs to midnight).
  static func overlap(_ x: TimeSpan, _ y: TimeSpan) -> Bool {
    guard case .clock(let a) = x.start, case .clock(var b)? = x.end, case .clock(let c) = y.start,
      case .clock(var d)? = y.end
    else { return false }
    if b <= a { b += 1440 }
    if d <= c { d += 1440 }
    return c < b && a < d
  }

  /// Words after a range dash that mean the closing time is not known: `17:00-late`,
  /// `17:00-open end`, `bis Open End`.
  func openEndWordLength() -> Int {
    switch token.keyword {
    case .late, .openend: return 1
    case .open: return isWord(peek(), .end) ? 2 : 0
    default: return 0
    }
  }

  /// Whether the `/` at the current token is followed by a whole time span (`08h-12h/14h-18h`)
  /// rather than a repeat interval.
  func slashStartsSpan() -> Bool {
    var probe = self
    probe.advance()
    guard (try? probe.parseTime(isEnd: false)) != nil else { return false }
    return probe.atRangeDash()
  }

  mutating func parseSpan(previousEnd: Int?) throws(OpeningHoursParseError) -> TimeSpan {
    let startToken = token
    lastClockBare = false
    lastClockMeridiem = false
    let start = try parseTime(isEnd: false)
    let (startBare, startMeridiem) = (lastClockBare, lastClockMeridiem)
    if case .plus = token.kind {
      advance()
      return TimeSpan(start: start, end: nil, openEnd: true)
    }
    let dash = token
    guard takeRangeDash() else {
      throw error("'-' and a closing time after \(spanText(startToken))")
    }
    let words = openEndWordLength()
    if words > 0, !startBare {
      let end = peek(words - 1).range.upperBound
      for _ in 0..<words { advance() }
      warn(
        "open-end-word", dash.range.lowerBound..<end,
        "write '+' after the time for an open end, such as 17:00+")
      return TimeSpan(start: start, end: nil, openEnd: true)
    }
    if case .number(let v, let d) = token.kind, d == 3 || d == 4, Self.isCompactTime(v) {
      // `0900-1730`: the end of a compact range.
    } else {
      guard startsTime(0) else { throw error("a time such as 18:00 after '-'") }
    }
    lastClockBare = false
    lastClockMeridiem = false
    lastClockSingleDigit = false
    lastClockMidnightWord = false
    let end = try parseTime(isEnd: true)
    let (endBare, endMeridiem) = (lastClockBare, lastClockMeridiem)
    if lastClockMidnightWord, !startMeridiem, case .clock(let a) = start, a < 720, !writes24HourTimes() {
      // `10:00-midnight`, `5:00 - midnight`: from the morning, or from the evening (22:00, 17:00)?
      throw OpeningHoursParseError(
        text: text, position: startToken.range.lowerBound,
        expected: "am or pm on the start: \(spanText(startToken)) could start in the morning or the evening",
        found: spanText(startToken))
    }
    if endMeridiem, case .clock(let a) = start, case .clock(let b) = end, b == 720, a >= 720 {
      // `3PM-12PM`: 12pm is noon, so the span would run overnight to noon; midnight (12am) is meant.
      throw OpeningHoursParseError(
        text: text, position: startToken.range.lowerBound,
        expected: "12am for midnight: \(spanText(startToken)) would end at noon the next day",
        found: spanText(startToken))
    }
    if startMeridiem, !endMeridiem, !endBare, case .clock(let a) = start, case .clock(let b) = end, b < a,
      b >= 60, b < 720, b + 720 > a
    {
      // `7 pm - 10.30`: to 22:30 with the start's pm, or overnight to 10:30? (`9pm-2:00` can only
      // be a night: 14:00 would be before the start.)
      throw OpeningHoursParseError(
        text: text, position: startToken.range.lowerBound,
        expected:
          "am or pm on the end too: \(spanText(startToken)) could end in the evening or the next morning",
        found: spanText(startToken))
    }
    if lastClockSingleDigit, !startMeridiem, !startBare, case .clock(let a) = start, case .clock(let b) = end,
      b <= a, b >= 60, a < 13 * 60, !writes24HourTimes()
    {
      // `9:00-5:00`, `8:30 - 5:00`: 12-hour times without am/pm (09:00-17:00), or a night from 09:00
      // to 05:00? Not in question: an end written `05:00`, at `0:00`, a start after 12 (`22:00-2:00`),
      // or a value that writes other times after 12 (`9:00 - 23:00 … 9:00 - 1:00`).
      throw OpeningHoursParseError(
        text: text, position: startToken.range.lowerBound,
        expected: "am or pm: \(spanText(startToken)) could be 12-hour times or a span past midnight",
        found: spanText(startToken))
    }
    if startBare || endBare, case .clock(let a) = start, case .clock(let b) = end {
      // A bare hour is a 24-hour time unless the range could as well be 12-hour times.
      let ambiguous =
        (startBare && endMeridiem) || (endBare && startMeridiem) || (b <= a && a <= 720)
        || (startBare && (60...300).contains(a) && b <= 720) || (previousEnd.map { a < $0 } ?? false)
      if ambiguous {
        throw OpeningHoursParseError(
          text: text, position: startToken.range.lowerBound,
          expected:
            "times with minutes: \(spanText(startToken)) could be read as 24-hour or as 12-hour times",
          found: spanText(startToken))
      }
    }
    if !startMeridiem, endMeridiem, case .clock(let a) = start, case .clock(let b) = end, a < 720,
      a + 720 < b,
      b < 1440
    {
      // `5:30-10:30PM`, `7:00-10:00 PM`: the start as written (05:30) or with the end's pm (17:30)?
      // Both are opening hours someone keeps; `10:00-6pm` is not in question (22:00 is after 18:00),
      // nor is an end in the morning or at midnight (`09:00-12:00am`: with the end's am, 09:00).
      throw OpeningHoursParseError(
        text: text, position: startToken.range.lowerBound,
        expected:
          "am or pm on the start too: \(spanText(startToken)) could start in the morning or the evening",
        found: spanText(startToken))
    }
    var openEnd = false
    if case .plus = token.kind {
      advance()
      openEnd = true
    }
    if case .slash = token.kind, case .number = peek().kind, !slashStartsSpan() {
      // `10:00-16:00/01:30`: repeating points in time (collection times); the span counts as open.
      let slash = token
      advance()
      _ = try parseTime(isEnd: false, allowBareMinutes: true)
      warn(
        "interval-ignored", slash.range.lowerBound..<tokens[index - 1].range.upperBound,
        "a repeat interval is read as the whole span")
    }
    return TimeSpan(start: start, end: end, openEnd: openEnd)
  }

  /// Whether the value writes a time of day after 12:59 without am/pm (`23:00`, `19.30`): its
  /// author counts hours to 24.
  func writes24HourTimes() -> Bool {
    for k in tokens.indices.dropLast(2) {
      guard case .number(let hour, _) = tokens[k].kind, (13...24).contains(hour) else { continue }
      switch tokens[k + 1].kind {
      case .colon, .dot: if case .number(_, 2) = tokens[k + 2].kind { return true }
      default: break
      }
    }
    return false
  }

  /// The text at character offsets `range`.
  func textOf(_ range: Range<Int>) -> String {
    let chars = Array(text)
    guard range.lowerBound >= 0, range.upperBound <= chars.count else { return "" }
    return String(chars[range])
  }

  func spanText(_ t: Token) -> String {
    let chars = Array(text)
    let upper = tokens[max(index - 1, 0)].range.upperBound
    guard t.range.lowerBound < upper, upper <= chars.count else { return "the time" }
    return "'" + String(chars[t.range.lowerBound..<upper]) + "'"
  }

  mutating func parseTime(isEnd: Bool, allowBareMinutes: Bool = false) throws(OpeningHoursParseError)
    -> TimePoint
  {
    if let event = Self.sunEvent(of: token) {
      advance()
      return .sun(event, offsetMinutes: 0)
    }
    if case .leftParen = token.kind {
      advance()
      guard let event = Self.sunEvent(of: token) else {
        throw error("sunrise, sunset, dawn or dusk after '('")
      }
      advance()
      var sign = 0
      if case .plus = token.kind { sign = 1 } else if case .dash = token.kind { sign = -1 }
      guard sign != 0 else { throw error("'+' or '-' and an offset such as 01:00") }
      advance()
      guard case .number = token.kind else { throw error("an offset such as 01:00") }
      let offset = try parseClock(isEnd: false)
      guard case .rightParen = token.kind else { throw error("')'") }
      advance()
      return .sun(event, offsetMinutes: sign * offset)
    }
    if allowBareMinutes, case .number(let v, _) = token.kind, peek().kind != .colon {
      advance()
      return .clock(minutes: v)
    }
    // `noon`, `12noon`, `12 noon`, `midnight`, `12 midnight`: said of one time each.
    var word = token
    if case .number(12, _) = token.kind, let k = peek().keyword, k == .noon || k == .midnight {
      word = peek()
    }
    if let k = word.keyword, k == .noon || k == .midnight {
      let start = token.range.lowerBound
      if word != token { advance() }
      advance()
      let minutes = k == .noon ? 720 : (isEnd ? 1440 : 0)
      warn(
        "time-word", start..<word.range.upperBound,
        "write \(k == .noon ? "12:00" : isEnd ? "24:00" : "00:00") for '\(textOf(start..<word.range.upperBound))'"
      )
      lastClockBare = false
      lastClockMeridiem = true
      lastClockMidnightWord = k == .midnight
      return .clock(minutes: minutes)
    }
    return .clock(minutes: try parseClock(isEnd: isEnd))
  }

  /// `18:00`, tolerant: `8:00`, `8.00`, `8h`, `8h30`, `9am`, `9:30 PM`, `09:00h`.
  mutating func parseClock(isEnd: Bool) throws(OpeningHoursParseError) -> Int {
    let hourToken = token
    if case .number(let v, let d) = token.kind, d == 3 || d == 4, Self.isCompactTime(v) {
      warn("compact-time", token.range, "write times with ':', such as 09:00")
      advance()
      return v / 100 * 60 + v % 100
    }
    guard case .number(let hour, let hourDigits) = token.kind, hourDigits <= 2 else {
      throw error("a time such as \(isEnd ? "18:00" : "09:00")")
    }
    advance()
    var minute: Int?
    var usedH = false
    switch token.kind {
    case .colon:
      advance()
      guard case .number(let m, let d) = token.kind, d == 2 else {
        throw error("two digits of minutes after ':'")
      }
      minute = m
      advance()
    case .dot:
      if case .number(let m, let d) = peek().kind, d == 2, !peek().spaceBefore {
        warn("dot-time-separator", token.range, "write ':' between hours and minutes")
        advance()
        minute = m
        advance()
      }
    case .word where token.keyword == .h && !token.spaceBefore:
      usedH = true
      advance()
      if case .number(let m, let d) = token.kind, d == 2, !token.spaceBefore {
        minute = m
        advance()
      }
    default: break
    }
    if !usedH, token.keyword?.isHourSuffix ?? false {
      usedH = true
      advance()
      if case .dot = token.kind, !token.spaceBefore { advance() }
    }
    // am / pm, a.m. / p.m.
    var meridiem: Int?  // 0 am, 12 pm
    let meridiemStart = token.range.lowerBound
    if let w = token.keyword, w == .am || w == .pm {
      meridiem = w == .am ? 0 : 12
      advance()
      if case .dot = token.kind, !token.spaceBefore { advance() }
    } else if let w = token.keyword, w == .a || w == .p, case .dot = peek().kind,
      isWord(peek(2), .m)
    {
      meridiem = w == .a ? 0 : 12
      advance()
      advance()
      advance()
      if case .dot = token.kind, !token.spaceBefore { advance() }
    }
    let endOffset = tokens[max(index - 1, 0)].range.upperBound
    lastClockBare = false
    lastClockMeridiem = meridiem != nil
    lastClockSingleDigit = hourDigits == 1 && meridiem == nil && !usedH
    if let meridiem {
      guard (1...12).contains(hour) else {
        throw OpeningHoursParseError(
          text: text, position: hourToken.range.lowerBound, expected: "an hour from 1 to 12 before am/pm",
          found: describe(hourToken))
      }
      warn("am-pm", hourToken.range.lowerBound..<endOffset, "write 24-hour times such as 17:00")
      _ = meridiemStart
      var h = hour % 12 + meridiem
      // `12am` as a closing time is midnight at the end of the day.
      if isEnd, h == 0, (minute ?? 0) == 0 { h = 24 }
      return h * 60 + (minute ?? 0)
    }
    if usedH {
      warn("hour-suffix", hourToken.range.lowerBound..<endOffset, "write times as 17:00, without 'h'")
    } else if minute == nil {
      // `10-12`, `Mo 7-18`: an hour alone, as either end of a range (`parseSpan` refuses the ranges
      // that could also be read as 12-hour times).
      guard isEnd || atRangeDash() else {
        throw OpeningHoursParseError(
          text: text, position: hourToken.range.upperBound,
          expected: "':' and two digits of minutes after the hour",
          found: describe(token))
      }
      lastClockBare = true
      warn("bare-hour", hourToken.range, "write hours with minutes, such as \(LocalDate.pad(hour, 2)):00")
    }
    if hourDigits == 1, !usedH, !lastClockBare {
      warn("single-digit-hour", hourToken.range, "write hours with two digits, such as 08:00")
    }
    let m = minute ?? 0
    guard m < 60 else {
      throw OpeningHoursParseError(
        text: text, position: hourToken.range.lowerBound, expected: "minutes from 00 to 59",
        found: describe(tokens[index - 1]))
    }
    guard hour * 60 + m <= 48 * 60 else {
      throw OpeningHoursParseError(
        text: text, position: hourToken.range.lowerBound, expected: "a time no later than 48:00",
        found: describe(hourToken))
    }
    return hour * 60 + m
  }
}
