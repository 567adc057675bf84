import Logging
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Counts the service's connections, closes those past `--max-connections` at once, and counts
/// the answers cut by a close.
///
/// Past the bound a connection is accepted and closed straight away rather than left in the
/// listen queue: the client learns at once that this replica is full (and a load balancer tries
/// another), and the process never reaches its file-descriptor limit, where `accept` fails
/// without taking the connection off the queue and an event loop would spin on it.
public final class ConnectionLimiter: Sendable {
  /// The most connections open at once.
  public let maximum: Int
  private let open = Atomic<Int>(0)
  private let cutAnswersWhileStopping = Atomic<Int>(0)
  private let stopping = Atomic<Bool>(false)
  private let metrics: ServiceMetrics
  private let logger: Logger

  public init(maximum: Int, metrics: ServiceMetrics, logger: Logger) {
    self.maximum = max(1, maximum)
    self.metrics = metrics
    self.logger = logger
  }

  /// Connections open now.
  public var openCount: Int { open.load(ordering: .relaxed) }

  /// Answers cut since shutdown began (by `--shutdown-timeout`): a non-zero exit status.
  public var answersCutWhileStopping: Int { cutAnswersWhileStopping.load(ordering: .relaxed) }

  /// Marks the start of shutdown: answers cut from now on make the exit status non-zero.
  public func beginStopping() { stopping.store(true, ordering: .relaxed) }

  /// Takes a new connection if fewer than `maximum` are open; false when it must be closed.
  func admit() -> Bool {
    var current = open.load(ordering: .relaxed)
    while current < maximum {
      let (exchanged, original) = open.compareExchange(
        expected: current, desired: current + 1, ordering: .relaxed)
      if exchanged {
        metrics.recordOpenConnections(current + 1)
        return true
      }
      current = original
    }
    metrics.recordConnectionRefusal()
    return false
  }

  /// A connection `admit` took has closed.
  func release() {
    let now = open.subtract(1, ordering: .relaxed).newValue
    metrics.recordOpenConnections(now)
  }

  /// An answer whose connection was closed before it was all written.
  func recordCutAnswer() {
    metrics.recordCutResponse()
    let whileStopping = stopping.load(ordering: .relaxed)
    if whileStopping { cutAnswersWhileStopping.add(1, ordering: .relaxed) }
    logger.error(
      "an answer was cut: its connection was closed before every byte was written",
      metadata: ["reason": "\(whileStopping ? "--shutdown-timeout" : "the client stopped reading")"])
  }

  /// Files the process may open that `--max-connections` leaves for everything but connections:
  /// the data, reloads, time zones, the page's files, logs, and SwiftNIO's own descriptors.
  public static let reservedDescriptors = 128

  /// The default of `--max-connections`: the process's file-descriptor limit (raised to its hard
  /// limit first) less `reservedDescriptors`, and at least 16.
  public static func defaultMaximum() -> Int {
    let limit = raiseDescriptorLimit()
    return max(16, limit - reservedDescriptors)
  }

  /// Raises the soft `RLIMIT_NOFILE` to the hard one, as servers do (the soft limit's 1024 is a
  /// default for programs that use `select`), and returns the limit now in force.
  @discardableResult
  public static func raiseDescriptorLimit() -> Int {
    var limits = rlimit()
    #if canImport(Glibc)
      let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
      let resource = RLIMIT_NOFILE
    #endif
    guard getrlimit(resource, &limits) == 0 else { return 1024 }
    if limits.rlim_cur < limits.rlim_max {
      var raised = limits
      raised.rlim_cur = limits.rlim_max
      if setrlimit(resource, &raised) == 0 { limits = raised }
    }
    return limits.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limits.rlim_cur)
  }
}
