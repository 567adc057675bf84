import Dispatch
import Foundation
import Synchronization
import Testing

@testable import OpeningHours

/// The day table of date-dependent schedules (`DayTable`) answers as painting the day afresh does:
/// at random instants over many years, in any order, across midnight and DST transitions, on
/// public holidays and where the holiday data ends, outside the table's years and past its limit
/// of blocks, and from many threads at once.
@Suite struct DayTableTests {
  static let berlin = try! TimeZoneRules(identifier: "Europe/Berlin")
  static let newYork = try! TimeZoneRules(identifier: "America/New_York")
  static let expressions = [
    "Mo-Fr 08:00-18:00; PH off", "Mo-Sa 09:00-19:00; Dec 24 07:00-14:00; Dec 25-26 off",
    "Jun-Aug Mo-Su 07:00-22:00; Sep-May Mo-Fr 08:00-17:00",
    "week 01-26 Mo-Fr 09:00-12:00; week 27-53 Sa 10:00-16:00",
    "easter -2 days-easter +1 day off; Mo-Su 10:00-20:00", "PH 10:00-14:00; Fr,Sa 18:00-02:00",
    "Mo-Fr 01:30-02:30,22:00-03:00; Mar Su[-1] off \"DST\"; PH 02:00-04:00 \"holiday\"",
    "2020-2030/2 Jan 01 off; Dec Su[-1] 10:00-14:00; Mo-Su 09:00-17:00",
    "Mo-Fr sunrise-sunset; PH off", "Sa 10:00-dusk; Dec 24 off",
  ]

  /// The state and comment an uncached evaluation gives at `instant`.
  static func fresh(_ schedule: Schedule, _ instant: Instant) -> OpeningStatus {
    let (day, second) = Schedule.split(schedule.local(instant))
    return schedule.evaluator.segments(day: day).status(at: second)
  }

  static func check(_ schedule: Schedule, _ instants: [Instant], _ text: String) {
    for instant in instants {
      let expected = fresh(schedule, instant)
      #expect(schedule.status(at: instant) == expected, "\(text) at \(instant)")
      #expect(schedule.isOpen(at: instant) == (expected.state == .open), "\(text) at \(instant)")
    }
  }

  @Test(arguments: expressions)
  func answersAsAFreshPaintInAnyOrder(_ text: String) throws {
    for zone in [Self.berlin, Self.newYork] {
      let schedule = Schedule(
        try OpeningHours(parsing: text), timeZone: zone, holidays: Fixture.germany, latitude: 52.5,
        longitude: 13.4)
      try #require(schedule.week == nil, "a date-dependent expression: \(text)")
      let start = Fixture.at(2025, 12, 1).secondsSinceEpoch
      // A step of 1.37 days modulo 400 days: days far apart and close together, in no order.
      Self.check(
        schedule,
        (0..<2000).map { Instant(secondsSinceEpoch: start + Int64($0) * 118_369 % (400 * 86_400)) }, text)
      // Random instants from 1890 to 2300: before, inside and after the table's years, through
      // the years of the holiday data and past them (PH unknown).
      var random = DSTTests.Random(state: 25)
      let first = Fixture.at(1890, 1, 1).secondsSinceEpoch
      let last = Fixture.at(2300, 1, 1).secondsSinceEpoch
      Self.check(
        schedule,
        (0..<3000).map {
          _ in Instant(secondsSinceEpoch: first + Int64(random.next() % UInt64(last - first)))
        }, text)
      // Every 15 minutes around the DST transitions of 2026 and over the holidays of the data.
      for (y, m, d) in [(2026, 3, 28), (2026, 10, 24), (2026, 11, 1), (2026, 12, 23), (2026, 3, 6)] {
        let from = Fixture.at(y, m, d).secondsSinceEpoch
        Self.check(schedule, (0..<(4 * 96)).map { Instant(secondsSinceEpoch: from + Int64($0) * 900) }, text)
      }
      // A second either side of every local midnight of a fortnight.
      let midnight = Fixture.at(2026, 12, 20).secondsSinceEpoch
      Self.check(
        schedule,
        (0..<14).flatMap { day in
          [-1, 0, 1].map { Instant(secondsSinceEpoch: midnight + Int64(day) * 86_400 + Int64($0)) }
        }, text)
    }
  }

