import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Synchronization
import Testing

@testable import StoresAPI

/// Queries run on the query threads, a bounded number at once; the probes never wait for them.
@Suite struct QueryIsolationTests {
  /// A query thread held until `release()`: stands for a query that takes a long time.
  final class HeldQuery: Sendable {
    private let started = DispatchSemaphore(value: 0)
    private let gate = DispatchSemaphore(value: 0)
    private let task: Task<Void, any Error>

    init(on executor: QueryExecutor) async {
      let started = started
      let gate = gate
      task = Task {
        try await executor.run {
          started.signal(); gate.wait()
        }
      }
      // Wait off the cooperative pool: a semaphore must not hold one of its threads.
      _ = try? await ServerProcess.onThread { started.wait() }
    }

    func release() async {
      gate.signal()
      _ = try? await task.value
    }
  }

  @Test func probesAnswerWhileEveryQueryThreadIsBusyAndTheNextQueryIsRefused() async throws {
    let metrics = ServiceMetrics()
    let service = TestService.service(
      configuration: APIConfiguration(queryThreads: 1, maximumQueuedQueries: 0), metrics: metrics)
    let held = await HeldQuery(on: service.queries)
    #expect(service.queries.load == 1)
    try await TestService.application(service).test(.router) { client in
      for probe in ["/healthz", "/readyz", "/metrics"] {
        let response = try await client.get(probe)
        #expect(response.status == .ok, "\(probe) while the query thread is busy")
      }
      // A bounded nearest (k ≤ 20 at a LAT,LON, no condition) is answered where it arrives; one
      // that may scan the catalog waits for a query thread, and none is free.
      let bounded = try await client.get("/v1/stores/nearest?near=47.6,-122.3&k=20")
      #expect(bounded.status == .ok, "a bounded nearest while the query thread is busy")
      let refused = try await client.get("/v1/stores/nearest?near=47.6,-122.3&where=drive_through=yes")
      #expect(refused.status == .serviceUnavailable)
      #expect(refused.headers[.retryAfter] == "1")
      #expect(refused.headers[.contentType] == "application/problem+json")
      #expect(String(buffer: refused.body).contains("urn:stores:problem:overloaded"))
      let pickup = try await client.post("/v1/pickup", json: #"{"near": "47.6,-122.3"}"#)
      #expect(pickup.status == .serviceUnavailable)
      let text = String(buffer: try await client.get("/metrics").body)
      #expect(ServerProcess.sample("stores_queries_refused_total", in: text) == 2)

      await held.release()
      let answered = try await client.get("/v1/stores/nearest?near=47.6,-122.3&where=drive_through=yes")
      #expect(answered.status == .ok)
    }
    #expect(service.queries.load == 0)
  }

  @Test func queriesWaitInTheQueueUpToItsLimit() async throws {
    let refusals = Mutex(0)
    let executor = QueryExecutor(threadCount: 1, queueLimit: 2) { refusals.withLock { $0 += 1 } }
    let held = await HeldQuery(on: executor)
    // Two wait behind the held one; the fourth is refused at once.
    let waiting = (0..<2).map { index in Task { try await executor.run { index } } }
    #expect(await ServerProcess.eventuallyAsync { executor.load == 3 })
    await #expect(throws: Problem.self) { try await executor.run { 0 } }
    #expect(refusals.withLock { $0 } == 1)
    await held.release()
    for (index, task) in waiting.enumerated() { #expect(try await task.value == index) }
    #expect(executor.load == 0)
  }

  @Test func aQueryCancelledWhileWaitingNeverRuns() async throws {
    let executor = QueryExecutor(threadCount: 1, queueLimit: 4)
    let held = await HeldQuery(on: executor)
    let ran = Mutex(false)
    let waiting = Task { try await executor.run { ran.withLock { $0 = true } } }
    #expect(await ServerProcess.eventuallyAsync { executor.load == 2 })
    waiting.cancel()
    // The pool drops the cancelled query when a thread comes to it, and never runs it.
    await held.release()
    await #expect(throws: CancellationError.self) { try await waiting.value }
    #expect(try await executor.run { 7 } == 7)
    #expect(!ran.withLock { $0 })
  }
}

extension ServerProcess {
  /// `eventually` for a test on the cooperative pool: polls `condition`, sleeping 5 ms between
  /// polls instead of blocking, until it holds or the pool has answered promptly for `seconds`.
  ///
  /// What such a test waits for runs on the same pool: two threads on a two-core machine, which
  /// `swift test` shares out first come, first served among every suite. The synchronous tests
  /// (a `stores` process run, a corpus parsed) queued ahead of a task hold both threads, and a
  /// reload's three hops (the caller's task, the actor, the load's task) each wait behind the
  /// whole queue: minutes in a full run, over ten in one. A wall-clock deadline measured that
  /// queue, not the code. So a poll counts only up to 50 ms of what it took: one that resumed
  /// later found the pool busy, and the work polled for was queued behind the same tests. A
  /// condition that holds returns at once; a broken one fails after `seconds` of prompt polls, and
  /// at most `seconds / 5 ms` polls in any case.
  static func eventuallyAsync(seconds: Double = 60, _ condition: () async -> Bool) async -> Bool {
    var budget = Duration.seconds(seconds)
    let prompt = Duration.milliseconds(50)
    while budget > .zero, !Task.isCancelled {
      let pollStart = ContinuousClock.now
      if await condition() { return true }
      try? await Task.sleep(for: .milliseconds(5))
      budget -= max(.milliseconds(5), min(ContinuousClock.now - pollStart, prompt))
    }
    return await condition()
  }
}
