import OpeningHours
import Synchronization

/// The compiled schedule of each schedule group, set once and then only read, without a lock.
///
/// Every store a query looks at reads its group's schedule, from every thread at once: behind the
/// table's `Mutex` that was one lock taken and released per store looked at, by all threads, and
/// the lock's word written by each of them (issue 25: nothing shared may be written on the answer
/// path). Here a read is one atomic load of a slot that never changes once set; a race to compile
/// a group compiles it twice and keeps the first.
final class ScheduleSlots: @unchecked Sendable {
  /// What a group compiled to: a schedule, or `nil` when its hours cannot be evaluated.
  private final class Compiled: Sendable {
    let schedule: Schedule?
    init(_ schedule: Schedule?) { self.schedule = schedule }
  }

  // `@unchecked Sendable`: the slots are atomics, allocated once and freed with the object.
  private let slots: UnsafeMutablePointer<AtomicLazyReference<Compiled>>
  let count: Int

  init(count: Int) {
    self.count = count
    slots = .allocate(capacity: max(count, 1))
    for group in 0..<count { (slots + group).initialize(to: AtomicLazyReference()) }
  }

  deinit {
    slots.deinitialize(count: count)
    slots.deallocate()
  }

  /// The group's schedule: `.some(schedule)` once set (`.some(nil)` for hours that cannot be
  /// evaluated), `nil` while it has not been compiled.
  func schedule(ofGroup group: Int) -> Schedule?? {
    precondition(group >= 0 && group < count)
    guard let compiled = slots[group].load() else { return nil }
    return .some(compiled.schedule)
  }

  /// Sets the group's schedule unless another thread did first; the one kept.
  @discardableResult
  func set(_ schedule: Schedule?, ofGroup group: Int) -> Schedule? {
    precondition(group >= 0 && group < count)
    return slots[group].storeIfNil(Compiled(schedule)).schedule
  }
}
