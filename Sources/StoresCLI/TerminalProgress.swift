import StoreLocator
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Shows long work (a large load, `validate`, `snapshot build`) on standard error when it is a
/// terminal: one line redrawn in place, `reading stores.geojson: 412 MB, 38%`, as
/// `ProgressLine` decides, and cleared before anything else is written. When standard error is
/// not a terminal (a file, a pipe, a test) there is none, and nothing extra is written.
final class TerminalProgress: Sendable {
  /// What the library reports to.
  let progress: WorkProgress
  private let state: State

  /// The line, shared by the reporter's handler (on the loader's threads) and `clear()`.
  private final class State: Sendable {
    let line: Mutex<ProgressLine>
    init(columns: Int) { line = Mutex(ProgressLine(columns: columns)) }
  }

  /// A progress line on standard error, or `nil` when standard error is not a terminal.
  static func onStandardError() -> TerminalProgress? {
    guard isatty(2) == 1 else { return nil }
    var size = winsize()
    let columns = ioctl(2, UInt(TIOCGWINSZ), &size) == 0 && size.ws_col > 0 ? Int(size.ws_col) : 80
    return TerminalProgress(columns: columns)
  }

  private init(columns: Int) {
    let state = State(columns: columns)
    self.state = state
    self.progress = WorkProgress { step in
      state.line.withLock { line in
        if let text = line.update(step, at: Self.seconds()) { standardErrorInPlace(text) }
      }
    }
  }

  /// Clears the line, if one was drawn; before the command writes its own messages.
  func clear() {
    state.line.withLock { line in
      if let text = line.clear() { standardErrorInPlace(text) }
    }
  }

  /// Seconds on the monotonic clock.
  private static func seconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
  }
}
