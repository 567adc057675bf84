import Testing

@testable import OpeningHours

/// `Schedule.possiblyOpenHours(within:)`: every instant at which a schedule is not closed falls in
/// one of its hours, across DST changes and odd offsets, and the sets are no larger than they
/// must be.
@Suite struct HoursOfWeekTests {
  typealias F = Fixture

  @Test func utcHourOfTheWeek() {
    #expect(HoursOfWeek.utcHour(of: F.at(1970, 1, 5)) == 0)  // a Monday
    #expect(HoursOfWeek.utcHour(of: F.at(1970, 1, 1)) == 72)  // a Thursday
    #expect(HoursOfWeek.utcHour(of: F.at(2026, 11, 22, 23, 59)) == 167)  // a Sunday
    #expect(HoursOfWeek.utcHour(of: F.at(1969, 12, 31, 23, 30)) == 71)
    #expect(HoursOfWeek.utcHour(of: F.at(1900, 1, 1, 5)) == 5)  // a Monday
  }

  static let zones = [
    "Europe/Berlin", "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Chatham", "America/Sao_Paulo",
    "America/St_Johns", "Pacific/Apia",
  ]
  static let weekly = [
    "Mo-Fr 09:00-17:00", "Mo-Sa 22:00-02:00", "24/7", "Tu 10:00-10:30; Th 23:45-24:00",
    "Mo-Su 06:00-22:00; We off", "Fr 18:00-26:00", "Mo-Fr 08:00-12:00 unknown, Sa 09:00-09:15",
  ]

  /// Weekly schedules, over a window of a century: checked at random instants in it.
  @Test(arguments: zones)
  func weeklyHoursCoverEveryOpenInstant(zone: String) throws {
    let rules = try TimeZoneRules(identifier: zone)
    var seed: UInt64 = 7
    for text in Self.weekly {
      let schedule = try F.schedule(text, zone: rules)
      #expect(schedule.isWeekly)
      let hours = schedule.possiblyOpenHours(within: F.at(1950, 1, 1)..<F.at(2050, 1, 1))
      for _ in 0..<20_000 {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        let instant = F.at(1950, 1, 1) + Int64((seed >> 20) % (100 * 365 * 86_400))
        if schedule.status(at: instant).state != .closed {
          #expect(hours.contains(HoursOfWeek.utcHour(of: instant)), "\(text) in \(zone) at \(instant)")
        }
      }
    }
  }

  /// Date-dependent schedules, every 10 minutes of a window, with and without holiday data.
  @Test func datedHoursCoverTheirWindow() throws {
    let rules = try TimeZoneRules(identifier: "Europe/Berlin")
    let window = F.at(2026, 3, 1)..<F.at(2026, 11, 1)
    for text in [
      "Mo-Fr 09:00-17:00; PH off", "Apr-Sep Sa 10:00-14:00", "2026 Oct 26 18:00-23:00",
      "Mo-Su 08:00-20:00; Dec 24-26 off; PH 10:00-12:00 off", "Mo-Fr 22:00-02:00; Sa off; PH off",
    ] {
      for holidays in [F.germany, nil] {
        let schedule = try F.schedule(text, holidays: holidays, zone: rules)
        #expect(!schedule.isWeekly)
        let hours = schedule.possiblyOpenHours(within: window)
        var instant = window.lowerBound
        while instant < window.upperBound {
          if schedule.status(at: instant).state != .closed {
            #expect(hours.contains(HoursOfWeek.utcHour(of: instant)), "\(text) at \(instant)")
          }
          instant = instant + 600
        }
      }
    }
  }

  /// Schedules whose dated rules only close get the hours of their weekly rules; others get all.
  @Test func closingOnlyDatedRulesKeepTheWeeklyHours() throws {
    let berlin = try TimeZoneRules(identifier: "Europe/Berlin")
    let window = F.at(2026, 1, 1)..<F.at(2027, 1, 1)
    let office = try F.schedule("Mo-Fr 09:00-17:00", zone: berlin).possiblyOpenHours(within: window)
    let withHolidays = try F.schedule(
      "Mo-Fr 09:00-17:00; PH off; Dec 24 off", holidays: F.germany, zone: berlin)
    #expect(withHolidays.possiblyOpenHours(within: window) == office)
    #expect(try F.schedule("Apr-Sep Sa 10:00-14:00", zone: berlin).possiblyOpenHours(within: window) == .all)
    #expect(
      try F.schedule("Mo-Fr 09:00-17:00 || PH off", zone: berlin).possiblyOpenHours(within: window) == .all)
  }

  /// The sets are tight: Berlin's 09:00-17:00 is 07:00-16:00 UTC (CEST and CET together).
  @Test func hoursAreNoWiderThanTheOffsetsRequire() throws {
    let berlin = try TimeZoneRules(identifier: "Europe/Berlin")
    let window = F.at(2026, 1, 1)..<F.at(2027, 1, 1)
    let office = try F.schedule("Mo-Fr 09:00-17:00", zone: berlin).possiblyOpenHours(within: window)
    #expect(office.count == 5 * 9)
    #expect(office.contains(7) && office.contains(15) && !office.contains(6) && !office.contains(16))
    #expect(!office.contains(5 * 24 + 10))  // Saturday
    #expect(try F.schedule("24/7", zone: berlin).possiblyOpenHours(within: window) == .all)
    #expect(try F.schedule("off", zone: berlin).possiblyOpenHours(within: window) == HoursOfWeek())
    // Open on dates: any hour may be open (dates are not evaluated).
    #expect(try F.schedule("2026 Oct 24 10:00-11:00", zone: berlin).possiblyOpenHours(within: window) == .all)
    // Kathmandu's +05:45: 09:00-10:00 local spans two UTC hours.
    let kathmandu = try TimeZoneRules(identifier: "Asia/Kathmandu")
    let hour = try F.schedule("Mo 09:00-10:00", zone: kathmandu).possiblyOpenHours(within: window)
    #expect(hour.count >= 2 && hour.contains(3) && hour.contains(4))
  }

  @Test func offsetsInAWindowIncludeStandardAndDaylightTime() throws {
    let window = F.at(2026, 1, 1)..<F.at(2027, 1, 1)
    let lordHowe = try TimeZoneRules(identifier: "Australia/Lord_Howe").offsets(in: window)
    #expect(lordHowe == [10 * 3_600 + 1_800, 11 * 3_600])
    #expect(TimeZoneRules.utc.offsets(in: window) == [0])
    #expect(try TimeZoneRules(identifier: "Asia/Tokyo").offsets(in: window) == [9 * 3_600])
  }
}
