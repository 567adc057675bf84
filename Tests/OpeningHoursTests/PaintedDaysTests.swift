import Dispatch
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
    var generator = SplitMix(seed: 11)
    let start = Fixture.at(2025, 12, 1).secondsSinceEpoch
    // Days far apart and close together, so slots are filled, reused and hit.
    for _ in 0..<4000 {
      let instant = Instant(secondsSinceEpoch: start + Int64(generator.next() % (400 * 86_400)))
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
    let mismatches = Mismatches()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      // Every worker asks every instant, so they race on the same slots.
      for (offset, instant) in instants.enumerated() {
        if schedule.status(at: instant) != expected[offset] { mismatches.add() }
      }
    }
    #expect(mismatches.count == 0)
  }
}

/// A counter shared by threads.
final class Mismatches: @unchecked Sendable {
  private let lock = DispatchQueue(label: "mismatches")
  private var value = 0
  func add() { lock.sync { value += 1 } }
  var count: Int { lock.sync { value } }
}

/// A small deterministic generator, so a failure repeats.
struct SplitMix {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
