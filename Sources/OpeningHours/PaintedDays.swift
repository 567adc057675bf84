import Synchronization

/// The day timelines a date-dependent schedule painted last, by day: a service asks about the
/// same few days (today, tomorrow) again and again, and painting one evaluates every rule (and,
/// with unknown holiday facts, every assumption about them) — hundreds of nanoseconds — where a
/// lookup costs a lock and a compare.
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
