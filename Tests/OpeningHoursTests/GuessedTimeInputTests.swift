import Testing

@testable import OpeningHours

/// Times and durations that used to be guessed (a date read as midnight, a bare number read as
/// minutes) are refused with a sentence that shows what to write instead.
@Suite struct GuessedTimeInputTests {
  @Test(arguments: ["2026-12-24", "2026-02-28"])
  func aDateAloneIsRefusedWithFullTimes(_ text: String) {
    #expect {
      _ = try TimeQuery(parsing: text)
    } throws: { error in
      let message = (error as? TimeParseError)?.description ?? ""
      return message
        == "\(text) is a date; give a time too, such as \(text)T09:00 (wall time at each store) or \(text)T09:00:00Z"
    }
  }

  @Test func theSuggestedTimesParse() throws {
    let date = try #require(LocalDate(year: 2026, month: 12, day: 24))
    #expect(
      try TimeQuery(parsing: "2026-12-24T09:00") == .wallTime(LocalDateTime(date: date, hour: 9, minute: 0)))
    #expect(
      try TimeQuery(parsing: "2026-12-24T09:00:00Z") == .instant(Instant(secondsSinceEpoch: 1_798_102_800)))
  }

  @Test(arguments: [("90", "write 90s for seconds or 90m for minutes"), ("0", "write 0s for seconds or 0m")])
  func aBareNumberIsNotADuration(_ text: String, _ advice: String) {
    #expect {
      _ = try parseDuration(text)
    } throws: { error in
      ((error as? TimeParseError)?.description ?? "").contains(advice)
    }
  }

  @Test(arguments: [
    ("1h30", "write 1h30m"), ("1m30", "write 1m30s"), ("1d2", "write 1d2h"), ("1h 30", "write 1h 30m"),
  ])
  func aTrailingNumberNeedsItsUnit(_ text: String, _ advice: String) {
    #expect {
      _ = try parseDuration(text)
    } throws: { error in
      ((error as? TimeParseError)?.description ?? "").contains(advice)
    }
  }
}
