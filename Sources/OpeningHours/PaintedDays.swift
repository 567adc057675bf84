import Synchronization

/// The day timelines a schedule with sun times painted last, by day: a service asks about the
/// same few days (today, tomorrow) again and again, and painting one evaluates every rule (and,
/// with unknown holiday facts, every assumption about them) — hundreds of nanoseconds — where a
/// lookup costs a lock and a compare.
///
/// Only for schedules with sun times, whose every day is a timeline of its own (the sunrise moves),
/// so the day table (`DayTable`) of the other date-dependent schedules, which keeps a timeline per
/// kind of day, would keep one per day. Such a schedule belongs to one store (its place decides its
/// sun times), so its lock is shared only by the threads asking about that store. Left for later: a
/// bounded cache without a lock for them too (issue 25).
///
/// Shared by every copy of a `Schedule` (a catalog shares one schedule among the stores with the
/// same hours, zone and calendar), so one store's question warms the cache for all of them.
/// Direct-mapped: day `d` lives in slot `d % slotCount`, so memory stays fixed whatever is asked.
final class PaintedDays: Sendable {
  /// Eight days: a week of questions and the day after.
  static let slotCount = 8

  private struct Slot {
    var day = Int.min
    var segments = DaySegments.closedAllDay
  }

  private let slots = Mutex<[Slot]>(Array(repeating: Slot(), count: PaintedDays.slotCount))

  /// The timeline of `day`, painted by `paint` when this cache does not hold it.
  func segments(day: Int, paint: (Int) -> DaySegments) -> DaySegments {
    let slot = ((day % Self.slotCount) + Self.slotCount) % Self.slotCount
    let cached: DaySegments? = slots.withLock { slots in
      slots[slot].day == day ? slots[slot].segments : nil
    }
    if let cached { return cached }
    // Painted outside the lock: two threads may paint the same day, neither waits on the other.
    let segments = paint(day)
    slots.withLock { slots in slots[slot] = Slot(day: day, segments: segments) }
    return segments
  }
}
