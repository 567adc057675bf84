import Testing

@testable import OpeningHours

/// Ranges whose ends move (sun times, Easter), a year on the end of a date range alone, and Feb 29
/// at either end of a range (issue 13, item 1). Expected values worked out by hand from the
/// calendar and Berlin's sunrise times.
@Suite("Range ends: variable, year on the end only, Feb 29")
struct RangeEndTests {
  typealias F = Fixture

  func state(_ s: Schedule, _ y: Int, _ m: Int, _ d: Int, _ h: Int = 12) -> OpeningState {
    s.status(at: F.at(y, m, d, h)).state
  }

  func berlin(_ text: String) throws -> (Schedule, TimeZoneRules) {
    let zone = try TimeZoneRules(identifier: "Europe/Berlin")
    let schedule = Schedule(
      try OpeningHours(parsing: text), timeZone: zone, latitude: 52.52, longitude: 13.405)
    return (schedule, zone)
  }

  func wall(_ zone: TimeZoneRules, _ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0) -> Instant {
    TimeQuery.wallTime(LocalDateTime(date: LocalDate(year: y, month: m, day: d)!, hour: h, minute: min))
      .instant(in: zone)
  }

  @Test("sunrise-08:00 is empty on days the sun rises after 08:00, not open around the clock")
  func sunStartAfterFixedEnd() throws {
    let (s, zone) = try berlin("sunrise-08:00")
    // Berlin, 2026-01-15: the sun rises at about 08:10 CET, after 08:00.
    for hour in [0, 3, 7, 9, 12, 23] {
      #expect(s.status(at: wall(zone, 2026, 1, 15, hour)).state == .closed, "2026-01-15 \(hour):00")
    }
    // Late in January the sun rises before 08:00 again: the first opening is a sunrise, and the
    // span closes at 08:00 the same morning.
    let opening = try #require(s.nextChange(after: wall(zone, 2026, 1, 15, 0)))
    #expect(opening > wall(zone, 2026, 1, 20, 0) && opening < wall(zone, 2026, 2, 1, 0))
    #expect(s.status(at: opening).state == .open)
    let local = zone.localDateTime(at: opening)
    #expect(local.hour == 7)
    #expect(s.nextChange(after: opening) == wall(zone, local.date.year, local.date.month, local.date.day, 8))
    // In June the sun rises before 05:00: open from sunrise to 08:00, closed after.
    #expect(s.status(at: wall(zone, 2026, 6, 15, 6)).state == .open)
    #expect(s.status(at: wall(zone, 2026, 6, 15, 3)).state == .closed)
    #expect(s.status(at: wall(zone, 2026, 6, 15, 9)).state == .closed)
  }

  @Test("sunrise-06:00 is not 24 hours: the default sunrise is 06:00, but it is no clock time")
  func sunStartAtTheDefaultOfTheEnd() throws {
    let (s, zone) = try berlin("sunrise-06:00")
    // Berlin, 2026-01-15: the sun rises after 08:00, so there is no span at all.
    for hour in [0, 5, 7, 9, 12, 23] {
      #expect(s.status(at: wall(zone, 2026, 1, 15, hour)).state == .closed, "2026-01-15 \(hour):00")
    }
    // 2026-06-15: sunrise before 05:00, open until 06:00.
    #expect(s.status(at: wall(zone, 2026, 6, 15, 5, 30)).state == .open)
    #expect(s.status(at: wall(zone, 2026, 6, 15, 6, 30)).state == .closed)
  }

  @Test("a span that runs past midnight as written still does with a sun time")
  func sunSpanPastMidnight() throws {
    let (s, zone) = try berlin("sunset-02:00")
    #expect(s.status(at: wall(zone, 2026, 1, 15, 23)).state == .open)
    #expect(s.status(at: wall(zone, 2026, 1, 16, 1)).state == .open)
    #expect(s.status(at: wall(zone, 2026, 1, 16, 3)).state == .closed)
    #expect(s.status(at: wall(zone, 2026, 1, 15, 12)).state == .closed)
  }

