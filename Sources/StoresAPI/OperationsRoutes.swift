import HTTPTypes
import Hummingbird
import NIOCore
import StoreLocator

/// The routes for operators and tools: health, readiness, metrics, the contract, and reload.
struct OperationsRoutes: Sendable {
  let store: CatalogStore
  let metrics: ServiceMetrics
  let reloader: Reloader
  let configuration: APIConfiguration

  /// `GET /healthz`: the process answers. Says nothing about the data (that is `/readyz`).
  func health(_ request: Request, _ context: StoresRequestContext) -> Response {
    DocumentResponse.make(
      "{\"status\":\"ok\"}\n", contentType: DocumentResponse.json, cacheControl: nil, request: request)
  }

  /// `GET /readyz`: 200 once data is loaded and verified, 503 before, and while shutting down
  /// (so a load balancer stops sending requests before the last ones drain).
  func readiness(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    if store.isDraining {
      throw Problem(
        "not-ready", status: .serviceUnavailable, title: "The service is not ready",
        detail: "the service is shutting down")
    }
    let loaded = try StoreRoutes.loaded(context)
    var body = JSONObject()
    body["status"] = .string("ready")
    body["version"] = .string(loaded.version)
    body["stores"] = JSONValue(loaded.catalog.stores.count)
    body["source"] = .string(loaded.path)
    return DocumentResponse.make(
      JSONValue.object(body).jsonText + "\n", contentType: DocumentResponse.json, cacheControl: nil,
      request: request)
  }

  /// `GET /metrics`: the Prometheus text format.
  func metricsText(_ request: Request, _ context: StoresRequestContext) -> Response {
    DocumentResponse.make(
      metrics.text, contentType: "text/plain; version=0.0.4; charset=utf-8", cacheControl: nil,
      request: request)
  }

  /// `GET /openapi.json`: the contract.
  func openAPI(_ request: Request, _ context: StoresRequestContext) -> Response {
    DocumentResponse.make(
      OpenAPIDocument.json, contentType: DocumentResponse.json, cacheControl: "public, max-age=300",
      request: request)
  }

  /// `POST /admin/reload`: loads `--data` again and swaps it in (as SIGHUP does), with the bearer
  /// token of `STORES_ADMIN_TOKEN`; 404 when none is set, as if the route did not exist.
  ///
  /// 200 with `{"reloaded": true, "version", "previous_version", "stores", "source",
  /// "load_seconds"}` when the new data is served; when the load fails, 422 `reload-failed` with
  /// the reason as `detail`, `"reloaded": false` and the `version` still served.
  func reload(_ request: Request, _ context: StoresRequestContext) async throws(Problem) -> Response {
    guard let token = configuration.adminToken, !token.isEmpty else {
      throw Problem.unknownRoute(request.uri.path)
    }
    guard let given = Self.bearerToken(request), ConstantTime.equal(Array(given.utf8), Array(token.utf8))
    else {
      var problem = Problem(
        "unauthorized", status: .unauthorized, title: "The admin token is missing or wrong",
        detail: "send Authorization: Bearer with the service's STORES_ADMIN_TOKEN")
      problem.headers[.wwwAuthenticate] = "Bearer realm=\"stores-admin\""
      throw problem
    }
    let outcome = await reloader.reload(trigger: "POST /admin/reload")
    guard let loaded = outcome.loaded else {
      var problem = Problem(
        "reload-failed", status: .unprocessableContent, title: "The data could not be reloaded",
        detail: (outcome.error?.description ?? "the data could not be loaded")
          + "; the data loaded before is still served")
      problem.extensions["reloaded"] = .bool(false)
      problem.extensions["version"] = outcome.previous.map { .string($0.version) } ?? .null
      throw problem
    }
    var body = JSONObject()
    body["reloaded"] = .bool(true)
    body["version"] = .string(loaded.version)
    body["previous_version"] = outcome.previous.map { .string($0.version) } ?? .null
    body["stores"] = JSONValue(loaded.catalog.stores.count)
    body["source"] = .string(loaded.path)
    body["load_seconds"] = JSONValue(loaded.loadSeconds)
    var response = DocumentResponse.make(
      JSONValue.object(body).jsonText + "\n", contentType: DocumentResponse.json, cacheControl: nil,
      request: request)
    // This answer is about the data now served, not the data the request started with.
    response.headers[.storesDataVersion] = loaded.version
    return response
  }

  /// The token of `Authorization: Bearer TOKEN` (the scheme in any case).
  static func bearerToken(_ request: Request) -> String? {
    guard let value = request.headers[.authorization] else { return nil }
    let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "bearer" else { return nil }
    return String(parts[1])
  }
}

/// Comparison whose time does not depend on where two secrets differ.
enum ConstantTime {
  /// True when `a` and `b` are the same bytes; the time taken depends only on their lengths.
  static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
    var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
    if a.count != b.count { difference |= 1 }
    // Compare against `a` itself when the lengths differ, so the loop runs the same either way.
    let other = a.count == b.count ? b : a
    for index in a.indices { difference |= a[index] ^ other[index] }
    return difference == 0
  }
}
