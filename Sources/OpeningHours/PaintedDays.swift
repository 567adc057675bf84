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

/// The last stretch a search of a date-dependent schedule found without a change: from an
/// instant up to the change it found, or to its limit. A later search that starts inside the
/// stretch, with the same status there, resumes at the stretch's end instead of walking it again:
/// a batch asks about one value at many instants of a year, and a value that never changes would
/// otherwise walk its century of days once for each of them.
///
/// Shared by every copy of a `Schedule`, like `PaintedDays`; a stretch is only ever stored whole,
/// so a race loses a stretch, never an answer.
final class QuietStretch: Sendable {
  struct Stretch {
    /// The status throughout (state and comment, or the state alone when `sameState`).
    var status: OpeningStatus
    var sameState: Bool
    var start: Instant
    var end: Instant
  }

  private let last = Mutex<Stretch?>(nil)

  /// The stretch that holds `instant` for a search of this kind, if one is known.
  func stretch(holding instant: Instant, status: OpeningStatus, sameState: Bool) -> Stretch? {
    last.withLock { last in
      guard let s = last, s.sameState == sameState, s.status == status, s.start <= instant, instant < s.end
      else { return nil }
      return s
    }
  }

  func remember(_ stretch: Stretch) {
    guard stretch.start < stretch.end else { return }
    last.withLock { $0 = stretch }
  }
}
