import Testing

@testable import OpeningHours

/// Helpers shared by the schedule tests: UTC wall times and short schedules.
enum Fixture {
  static let utc = TimeZoneRules.fixed(offsetSeconds: 0, identifier: "UTC")

  /// The instant of a UTC wall time.
  static func at(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ min: Int = 0) -> Instant {
    Instant(
      secondsSinceEpoch: LocalDateTime(date: LocalDate(year: y, month: m, day: d)!, hour: h, minute: min)
        .secondsSinceEpochAtUTC)
  }

  static func schedule(_ text: String, holidays: HolidayCalendar? = nil, zone: TimeZoneRules = utc) throws
    -> Schedule
  {
    Schedule(try OpeningHours(parsing: text), timeZone: zone, holidays: holidays)
  }

  static let germany = HolidayCalendar(
    country: "DE", region: nil, years: 2025...2027,
    holidays: [
      LocalDate(year: 2026, month: 1, day: 1)!: "Neujahr",
      LocalDate(year: 2026, month: 4, day: 3)!: "Karfreitag",
      LocalDate(year: 2026, month: 4, day: 6)!: "Ostermontag",
      LocalDate(year: 2026, month: 5, day: 1)!: "Tag der Arbeit",
      LocalDate(year: 2026, month: 12, day: 25)!: "Weihnachtstag",
      LocalDate(year: 2026, month: 10, day: 3)!: "Tag der Deutschen Einheit",  // a Saturday
    ])
}

// 2026-03-23 is a Monday.
@Suite("Schedule semantics (UTC)")
struct ScheduleTests {
  typealias F = Fixture

  func state(_ s: Schedule, _ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0) -> OpeningState {
    s.status(at: F.at(y, m, d, h, min)).state
  }

  @Test("24/7 and plain weekdays")
  func weekdays() throws {
    let always = try F.schedule("24/7")
    #expect(always.isOpen(at: F.at(2026, 3, 23, 3)))
    #expect(always.nextChange(after: F.at(2026, 3, 23)) == nil)
    let s = try F.schedule("Mo-Fr 09:00-18:00")
    #expect(state(s, 2026, 3, 23, 9) == .open)
    #expect(state(s, 2026, 3, 23, 8, 59) == .closed)
    #expect(state(s, 2026, 3, 23, 18) == .closed)
    #expect(state(s, 2026, 3, 28, 10) == .closed)
    #expect(s.nextChange(after: F.at(2026, 3, 27, 18)) == F.at(2026, 3, 30, 9))
  }

