// Weekdays, holidays and their phrases in an `opening_hours` rule, read by `OpeningHoursParser`.

extension OpeningHoursParser {
  mutating func parseWeekdaySelector(_ rule: inout Rule) throws(OpeningHoursParseError) {
    guard startsWeekdaySelector(token) || sevenDaysLength() > 0 || holidayPhrase(at: 0) != nil else { return }
    if index > 0, !token.spaceBefore, case .number = tokens[index - 1].kind {
      warn("missing-space", tokens[index - 1].range.upperBound..<token.range.lowerBound, "insert a space")
    }
    var selector = WeekdaySelector(weekdays: [], holidays: [], intersect: false)
    let listStart = token
    spaceJoinedWeekdays = false
    ambiguousWeekdayJoin = nil
    try parseWeekdayList(&selector)
    if case .colon = token.kind,
      selector.weekdays.isEmpty && Self.weekday(of: peek()) != nil
        || selector.holidays.isEmpty && startsHoliday(1)
    {
      // `PH: We,Fr`, `We,Fr: PH`: as with a space, a holiday on those weekdays.
      warn("stray-colon", token.range, "no ':' between holidays and weekdays")
      advance()
    }
    let next = token
    if let join = ambiguousWeekdayJoin, selector.weekdays.count == 2 {
      throw error("',' or '-' between the weekdays", at: join)
    }
    if spaceJoinedWeekdays {
      if startsHoliday(0) {
        // `Sa Su PH 10:00-16:00`: the holidays in the list, or the holidays on those days?
        throw error(
          "',' before the holidays (or the holidays first: 'PH Sa,Su' is a holiday on those days)", at: next)
      }
      var seen = Set<Int>()
      for item in selector.weekdays where item.nth.isEmpty {
        var day = item.from
        while true {
          if !seen.insert(day).inserted {
            // `Mo-Th Mo 08:00-12:30`, `Fr Mo-Fr 09:00-13:00`: a day named twice is not a list.
            throw error("weekdays named once, with ',' between them", at: listStart)
          }
          if day == item.to { break }
          day = (day + 1) % 7
        }
      }
    }
    if selector.weekdays.isEmpty, Self.weekday(of: next) != nil {
      // `PH Su`, `SH Mo-Fr`: holidays that fall on these weekdays.
      var days = WeekdaySelector(weekdays: [], holidays: [], intersect: false)
      try parseWeekdayList(&days)
      if !days.holidays.isEmpty { throw error("a weekday such as Mo", at: next) }
      if spaceJoinedWeekdays {
        // `PH Fr Su off`: spaces between all three: the holidays in the list, or on those days?
        throw error(
          "',' after the holidays (or ',' between the weekdays: 'PH Fr,Su' is a holiday on those days)",
          at: next)
      }
      selector.weekdays = days.weekdays
      selector.intersect = true
    } else if selector.holidays.isEmpty, holidayPhrase(at: 0) != nil {
      // `Sunday Holiday`: Sunday is the day off, or holidays on a Sunday?
      throw error(
        "',' between the weekdays and the holidays, or 'PH' first for holidays on those days", at: next)
    } else if selector.holidays.isEmpty, startsHoliday(0) {
      var holidays = WeekdaySelector(weekdays: [], holidays: [], intersect: false)
      try parseWeekdayList(&holidays)
      if !holidays.weekdays.isEmpty { throw error("'PH' or 'SH'", at: next) }
      warn(
        "weekday-before-holiday", next.range,
        "write holidays first ('PH Su' means a public holiday on a Sunday; 'Su,PH' means either)")
      selector.holidays = holidays.holidays
      selector.intersect = true
    }
    rule.weekdays = selector
  }

