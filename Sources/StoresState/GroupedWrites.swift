import Synchronization

/// Writes that arrive while one is under way wait and go together in the next: one transaction,
/// one commit (one fsync of the write-ahead log) for the whole group, as databases group commits.
///
/// SQLite has one writer at a time, so holds run one after another whatever their number; what a
/// group saves is the `BEGIN` and `COMMIT` round trips to the blocking pool and the fsync each
/// commit waits for, which on a shared disk ranged from 0.2 to 3 ms (`Benchmarks/README.md`,
/// Capacity). An idle storage writes a lone call at once, as before: nothing waits for company.
package final class GroupedWrites<Item: Sendable, Outcome: Sendable>: Sendable {
  private struct Waiting: Sendable {
    let item: Item
    let continuation: CheckedContinuation<Result<Outcome, StateStorageError>, Never>
  }

  private struct State: Sendable {
    var waiting: [Waiting] = []
    var isWriting = false
  }

  private let state = Mutex(State())
  /// The most items one write takes: a bound on how long one transaction holds the file's lock.
  package let largestGroup: Int

  package init(largestGroup: Int) {
    precondition(largestGroup > 0)
    self.largestGroup = largestGroup
  }

  /// Writes `item` with those waiting beside it, answering its outcome.
  /// - Parameter write: Writes a group in one transaction, answering one outcome per item in
  ///   order; when it throws, every item of the group fails with that error (nothing of the group
  ///   was committed).
  package func submit(
    _ item: Item, write: @escaping @Sendable ([Item]) async throws(StateStorageError) -> [Outcome]
  ) async throws(StateStorageError) -> Outcome {
    let result = await withCheckedContinuation { continuation in
      let leads = state.withLock { state in
        state.waiting.append(Waiting(item: item, continuation: continuation))
        guard !state.isWriting else { return false }
        state.isWriting = true
        return true
      }
      // The first to find no write under way starts the writer, which runs until nothing waits.
      // A task of its own: the caller's answer is not held up by the groups after its own.
      if leads { Task { await self.writeUntilNoneWait(write) } }
    }
    return try result.get()
  }

  private func writeUntilNoneWait(
    _ write: @Sendable ([Item]) async throws(StateStorageError) -> [Outcome]
  ) async {
    while true {
      let group = state.withLock { state -> [Waiting] in
        let group = Array(state.waiting.prefix(largestGroup))
        state.waiting.removeFirst(group.count)
        if group.isEmpty { state.isWriting = false }
        return group
      }
      if group.isEmpty { return }
      do throws(StateStorageError) {
        let outcomes = try await write(group.map(\.item))
        precondition(
          outcomes.count == group.count, "a group write answered \(outcomes.count) of \(group.count)")
        for (waiting, outcome) in zip(group, outcomes) {
          waiting.continuation.resume(returning: .success(outcome))
        }
      } catch {
        for waiting in group { waiting.continuation.resume(returning: .failure(error)) }
      }
    }
  }
}
