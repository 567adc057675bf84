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
  let state: StateKeeper

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
    // The state: answers go on from the copy while its storage fails, so this stays ready and
    // says how old the copy is.
    let copy = state.current
    var stateMember = JSONObject()
    stateMember["location"] = .string(state.storage.location)
    stateMember["version"] = .number(String(copy.states.version))
    stateMember["storage"] = .string(copy.failure == nil && copy.confirmedAt != nil ? "up" : "down")
    stateMember["age_s"] = state.ageSeconds.map { JSONValue(($0 * 1000).rounded() / 1000) } ?? .null
    stateMember["error"] = copy.failure.map(JSONValue.string) ?? .null
    body["state"] = .object(stateMember)
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
  /// the reason as `detail`, `"reloaded": false` and the `version` still served; when the new data
  /// lacks more of the stores than `--max-store-loss` allows, 422 `reload-refused` with the counts.
  /// `?force=true` swaps such data in all the same; `force=false` is the default; any other value
  /// or parameter is a 400, before anything is loaded.
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
    let force = try Self.force(request)
    let outcome = await reloader.reload(trigger: "POST /admin/reload", force: force)
    guard let loaded = outcome.loaded else {
      var problem: Problem
      if let refusal = outcome.refusal {
        problem = Problem(
          "reload-refused", status: .unprocessableContent, title: "The reload would lose too many stores",
          detail: refusal.description + "; the data loaded before is still served")
        problem.extensions["reloaded"] = .bool(false)
        problem.extensions["version"] = outcome.previousVersion.map(JSONValue.string) ?? .null
        problem.extensions["stores"] = JSONValue(refusal.servedStores)
        problem.extensions["new_version"] = .string(refusal.newVersion)
        problem.extensions["new_stores"] = JSONValue(refusal.newStores)
        problem.extensions["store_loss_percent"] = JSONValue(refusal.roundedLossPercent)
        problem.extensions["max_store_loss_percent"] = JSONValue(refusal.limitPercent)
      } else {
        problem = Problem(
          "reload-failed", status: .unprocessableContent, title: "The data could not be reloaded",
          detail: (outcome.error?.description ?? "the data could not be loaded")
            + "; the data loaded before is still served")
        problem.extensions["reloaded"] = .bool(false)
        problem.extensions["version"] = outcome.previousVersion.map(JSONValue.string) ?? .null
      }
      throw problem
    }
    var body = JSONObject()
    body["reloaded"] = .bool(true)
    body["version"] = .string(loaded.version)
    body["previous_version"] = outcome.previousVersion.map(JSONValue.string) ?? .null
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

  /// The `force` parameter of `POST /admin/reload`: `true` or `false` (the default), once; the
  /// route takes no other.
  /// - Throws: `Problem` (400) naming the parameter.
  static func force(_ request: Request) throws(Problem) -> Bool {
    func invalid(_ detail: String, _ parameter: String) -> Problem {
      Problem(
        "invalid-request", status: .badRequest, title: "The request is not valid", detail: detail,
        parameter: EchoedText.shortened(parameter))
    }
    let pairs = try QueryString.pairs(request.uri.query)
    if let unknown = pairs.first(where: { $0.name != "force" }) {
      throw invalid(
        "unknown parameter \(EchoedText.quoted(unknown.name)) (POST /admin/reload takes only force)",
        unknown.name)
    }
    guard pairs.count <= 1 else {
      throw invalid("force is given \(pairs.count) times; give it once", "force")
    }
    switch pairs.first?.value {
    case nil, "false": return false
    case "true": return true
    case let value?: throw invalid("force must be true or false (got \(EchoedText.quoted(value)))", "force")
    }
  }

  /// The name of the admin token the request carries.
  /// - Throws: `Problem` 401 (with `WWW-Authenticate`) when it carries none of them.
  static func adminName(_ request: Request, _ configuration: APIConfiguration) throws(Problem) -> String {
    guard let found = tokenName(request, among: configuration.adminTokens) else {
      var problem = Problem(
        "unauthorized", status: .unauthorized, title: "The admin token is missing or wrong",
        detail: "send Authorization: Bearer with the service's STORES_ADMIN_TOKEN")
      problem.headers[.wwwAuthenticate] = "Bearer realm=\"stores-admin\""
      throw problem
    }
    return found
  }

  /// The name of the token `Authorization: Bearer` gives, when it is one of `tokens`.
  static func tokenName(_ request: Request, among tokens: [(name: String, token: String)]) -> String? {
    let given = bearerToken(request).map { Array($0.utf8) }
    var found: String?
    // Every token is compared, whichever matches, so the time taken does not tell which.
    for (name, token) in tokens {
      if let given, ConstantTime.equal(given, Array(token.utf8)), found == nil { found = name }
    }
    return found
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
