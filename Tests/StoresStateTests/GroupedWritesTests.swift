import StoresState
import Synchronization
import Testing

/// `GroupedWrites`: calls that arrive during a write go together in the next, each answered its
/// own outcome, and a failed write fails its group alone.
@Suite struct GroupedWritesTests {
  /// What the writes saw: each group's items, in the order written.
  final class Written: Sendable {
    let groups = Mutex<[[Int]]>([])
  }

  @Test func callsDuringAWriteGoTogetherAndEachGetsItsOwnOutcome() async throws {
    let groups = GroupedWrites<Int, Int>(largestGroup: 16)
    let written = Written()
    let outcomes = try await withThrowingTaskGroup(of: (Int, Int).self) { tasks in
      for item in 0..<100 {
        tasks.addTask {
          let outcome = try await groups.submit(item) { (items) async throws(StateStorageError) -> [Int] in
            written.groups.withLock { $0.append(items) }
            // A write that takes a while, as a commit waiting for its fsync does.
            try? await Task.sleep(for: .milliseconds(5))
            return items.map { $0 * 10 }
          }
          return (item, outcome)
        }
      }
      return try await tasks.reduce(into: [Int: Int]()) { $0[$1.0] = $1.1 }
    }
    #expect(outcomes.count == 100)
    #expect(outcomes.allSatisfy { $0.value == $0.key * 10 })
    let seen = written.groups.withLock { $0 }
    // Every item written once, no group larger than the bound, and most calls shared a write.
    #expect(seen.flatMap { $0 }.sorted() == Array(0..<100))
    #expect(seen.allSatisfy { $0.count <= 16 })
    #expect(seen.count < 50, "\(seen.count) writes for 100 calls")
  }

  @Test func aLoneCallIsWrittenAtOnce() async throws {
    let groups = GroupedWrites<String, String>(largestGroup: 8)
    let outcome = try await groups.submit("a") { (items) async throws(StateStorageError) -> [String] in
      items.map { $0.uppercased() }
    }
    #expect(outcome == "A")
    // And again, after the writer stopped for want of calls.
    let again = try await groups.submit("b") { (items) async throws(StateStorageError) -> [String] in
      items.map { $0.uppercased() }
    }
    #expect(again == "B")
  }

  @Test func aFailedWriteFailsItsGroupAndTheNextWriteGoesOn() async throws {
    let groups = GroupedWrites<Int, Int>(largestGroup: 1)
    let results = await withTaskGroup(of: (Int, Result<Int, StateStorageError>).self) { tasks in
      for item in 0..<6 {
        tasks.addTask {
          do throws(StateStorageError) {
            let outcome = try await groups.submit(item) { (items) async throws(StateStorageError) -> [Int] in
              if items.contains(3) { throw StateStorageError(.unavailable, "the disk is full") }
              return items
            }
            return (item, .success(outcome))
          } catch {
            return (item, .failure(error))
          }
        }
      }
      return await tasks.reduce(into: [Int: Result<Int, StateStorageError>]()) { $0[$1.0] = $1.1 }
    }
    for item in 0..<6 {
      switch results[item] {
      case .success(let outcome): #expect(item != 3 && outcome == item)
      case .failure(let error): #expect(item == 3 && error.message == "the disk is full")
      case nil: Issue.record("no answer for \(item)")
      }
    }
  }
}
