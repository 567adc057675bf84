import Testing

@testable import OpeningHours

@Suite("Parser")
struct ParserTests {
  @Test(
    "valid syntax parses without warnings",
    arguments: [
      "24/7", "Mo-Fr 09:00-18:00", "Fr-Mo 10:00-12:00", "Mo,We,Fr 08:00-12:00",
      "Mo-Fr 08:00-12:00,13:00-17:00",
      "Mo-Fr 09:00-18:00; Sa 10:00-14:00; Su off", "Mo-Fr 08:00-12:00, We 14:00-18:00",
      "Mo-Fr 08:00-11:00 || \"call\"",
      "22:00-02:00", "Mo-Su 10:00-24:00", "Fr 20:00-48:00", "Dec 25 off", "2026 Dec 24-2027 Jan 02 off",
      "Dec 24-Jan 02 off", "Jun-Aug Mo-Fr 09:00-20:00", "PH off", "SH Mo-Fr 10:00-12:00", "PH +1 day off",
      "easter -2 days-easter +1 day off", "easter off", "Su[-1] 10:00-12:00", "Mo[1,3] 10:00-12:00",
      "Sa[2-3] 10:00-12:00", "week 01-53/2 Mo 10:00-12:00", "2025-2027 Mo 10:00-12:00",
      "2026+ Mo 10:00-12:00",
      "Mo 10:00-12:00 \"by appointment\"", "\"by appointment\"", "18:00+", "10:00-18:00+",
      "sunrise-sunset", "(sunset-01:00)-(sunrise+00:30)", "dawn-dusk", "Mo 10:00-12:00 open", "Mo unknown",
      "24/7 closed \"always closed\"", "Mar Su[-1]-Sep 30 07:30-19:15", "Apr: 22:00-23:00",
      "Jul 23-Jan 3: 08:00-11:00",
      "2020,8000-9000 10:00-22:00", "Sa[-1],Sa[-1] +1 day 10:00-12:00 open", "PH Su 10:00-12:00", "Su,PH off",
      "Jan 23-Feb 11,Feb 12 00:00-24:00", "week 2-52/2 We 00:00-24:00", "Feb 29 10:00-12:00",
      "Mo-Fr 08:00-18:00; We 12:00-13:00 off", "week 01,03: 10:00-12:00",
    ])
  func valid(text: String) throws {
    let hours = try OpeningHours(parsing: text)
    #expect(hours.warnings.isEmpty, "\(hours.warnings)")
    #expect(hours.text == text)
  }

  struct Tolerated: Sendable, CustomStringConvertible {
    var text: String
    var code: String
    var range: Range<Int>
    var description: String { text }
  }

