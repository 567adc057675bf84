import Synchronization

/// A value computed on first use and then read without a lock: one atomic load.
///
/// For what every query reads and nothing changes once made (a table's key numbers, its subtree
/// summaries): behind a `Mutex` each read took and released the lock, from every thread. The
/// first computation is still done once, under a lock of its own, since it may be large.
final class ComputedOnce<Value: Sendable>: Sendable {
  private final class Box: Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
  }

  private let box = AtomicLazyReference<Box>()
  private let computing = Mutex(())

  /// The value, computed by `compute` if no call has yet.
  func value(_ compute: () -> Value) -> Value {
    if let box = box.load() { return box.value }
    return computing.withLock { _ in
      if let box = box.load() { return box.value }
      return box.storeIfNil(Box(compute())).value
    }
  }
}
