import Metrics
import Prometheus
import StoreLocator
import StoresState
import Synchronization

/// The service's own metrics, and the per-route requests and latencies (`requests`, recorded by
/// `RequestMetricsMiddleware`).
///
/// `GET /metrics` writes both in the Prometheus text format.
public final class ServiceMetrics: Sendable {
  /// Where every metric of the service is kept, those of swift-metrics too (see `makeFactory`).
  public let registry: PrometheusCollectorRegistry
  /// Requests by route, method and status, with their latencies: written by every request, so
  /// kept apart from the registry, in stripes (see `RequestMetrics`).
  public let requests = RequestMetrics()
  private let reloadSuccesses: Prometheus.Counter
  private let reloadFailures: Prometheus.Counter
  private let reloadRefusals: Prometheus.Counter
  private let reloadsCoalesced: Prometheus.Counter
  private let storesLoaded: Prometheus.Gauge
  private let loadedAt: Prometheus.Gauge
  private let loadSeconds: Prometheus.Gauge
  private let overloadRefusals: Prometheus.Counter
  private let connectionRefusals: Prometheus.Counter
  private let openConnections: Prometheus.Gauge
  private let cutResponses: Prometheus.Counter
  /// State changes by what they change: ordering, closures, special_days.
  private let stateChanges: [String: Prometheus.Counter]
  /// Holds asked of the storage, by outcome (`held`, `full`, `replayed`, `key-reused`, `stale`).
  private let holds: [String: Prometheus.Counter]
  /// Reservations confirmed and released through this replica, by what happened.
  private let reservationUpdates: [String: Prometheus.Counter]
  private let stateVersion: Prometheus.Gauge
  private let stateHealthy: Prometheus.Gauge
  private let stateStorageFailures: Prometheus.Counter
  /// `stores_data_info{version="…"} 1`: one series, replaced when the version changes.
  private let versionInfo: Mutex<(version: String, gauge: Prometheus.Gauge)?> = Mutex(nil)

