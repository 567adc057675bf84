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

  /// How many bytes a reader reads between two reports.
  static let byteStep = 1 << 20
  /// How many stores are handled between two reports.
  static let storeStep = 1 << 12

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

extension WorkProgress.Step {
  /// The step as a progress line says it: `reading stores.geojson: 412 MB, 38%`,
  /// `indexing 1000000 stores: 45%`, `syncing out.snap to disk…` (no share known).
  public var text: String {
    guard let fraction else { return task + "…" }
    let percent = "\(Int(fraction * 100))%"
    switch unit {
    case .bytes: return "\(task): \(Self.size(total)), \(percent)"
    case .stores: return "\(task): \(percent)"
    }
  }

  /// `412 MB`, `0.4 MB`: decimal megabytes, as file sizes are written in the docs.
  static func size(_ bytes: Int) -> String {
    bytes >= 10_000_000 ? "\(bytes / 1_000_000) MB" : "\(Double(bytes / 100_000) / 10) MB"
  }
}

/// A progress line on a terminal: what to write, and when, for the steps of a `WorkProgress`.
///
/// Nothing is drawn for work that ends within `delay` (most commands: a line that flashed and
/// vanished would only distract); after it, the line is redrawn in place (`\r`) at most every
/// `interval`, and at once when the task changes, and cleared at the end. The caller writes the
/// text (the command line, to standard error, only when it is a terminal).
public struct ProgressLine: Sendable {
  let delay: Double
  let interval: Double
  private var start: Double?
  private var lastDrawn: Double?
  private var lastTask: String?
  private var drawnWidth = 0
  /// The widest a line may be (the terminal's columns less one), so that it never wraps.
  let width: Int

  /// - Parameters:
  ///   - delay: Seconds after the first step before anything is drawn.
  ///   - interval: The fewest seconds between two drawings of the same task.
  ///   - columns: The terminal's width.
  public init(delay: Double = 0.5, interval: Double = 0.1, columns: Int = 80) {
    self.delay = delay
    self.interval = interval
    self.width = max(10, columns - 1)
  }

  /// The text that redraws the line for `step` at `time` (seconds on a monotonic clock), or
  /// `nil` when nothing is to be drawn now.
  public mutating func update(_ step: WorkProgress.Step, at time: Double) -> String? {
    let start = self.start ?? time
    self.start = start
    guard time - start >= delay else { return nil }
    if let lastDrawn, step.task == lastTask, time - lastDrawn < interval { return nil }
    lastDrawn = time
    lastTask = step.task
    var text = step.text
    if text.count > width { text = String(text.prefix(width - 1)) + "…" }
    // Spaces over what is left of a longer line before.
    let padding = String(repeating: " ", count: max(0, drawnWidth - text.count))
    drawnWidth = text.count
    return "\r" + text + padding
  }

  /// The text that clears the line, or `nil` when nothing was drawn.
  public mutating func clear() -> String? {
    defer {
      drawnWidth = 0
      lastDrawn = nil
      lastTask = nil
    }
    guard drawnWidth > 0 else { return nil }
    return "\r" + String(repeating: " ", count: drawnWidth) + "\r"
  }
}
