import Testing

@testable import OpeningHours

/// Date selectors the reference engines read (issue 13): day ranges with a step, a year with a
/// step and no end, opening-hours-rs's compact dates, an nth weekday to a bare day, dotted days.
/// Expected answers are worked out by hand from the calendar, or are those of an equivalent strict
/// spelling parsed by our own parser (`Jan 01-31/8` is `Jan 01,Jan 09,Jan 17,Jan 25`).
@Suite("Date selectors")
struct DateSelectorTests {
  typealias F = Fixture

  func state(_ s: Schedule, _ y: Int, _ m: Int, _ d: Int, _ h: Int = 12) -> OpeningState {
    s.status(at: F.at(y, m, d, h)).state
  }

  /// Two spellings that must mean the same: the same state at 00:30 and 12:00 of every day of
  /// `years`, and the same next change from the midnight of the 1st, 10th and 20th of each month.
  func expectSameDays(_ text: String, _ equivalent: String, years: ClosedRange<Int> = 2026...2028) throws {
    let a = try F.schedule(text)
    let b = try F.schedule(equivalent)
    let first = LocalDate(year: years.lowerBound, month: 1, day: 1)!.daysSinceEpoch
    let last = LocalDate(year: years.upperBound, month: 12, day: 31)!.daysSinceEpoch
    for day in first...last {
      let date = LocalDate(daysSinceEpoch: day)
      for hour in [0, 12] {
        let t = F.at(date.year, date.month, date.day, hour, 30)
        #expect(a.status(at: t) == b.status(at: t), "\(text) vs \(equivalent) on \(date) \(hour):30")
      }
      guard [1, 10, 20].contains(date.day) else { continue }
      let midnight = F.at(date.year, date.month, date.day)
      #expect(
        a.nextChange(after: midnight) == b.nextChange(after: midnight),
        "next change after \(date): \(text) vs \(equivalent)")
    }
  }

  /// The normalized form of `text` parses without warnings, to the same rules.
  func expectCanonical(_ text: String, _ normalized: String) throws {
    let hours = try OpeningHours(parsing: text)
    #expect(hours.normalized == normalized)
    let again = try OpeningHours(parsing: hours.normalized)
    #expect(again.warnings.isEmpty, "\(normalized): \(again.warnings)")
    #expect(try rulesIgnoringRanges(normalized) == rulesIgnoringRanges(text))
  }

  // MARK: - Day ranges with a step

  @Test("a day range with a step is every nth day from its first, the strict form, no warning")
  func dayRangeStep() throws {
    #expect(try OpeningHours(parsing: "Jan 01-31/8").warnings.isEmpty)
    try expectSameDays("Jan 01-31/8", "Jan 01,Jan 09,Jan 17,Jan 25")
    try expectSameDays("Jan 10-31/7", "Jan 10,Jan 17,Jan 24,Jan 31")
    try expectSameDays("Jan 01-31/8 10:00-12:00", "Jan 01,Jan 09,Jan 17,Jan 25 10:00-12:00")
    // Over the year end, counted in days from Dec 30.
    try expectSameDays("Dec 30-Jan 03/2", "Dec 30,Jan 01,Jan 03")
    // A step of 1 is the plain range.
    #expect(try rulesIgnoringRanges("Jan 01-31/1") == rulesIgnoringRanges("Jan 01-31"))
    try expectCanonical("Jan 01-31/8", "Jan 01-31/8")
    try expectCanonical("Jan 01-31/1", "Jan 01-31")
    try expectCanonical("Dec 30-Jan 03/2", "Dec 30-Jan 03/2")
  }

  @Test("by hand: Jan 01-31/8 opens Jan 1, 9, 17, 25 and the next change is exact")
  func dayRangeStepByHand() throws {
    let s = try F.schedule("Jan 01-31/8")
    for day in 1...31 {
      #expect(state(s, 2026, 1, day) == ([1, 9, 17, 25].contains(day) ? .open : .closed), "Jan \(day)")
    }
    #expect(s.nextChange(after: F.at(2026, 1, 1, 12)) == F.at(2026, 1, 2))
    #expect(s.nextChange(after: F.at(2026, 1, 2)) == F.at(2026, 1, 9))
    #expect(s.nextChange(after: F.at(2026, 1, 25, 12)) == F.at(2026, 1, 26))
    #expect(s.nextChange(after: F.at(2026, 1, 26)) == F.at(2027, 1, 1))
  }

  @Test("a step in a monthday list, in its short form, and with a year")
  func dayRangeStepInLists() throws {
    let strict = "Jan 01,Dec 11,Dec 15-17,Dec 19,Dec 21,Dec 23,Dec 24-25"
    #expect(try OpeningHours(parsing: "Jan 01,Dec 11,Dec 15-17,Dec 19-23/2,Dec 24-25").warnings.isEmpty)
    try expectSameDays("Jan 01,Dec 11,Dec 15-17,Dec 19-23/2,Dec 24-25", strict)
    // The short list (days of the month before) warns `monthday-list` and means the same.
    let short = try OpeningHours(parsing: "Jan 01,Dec 11,15-17,19-23/2,24,25")
    #expect(Set(short.warnings.map(\.code)) == ["monthday-list"])
    #expect(
      try rulesIgnoringRanges("Jan 01,Dec 11,15-17,19-23/2,24,25")
        == rulesIgnoringRanges("Jan 01,Dec 11,Dec 15-17,Dec 19-23/2,Dec 24,Dec 25"))
    // With a year: only that year.
    let s = try F.schedule("2027 Jan 01-31/8")
    #expect(state(s, 2027, 1, 9) == .open)
    #expect(state(s, 2027, 1, 10) == .closed)
    #expect(state(s, 2026, 1, 9) == .closed)
    #expect(state(s, 2028, 1, 9) == .closed)
    try expectCanonical("2027 Jan 01-31/8", "2027 Jan 01-31/8")
  }

  @Test("a step counts from the day the range starts: Feb 29 starts on Mar 1 in a common year")
  func stepFromTheResolvedStart() throws {
    let s = try F.schedule("Feb 29-Mar 10/2")
    // 2028 is a leap year: Feb 29, Mar 2, 4, 6, 8, 10.
    #expect(state(s, 2028, 2, 29) == .open)
    #expect(state(s, 2028, 3, 1) == .closed)
    #expect(state(s, 2028, 3, 2) == .open)
    #expect(state(s, 2028, 3, 10) == .open)
    // 2027: Mar 1, 3, 5, 7, 9.
    #expect(state(s, 2027, 3, 1) == .open)
    #expect(state(s, 2027, 3, 2) == .closed)
    #expect(state(s, 2027, 3, 9) == .open)
    #expect(state(s, 2027, 3, 10) == .closed)
  }

  // MARK: - Years with a step and no end

  @Test("2055/2 is 2055, 2057, … with no end (opening_hours.js), and prints as written")
  func yearStepWithoutEnd() throws {
    let rule = try OpeningHours(parsing: "2055/2").rules[0]
    #expect(rule.years == [YearRange(from: 2055, to: nil, step: 2, openEnded: true)])
    let s = try F.schedule("2013/10 Dec 31")
    #expect(state(s, 2013, 12, 31) == .open)
    #expect(state(s, 2023, 12, 31) == .open)
    #expect(state(s, 2033, 12, 31) == .open)
    #expect(state(s, 2014, 12, 31) == .closed)
    #expect(state(s, 2003, 12, 31) == .closed)
    #expect(state(s, 2023, 12, 30) == .closed)
    try expectCanonical("2013/10 Dec 31; 2014/10 Jan 05", "2013/10 Dec 31; 2014/10 Jan 05")
    // A step of 1 is `2055+`.
    #expect(try rulesIgnoringRanges("2055/1") == rulesIgnoringRanges("2055+"))
  }

  @Test("a list of years with steps, ranges and open ends")
  func yearList() throws {
    let s = try F.schedule("2013,2015,2050-2053,2055/2,2020-2029/3,2060+ Jan 01")
    let open: Set<Int> = [2013, 2015, 2020, 2023, 2026, 2029, 2050, 2051, 2052, 2053, 2055, 2057, 2059]
    for year in 2010...2075 {
      let expected: OpeningState = open.contains(year) || year >= 2060 ? .open : .closed
      #expect(state(s, year, 1, 1) == expected, "\(year)")
      #expect(state(s, year, 1, 2) == .closed, "\(year)")
    }
    let list = "2013,2015,2050-2053,2055/2,2020-2029/3,2060+ Jan 01"
    try expectCanonical(list, list)
  }

  // MARK: - opening-hours-rs's compact dates

  @Test(
    "compact dates, a day past the month's end, a day range into the next month, dotted days",
    arguments: [
      Tolerance(
        text: "2020Jun01:10:00-12:10", code: "compact-date", range: 9..<10,
        strict: "2020 Jun 01 10:00-12:10"),
      Tolerance(
        text: "2019Sep01-2020Jul31:10:00-12:00", code: "compact-date", range: 19..<20,
        strict: "2019 Sep 01-2020 Jul 31 10:00-12:00"),
      Tolerance(
        text: "Sep01-Jul01:10:00-12:00", code: "compact-date", range: 11..<12,
        strict: "Sep 01-Jul 01 10:00-12:00"),
      Tolerance(
        text: "Feb01-Feb31:10:00-12:00", code: "day-past-month-end", range: 9..<11,
        strict: "Feb 01-29 10:00-12:00"),
      Tolerance(text: "Apr 01-31", code: "day-past-month-end", range: 7..<9, strict: "Apr 01-30"),
      Tolerance(
        text: "May15-01:10:00-12:00", code: "day-range-into-next-month", range: 6..<8,
        strict: "May 15-Jun 01 10:00-12:00"),
      Tolerance(text: "Dec 24-02", code: "day-range-into-next-month", range: 7..<9, strict: "Dec 24-Jan 02"),
      Tolerance(
        text: "2019 Dec 24-02", code: "day-range-into-next-month", range: 12..<14,
        strict: "2019 Dec 24-2020 Jan 02"),
      Tolerance(text: "Dec 24.-25.", code: "dotted-day", range: 6..<7, strict: "Dec 24-25"),
      Tolerance(
        text: "Dec 24.,Jan 02: 18:00-22:00", code: "dotted-day", range: 6..<7,
        strict: "Dec 24,Jan 02 18:00-22:00"),
      Tolerance(
        text: "Jan 01,Dec 24.-25.; Nov Th[4]", code: "dotted-day", range: 13..<14,
        strict: "Jan 01,Dec 24-25; Nov Th[4]"),
    ])
  func tolerated(_ t: Tolerance) throws {
    try expectTolerated(t)
    let normalized = try OpeningHours(parsing: t.text).normalized
    let again = try OpeningHours(parsing: normalized)
    #expect(again.warnings.isEmpty, "\(normalized): \(again.warnings)")
  }

  @Test("Feb 31 as a range end is the last day of February, Feb 28 in a common year")
  func februaryThirtyFirst() throws {
    let s = try F.schedule("Feb01-Feb31:10:00-12:00")
    #expect(state(s, 2020, 2, 29, 11) == .open)
    #expect(state(s, 2020, 3, 1, 11) == .closed)
    #expect(state(s, 2021, 2, 28, 11) == .open)
    #expect(state(s, 2021, 3, 1, 11) == .closed)
    #expect(state(s, 2021, 1, 31, 11) == .closed)
  }

  @Test("May 15-01 runs to Jun 1, not the year round")
  func intoTheNextMonth() throws {
    let s = try F.schedule("May15-01:10:00-12:00")
    #expect(state(s, 2020, 5, 15, 11) == .open)
    #expect(state(s, 2020, 6, 1, 11) == .open)
    #expect(state(s, 2020, 6, 2, 11) == .closed)
    #expect(state(s, 2021, 5, 1, 11) == .closed)
    #expect(state(s, 2020, 12, 1, 11) == .closed)
  }

  @Test("a number before a colon and minutes is still a time unless `:HH:MM` follows it glued")
  func timesAfterMonthsStayTimes() throws {
    let rule = try OpeningHours(parsing: "Jan 10:00-12:00").rules[0]
    #expect(rule.monthdays == [.months(fromYear: nil, from: 1, toYear: nil, to: 1)])
    #expect(rule.times == [TimeSpan(start: .clock(minutes: 600), end: .clock(minutes: 720), openEnd: false)])
    // With a space, `01:10:00` is no compact date: the times are not read as a day.
    #expect(throws: OpeningHoursParseError.self) { try OpeningHours(parsing: "Jun 01:10:00-12:00") }
  }

  @Test(
    "dates that do not exist are refused",
    arguments: [
      // Alone or at the start of a range, a day past the month's end names no day.
      Refusal(text: "Feb30", position: 3, expected: "a day that exists in Feb"),
      Refusal(text: "Feb 31-Mar 05", position: 4, expected: "a day that exists in Feb"),
      // Into the next month, the day must exist there.
      Refusal(text: "Jan 31-30", position: 7, expected: "a day that exists in Feb"),
      // In the short list the end is in the same month.
      Refusal(text: "Dec 11,15-02", position: 10, expected: "a day of the month from 15 to 31"),
      // A step needs a range.
      Refusal(text: "Jan 01/8", position: 6, expected: "a time such as 09:00-18:00"),
      // `7/7` is "every day" (the messy corpus): not a range to Oct 7 with a step of 7.
      Refusal(text: "may-oct 7/7", position: 9, expected: "a time such as 09:00-18:00"),
    ])
  func refused(_ r: Refusal) {
    expectRefused(r)
  }

  // MARK: - An nth weekday to a bare day

  @Test("Jan Mo[1]-15 is the first Monday of January to Jan 15, with no warning")
  func nthWeekdayToDay() throws {
    #expect(try OpeningHours(parsing: "Jan Mo[1]-15").warnings.isEmpty)
    #expect(try rulesIgnoringRanges("Jan Mo[1]-15") == rulesIgnoringRanges("Jan Mo[1]-Jan 15"))
    try expectCanonical("Jan Mo[1]-15", "Jan Mo[1]-Jan 15")
    let s = try F.schedule("Jan Mo[1]-15")
    // 2020-01-06 is the first Monday of 2020, 2021-01-04 of 2021.
    #expect(state(s, 2020, 1, 5) == .closed)
    #expect(state(s, 2020, 1, 6) == .open)
    #expect(state(s, 2020, 1, 15) == .open)
    #expect(state(s, 2020, 1, 16) == .closed)
    #expect(s.nextChange(after: F.at(2020, 1, 1, 12)) == F.at(2020, 1, 6))
    #expect(s.nextChange(after: F.at(2020, 1, 6, 12)) == F.at(2020, 1, 16))
    #expect(s.nextChange(after: F.at(2020, 1, 16, 12)) == F.at(2021, 1, 4))
    let thirty = try F.schedule("Jan Mo[1]-30")
    #expect(state(thirty, 2020, 1, 30) == .open)
    #expect(state(thirty, 2020, 1, 31) == .closed)
  }

  @Test("with a year, an nth weekday after the day, or one the month lacks, is an empty range")
  func nthWeekdayToDayEmpty() throws {
    // The last Monday of January 2020 is Jan 27, after the 15th; January 2020 has no fifth Monday.
    for text in ["2020 Jan Mo[-1]-15", "2020 Jan Mo[5]-15"] {
      let s = try F.schedule(text)
      #expect(s.nextChange(after: F.at(2020, 1, 1, 12)) == nil, "\(text)")
      #expect(state(s, 2020, 1, 10) == .closed, "\(text)")
      #expect(state(s, 2020, 1, 28) == .closed, "\(text)")
    }
  }
}
