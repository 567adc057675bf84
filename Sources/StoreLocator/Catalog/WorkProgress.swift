import Synchronization

/// How far a long piece of work has got (reading a large store file, building its catalog,
/// writing a snapshot), for a caller that shows it.
///
/// The library prints nothing: the caller passes a `WorkProgress` with a handler (the command
/// line draws a line on standard error when it is a terminal), and the work calls it as it
/// advances, from whichever thread does the work. Calls come often (every megabyte read, every
/// few thousand stores), so the handler decides how often to show anything.
public final class WorkProgress: Sendable {
  /// What the work is doing now and how far it has got.
  public struct Step: Hashable, Sendable {
    /// What is being done, as a sentence begins: `reading stores.geojson`, `indexing`.
    public let task: String
    /// How much is done, in `unit`s; never more than `total`, never less than before in a task.
    public let done: Int
    /// How much there is in all, in `unit`s; 0 when the task cannot tell.
    public let total: Int
    public let unit: Unit

    /// The share done, 0...1; `nil` when the total is not known.
    public var fraction: Double? { total > 0 ? Double(done) / Double(total) : nil }
  }

  /// What `done` and `total` count.
  public enum Unit: String, Hashable, Sendable {
    case bytes
    case stores
  }

  private let handler: @Sendable (Step) -> Void
  private let state = Mutex(Step(task: "", done: 0, total: 0, unit: .bytes))

  /// - Parameter handler: Called with each step, from the thread that made it.
  public init(_ handler: @escaping @Sendable (Step) -> Void) {
    self.handler = handler
  }

  /// Begins `task`, which has `total` `unit`s to do (0: not known).
  func begin(_ task: String, total: Int, unit: Unit) {
    report { $0 = Step(task: task, done: 0, total: max(0, total), unit: unit) }
  }

  /// Counts `amount` more done (work shared among threads, each adding its own part).
  func advance(by amount: Int) {
    report { $0 = Step(task: $0.task, done: min($0.total, $0.done + amount), total: $0.total, unit: $0.unit) }
  }

  /// Counts everything up to `position` as done; a position behind an earlier one changes
  /// nothing (a reader going back over what threads read ahead).
  func advance(to position: Int) {
    report { step in
      step = Step(
        task: step.task, done: min(step.total, max(step.done, position)), total: step.total, unit: step.unit)
    }
  }

  private func report(_ change: (inout Step) -> Void) {
    let step = state.withLock { step in
      change(&step)
      return step
    }
    handler(step)
  }
}
