import Foundation
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
    #expect(formattedOffset(1172) == "+00:19:32")
    #expect(formattedOffset(-(14 * 3600 + 5)) == "-14:00:05")
  }

  /// Times are written as bytes, digit by digit: Foundation's own ISO 8601 formatter, a different
  /// implementation, agrees with them on instants spread over the supported years, in zones east
  /// and west of UTC (Foundation writes `Z` for UTC, so the zones here are not UTC).
  @Test func instantsAreWrittenAsFoundationWritesThem() throws {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    var generator = SystemRandomNumberGenerator()
    let supported = TimeQuery.supportedInstants
    for _ in 0..<2_000 {
      let seconds = Int64.random(
        in: supported.lowerBound.secondsSinceEpoch..<supported.upperBound.secondsSinceEpoch - 86_400,
        using: &generator)
      let offset = Int.random(in: 1...(14 * 4), using: &generator) * 15 * 60 * (Bool.random() ? 1 : -1)
      let zone = TimeZoneRules.fixed(offsetSeconds: offset, identifier: "Test/Offset")
      formatter.timeZone = try #require(TimeZone(secondsFromGMT: offset))
      let date = Date(timeIntervalSince1970: TimeInterval(seconds))
      #expect(iso8601(Instant(secondsSinceEpoch: seconds), in: zone) == formatter.string(from: date))
    }
  }

  /// Years outside four digits keep every digit, and a year before 1 its sign, as `String(year)`.
  @Test func yearsOfOtherWidthsKeepTheirDigits() throws {
    for year in [-12_345, -1, 0, 7, 99, 2026, 12_345, 1_000_000] {
      let date = try #require(LocalDate(year: year, month: 3, day: 9))
      let digits = String(year.magnitude)
      let padded = String(repeating: "0", count: max(0, 4 - digits.count)) + digits
      #expect(date.description == (year < 0 ? "-" : "") + padded + "-03-09")
    }
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
