import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Metrics
import NIOCore
import StoreLocator
import StoresState
import Synchronization
import Testing

@testable import StoresAPI

/// The pieces the service tests share: the data, an application over it, and requests.
enum TestService {
  /// The repository root, found from this file's location.
  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let bundledData = repositoryRoot.appendingPathComponent("Data/stores.geojson").path

  /// A fixed "now", so answers (open states, `at`) are the same on every run.
  static let now = "2026-11-25T18:00:00Z"

  /// The metrics every test application records into. swift-metrics is bootstrapped once per
  /// process, so Hummingbird's per-route metrics of every test land in this registry.
  static let metrics: ServiceMetrics = {
    let metrics = ServiceMetrics()
    MetricsSystem.bootstrap(metrics.makeFactory())
    return metrics
  }()

  /// The bundled data, loaded once for all the tests that only read it.
  static let bundled: LoadedCatalog = {
    do throws(CatalogError) { return try CatalogSource(path: bundledData).load() } catch {
      fatalError("the bundled data does not load: \(error)")
    }
  }()

  /// A service over `loaded` (the bundled data unless told), reading `source` on reload, logging
  /// into `log`.
  ///
  /// Its metrics are the shared `metrics` when it serves the bundled data (or none yet), else
  /// metrics of its own: a service records the data it serves in its registry, and tests running
  /// at the same time read the shared one expecting the bundled data there.
  static func service(
    _ loaded: LoadedCatalog? = bundled, source: String = bundledData,
    configuration: APIConfiguration = APIConfiguration(), page: PageResources = .listOnly,
    metrics: ServiceMetrics? = nil, stateStorage: any StateStorage = MemoryStateStorage(),
    log: TestLog = TestLog()
  ) -> StoresService {
    let sharesMetrics = loaded == nil || loaded === bundled
    return StoresService(
      source: CatalogSource(path: source), initial: loaded, configuration: configuration, page: page,
      metrics: metrics ?? (sharesMetrics ? Self.metrics : ServiceMetrics()), stateStorage: stateStorage,
      logger: log.logger)
  }

  /// An application for `app.test(.router)` or `.live`, logging (Hummingbird's lines and each
  /// request's) into `log`, or with `logger` when given.
  static func application(_ service: StoresService, log: TestLog = TestLog(), logger: Logger? = nil)
    -> some ApplicationProtocol
  {
    Application(
      router: service.buildRouter(),
      configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
      logger: logger ?? log.logger)
  }

  /// Writes `text` to a new temporary file and returns its path.
  static func temporaryFile(_ text: String, suffix: String = ".geojson") throws -> String {
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-api-\(UUID().uuidString)\(suffix)").path
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    return path
  }

  /// A FeatureCollection of stores `(id, latitude, longitude)`, open every day 08:00-20:00 in
  /// Berlin time.
  static func geoJSON(_ stores: [(id: String, latitude: Double, longitude: Double)]) -> String {
    let features = stores.map { store in
      """
      {"type": "Feature", "id": "\(store.id)", "geometry": {"type": "Point", "coordinates": [\(store.longitude), \(store.latitude)]},
       "properties": {"name": "Store \(store.id)", "opening_hours": "Mo-Su 08:00-20:00", "timezone": "Europe/Berlin"}}
      """
    }
    return "{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n")
      + "\n]}\n"
  }
}

/// A log that keeps its records for the test to read and prints nothing: the service logs every
/// reload at notice level, which would bury `swift test`'s own output, and a test can assert on
/// what was logged (a failed reload says why).
final class TestLog: Sendable {
  struct Record: Sendable {
    let level: Logger.Level
    let message: String
    let metadata: Logger.Metadata
  }

  private let records = Mutex<[Record]>([])

  /// A logger writing into this log, at every level from `level` up.
  func makeLogger(level: Logger.Level) -> Logger {
    var logger = Logger(label: "stores-server-test") { _ in Handler(log: self) }
    logger.logLevel = level
    return logger
  }

  /// A logger writing into this log from `info` up: what the service logs at its default level.
  var logger: Logger { makeLogger(level: .info) }

  /// Everything logged so far, in order.
  var all: [Record] { records.withLock { $0 } }

  struct Handler: LogHandler {
    let log: TestLog
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      let record = Record(
        level: event.level, message: event.message.description,
        metadata: metadata.merging(event.metadata ?? [:]) { $1 })
      log.records.withLock { $0.append(record) }
    }
  }
}

extension TestResponse {
  /// The body as text.
  var text: String { String(buffer: body) }

  /// The body parsed as a JSON object.
  func json() throws -> [String: Any] {
    try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }
}

extension TestClientProtocol {
  /// GET `uri`, with `headers`.
  func get(_ uri: String, headers: HTTPFields = [:]) async throws -> TestResponse {
    try await execute(uri: uri, method: .get, headers: headers)
  }

  /// POST `body` as JSON (or as `contentType`) to `uri`.
  func post(
    _ uri: String, json body: String, contentType: String? = "application/json", headers: HTTPFields = [:]
  ) async throws -> TestResponse {
    var headers = headers
    if let contentType { headers[.contentType] = contentType }
    return try await execute(uri: uri, method: .post, headers: headers, body: ByteBuffer(string: body))
  }

  /// `PATCH uri` with a JSON body and the admin token `token` (none when `nil`).
  func patch(_ uri: String, json body: String, token: String? = nil) async throws -> TestResponse {
    var headers: HTTPFields = [.contentType: "application/json"]
    if let token { headers[.authorization] = "Bearer \(token)" }
    return try await execute(uri: uri, method: .patch, headers: headers, body: ByteBuffer(string: body))
  }
}