  @Test func pastTheBlockLimitDaysArePaintedAsBefore() throws {
    let text = Self.expressions[1]
    let schedule = Schedule(try OpeningHours(parsing: text), timeZone: Self.berlin, holidays: Fixture.germany)
    // One instant every 40 days for 60 years: more blocks than the table keeps.
    let start = Fixture.at(1960, 1, 1).secondsSinceEpoch
    let instants = (0..<550).map { Instant(secondsSinceEpoch: start + Int64($0) * 40 * 86_400 + 43_200) }
    Self.check(schedule, instants, text)
    Self.check(schedule, instants.reversed(), text)
    let table = try #require(schedule.days)
    #expect(table.block(holding: Schedule.split(schedule.local(instants[0])).day) != nil)
    #expect(table.block(holding: Schedule.split(schedule.local(instants[549])).day) == nil)
  }

  @Test(arguments: expressions)
  func nextChangesAsAScheduleThatNeverAnswered(_ text: String) throws {
    let hours = try OpeningHours(parsing: text)
    let shared = Schedule(
      hours, timeZone: Self.berlin, holidays: Fixture.germany, latitude: 52.5, longitude: 13.4)
    var random = DSTTests.Random(state: 2025)
    let first = Fixture.at(2024, 6, 1).secondsSinceEpoch
    for _ in 0..<150 {
      let instant = Instant(secondsSinceEpoch: first + Int64(random.next() % (5 * 365 * 86_400)))
      let fresh = Schedule(
        hours, timeZone: Self.berlin, holidays: Fixture.germany, latitude: 52.5, longitude: 13.4)
      #expect(
        shared.nextChange(after: instant) == fresh.nextChange(after: instant), "\(text) after \(instant)")
      let fresher = Schedule(
        hours, timeZone: Self.berlin, holidays: Fixture.germany, latitude: 52.5, longitude: 13.4)
      #expect(
        shared.nextStateChange(after: instant, horizonDays: 8)
          == fresher.nextStateChange(after: instant, horizonDays: 8), "\(text) after \(instant)")
    }
  }

  @Test func manyThreadsAtDifferentInstantsAnswerAsOne() throws {
    for text in Self.expressions {
      let hours = try OpeningHours(parsing: text)
      let schedule = Schedule(
        hours, timeZone: Self.berlin, holidays: Fixture.germany, latitude: 52.5, longitude: 13.4)
      let start = Fixture.at(2026, 12, 20).secondsSinceEpoch
      let instants = (0..<1500).map { Instant(secondsSinceEpoch: start + Int64($0) * 36_007) }
      // The expected answers from a schedule of their own, one thread.
      let alone = Schedule(
        hours, timeZone: Self.berlin, holidays: Fixture.germany, latitude: 52.5, longitude: 13.4)
      let expected = instants.map { (alone.status(at: $0), alone.nextStateChange(after: $0, horizonDays: 8)) }
      let mismatches = Counter()
      onThreads(8) { worker in
        // Each worker starts elsewhere, so they build and read the same blocks at once.
        for k in 0..<instants.count {
          let offset = (k + worker * 187) % instants.count
          let instant = instants[offset]
          if schedule.status(at: instant) != expected[offset].0
            || schedule.isOpen(at: instant) != (expected[offset].0.state == .open)
            || schedule.nextStateChange(after: instant, horizonDays: 8) != expected[offset].1
          {
            mismatches.value.add(1, ordering: .relaxed)
          }
        }
      }
      #expect(mismatches.value.load(ordering: .relaxed) == 0, "\(text)")
    }
  }
}

/// Runs `body(worker)` on `count` threads of their own and returns when all are done. Not
/// `DispatchQueue.concurrentPerform`: called from a test, which runs on Swift's cooperative pool,
/// it borrows that pool's threads, which the other suites' tasks are waiting for.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let done = DispatchGroup()
  for worker in 0..<count {
    done.enter()
    Thread {
      body(worker)
      done.leave()
    }.start()
  }
  done.wait()
}

/// A count that threads add to.
final class Counter: Sendable {
  let value = Atomic(0)
}