  @Test(
    "tolerant forms parse with a warning code and range",
    arguments: [
      Tolerated(text: "Mo\u{2013}Fr 09:00-18:00", code: "dash-variant", range: 2..<3),
      Tolerated(text: "Mo-Fr 09:00\u{2014}18:00", code: "dash-variant", range: 11..<12),
      Tolerated(text: "Mo-Fr 09:00-18:00;", code: "trailing-separator", range: 17..<18),
      Tolerated(text: "Mo-Fr 8:00-18:00", code: "single-digit-hour", range: 6..<7),
      Tolerated(text: "Mo-Fr 08.30-18:00", code: "dot-time-separator", range: 8..<9),
      Tolerated(text: "Monday 09:00-18:00", code: "weekday-name", range: 0..<6),
      Tolerated(text: "Mon-Fri 09:00-18:00", code: "weekday-name", range: 0..<3),
      Tolerated(text: "Tues 09:00-18:00", code: "weekday-name", range: 0..<4),
      Tolerated(text: "mo-fr 09:00-18:00", code: "keyword-case", range: 0..<2),
      Tolerated(text: "Mo-Fr 9am-5pm", code: "am-pm", range: 6..<9),
      Tolerated(text: "Mo-Fr 9:30 PM-11:00 PM", code: "am-pm", range: 6..<13),
      Tolerated(text: "Mo-Fr 9h-17h", code: "hour-suffix", range: 6..<8),
      Tolerated(text: "Mo-Fr09:00-18:00", code: "missing-space", range: 5..<5),
      Tolerated(text: "Mo to Fr 09:00-18:00", code: "range-word", range: 3..<5),
      Tolerated(text: "Mo-Fr: 09:00-18:00", code: "stray-colon", range: 5..<6),
      Tolerated(text: "Mo-Fr 09:00-18:00 Sa 10:00-14:00", code: "missing-rule-separator", range: 18..<18),
      Tolerated(text: "Mo-Fr 09:00-12:00 14:00-18:00", code: "missing-comma", range: 18..<18),
      Tolerated(text: "Su PH 10:00-12:00", code: "weekday-before-holiday", range: 3..<5),
      Tolerated(text: "Mo-Fr 0900-1730", code: "compact-time", range: 6..<10),
      Tolerated(text: "10am-6pm Mon-Fri", code: "weekday-after-time", range: 9..<12),
      Tolerated(text: "Mo-Su 24/7", code: "24-7-after-selector", range: 6..<10),
      Tolerated(text: "Sa, 10:00-12:00", code: "comma-before-time", range: 2..<3),
      Tolerated(text: "September 10:00-12:00", code: "month-name", range: 0..<9),
      Tolerated(text: "Mo-Fr 09:00-18:00; Su Closed", code: "keyword-case", range: 22..<28),
    ])
  func tolerated(_ t: Tolerated) throws {
    let hours = try OpeningHours(parsing: t.text)
    let match = hours.warnings.first { $0.code == t.code }
    #expect(match != nil, "\(hours.warnings)")
    #expect(match?.range == t.range, "\(hours.warnings)")
  }

