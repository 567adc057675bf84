import OpeningHours
import Synchronization

/// The statuses recent requests found, by schedule group and instant, shared by every request
/// on a table.
///
/// A service answers "what is near me now": its requests in the same second ask about the same
/// instant, and stores of the same group (one compiled schedule) then have the same
/// `StoreStatus`, so one evaluation serves every request of that second that lists a store of
/// the group. Keyed by the exact instant, as `GroupStatuses` is, so a hit is the value an
/// evaluation would give. Direct-mapped: a fixed number of slots, a new entry replaces the one
/// in its slot, so it never grows; a lock a lookup, held for a comparison and a copy.
final class RecentStatuses: Sendable {
  /// Slots: the 1M benchmark catalog has 5,829 schedule groups, and a service touches most of them
  /// every second, so a table about three times that keeps collisions rare (about 2 MB).
  static let slotBits = 14
  static let slotCount = 1 << slotBits

  private struct Entry {
    var group: Int
    var status: StoreStatus
  }

  private let slots = Mutex<[Entry?]>(Array(repeating: nil, count: RecentStatuses.slotCount))

  private static func slot(group: Int, instant: Instant) -> Int {
    let mixed =
      UInt64(truncatingIfNeeded: group) &* 0x9E37_79B9_7F4A_7C15
      ^ UInt64(bitPattern: instant.secondsSinceEpoch) &* 0xC2B2_AE3D_27D4_EB4F
    return Int(truncatingIfNeeded: mixed >> UInt64(64 - slotBits))
  }

  /// The status found for `group` at `instant`, if one is kept.
  func status(ofGroup group: Int, at instant: Instant) -> StoreStatus? {
    let slot = Self.slot(group: group, instant: instant)
    return slots.withLock { slots in
      guard let entry = slots[slot], entry.group == group, entry.status.instant == instant else { return nil }
      return entry.status
    }
  }

  /// Keeps `status` (at its instant) for `group`, in place of what its slot held.
  func remember(_ status: StoreStatus, ofGroup group: Int) {
    let slot = Self.slot(group: group, instant: status.instant)
    slots.withLock { $0[slot] = Entry(group: group, status: status) }
  }
}
