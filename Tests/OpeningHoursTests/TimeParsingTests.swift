import Testing

@testable import OpeningHours

@Suite struct TimeParsingTests {
  @Test func instantsWithZOrOffset() throws {
    #expect(
      try TimeQuery(parsing: "2026-03-29T00:59:00Z") == .instant(Instant(secondsSinceEpoch: 1_774_745_940)))
    #expect(
      try TimeQuery(parsing: "2026-03-29T01:59+01:00") == .instant(Instant(secondsSinceEpoch: 1_774_745_940)))
    #expect(
      try TimeQuery(parsing: "2026-03-28T21:29-0330") == .instant(Instant(secondsSinceEpoch: 1_774_745_940)))
    #expect(
      try TimeQuery(parsing: "2026-03-29 00:59:00.250Z")
        == .instant(Instant(secondsSinceEpoch: 1_774_745_940)))
  }

  @Test func wallTimesHaveNoOffset() throws {
    let query = try TimeQuery(parsing: "2026-12-24T23:30")
    let date = try #require(LocalDate(year: 2026, month: 12, day: 24))
    #expect(query == .wallTime(LocalDateTime(date: date, hour: 23, minute: 30)))
    let tokyo = TimeZoneRules.fixed(offsetSeconds: 9 * 3600, identifier: "Asia/Tokyo")
    #expect(iso8601(query.instant(in: tokyo), in: tokyo) == "2026-12-24T23:30:00+09:00")
  }

  @Test(arguments: [
    ("2026-02-29T10:00Z", 9), ("2026-11-22T25:00Z", 12), ("2026-11-22T07:45+25:00", 18), ("26-11-22", 3),
    ("2026-11-22X07:45", 11), ("2026-11-22T07:45 Z", 17), ("", 1),
  ])
  func badTimesSayWhere(_ text: String, _ character: Int) {
    do {
      _ = try TimeQuery(parsing: text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.position + 1 == character, "\(error)")
    }
  }

  @Test func offsetsFormatWithMinutes() {
    #expect(formattedOffset(0) == "+00:00")
    #expect(formattedOffset(-12_600) == "-03:30")
    #expect(formattedOffset(20_700) == "+05:45")
  }

  @Test(
    arguments: [
      ("90s", 90), ("15m", 900), ("1h30m", 5400), ("1h 30m", 5400), ("1m30s", 90),
      ("1d2h", 93_600), ("2h", 7200), ("1d", 86_400),
      ("PT15M", 900),
      ("PT1H30M", 5400), ("P1D", 86_400), ("P1DT1S", 86_401), ("20m", 1200), ("0m", 0),
    ] as [(String, Int64)])
  func durations(_ text: String, _ seconds: Int64) throws {
    #expect(try parseDuration(text) == seconds)
  }

  @Test(arguments: ["", "m", "15x", "-5m", "PT", "P1H", "1.5h", "367d", "P9999999999999999999D"])
  func badDurations(_ text: String) {
    #expect(throws: TimeParseError.self) { try parseDuration(text) }
  }

  /// Components that each fit but together pass Int64 are refused, not a trap (a pickup body
  /// could crash the service with them): 15,300 weeks of 10^9 - 1, or 107,000 such days.
  @Test(
    arguments: [
      "P" + String(repeating: "999999999W", count: 16_000),
      String(repeating: "999999999d", count: 110_000),
    ])
  func durationsWhoseSumOverflows(_ text: String) {
    #expect(throws: TimeParseError.self) { try parseDuration(text) }
  }
}