  @Test("easter-Apr 20 is empty when Easter is after Apr 20; easter-Apr 02 runs to the next Apr 2")
  func easterToFixedDate() throws {
    // Easter: 2015 Apr 5, 2016 Mar 27, 2019 Apr 21, 2020 Apr 12.
    let late = try F.schedule("easter-Apr 20")
    #expect(state(late, 2019, 4, 21) == .closed)
    #expect(state(late, 2019, 6, 1) == .closed)
    #expect(state(late, 2020, 1, 15) == .closed)
    #expect(state(late, 2020, 4, 11) == .closed)
    #expect(state(late, 2020, 4, 12) == .open)
    #expect(state(late, 2020, 4, 20) == .open)
    #expect(state(late, 2020, 4, 21) == .closed)
    #expect(late.nextChange(after: F.at(2019, 5, 1)) == F.at(2020, 4, 12))

    let early = try F.schedule("easter-Apr 02")
    #expect(state(early, 2019, 4, 20) == .closed)
    #expect(state(early, 2019, 4, 21) == .open)
    #expect(state(early, 2019, 12, 31) == .open)
    #expect(state(early, 2020, 4, 2) == .open)
    #expect(state(early, 2020, 4, 3) == .closed)
    #expect(state(early, 2020, 4, 12) == .open)
    // 2016: Easter on Mar 27, before Apr 2: the 2015 range (Apr 5 2015 to Apr 2 2016) and the
    // 2016 one (Mar 27 to Apr 2) both end on Apr 2.
    #expect(state(early, 2016, 1, 10) == .open)
    #expect(state(early, 2016, 4, 2) == .open)
    #expect(state(early, 2016, 4, 3) == .closed)
    #expect(state(early, 2016, 12, 1) == .closed)
  }

  @Test("Mar 28-2027 Apr 16 starts on 2027 Mar 28, not at every earlier date")
  func yearOnTheEndOnly() throws {
    let s = try F.schedule("Mar 28-2027 Apr 16")
    #expect(state(s, 2026, 3, 30) == .closed)
    #expect(state(s, 2026, 6, 1) == .closed)
    #expect(state(s, 2027, 3, 27) == .closed)
    #expect(state(s, 2027, 3, 28) == .open)
    #expect(state(s, 2027, 4, 16) == .open)
    #expect(state(s, 2027, 4, 17) == .closed)
    #expect(s.nextChange(after: F.at(2027, 1, 1)) == F.at(2027, 3, 28))
    #expect(s.nextChange(after: F.at(2027, 3, 28)) == F.at(2027, 4, 17))

    // The start falls after the end in the end's year: it is the previous year's.
    let winter = try F.schedule("Dec 24-2027 Jan 02")
    #expect(state(winter, 2025, 12, 30) == .closed)
    #expect(state(winter, 2026, 12, 23) == .closed)
    #expect(state(winter, 2026, 12, 30) == .open)
    #expect(state(winter, 2027, 1, 2) == .open)
    #expect(state(winter, 2027, 1, 3) == .closed)

    // Easter 2025 is Apr 20, after 2025 Jan Su[-2] (Jan 19): the range starts at Easter 2024 (Mar 31).
    let variable = try F.schedule("easter-2025 Jan Su[-2]")
    #expect(state(variable, 2024, 3, 30) == .closed)
    #expect(state(variable, 2024, 3, 31) == .open)
    #expect(state(variable, 2025, 1, 19) == .open)
    #expect(state(variable, 2025, 1, 20) == .closed)
    #expect(state(variable, 2023, 6, 1) == .closed)
  }

  @Test("Feb 29 starts a range on Mar 1 and ends one on Feb 28 in a common year")
  func february29() throws {
    let from = try F.schedule("Feb 29-Mar 15")
    #expect(state(from, 2026, 2, 28) == .closed)
    #expect(state(from, 2026, 3, 1) == .open)
    #expect(state(from, 2026, 3, 15) == .open)
    #expect(state(from, 2026, 3, 16) == .closed)
    #expect(state(from, 2028, 2, 28) == .closed)
    #expect(state(from, 2028, 2, 29) == .open)
    #expect(from.nextChange(after: F.at(2026, 2, 1)) == F.at(2026, 3, 1))

    let to = try F.schedule("Feb 01-Feb 29")
    #expect(state(to, 2026, 2, 28) == .open)
    #expect(state(to, 2026, 3, 1) == .closed)
    #expect(state(to, 2028, 2, 29) == .open)

    let alone = try F.schedule("Feb 29")
    #expect(state(alone, 2026, 2, 28) == .closed)
    #expect(state(alone, 2026, 3, 1) == .closed)
    #expect(state(alone, 2028, 2, 29) == .open)
  }
}
