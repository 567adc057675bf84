import Synchronization

/// The request ran past the service's deadline.
struct DeadlineExceeded: Error {}

/// The result of `body`, or `DeadlineExceeded` once `seconds` pass, whichever comes first.
///
/// The library's queries are synchronous and do not check for cancellation, so waiting for a
/// cancelled one would hold the answer as long as it runs. `body` runs in a task of its own
/// instead, and the caller is answered at the deadline while that task finishes in the background
/// (cancelled, for any part of it that looks).
/// - Parameter seconds: The deadline; 0 or less for none (`body` then runs inline).
func withDeadline<T: Sendable>(
  seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
  guard seconds > 0 else { return try await body() }
  let race = DeadlineRace<T>()
  return try await withTaskCancellationHandler {
    try await withCheckedThrowingContinuation { continuation in
      race.begin(continuation)
      race.add(
        work: Task {
          do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
        })
      race.add(
        timer: Task {
          guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return }
          race.finish(.failure(DeadlineExceeded()))
        })
    }
  } onCancel: {
    race.cancelWork()
  }
}

/// The state `withDeadline` shares between the work, the timer and the caller: whichever of work
/// and timer finishes first resumes the caller and cancels the other.
private final class DeadlineRace<T: Sendable>: Sendable {
  private struct State {
    var continuation: CheckedContinuation<T, any Error>?
    var work: Task<Void, Never>?
    var timer: Task<Void, Never>?
    var finished = false
  }

  private let state = Mutex(State())

  func begin(_ continuation: CheckedContinuation<T, any Error>) {
    state.withLock { $0.continuation = continuation }
  }

  func add(work: Task<Void, Never>) {
    let cancelNow = state.withLock { state in
      state.work = work
      return state.finished
    }
    if cancelNow { work.cancel() }
  }

  func add(timer: Task<Void, Never>) {
    let cancelNow = state.withLock { state in
      state.timer = timer
      return state.finished
    }
    if cancelNow { timer.cancel() }
  }

  /// Resumes the caller with `result` unless it was resumed already; stops the other side.
  func finish(_ result: Result<T, any Error>) {
    let (continuation, work, timer) = state.withLock { state in
      guard !state.finished else {
        return (CheckedContinuation<T, any Error>?.none, Task<Void, Never>?.none, Task<Void, Never>?.none)
      }
      state.finished = true
      defer { state.continuation = nil }
      return (state.continuation, state.work, state.timer)
    }
    guard let continuation else { return }
    // Cancelling the task that is finishing does nothing; the other one stops.
    work?.cancel()
    timer?.cancel()
    continuation.resume(with: result)
  }

  func cancelWork() {
    state.withLock { $0.work }?.cancel()
  }
}
