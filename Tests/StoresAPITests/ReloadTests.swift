import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreLocator
import Testing

@testable import StoresAPI

/// Reloads swap new data in whole, and a reload that fails keeps the data served before.
@Suite struct ReloadTests {
  static let token = "reload-token"
  static let authorized: HTTPFields = [.authorization: "Bearer \(token)"]

  /// Stores `PREFIX-1`…`PREFIX-n` around Berlin, so an answer tells which file it came from.
  static func stores(_ prefix: String, count: Int = 5) -> String {
    // Coordinates from text, so they print back as written: 52.521, 13.401, …
    let stores: [(id: String, latitude: Double, longitude: Double)] = (1...count).map { number in
      ("\(prefix)-\(number)", Double("52.52\(number)") ?? 0, Double("13.40\(number)") ?? 0)
    }
    return TestService.geoJSON(stores)
  }

  /// Replaces the file at `path` with `text` as operators should: a new file renamed over it, so
  /// data mapped from the old file (a snapshot) is never changed under a reader.
  static func replace(_ path: String, with bytes: Data) throws {
    let staging = path + ".staging-\(UUID().uuidString)"
    try bytes.write(to: URL(fileURLWithPath: staging))
    guard rename(staging, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
  }

  static func service(
    path: String, options: LoadOptions = LoadOptions(), metrics: ServiceMetrics, log: TestLog = TestLog()
  ) throws -> StoresService {
    let source = CatalogSource(path: path, options: options)
    return StoresService(
      source: source, initial: try source.load(), configuration: APIConfiguration(adminToken: token),
      metrics: metrics, logger: log.logger)
  }

  @Test func reloadSwapsInTheNewFileAndAFailureKeepsTheOld() async throws {
    let path = try TestService.temporaryFile(Self.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let metrics = ServiceMetrics()
    let log = TestLog()
    let service = try Self.service(path: path, metrics: metrics, log: log)
    let first = try #require(service.store.current).version
    try await TestService.application(service).test(.router) { client in
      #expect(try await client.get("/v1/stores/a-1").status == .ok)

      try Self.replace(path, with: Data(Self.stores("b").utf8))
      let reloaded = try await client.post("/admin/reload", json: "", headers: Self.authorized)
      #expect(reloaded.status == .ok)
      let body = try reloaded.json()
      let second = try #require(body["version"] as? String)
      #expect(body["reloaded"] as? Bool == true)
      #expect(body["previous_version"] as? String == first)
      #expect(body["stores"] as? Int == 5)
      #expect(second != first)
      #expect(reloaded.headers[.storesDataVersion] == second)

      let newStore = try await client.get("/v1/stores/b-1")
      #expect(newStore.status == .ok)
      #expect(newStore.headers[.storesDataVersion] == second)
      #expect(try await client.get("/v1/stores/a-1").status == .notFound)

      // Broken data, then no file at all: both refused, the second data still served.
      try Self.replace(path, with: Data("{\"type\": \"FeatureCollection\", \"features\": [".utf8))
      for _ in 0..<2 {
        let failed = try await client.post("/admin/reload", json: "", headers: Self.authorized)
        #expect(failed.status == .unprocessableContent)
        #expect(failed.headers[.contentType] == "application/problem+json")
        let problem = try failed.json()
        #expect(problem["type"] as? String == "urn:stores:problem:reload-failed")
        #expect(problem["reloaded"] as? Bool == false)
        #expect(problem["version"] as? String == second)
        #expect((problem["detail"] as? String)?.contains(path) == true)
        try? FileManager.default.removeItem(atPath: path)
      }
      let still = try await client.get("/v1/stores/b-1")
      #expect(still.status == .ok)
      #expect(still.headers[.storesDataVersion] == second)
      #expect(try await client.get("/readyz").status == .ok)
    }
    #expect(metrics.text.contains("stores_reloads_total{result=\"success\"} 1"))
    #expect(metrics.text.contains("stores_reloads_total{result=\"failure\"} 2"))
    #expect(
      metrics.text.contains("stores_data_version_info{version=\"\(service.store.current?.version ?? "")\"} 1")
    )
    #expect(!metrics.text.contains("stores_data_version_info{version=\"\(first)\"}"))

    // The log says each reload: the one done at notice level, the failed ones as errors, with why.
    let reloads = log.all.filter { $0.metadata["trigger"] == "POST /admin/reload" }
    #expect(reloads.map(\.level) == [.notice, .error, .error])
    #expect(reloads.first?.metadata["previous_version"]?.description == first)
    for failure in reloads.dropFirst() {
      #expect(failure.message == "reload failed; still serving the data loaded before")
      #expect(failure.metadata["version"]?.description == service.store.current?.version)
      #expect(failure.metadata["error"]?.description.contains(path) == true)
    }
    // Why: the first file was cut off, the second was not there.
    let reasons = reloads.dropFirst().map { $0.metadata["error"]?.description ?? "" }
    #expect(reasons.first?.contains("ends early") == true, "\(reasons)")
    #expect(reasons.last?.hasSuffix("no such file") == true, "\(reasons)")
  }

  @Test func strictRefusesAReloadWithBadRecords() async throws {
    let path = try TestService.temporaryFile(Self.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let service = try Self.service(path: path, options: LoadOptions(strict: true), metrics: ServiceMetrics())
    // One record without coordinates is skipped leniently, refused under --strict.
    let bad = Self.stores("c").replacingOccurrences(
      of: "\"coordinates\": [13.401, 52.521]", with: "\"coordinates\": [13.401]")
    #expect(bad != Self.stores("c"))
    try Self.replace(path, with: Data(bad.utf8))
    let outcome = await service.reloader.reload(trigger: "test")
    #expect(!outcome.reloaded)
    #expect(outcome.error?.kind == .strictFailure)
    #expect(service.store.current?.catalog.stores.first?.id == "a-1")
  }

  @Test func aCorruptedSnapshotIsRefusedOnReload() async throws {
    let geojson = try TestService.temporaryFile(Self.stores("a"))
    let snapshot = geojson + ".snapshot"
    defer {
      try? FileManager.default.removeItem(atPath: geojson)
      try? FileManager.default.removeItem(atPath: snapshot)
    }
    try Catalog.load(contentsOf: geojson).writeSnapshot(to: snapshot)
    let service = try Self.service(path: snapshot, metrics: ServiceMetrics())
    #expect(service.store.current?.catalog.isSnapshot == true)
    let served = try #require(service.store.current).version

    var bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
    bytes[bytes.count - 9] ^= 0xFF
    try Self.replace(snapshot, with: bytes)
    let outcome = await service.reloader.reload(trigger: "test")
    #expect(!outcome.reloaded)
    #expect(outcome.error?.description.contains("snapshot") == true)
    #expect(service.store.current?.version == served)
    // The data loaded before still answers, from its own mapping of the old file.
    try await TestService.application(service).test(.router) { client in
      let response = try await client.get("/v1/stores/a-3")
      #expect(response.status == .ok)
    }
  }
}
