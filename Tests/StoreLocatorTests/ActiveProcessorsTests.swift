import Synchronization
import Testing

@testable import StoreLocator

/// `ActiveProcessors.run` calls every part once, at the same time, and returns after the last.
@Suite struct ActiveProcessorsTests {
  @Test(arguments: [0, 1, 2, 7])
  func everyPartRunsOnceAndTheCallReturnsAfterAll(parts: Int) {
    let calls = Mutex([Int](repeating: 0, count: parts))
    ActiveProcessors.run(parts: parts) { part in
      calls.withLock { $0[part] += 1 }
    }
    #expect(calls.withLock { $0 } == [Int](repeating: 1, count: parts))
  }

  /// The parts run at once: each waits until every other has started, which parts run one after
  /// another (or on fewer threads than parts) would never see.
  @Test func thePartsRunAtTheSameTime() async {
    let parts = 4
    let started = Atomic(0)
    let sawEveryOther = Atomic(0)
    ActiveProcessors.run(parts: parts) { _ in
      started.add(1, ordering: .sequentiallyConsistent)
      let deadline = ContinuousClock.now + .seconds(60)
      while started.load(ordering: .sequentiallyConsistent) < parts, ContinuousClock.now < deadline {}
      if started.load(ordering: .sequentiallyConsistent) == parts {
        sawEveryOther.add(1, ordering: .sequentiallyConsistent)
      }
    }
    #expect(sawEveryOther.load(ordering: .sequentiallyConsistent) == parts)
  }
}