  public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
    self.registry = registry
    let changes = MetricNameDescriptor(
      namespace: "stores", subsystem: "state", metricName: "changes", unitName: "total",
      helpText:
        "Changes to the stores' state made through this replica, by member: ordering, closures, special_days")
    stateChanges = Dictionary(
      uniqueKeysWithValues: ["ordering", "closures", "special_days", "capacity"].map {
        ($0, registry.makeCounter(descriptor: changes, labels: [("member", $0)]))
      })
    let holdsDescriptor = MetricNameDescriptor(
      namespace: "stores", subsystem: "reservations", metricName: "holds_total",
      unitName: "", helpText: "Slot holds asked of the state storage through this replica, by outcome")
    holds = Dictionary(
      uniqueKeysWithValues: ["held", "full", "replayed", "key-reused", "stale"].map {
        ($0, registry.makeCounter(descriptor: holdsDescriptor, labels: [("outcome", $0)]))
      })
    let updatesDescriptor = MetricNameDescriptor(
      namespace: "stores", subsystem: "reservations", metricName: "updates_total",
      unitName: "",
      helpText: "Reservations confirmed or released through this replica, by what was asked and answered")
    reservationUpdates = Dictionary(
      uniqueKeysWithValues: ["confirm-done", "confirm-refused", "release-done"].map {
        ($0, registry.makeCounter(descriptor: updatesDescriptor, labels: [("update", $0)]))
      })
    stateVersion = registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "state", metricName: "version",
        unitName: "", helpText: "The version of the stores' state this replica answers with"),
      labels: [])
    stateHealthy = registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "state", metricName: "storage_up",
        unitName: "",
        helpText: "1 while the state storage answers, 0 while it fails (answers go on from the last copy)"),
      labels: [])
    stateStorageFailures = registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "state", metricName: "storage_failures", unitName: "total",
        helpText: "Calls to the state storage that failed"),
      labels: [])
    let reloads = MetricNameDescriptor(
      namespace: "stores", metricName: "reloads", unitName: "total",
      helpText:
        "Loads of the data for a reload (SIGHUP or POST /admin/reload), by result: success, failure, "
        + "refused (--max-store-loss)")
    reloadSuccesses = registry.makeCounter(descriptor: reloads, labels: [("result", "success")])
    reloadFailures = registry.makeCounter(descriptor: reloads, labels: [("result", "failure")])
    reloadRefusals = registry.makeCounter(descriptor: reloads, labels: [("result", "refused")])
    reloadsCoalesced = registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "stores", metricName: "reloads_coalesced", unitName: "total",
        helpText:
          "Reloads asked for that joined one already waiting, and got its outcome without a load of their own"
      ),
      labels: [])
    storesLoaded = registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "stores", metricName: "loaded", unitName: "stores",
        helpText: "Stores in the data being served"),
      labels: [])
    loadedAt = registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "data", metricName: "loaded", unitName: "timestamp_seconds",
        helpText: "When the data being served was loaded (Unix time)"),
      labels: [])
    loadSeconds = registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "data", metricName: "load", unitName: "seconds",
        helpText: "How long loading the data being served took (with every record checked, on a reload)"),
      labels: [])
    overloadRefusals = registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "queries", metricName: "refused", unitName: "total",
        helpText: "Queries refused with 503 overloaded: every query thread busy and the queue full"),
      labels: [])
    connectionRefusals = registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "connections", metricName: "refused", unitName: "total",
        helpText: "Connections closed at once because --max-connections were open"),
      labels: [])
    openConnections = registry.makeGauge(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "connections", metricName: "open",
        unitName: "", helpText: "Connections open now"),
      labels: [])
    cutResponses = registry.makeCounter(
      descriptor: MetricNameDescriptor(
        namespace: "stores", subsystem: "responses", metricName: "cut", unitName: "total",
        helpText:
          "Responses whose connection was closed before every byte was written (a client that stopped reading, or the shutdown timeout)"
      ),
      labels: [])
  }

  /// A swift-metrics backend writing into `registry`, for `MetricsSystem.bootstrap`: metric and
  /// label names become valid Prometheus names (Hummingbird's `http.server.request.duration`
  /// becomes `http_server_request_duration`, its `hb.requests` `http_server_requests_total`), and latencies get buckets from 0.5 ms, since most
  /// answers take well under 5 ms.
  public func makeFactory() -> PrometheusMetricsFactory {
    var factory = PrometheusMetricsFactory(registry: registry)
    factory.nameAndLabelSanitizer = { name, labels in
      (Self.renamed[name] ?? Self.prometheusName(name), labels.map { (Self.prometheusName($0.0), $0.1) })
    }
    factory.defaultDurationHistogramBuckets = [
      .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
      .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
      .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
    ]
    return factory
  }

  /// Hummingbird's counters under the names Prometheus gives counters (`…_total`).
  static let renamed = [
    "hb.requests": "http_server_requests_total", "hb.request.errors": "http_server_request_errors_total",
  ]

  /// `name` with every character outside `[A-Za-z0-9_]` made `_`.
  static func prometheusName(_ name: String) -> String {
    String(
      String.UnicodeScalarView(
        name.unicodeScalars.map { scalar in
          scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? scalar : "_"
        }))
  }

  /// Records the data now served.
  func recordServing(_ loaded: LoadedCatalog) {
    storesLoaded.set(Double(loaded.catalog.stores.count))
    loadedAt.set(Double(loaded.loadedAt.secondsSinceEpoch))
    loadSeconds.set(loaded.loadSeconds)
    versionInfo.withLock { current in
      guard current?.version != loaded.version else { return }
      if let old = current { registry.unregisterGauge(old.gauge) }
      let gauge = registry.makeGauge(
        descriptor: MetricNameDescriptor(
          namespace: "stores", subsystem: "data", metricName: "version", unitName: "info",
          helpText: "The version of the data being served (Catalog.dataVersion), as a label"),
        labels: [("version", loaded.version)])
      gauge.set(1.0)
      current = (loaded.version, gauge)
    }
  }

  /// Counts a reload that swapped the data in.
  func recordReloadSuccess() { reloadSuccesses.increment() }

  /// Counts a reload that failed and left the old data in service.
  func recordReloadFailure() { reloadFailures.increment() }

  /// Counts a query refused because the query threads and their queue are full.
  func recordOverloadRefusal() { overloadRefusals.increment() }

  /// A state change made through this replica.
  func recordStateChange(_ change: StoreStateChange) {
    if change.ordering != nil { stateChanges["ordering"]?.increment() }
    if change.closures != nil { stateChanges["closures"]?.increment() }
    if change.specialDays != nil { stateChanges["special_days"]?.increment() }
    if change.capacity != nil { stateChanges["capacity"]?.increment() }
  }

  /// A slot hold asked of the storage.
  func recordHold(_ outcome: SlotHoldOutcome) {
    switch outcome {
    case .held: holds["held"]?.increment()
    case .full: holds["full"]?.increment()
    case .replayed: holds["replayed"]?.increment()
    case .keyReused: holds["key-reused"]?.increment()
    case .stale: holds["stale"]?.increment()
    }
  }

  /// A confirmation (`confirm-done`, `confirm-refused`) or release (`release-done`).
  func recordReservationUpdate(_ name: String) { reservationUpdates[name]?.increment() }

  /// The state version answered with, and whether the storage answered.
  func recordState(version: Int64, healthy: Bool) {
    stateVersion.set(Double(version))
    stateHealthy.set(healthy ? 1.0 : 0.0)
    if !healthy { stateStorageFailures.increment() }
  }

  /// Counts a connection closed at once at `--max-connections`.
  func recordConnectionRefusal() { connectionRefusals.increment() }

  /// Sets the number of open connections.
  func recordOpenConnections(_ count: Int) { openConnections.set(Double(count)) }

  /// Counts a response cut short by closing its connection.
  func recordCutResponse() { cutResponses.increment() }

  /// Counts a reload refused for the stores it would lose, the old data left in service.
  func recordReloadRefused() { reloadRefusals.increment() }

  /// Counts a reload asked for that joined the waiting one.
  func recordReloadCoalesced() { reloadsCoalesced.increment() }

  /// Everything in the registry, in the Prometheus text format.
  public var text: String { registry.emitToString() + requests.text }
}