  @Test("weekday wrap, lists and several spans")
  func wrapAndLists() throws {
    let wrap = try F.schedule("Fr-Mo 10:00-12:00")
    #expect(
      [23, 24, 25, 26, 27, 28, 29].map { state(wrap, 2026, 3, $0, 11) } == [
        .open, .closed, .closed, .closed, .open, .open, .open,
      ])
    let list = try F.schedule("Mo, We, Fr 06:30-21:30")  // decision: one rule for three days
    #expect(state(list, 2026, 3, 23, 5) == .closed)
    #expect(state(list, 2026, 3, 25, 7) == .open)
    #expect(state(list, 2026, 3, 24, 7) == .closed)
    let spans = try F.schedule("Mo 08:00-12:00,13:00-17:00")
    #expect(state(spans, 2026, 3, 23, 12, 30) == .closed)
    #expect(state(spans, 2026, 3, 23, 13) == .open)
  }

  @Test("; overrides, , adds, || falls back")
  func separators() throws {
    let over = try F.schedule("Mo-Fr 08:00-18:00; We 14:00-16:00")
    #expect(state(over, 2026, 3, 25, 9) == .closed)
    #expect(state(over, 2026, 3, 25, 15) == .open)
    let add = try F.schedule("Mo-Fr 08:00-12:00, We 14:00-18:00")
    #expect(state(add, 2026, 3, 25, 9) == .open)
    #expect(state(add, 2026, 3, 25, 15) == .open)
    let hole = try F.schedule("Mo-Fr 08:00-18:00, We 12:00-13:00 off")
    #expect(state(hole, 2026, 3, 25, 12, 30) == .closed)
    #expect(state(hole, 2026, 3, 25, 13) == .open)
    // A closed rule with times closes only those times (both reference engines).
    let breaks = try F.schedule("00:00-24:00; Tu-Su 08:30-09:00 off; Mo 08:00-13:00 off")
    #expect(state(breaks, 2026, 3, 24, 8, 45) == .closed)
    #expect(state(breaks, 2026, 3, 24, 10) == .open)
    #expect(state(breaks, 2026, 3, 23, 12) == .closed)
    #expect(state(breaks, 2026, 3, 23, 14) == .open)
    let unknownBlock = try F.schedule("Mo-Fr 08:00-18:00; We 10:00-12:00 unknown")
    #expect(state(unknownBlock, 2026, 3, 25, 9) == .closed)
    let fallback = try F.schedule("Mo-Fr 08:00-11:00 || \"by appointment\"")
    // The fallback fills the time the first rule leaves uncovered, on Monday too.
    #expect(
      fallback.status(at: F.at(2026, 3, 23, 14)) == OpeningStatus(state: .unknown, comment: "by appointment"))
    #expect(state(fallback, 2026, 3, 23, 9) == .open)
    // A closed rule leaves its time to the fallback, as no rule at all would (both reference
    // engines): Monday opens at 08:00 like the other days.
    let closedDay = try F.schedule("Mo closed \"inventory\" || 08:00-18:00")
    #expect(state(closedDay, 2026, 3, 23, 10) == .open)
    #expect(closedDay.status(at: F.at(2026, 3, 23, 7)) == OpeningStatus(state: .closed, comment: "inventory"))
    #expect(state(closedDay, 2026, 3, 24, 10) == .open)
    // Open or unknown time stays as the earlier rules paint it; the fallback's span past midnight
    // fills the next morning, whose closed hours are the fallback's too.
    let duty = try F.schedule("Mo-Fr 08:00-12:00,14:00-18:00 || Tu 06:00-06:00 \"on duty\"")
    #expect(duty.status(at: F.at(2026, 3, 24, 7)) == OpeningStatus(state: .open, comment: "on duty"))
    #expect(duty.status(at: F.at(2026, 3, 24, 10)) == OpeningStatus(state: .open, comment: nil))
    #expect(duty.status(at: F.at(2026, 3, 24, 13)) == OpeningStatus(state: .open, comment: "on duty"))
    #expect(duty.status(at: F.at(2026, 3, 25, 5)) == OpeningStatus(state: .open, comment: "on duty"))
    #expect(duty.nextChange(after: F.at(2026, 3, 24, 18)) == F.at(2026, 3, 25, 6))
    #expect(state(duty, 2026, 3, 25, 7) == .closed)
    #expect(
      fallback.status(at: F.at(2026, 3, 28, 14)) == OpeningStatus(state: .unknown, comment: "by appointment"))
    let fallbackOpen = try F.schedule("Mo-Fr 08:00-11:00 || Sa-Su open \"weekend\"")
    #expect(fallbackOpen.status(at: F.at(2026, 3, 28, 14)) == OpeningStatus(state: .open, comment: "weekend"))
  }

  @Test("spans past midnight, 24:00 and 48:00")
  func overnight() throws {
    let s = try F.schedule("Fr 22:00-02:00")
    #expect(state(s, 2026, 3, 27, 23) == .open)
    #expect(state(s, 2026, 3, 28, 1, 59) == .open)
    #expect(state(s, 2026, 3, 28, 2) == .closed)
    #expect(s.nextChange(after: F.at(2026, 3, 27, 23)) == F.at(2026, 3, 28, 2))
    // A next-day `;` rule replaces that whole day, the spill included (both reference engines agree).
    let killed = try F.schedule("Fr 22:00-02:00; Sa 10:00-12:00")
    #expect(state(killed, 2026, 3, 28, 1) == .closed)
    #expect(state(killed, 2026, 3, 27, 23) == .open)
    // Decision: overriding the day a span starts on removes its spill too (opening-hours-py keeps it).
    let origin = try F.schedule("Mo-Su 22:00-02:00; We off")
    #expect(state(origin, 2026, 3, 26, 1) == .closed)
    #expect(state(origin, 2026, 3, 25, 1) == .closed)  // Wednesday replaced: Tuesday's spill goes too
    #expect(state(origin, 2026, 3, 24, 1) == .open)
    let midnight = try F.schedule("Mo 10:00-24:00")
    #expect(state(midnight, 2026, 3, 23, 23, 59) == .open)
    #expect(state(midnight, 2026, 3, 24, 0) == .closed)
    let long = try F.schedule("Mo 20:00-48:00")
    #expect(state(long, 2026, 3, 24, 23, 59) == .open)
    #expect(state(long, 2026, 3, 25, 0) == .closed)
    let full = try F.schedule("Mo 00:00-24:00")
    #expect(full.intervals(from: F.at(2026, 3, 23), to: F.at(2026, 3, 24)).count == 1)
    let sameStartEnd = try F.schedule("Mo 10:00-10:00")  // 24 hours from 10:00
    #expect(state(sameStartEnd, 2026, 3, 24, 9) == .open)
    #expect(state(sameStartEnd, 2026, 3, 24, 10) == .closed)
  }

  @Test("year boundaries and leap days")
  func calendarEdges() throws {
    let nye = try F.schedule("Dec 31 22:00-02:00")
    #expect(state(nye, 2026, 12, 31, 23) == .open)
    #expect(state(nye, 2027, 1, 1, 1) == .open)
    #expect(state(nye, 2027, 1, 1, 2) == .closed)
    #expect(nye.nextChange(after: F.at(2027, 1, 1, 3)) == F.at(2027, 12, 31, 22))
    let leap = try F.schedule("Feb 29 10:00-12:00")
    #expect(state(leap, 2028, 2, 29, 11) == .open)
    #expect(state(leap, 2027, 2, 28, 11) == .closed)
    #expect(state(leap, 2027, 3, 1, 11) == .closed)
    #expect(leap.nextChange(after: F.at(2026, 3, 1), horizonDays: 800) == F.at(2028, 2, 29, 10))
    #expect(leap.nextChange(after: F.at(2026, 3, 1)) == nil)  // nothing within 400 days
  }

  @Test("dates, date ranges with years, month ranges")
  func dates() throws {
    let xmas = try F.schedule("Mo-Su 10:00-20:00; Dec 25 off")
    #expect(state(xmas, 2026, 12, 25, 12) == .closed)
    #expect(state(xmas, 2026, 12, 24, 12) == .open)
    let span = try F.schedule("Mo-Su 10:00-20:00; 2026 Dec 24-2027 Jan 02 off")
    #expect(state(span, 2026, 12, 23, 12) == .open)
    #expect(state(span, 2026, 12, 24, 12) == .closed)
    #expect(state(span, 2027, 1, 2, 12) == .closed)
    #expect(state(span, 2027, 1, 3, 12) == .open)
    #expect(state(span, 2027, 12, 25, 12) == .open)
    let wrap = try F.schedule("Mo-Su 10:00-20:00; Dec 24-Jan 02 off")
    #expect(state(wrap, 2027, 12, 28, 12) == .closed)
    #expect(state(wrap, 2026, 1, 2, 12) == .closed)
    #expect(state(wrap, 2026, 1, 3, 12) == .open)
    let summer = try F.schedule("Jun-Aug Mo-Fr 09:00-20:00")
    #expect(state(summer, 2026, 7, 1, 10) == .open)
    #expect(state(summer, 2026, 9, 1, 10) == .closed)
    let winter = try F.schedule("Nov-Feb 10:00-12:00")
    #expect(state(winter, 2026, 1, 15, 11) == .open)
    #expect(state(winter, 2026, 3, 15, 11) == .closed)
  }

  @Test("public and school holidays")
  func holidays() throws {
    let s = try F.schedule("Mo-Fr 09:00-18:00; PH off", holidays: F.germany)
    #expect(s.warnings.isEmpty)
    #expect(state(s, 2026, 4, 6, 10) == .closed)  // Easter Monday
    #expect(state(s, 2026, 4, 7, 10) == .open)
    let open = try F.schedule("Mo-Fr 09:00-18:00; PH 10:00-12:00", holidays: F.germany)
    #expect(state(open, 2026, 4, 6, 11) == .open)
    #expect(state(open, 2026, 4, 6, 13) == .closed)
    // Without a calendar: a warning, and unknown exactly where the answer depends on it.
    let blind = try F.schedule("Mo-Fr 09:00-18:00; PH off")
    #expect(blind.warnings.map(\.code) == ["no-holiday-data"])
    #expect(state(blind, 2026, 4, 7, 10) == .unknown)
    #expect(state(blind, 2026, 4, 7, 20) == .closed)
    #expect(state(blind, 2026, 4, 11, 10) == .closed)  // Saturday: closed either way
    // Outside the calendar's years: unknown too.
    #expect(state(s, 2030, 4, 2, 10) == .unknown)
    let after = try F.schedule("Mo-Su 09:00-18:00; PH +1 day off", holidays: F.germany)
    #expect(state(after, 2026, 4, 7, 10) == .closed)
    #expect(state(after, 2026, 4, 6, 10) == .open)
    // `Su,PH` is either; `PH Su` / `Su PH` a holiday on a Sunday (decision, as the specification).
    let either = try F.schedule("Su,PH 10:00-12:00", holidays: F.germany)
    #expect(state(either, 2026, 3, 29, 11) == .open)
    #expect(state(either, 2026, 4, 6, 11) == .open)
    let both = try F.schedule("Sa PH 10:00-12:00", holidays: F.germany)
    #expect(state(both, 2026, 10, 3, 11) == .open)
    #expect(state(both, 2026, 10, 10, 11) == .closed)
    #expect(state(both, 2026, 4, 6, 11) == .closed)
    let school = try F.schedule("Mo-Fr 08:00-12:00; SH off")
    #expect(school.warnings.map(\.code) == ["no-school-holidays"])
    #expect(state(school, 2026, 3, 23, 9) == .unknown)
  }

  @Test("easter, nth weekdays, weeks and years")
  func variableDates() throws {
    let easter = try F.schedule("Mo-Su 10:00-18:00; easter -2 days-easter +1 day off")
    #expect(state(easter, 2026, 4, 2, 11) == .open)
    #expect(state(easter, 2026, 4, 3, 11) == .closed)  // Good Friday 2026
    #expect(state(easter, 2026, 4, 6, 11) == .closed)  // Easter Monday
    #expect(state(easter, 2026, 4, 7, 11) == .open)
    #expect(state(easter, 2027, 3, 26, 11) == .closed)  // Good Friday 2027
    let last = try F.schedule("Su[-1] 10:00-12:00")
    #expect(state(last, 2026, 3, 29, 11) == .open)
    #expect(state(last, 2026, 3, 22, 11) == .closed)
    let firstThird = try F.schedule("Mo[1,3] 10:00-12:00")
    #expect([2, 9, 16, 23].map { state(firstThird, 2026, 3, $0, 11) } == [.open, .closed, .open, .closed])
    let range = try F.schedule("Sa[2-3] 10:00-12:00")
    #expect([7, 14, 21, 28].map { state(range, 2026, 3, $0, 11) } == [.closed, .open, .open, .closed])
    let afterLast = try F.schedule("Sa[-1] +1 day 10:00-12:00")
    #expect(state(afterLast, 2026, 3, 29, 11) == .open)
    let secondSunday = try F.schedule("Apr-Oct Su[2] 14:00-18:00")
    #expect(state(secondSunday, 2026, 4, 1, 15) == .closed)
    #expect(state(secondSunday, 2026, 4, 12, 15) == .open)
    #expect(state(secondSunday, 2026, 4, 19, 15) == .closed)
    let dayBeforeLast = try F.schedule("Aug Su[-1] -1 day 10:00-18:00")
    #expect(state(dayBeforeLast, 2026, 8, 29, 11) == .open)
    #expect(state(dayBeforeLast, 2026, 8, 30, 11) == .closed)
    let marchToSept = try F.schedule("Mar Su[-1]-Sep 30 07:30-19:00")
    #expect(state(marchToSept, 2026, 3, 28, 8) == .closed)
    #expect(state(marchToSept, 2026, 3, 29, 8) == .open)
    #expect(state(marchToSept, 2026, 9, 30, 8) == .open)
    #expect(state(marchToSept, 2026, 10, 1, 8) == .closed)
    // ISO weeks: 2026-03-23 is in week 13, 2026-03-30 in week 14.
    let odd = try F.schedule("week 01-53/2 Mo 10:00-12:00")
    #expect(state(odd, 2026, 3, 23, 11) == .open)
    #expect(state(odd, 2026, 3, 30, 11) == .closed)
    #expect(RuleEvaluator.isoWeek(day: LocalDate(year: 2027, month: 1, day: 1)!.daysSinceEpoch) == 53)
    #expect(RuleEvaluator.isoWeek(day: LocalDate(year: 2026, month: 12, day: 31)!.daysSinceEpoch) == 53)
    let years = try F.schedule("2025-2027 Mo 10:00-12:00")
    #expect(state(years, 2026, 3, 23, 11) == .open)
    #expect(state(years, 2028, 3, 20, 11) == .closed)
    let from = try F.schedule("2027+ Mo 10:00-12:00")
    #expect(state(from, 2026, 3, 23, 11) == .closed)
    #expect(state(from, 2031, 3, 24, 11) == .open)  // a Monday
    #expect(state(from, 2031, 3, 25, 11) == .closed)
  }

  @Test("comments, modifiers and open ends")
  func modifiers() throws {
    let comment = try F.schedule("Mo 10:00-12:00 \"by appointment\"")
    #expect(
      comment.status(at: F.at(2026, 3, 23, 11)) == OpeningStatus(state: .open, comment: "by appointment"))
    let only = try F.schedule("\"by appointment\"")  // decision: comment-only rules are unknown
    #expect(
      only.status(at: F.at(2026, 3, 23, 11)) == OpeningStatus(state: .unknown, comment: "by appointment"))
    let unknown = try F.schedule("Mo-Fr 10:00-12:00 unknown")
    #expect(state(unknown, 2026, 3, 23, 11) == .unknown)
    let closed = try F.schedule("24/7 closed \"always closed\"")
    #expect(
      closed.status(at: F.at(2026, 3, 23, 11)) == OpeningStatus(state: .closed, comment: "always closed"))
    let openEnd = try F.schedule("Mo 18:00+")  // decision: unknown from 18:00 to midnight
    #expect(state(openEnd, 2026, 3, 23, 17) == .closed)
    #expect(state(openEnd, 2026, 3, 23, 19) == .unknown)
    #expect(state(openEnd, 2026, 3, 24, 0) == .closed)
    let rangeEnd = try F.schedule("Mo 10:00-18:00+")
    #expect(state(rangeEnd, 2026, 3, 23, 11) == .open)
    #expect(state(rangeEnd, 2026, 3, 23, 19) == .unknown)
  }

  @Test("sun events use the specification's defaults for now")
  func sun() throws {
    let s = try F.schedule("sunrise-sunset")
    #expect(s.warnings.map(\.code) == ["no-coordinates"])
    #expect(state(s, 2026, 6, 1, 5, 59) == .closed)
    #expect(state(s, 2026, 6, 1, 6) == .open)
    #expect(state(s, 2026, 6, 1, 18) == .closed)
    let offsets = try F.schedule("(sunset-01:00)-(sunrise+00:30)")
    #expect(state(offsets, 2026, 6, 1, 17) == .open)
    #expect(state(offsets, 2026, 6, 2, 6, 29) == .open)
    #expect(state(offsets, 2026, 6, 2, 6, 30) == .closed)
    #expect(
      sunEventSecondsIntoDay(
        .dawn, on: LocalDate(year: 2026, month: 1, day: 1)!, latitude: nil, longitude: nil, timeZone: F.utc)
        == 19_800)
  }

  @Test("interval queries")
  func queries() throws {
    let s = try F.schedule("Mo-Fr 09:00-12:00,13:00-18:00 \"lunch break\"; Sa 10:00-14:00")
    let day = s.intervals(from: F.at(2026, 3, 23), to: F.at(2026, 3, 24))
    #expect(day.map(\.status.state) == [.closed, .open, .closed, .open, .closed])
    #expect(day.first?.start == F.at(2026, 3, 23) && day.last?.end == F.at(2026, 3, 24))
    #expect(s.isOpen(throughout: F.at(2026, 3, 23, 9), seconds: 3 * 3600))
    #expect(!s.isOpen(throughout: F.at(2026, 3, 23, 9), seconds: 3 * 3600 + 1))
    #expect(s.earliestOpening(lasting: 4 * 3600, from: F.at(2026, 3, 23, 10)) == F.at(2026, 3, 23, 13))
    #expect(s.earliestOpening(lasting: 6 * 3600, from: F.at(2026, 3, 23, 10)) == nil)
    #expect(s.earliestOpening(lasting: 3600, from: F.at(2026, 3, 27, 18)) == F.at(2026, 3, 28, 10))
    // Comments count for nextChange and intervals, not for isOpen(throughout:).
    let c = try F.schedule("Mo 10:00-12:00 open \"a\", Mo 12:00-14:00 open \"b\"")
    #expect(c.nextChange(after: F.at(2026, 3, 23, 10)) == F.at(2026, 3, 23, 12))
    #expect(c.isOpen(throughout: F.at(2026, 3, 23, 10), seconds: 4 * 3600))
    #expect(s.intervals(from: F.at(2026, 3, 23), to: F.at(2026, 3, 23)).isEmpty)
  }

  @Test("the state throughout a window: closed anywhere, else unknown anywhere, else open")
  func stateThroughout() throws {
    let s = try F.schedule("Mo-Fr 09:00-18:00; Sa 10:00-14:00 unknown")
    #expect(s.state(throughout: F.at(2026, 3, 23, 9), seconds: 9 * 3600) == .open)
    #expect(s.state(throughout: F.at(2026, 3, 23, 9), seconds: 9 * 3600 + 1) == .closed)
    #expect(s.state(throughout: F.at(2026, 3, 28, 10), seconds: 4 * 3600) == .unknown)
    #expect(s.state(throughout: F.at(2026, 3, 28, 10), seconds: 5 * 3600) == .closed)
    #expect(s.state(throughout: F.at(2026, 3, 23, 8), seconds: 1) == .closed)
    #expect(s.state(throughout: F.at(2026, 3, 23, 9), seconds: 0) == .open)
    #expect(s.state(throughout: F.at(2026, 3, 23, 9), seconds: 363 * 86_400) == .closed)
    let always = try F.schedule("24/7")
    #expect(always.state(throughout: F.at(2026, 3, 23), seconds: 363 * 86_400) == .open)
  }

  @Test("weekly schedules compile to a table; date rules do not")
  func compiled() throws {
    #expect(try F.schedule("Mo-Fr 09:00-18:00; Sa 10:00-14:00").week != nil)
    #expect(try F.schedule("Fr 22:00-02:00; Sa 10:00-12:00").week != nil)
    #expect(try F.schedule("Mo-Fr 09:00-18:00; PH off").week == nil)
    #expect(try F.schedule("Dec 25 off").week == nil)
  }
}