  mutating func parseWeekdayList(_ selector: inout WeekdaySelector) throws(OpeningHoursParseError) {
    while true {
      let length = everyDayPhraseLength()
      if let k = token.keyword, let (from, to) = k.weekdayGroup {
        warn(
          "weekday-group-word", token.range,
          "write '\(Self.weekdayCanonical[from])-\(Self.weekdayCanonical[to])' for '\(k.rawValue)'")
        advance()
        everyDayWordUsed = true
        selector.weekdays.append(WeekdayRange(from: from, to: to, nth: [], offsetDays: 0))
      } else if length > 0 {
        let start = token.range.lowerBound
        let end = peek(length - 1).range.upperBound
        let words = String(Array(text)[start..<end])
        for _ in 0..<length { advance() }
        warn("every-day-word", start..<end, "write 'Mo-Su' for '\(words)'")
        everyDayWordUsed = true
        selector.weekdays.append(WeekdayRange(from: 0, to: 6, nth: [], offsetDays: 0))
      } else if let phrase = holidayPhrase(at: 0) {
        let start = token.range.lowerBound
        let end = peek(phrase.length - 1).range.upperBound
        let words = String(Array(text)[start..<end])
        for _ in 0..<phrase.length { advance() }
        let canonical = phrase.offsetDays == 0 ? "PH" : "PH \(phrase.offsetDays > 0 ? "+" : "-")1 day"
        warn("holiday-word", start..<end, "write '\(canonical)' for '\(words)'")
        selector.holidays.append(HolidaySelector(kind: .publicHoliday, offsetDays: phrase.offsetDays))
      } else if let kind = Self.holiday(of: token) {
        _ = takeKeyword(kind == .publicHoliday ? .ph : .sh, kind == .publicHoliday ? "PH" : "SH")
        selector.holidays.append(HolidaySelector(kind: kind, offsetDays: parseDayOffset()))
      } else if let from = takeWeekday() {
        var item = WeekdayRange(from: from, to: from, nth: [], offsetDays: 0)
        if case .dot = token.kind, !token.spaceBefore { advance() }  // `Mon.`
        if atRangeDash(), Self.weekday(of: peek()) != nil {
          _ = takeRangeDash()
          let toToken = token
          item.to = takeWeekday()!
          if item.to == item.from, toToken.localized != nil {
            // `domingo a domingo` is said for every day of the week.
            throw error("a range between two different weekdays", at: toToken)
          }
          if case .dot = token.kind, !token.spaceBefore { advance() }
        } else if atRangeDash(), !startsTime(1), !isKind(peek(), .end) {
          _ = takeRangeDash()
          throw error("a weekday such as Fr after '-'")
        }
        if case .leftBracket = token.kind {
          advance()
          item.nth = try parseNthList()
        }
        item.offsetDays = parseDayOffset()
        selector.weekdays.append(item)
      } else {
        throw error("a weekday such as Mo, or PH")
      }
      if index == weekdayListStop { return }
      if case .word = token.kind, token.spaceBefore, let next = Self.weekday(of: token),
        let last = selector.weekdays.last, index > 0, Self.weekday(of: tokens[index - 1]) != nil
      {
        // `Mo-We Fr 10:00-18:00`, `Sa Su 10:00-16:00`: a space between weekdays. Read as a list only
        // where a range would not be meant: either side is a range, or the days are neighbours.
        let nextIsRange = atRangeDash(1) && Self.weekday(of: peek(2)) != nil
        if last.from == last.to, !nextIsRange, next != (last.to + 1) % 7, ambiguousWeekdayJoin == nil {
          // `Mo Fr 10:00-15:00`: Monday and Friday, or Monday to Friday? (A third day makes it a list.)
          ambiguousWeekdayJoin = token
        }
        noteWeekdayListBreak()
        warn("missing-comma", token.range.lowerBound..<token.range.lowerBound, "insert ',' between weekdays")
        spaceJoinedWeekdays = true
        continue
      }
      if case .comma = token.kind, startsWeekdaySelector(peek()) {
        noteWeekdayListBreak()
        advance()
        continue
      }
      if atAndWord(), startsWeekdaySelector(peek()) {
        noteWeekdayListBreak()
        warn("and-word", token.range, "write ',' between weekdays")
        advance()
        continue
      }
      return
    }
  }

  mutating func noteWeekdayListBreak() {
    if weekdayListBreakCount == 0 { firstWeekdayListBreak = index }
    weekdayListBreakCount += 1
  }

  mutating func parseNthList() throws(OpeningHoursParseError) -> [Int] {
    var result: [Int] = []
    while true {
      var sign = 1
      if case .dash = token.kind {
        sign = -1
        advance()
      }
      let a = try parseNumber(1...5, "a number from 1 to 5 (or -1 to -5) inside '[ ]'") * sign
      if sign > 0, atRangeDash(), case .number = peek().kind {
        _ = takeRangeDash()
        let b = try parseNumber(a...5, "a number from \(a) to 5 after '-'")
        result.append(contentsOf: a...b)
      } else {
        result.append(a)
      }
      if case .comma = token.kind {
        advance()
        continue
      }
      guard case .rightBracket = token.kind else { throw error("']' to close the '['") }
      advance()
      return result
    }
  }
}