  @Test("tolerant forms mean what they say")
  func toleratedMeaning() throws {
    func spans(_ text: String) throws -> [TimeSpan] { try OpeningHours(parsing: text).rules[0].times }
    #expect(
      try spans("Mo 9am-5pm") == [
        TimeSpan(start: .clock(minutes: 540), end: .clock(minutes: 1020), openEnd: false)
      ])
    #expect(try spans("Mo 12am-12pm")[0].start == .clock(minutes: 0))
    #expect(try spans("Mo 11am-12am")[0].end == .clock(minutes: 1440))
    #expect(
      try spans("Mo 9:30 p.m.-11 p.m.")[0]
        == TimeSpan(start: .clock(minutes: 1290), end: .clock(minutes: 1380), openEnd: false))
    #expect(
      try spans("Mo 8h30-17h")[0]
        == TimeSpan(start: .clock(minutes: 510), end: .clock(minutes: 1020), openEnd: false))
    #expect(
      try spans("Mo 0900-1730")[0]
        == TimeSpan(start: .clock(minutes: 540), end: .clock(minutes: 1050), openEnd: false))
    let days = try OpeningHours(parsing: "Thursday-Sunday 10:00-12:00").rules[0].weekdays
    #expect(days?.weekdays == [WeekdayRange(from: 3, to: 6, nth: [], offsetDays: 0)])
    let list = try OpeningHours(parsing: "Mo, We, Fr 06:30-21:30").rules
    #expect(list.count == 1)
    #expect(list[0].weekdays?.weekdays.map(\.from) == [0, 2, 4])
  }

  struct Failure: Sendable, CustomStringConvertible {
    var text: String
    var position: Int
    var expected: String
    var description: String { text }
  }

  @Test(
    "errors give the position and what was expected",
    arguments: [
      Failure(text: "", position: 0, expected: "opening hours"),
      Failure(text: "Mo-Fr 08:00-x", position: 12, expected: "a time such as 18:00 after '-'"),
      Failure(text: "Mo-Fr 08:00", position: 11, expected: "'-' and a closing time after '08:00'"),
      Failure(text: "Mo-Fr 25:61-26:00", position: 6, expected: "minutes from 00 to 59"),
      Failure(text: "Mo-Fr 08:00-49:00", position: 12, expected: "a time no later than 48:00"),
      Failure(text: "Mo-Xy 08:00-12:00", position: 3, expected: "a weekday such as Fr after '-'"),
      Failure(text: "Mo 10:00-12:00 \"open", position: 15, expected: "a closing '\"'"),
      Failure(text: "Su[7] 10:00-12:00", position: 3, expected: "a number from 1 to 5"),
      Failure(text: "week 60 Mo 10:00-12:00", position: 5, expected: "a week number from 1 to 53"),
      Failure(text: "Feb 30 off", position: 4, expected: "a day that exists in Feb"),
      Failure(text: "by arrangement", position: 0, expected: "a weekday, a time, a date"),
      Failure(
        text: "Mo-Fr 10:00-18:00 Sa", position: 18, expected: "';' before the next rule, and times for it"),
      Failure(text: "Mo-Fr 13:00 pm-14:00", position: 6, expected: "an hour from 1 to 12 before am/pm"),
      Failure(text: "Mo-Fr 10:00-18:00 | Sa", position: 18, expected: "';' before the next rule"),
    ])
  func errors(_ f: Failure) {
    #expect(throws: OpeningHoursParseError.self) { _ = try OpeningHours(parsing: f.text) }
    do {
      _ = try OpeningHours(parsing: f.text)
    } catch {
      #expect(error.position == f.position, "\(error)")
      #expect(error.expected.hasPrefix(f.expected), "\(error)")
      #expect(error.text == f.text)
    }
  }

  @Test("error description reads well")
  func errorDescription() {
    do {
      _ = try OpeningHours(parsing: "Mo-Fr 08:00-x")
      Issue.record("should not parse")
    } catch {
      #expect(error.description == "at character 13: expected a time such as 18:00 after '-', found 'x'")
    }
  }

  @Test("feature flags")
  func flags() throws {
    let a = try OpeningHours(parsing: "Mo-Fr 09:00-18:00; PH off")
    #expect(a.usesPublicHolidays && !a.usesSchoolHolidays && !a.usesSunEvents)
    let b = try OpeningHours(parsing: "SH Mo (sunrise+01:00)-sunset")
    #expect(!b.usesPublicHolidays && b.usesSchoolHolidays && b.usesSunEvents)
  }

  @Test("syntax trees of the harder selectors")
  func trees() throws {
    let r = try OpeningHours(parsing: "2026 Dec 24-2027 Jan 02 off").rules[0]
    #expect(
      r.monthdays == [
        .dates(
          from: DatePoint(year: 2026, anchor: .fixed(month: 12, day: 24), offsetDays: 0),
          to: DatePoint(year: 2027, anchor: .fixed(month: 1, day: 2), offsetDays: 0))
      ])
    #expect(r.modifier.state == .closed)
    let e = try OpeningHours(parsing: "easter -2 days-easter +1 day off").rules[0]
    #expect(
      e.monthdays == [
        .dates(
          from: DatePoint(year: nil, anchor: .easter, offsetDays: -2),
          to: DatePoint(year: nil, anchor: .easter, offsetDays: 1))
      ])
    let w = try OpeningHours(parsing: "week 01-53/2 Mo 10:00-12:00").rules[0]
    #expect(w.weeks == [WeekRange(from: 1, to: 53, step: 2)])
    // A week list before the wide-range colon (the number before ':' is a week, not an hour).
    let wl = try OpeningHours(parsing: "week 01,03: 10:00-12:00").rules[0]
    #expect(wl.weeks == [WeekRange(from: 1, to: 1, step: 1), WeekRange(from: 3, to: 3, step: 1)])
    #expect(wl.times == [TimeSpan(start: .clock(minutes: 600), end: .clock(minutes: 720), openEnd: false)])
    let y = try OpeningHours(parsing: "2020-2029/3,2060+ Mo 10:00-12:00").rules[0]
    #expect(
      y.years == [
        YearRange(from: 2020, to: 2029, step: 3, openEnded: false),
        YearRange(from: 2060, to: nil, step: 1, openEnded: true),
      ])
    let s = try OpeningHours(parsing: "(sunset-01:00)-24:00").rules[0]
    #expect(
      s.times == [
        TimeSpan(start: .sun(.sunset, offsetMinutes: -60), end: .clock(minutes: 1440), openEnd: false)
      ])
    let f = try OpeningHours(parsing: "Mo 10:00-12:00 || Tu off, We 10:00-11:00").rules
    #expect(f.map(\.separator) == [.normal, .fallback, .additional])
  }
}
