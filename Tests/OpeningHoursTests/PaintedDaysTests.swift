import Dispatch
import Synchronization
import Testing

@testable import OpeningHours

/// The painted-days cache of date-dependent schedules answers as painting the day afresh does,
/// whatever order days are asked in (slots are reused), and from many threads at once.
@Suite struct PaintedDaysTests {
  static let berlin = try! TimeZoneRules(identifier: "Europe/Berlin")
  static let expressions = [
    "Mo-Fr 08:00-18:00; PH off", "Mo-Sa 09:00-19:00; Dec 24 07:00-14:00; Dec 25-26 off",
    "Jun-Aug Mo-Su 07:00-22:00; Sep-May Mo-Fr 08:00-17:00",
    "week 01-26 Mo-Fr 09:00-12:00; week 27-53 Sa 10:00-16:00",
    "easter -2 days-easter +1 day off; Mo-Su 10:00-20:00", "PH 10:00-14:00; Fr,Sa 18:00-02:00",
  ]

  /// The state and comment an uncached evaluation gives at `instant`.
  static func fresh(_ schedule: Schedule, _ instant: Instant) -> OpeningStatus {
    let (day, second) = Schedule.split(schedule.local(instant))
    return schedule.evaluator.segments(day: day).status(at: second)
  }

  @Test(arguments: expressions)
  func answersAsAFreshPaintInAnyOrder(_ text: String) throws {
    let schedule = Schedule(try OpeningHours(parsing: text), timeZone: Self.berlin, holidays: Fixture.germany)
    try #require(schedule.week == nil, "a date-dependent expression: \(text)")
    let start = Fixture.at(2025, 12, 1).secondsSinceEpoch
    // A step of 1.37 days modulo 400 days: days far apart and close together, in no order, so
    // slots are filled, reused and hit.
    for step in 0..<4000 {
      let instant = Instant(secondsSinceEpoch: start + Int64(step) * 118_369 % (400 * 86_400))
      #expect(schedule.status(at: instant) == Self.fresh(schedule, instant), "\(text) at \(instant)")
      #expect(schedule.isOpen(at: instant) == (Self.fresh(schedule, instant).state == .open))
    }
  }

  @Test func manyThreadsGetTheSameAnswers() throws {
    let schedule = Schedule(
      try OpeningHours(parsing: Self.expressions[1]), timeZone: Self.berlin, holidays: Fixture.germany)
    let start = Fixture.at(2026, 12, 20).secondsSinceEpoch
    let instants = (0..<2000).map { Instant(secondsSinceEpoch: start + Int64($0) * 3_607) }
    let expected = instants.map { Self.fresh(schedule, $0) }
    let mismatches = Atomic(0)
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      // Every worker asks every instant, so they race on the same slots.
      for (offset, instant) in instants.enumerated() {
        if schedule.status(at: instant) != expected[offset] { mismatches.add(1, ordering: .relaxed) }
      }
    }
    #expect(mismatches.load(ordering: .relaxed) == 0)
  }
}
