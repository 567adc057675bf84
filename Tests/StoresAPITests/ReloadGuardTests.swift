import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreLocator
import Testing

@testable import StoresAPI

/// A reload that would lose more than `--max-store-loss` of the stores (10% by default) is
/// refused, the data served before kept, unless it is forced.
@Suite struct ReloadGuardTests {
  static let emptyCollection = "{\"type\": \"FeatureCollection\", \"features\": []}\n"

  /// A service serving `a-1`…`a-10` from a file of its own, and that file's path.
  static func serving(
    _ count: Int = 10, configuration: APIConfiguration = APIConfiguration(adminToken: ReloadTests.token),
    metrics: ServiceMetrics, log: TestLog
  ) throws -> (service: StoresService, path: String) {
    let path = try TestService.temporaryFile(ReloadTests.stores("a", count: count))
    let source = CatalogSource(path: path)
    let service = StoresService(
      source: source, initial: try source.load(), configuration: configuration, metrics: metrics,
      logger: log.logger)
    return (service, path)
  }

  @Test func anEmptyFileIsRefusedAndTheDataServedBeforeKept() async throws {
    let metrics = ServiceMetrics()
    let log = TestLog()
    let (service, path) = try Self.serving(metrics: metrics, log: log)
    defer { try? FileManager.default.removeItem(atPath: path) }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let served = try #require(service.store.current).version
    try ReloadTests.replace(path, with: Data(Self.emptyCollection.utf8))
    try await TestService.application(service).test(.router) { client in
      let refused = try await client.post("/admin/reload", json: "", headers: ReloadTests.authorized)
      #expect(refused.status == .unprocessableContent)
      #expect(refused.headers[.contentType] == "application/problem+json")
      #expect(refused.headers[.storesDataVersion] == served)
      let problem = try refused.json()
      #expect(problem["type"] as? String == "urn:stores:problem:reload-refused")
      #expect(problem["title"] as? String == "The reload would lose too many stores")
      #expect(
        problem["detail"] as? String
          == "\(path): the new data has 0 stores, 100% fewer than the 10 served (the limit is 10%, "
          + "--max-store-loss); to accept it, POST /admin/reload?force=true; the data loaded before "
          + "is still served")
      #expect(problem["reloaded"] as? Bool == false)
      #expect(problem["version"] as? String == served)
      #expect(problem["stores"] as? Int == 10)
      #expect(problem["new_stores"] as? Int == 0)
      #expect(problem["new_version"] as? String != served)
      #expect(problem["store_loss_percent"] as? Double == 100)
      #expect(problem["max_store_loss_percent"] as? Double == 10)

      let still = try await client.get("/v1/stores/a-10")
      #expect(still.status == .ok)
      #expect(still.headers[.storesDataVersion] == served)
    }
    #expect(metrics.text.contains("stores_reloads_total{result=\"refused\"} 1"))
    #expect(metrics.text.contains("stores_reloads_total{result=\"success\"} 0"))
    #expect(metrics.text.contains("stores_reloads_total{result=\"failure\"} 0"))
    #expect(metrics.text.contains("stores_loaded_stores 10"))

