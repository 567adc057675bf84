import Testing

@testable import OpeningHours

@Suite struct CivilTimeTests {
  @Test func daysSinceEpochRoundTripsAcrossCenturiesAndLeapDays() throws {
    for days in stride(from: -800_000, through: 800_000, by: 997) {
      #expect(LocalDate(daysSinceEpoch: days).daysSinceEpoch == days)
    }
    let leapDay = try #require(LocalDate(year: 2028, month: 2, day: 29))
    #expect(leapDay.adding(days: 1) == LocalDate(year: 2028, month: 3, day: 1))
    #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
    #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
    #expect(LocalDate(year: 1900, month: 2, day: 29) == nil)
  }

  @Test func weekdaysAreISO() throws {
    #expect(try #require(LocalDate(year: 1970, month: 1, day: 1)).weekday == 3)  // Thursday
    #expect(try #require(LocalDate(year: 2026, month: 11, day: 22)).weekday == 6)  // Sunday
    #expect(try #require(LocalDate(year: 1969, month: 12, day: 29)).weekday == 0)  // Monday
  }

  @Test func instantsBeforeTheEpochFloorToTheRightDay() {
    let local = LocalDateTime(utc: Instant(secondsSinceEpoch: -1))
    #expect(local.description == "1969-12-31T23:59:59")
    #expect(Instant(secondsSinceEpoch: 1_774_745_940).description == "2026-03-29T00:59:00Z")
  }
}
