import HTTPTypes
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Requests by route, method and status, their latencies, and the requests being answered: the
/// `http_server_*` series of `GET /metrics`, kept in stripes and summed when read.
///
/// Hummingbird's `MetricsMiddleware` with swift-prometheus took two process-wide locks per
/// request (its cache of series), a third around the latency histogram, and two compare-and-swap
/// loops on the active-requests gauge: every core wrote the same few cache lines for every
/// request, which is what a service must not do if it is to scale with cores. Here each thread
/// records into one of `stripeCount` stripes chosen by its thread id, under that stripe's own
/// lock, which another thread takes only when it hashes to the same stripe or when `/metrics` is
/// read.
public final class RequestMetrics: Sendable {
  /// Upper bounds of the latency buckets, in seconds: from 0.5 ms, since most answers take well
  /// under 5 ms.
  static let bucketBounds: [Double] = [
    0.0005, 0.001, 0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
  ]
  /// Stripes: a power of two above the cores of the machines the service runs on, so two
  /// threads rarely share one.
  static let stripeCount = 64

  /// One series: route, method, status.
  struct SeriesKey: Hashable, Comparable {
    let route: String
    let method: String
    let status: Int

    static func < (left: Self, right: Self) -> Bool {
      (left.route, left.method, left.status) < (right.route, right.method, right.status)
    }
  }

  /// Counts of one series: requests, per latency bucket (not cumulative), and the seconds summed.
  struct SeriesCounts {
    var requests = 0
    var buckets = [Int](repeating: 0, count: RequestMetrics.bucketBounds.count)
    var seconds = 0.0

    mutating func add(_ other: SeriesCounts) {
      requests += other.requests
      for index in buckets.indices { buckets[index] += other.buckets[index] }
      seconds += other.seconds
    }
  }

  struct Counts {
    var series: [SeriesKey: SeriesCounts] = [:]
    /// Requests being answered, by method; a stripe's value may be negative (a request can end
    /// on another thread than the one it started on), the sum never is.
    var active: [String: Int] = [:]
    /// Errors that reached the middleware instead of a response (the service answers every
    /// error itself, so this stays empty).
    var errors: [SeriesKey: Int] = [:]
  }

  /// A stripe, padded so that two stripes' locks never share a cache line.
  final class Stripe: Sendable {
    let counts = Mutex(Counts())
    private let padding: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (
      0, 0, 0, 0, 0, 0, 0, 0
    )
  }

  private let stripes: [Stripe]

  public init() {
    stripes = (0..<Self.stripeCount).map { _ in Stripe() }
  }

  /// The stripe of the calling thread.
  private var stripe: Stripe {
    // pthread_t is the address of the thread's control block: the low bits are alignment.
    var bits = UInt64(UInt(bitPattern: Int(bitPattern: UInt(pthread_self()))))
    bits = (bits ^ (bits >> 29)) &* 0xBF58_476D_1CE4_E5B9
    return stripes[Int(truncatingIfNeeded: bits >> 58) & (Self.stripeCount - 1)]
  }

  /// The method as a label: one of the methods HTTP defines, else `_OTHER` (as OpenTelemetry's
  /// HTTP conventions say), so a client cannot make series by inventing methods.
  static func methodLabel(_ method: HTTPRequest.Method) -> String {
    switch method {
    case .get, .head, .post, .put, .delete, .connect, .options, .trace, .patch: method.rawValue
    default: "_OTHER"
    }
  }

  /// A request began.
  func began(_ method: HTTPRequest.Method) {
    let method = Self.methodLabel(method)
    stripe.counts.withLock { $0.active[method, default: 0] += 1 }
  }

  /// A request was answered (its last byte written) after `seconds`.
  func answered(route: String, method: HTTPRequest.Method, status: Int, seconds: Double) {
    let key = SeriesKey(route: route, method: Self.methodLabel(method), status: status)
    let bucket = Self.bucketBounds.firstIndex { seconds <= $0 }
    stripe.counts.withLock { counts in
      counts.active[key.method, default: 0] -= 1
      counts.series[key, default: SeriesCounts()].requests += 1
      if let bucket { counts.series[key]!.buckets[bucket] += 1 }
      counts.series[key]!.seconds += seconds
    }
  }

  /// A request ended in an error that no route turned into a response.
  func failed(route: String, method: HTTPRequest.Method, status: Int) {
    let key = SeriesKey(route: route, method: Self.methodLabel(method), status: status)
    stripe.counts.withLock { counts in
      counts.active[key.method, default: 0] -= 1
      counts.series[key, default: SeriesCounts()].requests += 1
      counts.errors[key, default: 0] += 1
    }
  }

  /// Every stripe summed.
  func total() -> Counts {
    var total = Counts()
    for stripe in stripes {
      stripe.counts.withLock { counts in
        for (key, series) in counts.series { total.series[key, default: SeriesCounts()].add(series) }
        for (method, count) in counts.active { total.active[method, default: 0] += count }
        for (key, count) in counts.errors { total.errors[key, default: 0] += count }
      }
    }
    return total
  }

  /// The series in the Prometheus text format, sorted, under the names Hummingbird's middleware
  /// gave them: `http_server_requests_total`, `http_server_request_duration` (a histogram in
  /// seconds), `http_server_active_requests` and, only once an error reached it,
  /// `http_server_request_errors_total`.
  public var text: String {
    let total = total()
    let keys = total.series.keys.sorted()
    func labels(_ key: SeriesKey) -> String {
      "http_route=\"\(Self.escaped(key.route))\",http_request_method=\"\(key.method)\","
        + "http_response_status_code=\"\(key.status)\""
    }
    var text = "# TYPE http_server_requests_total counter\n"
    for key in keys { text += "http_server_requests_total{\(labels(key))} \(total.series[key]!.requests)\n" }
    text += "# TYPE http_server_request_duration histogram\n"
    for key in keys {
      let series = total.series[key]!
      var cumulative = 0
      for (bound, count) in zip(Self.bucketBounds, series.buckets) {
        cumulative += count
        text += "http_server_request_duration_bucket{\(labels(key)),le=\"\(bound)\"} \(cumulative)\n"
      }
      text += "http_server_request_duration_bucket{\(labels(key)),le=\"+Inf\"} \(series.requests)\n"
      text += "http_server_request_duration_sum{\(labels(key))} \(series.seconds)\n"
      text += "http_server_request_duration_count{\(labels(key))} \(series.requests)\n"
    }
    text += "# TYPE http_server_active_requests gauge\n"
    for method in total.active.keys.sorted() {
      text +=
        "http_server_active_requests{http_request_method=\"\(method)\"} \(max(0, total.active[method]!))\n"
    }
    if !total.errors.isEmpty {
      text += "# TYPE http_server_request_errors_total counter\n"
      for key in total.errors.keys.sorted() {
        text += "http_server_request_errors_total{\(labels(key))} \(total.errors[key]!)\n"
      }
    }
    return text
  }

  /// A label value as the text format writes it: backslash, quote and newline escaped.
  static func escaped(_ value: String) -> String {
    var escaped = ""
    for character in value {
      switch character {
      case "\\": escaped += "\\\\"
      case "\"": escaped += "\\\""
      case "\n": escaped += "\\n"
      default: escaped.append(character)
      }
    }
    return escaped
  }
}
