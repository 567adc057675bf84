import Testing

@testable import OpeningHours

/// `nextChange` over years and millennia: days alike are painted once (`RuleEvaluator.DayKey`),
/// and a weekly schedule stops after a quiet week. Checked against painting every day.
@Suite("next change far ahead")
struct NextChangeSearchTests {
  typealias F = Fixture

  /// The next change found by painting every local day from `instant` (a UTC schedule), with no
  /// day skipped: what `nextChange` must answer.
  func paintedEveryDay(_ schedule: Schedule, after instant: Instant, days: Int) -> Instant? {
    let reference = schedule.status(at: instant)
    let first = Schedule.split(instant.secondsSinceEpoch).day
    for day in first..<(first + days) {
      let segments = schedule.evaluator.segments(day: day)
      for (i, start) in segments.starts.enumerated() {
        let at = Int64(day) * 86_400 + Int64(start)
        if at > instant.secondsSinceEpoch, segments.statuses[i] != reference {
          return Instant(secondsSinceEpoch: at)
        }
      }
    }
    return nil
  }

  @Test(
    "skipping days alike finds what painting every day finds",
    arguments: [
      "2031 Jun 10:00-12:00", "Feb 29", "week 53", "easter-Apr 20", "Mo-Fr 09:00-17:00; Dec 25 off",
      "2027-2035/3 Jun", "Dec Su[-1] 10:00-14:00", "Jan-Mar 08:00-12:00 || \"call us\"",
      "week 01-53/2 Mo 10:00-12:00", "Mo-Sa 09:00-18:00; PH off", "PH off", "PH 10:00-12:00",
      "2029 Dec 31,2030 Jan 05",
      "Jan 01-31/8 10:00-11:00", "2028 Feb 29-Mar 01 22:00-02:00", "Apr-Oct Sa 22:00-03:00",
    ])
  func againstPaintingEveryDay(text: String) throws {
    let schedule = try F.schedule(text, holidays: F.germany)
    // Ten years: past the holiday data (2025-2027), through leap years and a week 53 (2026).
    // From 2026-12-26 `PH 10:00-12:00` is quiet through 2027, a year without holidays, and turns
    // unknown on 2028-01-01, where the data ends: days alike by their dates, not by their holidays.
    for start in [F.at(2026, 1, 1), F.at(2026, 3, 23, 12, 30), F.at(2026, 12, 26), F.at(2027, 12, 31, 23)] {
      let expected = paintedEveryDay(schedule, after: start, days: 3_653)
      #expect(schedule.nextChange(after: start, horizonDays: 3_653) == expected, "\(text) after \(start)")
    }
  }

  @Test(
    "a schedule asked again inside a quiet stretch answers as a fresh one",
    arguments: [
      "2012 easter -2 days-2012 easter +2 days: open; PH off", "Jun 10:00-12:00", "Dec 25 off",
      "Mo-Fr 09:00-17:00; Dec 24-26 off", "PH 10:00-12:00 \"holiday hours\"; Jan 01 \"new year\"",
      "Apr-Oct Sa 22:00-03:00 \"late\"", "2027 Mar Mo 08:00-09:00",
    ])
  func quietStretches(text: String) throws {
    let shared = try F.schedule(text, holidays: F.germany)
    // Forwards, then backwards, then scattered: each answer must be what a schedule that never
    // searched before gives (its stretch cache is empty).
    let forwards = (0..<40).map {
      Instant(secondsSinceEpoch: F.at(2026, 1, 1).secondsSinceEpoch + Int64($0) * 777_777)
    }
    let scattered = [17, 3, 29, 11, 38, 0, 24, 6].map { forwards[$0] }
    // The cache keeps one stretch, of one kind: the state questions run after the others.
    for sameState in [false, true] {
      for instant in forwards + forwards.reversed() + scattered {
        for days in [30, 400, 1_200] {
          let fresh = try F.schedule(text, holidays: F.germany)
          let expected =
            sameState
            ? fresh.nextStateChange(after: instant, horizonDays: days)
            : fresh.nextChange(after: instant, horizonDays: days)
          let found =
            sameState
            ? shared.nextStateChange(after: instant, horizonDays: days)
            : shared.nextChange(after: instant, horizonDays: days)
          #expect(found == expected, "\(text) after \(instant) within \(days) days, state only: \(sameState)")
        }
      }
    }
  }

  @Test("a change centuries or millennia ahead, as opening-hours-rs finds it")
  func farAhead() throws {
    let years = try F.schedule("2000-3000")
    #expect(years.nextChange(after: F.at(2021, 2, 9, 21), horizonDays: 3_652_425) == F.at(3001, 1, 1))
    let far = try F.schedule("2020,8000-9000 10:00-22:00")
    #expect(far.nextChange(after: F.at(2021, 2, 9, 21), horizonDays: 3_652_425) == F.at(8000, 1, 1, 10))
    // Still bounded by the horizon asked for, and by the year 9999.
    #expect(far.nextChange(after: F.at(2021, 2, 9, 21), horizonDays: 400) == nil)
    let never = try F.schedule("Dec 25 off")
    #expect(never.nextChange(after: F.at(2021, 2, 9, 21), horizonDays: 3_652_425) == nil)
    let lastDay = try F.schedule("9999 Dec 30")
    #expect(lastDay.nextChange(after: F.at(2021, 1, 1), horizonDays: 3_652_425) == F.at(9999, 12, 30))
  }

  @Test("a weekly schedule answers within a week or never")
  func weekly() throws {
    let always = try F.schedule("24/7")
    #expect(always.nextChange(after: F.at(2026, 3, 23), horizonDays: 3_652_425) == nil)
    let days = try F.schedule("Mo-Fr 09:00-17:00")
    // Saturday noon: closed until Monday 09:00.
    #expect(days.nextChange(after: F.at(2026, 3, 28, 12), horizonDays: 3_652_425) == F.at(2026, 3, 30, 9))
    let berlin = try TimeZoneRules(identifier: "Europe/Berlin")
    let zoned = try F.schedule("Mo-Su 00:00-24:00", zone: berlin)
    #expect(zoned.nextChange(after: F.at(2026, 3, 23), horizonDays: 36_525) == nil)
  }
}
