import HTTPTypes
import Hummingbird
import NIOCore
import OpeningHours
import StoreLocator
import StoresState

/// The routes of the stores' state (docs/state.md): reads are public and answered from the
/// replica's copy; a change takes an admin token and goes to the storage before it is answered.
struct StateRoutes: Sendable {
  let state: StateKeeper
  let configuration: APIConfiguration

  /// The largest state change body: 366 special days and 50 closures fit many times over.
  static let maximumBodyBytes = 256 * 1024
  /// The most history entries one answer lists.
  static let maximumHistory = 1000

  /// `GET /v1/stores/{id}/state`: the store's state as this replica answers with it.
  func state(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let (id, _) = try Self.store(request, context, accepted: [])
    return Self.document(
      context.states[id].jsonObject(id: id, at: .now()), version: context.states.version, request: request)
  }

  /// `GET /v1/stores/state?changed_since=VERSION`: every store whose state changed after that
  /// version (all that have one without it), for an order system that mirrors the state.
  func changed(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let pairs = try QueryString.pairs(request.uri.query)
    if let unknown = pairs.first(where: { $0.name != "changed_since" }) {
      throw Self.invalid(
        "unknown parameter \(EchoedText.quoted(unknown.name)) (this route takes only changed_since)",
        unknown.name)
    }
    var since: Int64 = 0
    if let text = pairs.first?.value {
      guard pairs.count == 1, let value = Int64(text), value >= 0 else {
        throw Self.invalid(
          "changed_since must be a state version: a whole number from 0 (got \(EchoedText.quoted(text)))",
          "changed_since")
      }
      since = value
    }
    let now = Instant.now()
    let changed = context.states.stores.filter { $0.value.version > since }
      .sorted { ($0.value.version, $0.key) < ($1.value.version, $1.key) }
    var body = JSONObject()
    body["version"] = .number(String(context.states.version))
    body["changed_since"] = .number(String(since))
    body["stores"] = .array(changed.map { .object($0.value.jsonObject(id: $0.key, at: now)) })
    return Self.document(body, version: context.states.version, request: request)
  }

  /// `PATCH /v1/stores/{id}/state`: changes the store's state (any of `ordering` with `until`
  /// and `reason`, `closures`, `special_days`; lists replace) and answers the new state.
  func change(_ request: Request, _ context: StoresRequestContext) async throws(Problem) -> Response {
    guard !configuration.adminTokens.isEmpty else {
      throw Problem(
        "changes-disabled", status: .forbidden, title: "State changes are not enabled",
        detail:
          "this service takes no state changes: start it with STORES_ADMIN_TOKEN (or STORES_ADMIN_TOKENS) set"
      )
    }
    let actor = try OperationsRoutes.adminName(request, configuration)
    let (id, zone) = try Self.store(request, context, accepted: [])
    try StoreRoutes.requireJSON(request)
    let bytes: [UInt8]
    do {
      bytes = Array(try await request.body.collect(upTo: Self.maximumBodyBytes).readableBytesView)
    } catch {
      throw Problem.bodyTooLarge(limit: Self.maximumBodyBytes)
    }
    let now = Instant.now()
    let change = try StoreRoutes.reading { () throws(RequestError) in
      let json: JSONValue
      do throws(JSONParseError) {
        json = try JSONValue(parsing: String(decoding: bytes, as: UTF8.self))
      } catch {
        throw RequestError(.invalid, parameter: nil, "the body is not JSON: \(error.description)")
      }
      return try StoreStateChange(json: json, zone: zone, now: now)
    }
    let stored: StoreState
    do throws(StateStorageError) { stored = try await state.apply(change, to: id, by: actor, at: now) } catch
    {
      throw Self.unavailable(error)
    }
    var response = Self.document(
      stored.jsonObject(id: id, at: now), version: stored.version, request: request)
    response.headers[.cacheControl] = "no-store"
    return response
  }

  /// `GET /v1/stores/{id}/state/history?limit=N`: the store's changes, newest first: what, when,
  /// by which token's name.
  func history(_ request: Request, _ context: StoresRequestContext) async throws(Problem) -> Response {
    let (id, _) = try Self.store(request, context, accepted: ["limit"])
    let pairs = try QueryString.pairs(request.uri.query)
    var limit = 100
    if let text = pairs.first(where: { $0.name == "limit" })?.value {
      guard let value = Int(text), (1...Self.maximumHistory).contains(value) else {
        throw Self.invalid(
          "limit must be 1...\(Self.maximumHistory) (got \(EchoedText.quoted(text)))", "limit")
      }
      limit = value
    }
    let records: [StateChangeRecord]
    do throws(StateStorageError) { records = try await state.storage.history(of: id, limit: limit) } catch {
      throw Self.unavailable(error)
    }
    var body = JSONObject()
    body["id"] = .string(id)
    body["history"] = .array(records.map { .object($0.jsonObject) })
    return Self.document(body, version: context.states.version, request: request)
  }

  // MARK: -

  /// The one store the path names, and its time zone; 404 for an id no store has.
  static func store(_ request: Request, _ context: StoresRequestContext, accepted: [String]) throws(Problem)
    -> (id: String, zone: TimeZoneRules?)
  {
    let loaded = try StoreRoutes.loaded(context)
    let pairs = try QueryString.pairs(request.uri.query)
    if let unknown = pairs.first(where: { !accepted.contains($0.name) }) {
      throw invalid(
        "unknown parameter \(EchoedText.quoted(unknown.name))"
          + (accepted.isEmpty
            ? " (this route takes none)" : " (this route takes \(accepted.joined(separator: ", ")))"),
        unknown.name)
    }
    let id = try QueryString.pathSegment(context.parameters.get("id") ?? "")
    let store = try StoreRoutes.reading { () throws(RequestError) in
      try loaded.catalog.uniqueStore(withID: id)
    }
    return (id, loaded.catalog.timeZone(of: store))
  }

  static func invalid(_ detail: String, _ parameter: String) -> Problem {
    Problem(
      "invalid-request", status: .badRequest, title: "The request is not valid", detail: detail,
      parameter: EchoedText.shortened(parameter))
  }

  /// 503 `state-unavailable`: the change is not made; reads go on from the last copy.
  static func unavailable(_ error: StateStorageError) -> Problem {
    var problem = Problem(
      "state-unavailable", status: .serviceUnavailable, title: "The state storage is unavailable",
      detail: "\(error.message); nothing was changed, and answers go on from the last state read")
    problem.headers[.retryAfter] = "2"
    return problem
  }

  static func document(_ object: JSONObject, version: Int64, request: Request) -> Response {
    var response = DocumentResponse.make(
      JSONValue.object(object).jsonText + "\n", contentType: DocumentResponse.json, cacheControl: "no-cache",
      request: request)
    response.headers[.storesStateVersion] = String(version)
    return response
  }
}
