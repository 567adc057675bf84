import Testing

@testable import OpeningHours

/// Sun-dependent hours with coordinates use the computed solar times in the store's wall clock.
@Suite struct SunScheduleTests {
  func schedule(_ text: String, _ zone: String, latitude: Double?, longitude: Double?) throws -> Schedule {
    Schedule(
      try OpeningHours(parsing: text), timeZone: try TimeZoneRules(identifier: zone), latitude: latitude,
      longitude: longitude)
  }

  func firstChange(_ schedule: Schedule, _ local: String) throws -> String {
    let start = try TimeQuery(parsing: local).instant(in: schedule.timeZone)
    let change = try #require(schedule.nextChange(after: start))
    return schedule.timeZone.localDateTime(at: change).hourAndMinute
  }

  @Test func berlinSunriseInJuneIsBeforeFive() throws {
    let berlin = try schedule("sunrise-sunset", "Europe/Berlin", latitude: 52.52, longitude: 13.405)
    // Sunrise 04:43, sunset 21:33 (CEST) on the solstice.
    #expect(try firstChange(berlin, "2026-06-21T00:00") == "04:43")
    #expect(try firstChange(berlin, "2026-06-21T12:00") == "21:33")
    #expect(berlin.warnings.isEmpty)
  }

  @Test func withoutCoordinatesTheDefaultsApplyWithAWarning() throws {
    let anywhere = try schedule("sunrise-sunset", "Europe/Berlin", latitude: nil, longitude: nil)
    #expect(try firstChange(anywhere, "2026-06-21T00:00") == "06:00")
    #expect(anywhere.warnings.map(\.code) == ["no-coordinates"])
  }

  @Test func midnightSunKeepsTromsoOpenAllDayAndPolarNightClosed() throws {
    let tromso = try schedule("sunrise-sunset", "Europe/Oslo", latitude: 69.65, longitude: 18.96)
    let june = try TimeQuery(parsing: "2026-06-21T03:00").instant(in: tromso.timeZone)
    #expect(tromso.isOpen(at: june))
    let december = try TimeQuery(parsing: "2026-12-21T12:00").instant(in: tromso.timeZone)
    #expect(!tromso.isOpen(at: december))
  }
}
