import OpeningHours

/// The statuses one request has found, by schedule group.
///
/// Stores in the same group share one compiled schedule (the same hours, zone and holiday
/// region), so at the same instant they have the same status, next change and all: ten results
/// with three distinct schedules cost three evaluations. Kept per request, in a small array the
/// request owns and reads without a lock; behind it, the table's `RecentStatuses` shares what
/// other requests found.
/// Only the same instant is reused: a later one before the next change has the same state, but
/// its `StoreStatus` differs (the instant itself, a comment that may change first, a look-ahead
/// that starts later).
struct GroupStatuses {
  /// Results rarely have more distinct schedules than this; past it the oldest is replaced.
  static let capacity = 16

  private var entries: [(group: Int, status: StoreStatus)] = []
  private var oldest = 0

  /// How many statuses are kept.
  var count: Int { entries.count }

  /// The status found for `group` at `instant`, if any.
  func status(ofGroup group: Int, at instant: Instant) -> StoreStatus? {
    for entry in entries where entry.group == group && entry.status.instant == instant { return entry.status }
    return nil
  }

  mutating func remember(_ status: StoreStatus, ofGroup group: Int) {
    if entries.count < Self.capacity {
      if entries.isEmpty { entries.reserveCapacity(Self.capacity) }
      entries.append((group, status))
    } else {
      entries[oldest] = (group, status)
      oldest = (oldest + 1) % Self.capacity
    }
  }
}