    let refusal = try #require(log.all.last { $0.metadata["trigger"] == "POST /admin/reload" })
    #expect(refusal.level == .error)
    #expect(refusal.message == "reload refused; still serving the data loaded before")
    #expect(refusal.metadata["version"]?.description == served)
    #expect(
      refusal.metadata["error"]?.description
        == "\(path): the new data has 0 stores, 100% fewer than the 10 served (the limit is 10%, "
        + "--max-store-loss); to accept it, POST /admin/reload?force=true")
  }

  @Test func halfTheStoresIsRefusedUnlessForced() async throws {
    let metrics = ServiceMetrics()
    let log = TestLog()
    let (service, path) = try Self.serving(metrics: metrics, log: log)
    defer { try? FileManager.default.removeItem(atPath: path) }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let served = try #require(service.store.current).version
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("b", count: 5).utf8))
    try await TestService.application(service).test(.router) { client in
      for query in ["", "?force=false"] {
        let refused = try await client.post(
          "/admin/reload\(query)", json: "", headers: ReloadTests.authorized)
        #expect(refused.status == .unprocessableContent, "\(query)")
        let problem = try refused.json()
        #expect(problem["type"] as? String == "urn:stores:problem:reload-refused")
        #expect(
          (problem["detail"] as? String)?.contains("has 5 stores, 50% fewer than the 10 served") == true)
        #expect(problem["new_stores"] as? Int == 5)
        #expect(problem["store_loss_percent"] as? Double == 50)
        #expect(try await client.get("/v1/stores/a-10").status == .ok)
      }

      let forced = try await client.post(
        "/admin/reload?force=true", json: "", headers: ReloadTests.authorized)
      #expect(forced.status == .ok)
      let body = try forced.json()
      #expect(body["reloaded"] as? Bool == true)
      #expect(body["previous_version"] as? String == served)
      #expect(body["stores"] as? Int == 5)
      #expect(try await client.get("/v1/stores/b-5").status == .ok)
      #expect(try await client.get("/v1/stores/a-10").status == .notFound)
    }
    #expect(metrics.text.contains("stores_reloads_total{result=\"refused\"} 2"))
    #expect(metrics.text.contains("stores_reloads_total{result=\"success\"} 1"))
    #expect(metrics.text.contains("stores_loaded_stores 5"))
    // The forced reload says in the log what it accepted.
    let forcedLine = try #require(log.all.last { $0.message == "reloaded the data" })
    #expect(forcedLine.metadata["forced"]?.description == "true")
    #expect(forcedLine.metadata["previous_stores"]?.description == "10")
  }

  @Test func aLossWithinTheLimitIsTakenAndSIGHUPIsGuardedToo() async throws {
    let metrics = ServiceMetrics()
    let log = TestLog()
    let (service, path) = try Self.serving(metrics: metrics, log: log)
    defer { try? FileManager.default.removeItem(atPath: path) }
    defer { try? FileManager.default.removeItem(atPath: path) }
    // 10 to 9 stores: 10% fewer, the limit itself, is taken.
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("b", count: 9).utf8))
    #expect(await service.reloader.reload(trigger: "SIGHUP").reloaded)
    #expect(service.store.current?.catalog.stores.count == 9)
    // 9 to 8: 11.1% fewer, refused, by SIGHUP as by the admin route; more stores are always taken.
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("c", count: 8).utf8))
    let refused = await service.reloader.reload(trigger: "SIGHUP")
    #expect(!refused.reloaded)
    #expect(service.store.current?.catalog.stores.count == 9)
    let refusal = try #require(log.all.last)
    #expect(refusal.level == .error)
    #expect(refusal.metadata["trigger"]?.description == "SIGHUP")
    #expect(
      refusal.metadata["error"]?.description.contains(
        "the new data has 8 stores, 11.1% fewer than the 9 served (the limit is 10%") == true,
      "\(refusal.metadata)")
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("d", count: 50).utf8))
    #expect(await service.reloader.reload(trigger: "SIGHUP").reloaded)
    #expect(service.store.current?.catalog.stores.count == 50)
    #expect(metrics.text.contains("stores_reloads_total{result=\"refused\"} 1"))
    #expect(metrics.text.contains("stores_reloads_total{result=\"success\"} 2"))
  }

  @Test func aFileCutToNothingIsNotServed() async throws {
    let metrics = ServiceMetrics()
    let (service, path) = try Self.serving(metrics: metrics, log: TestLog())
    defer { try? FileManager.default.removeItem(atPath: path) }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let served = try #require(service.store.current).version
    try ReloadTests.replace(path, with: Data())
    try await TestService.application(service).test(.router) { client in
      let answer = try await client.post("/admin/reload", json: "", headers: ReloadTests.authorized)
      #expect(answer.status == .unprocessableContent)
      let problem = try answer.json()
      #expect(problem["reloaded"] as? Bool == false)
      #expect(problem["version"] as? String == served)
      #expect(try await client.get("/v1/stores/a-10").status == .ok)
    }
    #expect(service.store.current?.version == served)
  }

  @Test func forceTakesTrueOrFalseAndTheRouteNoOtherParameter() async throws {
    let metrics = ServiceMetrics()
    let (service, path) = try Self.serving(metrics: metrics, log: TestLog())
    defer { try? FileManager.default.removeItem(atPath: path) }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let served = try #require(service.store.current).version
    try ReloadTests.replace(path, with: Data(Self.emptyCollection.utf8))
    try await TestService.application(service).test(.router) { client in
      let cases: [(query: String, detail: String, parameter: String?)] = [
        ("force=yes", "force must be true or false (got 'yes')", "force"),
        ("force", "force must be true or false (got '')", "force"),
        ("force=1", "force must be true or false (got '1')", "force"),
        ("force=true&force=true", "force is given 2 times; give it once", "force"),
        ("forse=true", "unknown parameter 'forse' (POST /admin/reload takes only force)", "forse"),
        (
          "dry_run=true&force=true", "unknown parameter 'dry_run' (POST /admin/reload takes only force)",
          "dry_run"
        ),
      ]
      for (query, detail, parameter) in cases {
        let answer = try await client.post(
          "/admin/reload?\(query)", json: "", headers: ReloadTests.authorized)
        #expect(answer.status == .badRequest, "\(query)")
        let problem = try answer.json()
        #expect(problem["type"] as? String == "urn:stores:problem:invalid-request", "\(query)")
        #expect(problem["detail"] as? String == detail, "\(query)")
        #expect(problem["parameter"] as? String == parameter, "\(query)")
      }
      // The token is checked first: a stranger learns nothing about the parameters.
      let stranger = try await client.post("/admin/reload?force=yes", json: "")
      #expect(stranger.status == .unauthorized)
    }
    // Nothing was loaded, nothing swapped.
    #expect(service.store.current?.version == served)
    #expect(ReloadCoalescingTests.loads(metrics) == 0)
  }
}
