import NIOPosix
import Synchronization

/// Runs the library's queries on threads of their own, a bounded number at a time.
///
/// Hummingbird answers every request on Swift's cooperative pool (one thread a core) over NIO's
/// event loops. A query is synchronous and may take a second (a 256 × 256 `clusters` over a
/// million stores with `open_at`), so run there it would hold the threads `/healthz`, `/readyz`
/// and `/metrics` are answered on: a probe with a 1 s timeout would fail exactly when the service
/// is busiest. Here the queries run on `threadCount` threads of their own, and at most
/// `queueLimit` more wait: the next is refused at once with `503 overloaded` and `Retry-After`
/// rather than answered late. The threads that answer the probes then only wait for the kernel to
/// give them a core, which it does within milliseconds to a thread that wakes up after sleeping.
///
/// The query threads keep the normal priority on purpose: at a lower one (nice 10 was tried) any
/// other work at the normal priority, a reload's checksums or another process on the machine,
/// took nine tenths of the CPU from them, and every query timed out while the probes gained
/// nothing measurable (p99 11.6 ms at the same priority, 11.9 ms lower, 1M stores, 8 clients).
///
/// A query still waiting when its request's deadline passes never starts (the pool drops it);
/// one already running finishes, since the library's queries are not interruptible.
public final class QueryExecutor: Sendable {
  /// Queries that run at once (`--query-threads`).
  public let threadCount: Int
  /// Queries that may wait for a thread beyond those running (`--max-queued-queries`).
  public let queueLimit: Int
  private let pool: NIOThreadPool
  /// Queries admitted and not yet finished: running plus waiting.
  private let admitted = Atomic<Int>(0)
  private let refusals: @Sendable () -> Void

  /// - Parameters:
  ///   - threadCount: Threads running queries; at least 1.
  ///   - queueLimit: Queries that may wait for a thread; 0 refuses any query that finds every
  ///     thread busy.
  ///   - onRefusal: Called for each query refused because the queue is full (a metric).
  public init(threadCount: Int, queueLimit: Int, onRefusal: @escaping @Sendable () -> Void = {}) {
    self.threadCount = max(1, threadCount)
    self.queueLimit = max(0, queueLimit)
    self.refusals = onRefusal
    pool = NIOThreadPool(numberOfThreads: self.threadCount)
    pool.start()
  }

  deinit {
    pool.shutdownGracefully { _ in }
  }

  /// Queries admitted and not yet finished (running and waiting).
  public var load: Int { admitted.load(ordering: .relaxed) }

  /// The result of `work`, computed on a query thread.
  /// - Throws: `Problem.overloaded` at once when `threadCount + queueLimit` queries are already
  ///   admitted; `CancellationError` when the caller is cancelled before `work` starts; what
  ///   `work` throws.
  /// - Complexity: O(1) besides `work`: an atomic add and a hand-over to the pool.
  public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    let capacity = threadCount + queueLimit
    var current = admitted.load(ordering: .relaxed)
    while true {
      guard current < capacity else {
        refusals()
        throw Problem.overloaded(running: threadCount, waiting: queueLimit)
      }
      let (exchanged, original) = admitted.compareExchange(
        expected: current, desired: current + 1, ordering: .relaxed)
      if exchanged { break }
      current = original
    }
    defer { admitted.subtract(1, ordering: .relaxed) }
    return try await pool.runIfActive(work)
  }
}
