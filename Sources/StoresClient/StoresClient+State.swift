import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A store's state: whether it takes orders, its temporary closures and special days
/// (`GET /v1/stores/{id}/state`, docs/state.md).
public typealias StoreOperationalState = Components.Schemas.StoreOperationalState
/// A temporary closure: closed for every service from `from` until `until` (the reopening).
public typealias Closure = Components.Schemas.Closure
/// A date whose hours replace the week's and a public holiday's.
public typealias SpecialDay = Components.Schemas.SpecialDay
/// The stores whose state changed after a version (`GET /v1/stores/state`).
public typealias ChangedStates = Components.Schemas.ChangedStates
/// A store's state changes, newest first.
public typealias StateHistory = Components.Schemas.StateHistory
/// A capacity set in a store's state: orders per pickup slot, for the store or one service.
public typealias Capacity = Components.Schemas.Capacity

/// Sends the service's admin token (`STORES_ADMIN_TOKEN`) as `Authorization: Bearer` with every
/// request: for a back-office tool that changes stores' state. An app never holds it.
public struct AdminTokenMiddleware: ClientMiddleware {
  private let token: String

  public init(token: String) { self.token = token }

  public func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    request.headerFields[.authorization] = "Bearer \(token)"
    return try await next(request, body, baseURL)
  }
}

// The stores' state, in Swift's types. Reads are public; a change needs a client made with
// `AdminTokenMiddleware` (else the service answers 401, thrown as `StoresClientError`).
extension StoresClient {
  /// The state of the store `id` (`GET /v1/stores/{id}/state`).
  public func state(of id: String) async throws -> StoreOperationalState {
    let output = try await StoresClientError.unwrapping {
      try await client.getStoreState(path: .init(id: id))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// Pauses ordering at store `id`: it stays listed, pickup passes it over, until `until` (then
  /// it takes orders again by itself) or until `resume(_:)`.
  @discardableResult
  public func pause(_ id: String, until: Date? = nil, reason: String? = nil) async throws
    -> StoreOperationalState
  {
    try await change(id, .init(ordering: .paused, until: until.map(WireFormat.instant), reason: reason))
  }

  /// Resumes ordering at store `id` now.
  @discardableResult
  public func resume(_ id: String) async throws -> StoreOperationalState {
    try await change(id, .init(ordering: .open))
  }

  /// Replaces the temporary closures of store `id` (an empty list reopens it).
  @discardableResult
  public func setClosures(_ closures: [Closure], of id: String) async throws -> StoreOperationalState {
    try await change(id, .init(closures: closures))
  }

  /// Replaces the special days of store `id`.
  @discardableResult
  public func setSpecialDays(_ days: [SpecialDay], of id: String) async throws -> StoreOperationalState {
    try await change(id, .init(specialDays: days))
  }

  /// Sets how many orders store `id` takes per pickup slot, for one `service` or (nil) the store
  /// (docs/pickup.md, "Capacity"); it wins over the data's `pickup:capacity` at the same level.
  /// - Parameter slotMinutes: the slot length, a divisor of a day (the service's default is 15).
  @discardableResult
  public func setCapacity(
    ordersPerSlot: Int, slotMinutes: Int? = nil, service: String? = nil, of id: String
  ) async throws -> StoreOperationalState {
    try await change(
      id,
      .init(
        capacity: .CapacityChange(
          .init(ordersPerSlot: .case1(ordersPerSlot), slotMinutes: slotMinutes, service: service))))
  }

  /// Sets limits by time of day (`Mo-Fr 07:00-09:00 20; 10`: the first rule whose selection holds
  /// a slot's start gives its limit) as the capacity of store `id`, for one `service` or the store.
  @discardableResult
  public func setCapacity(
    rules: String, slotMinutes: Int? = nil, service: String? = nil, of id: String
  ) async throws -> StoreOperationalState {
    try await change(
      id,
      .init(
        capacity: .CapacityChange(
          .init(ordersPerSlot: .case2(rules), slotMinutes: slotMinutes, service: service))))
  }

  /// Removes the capacity the state sets for `service` (nil: the store's) of store `id`, so the
  /// data's applies again.
  @discardableResult
  public func removeCapacity(service: String? = nil, of id: String) async throws -> StoreOperationalState {
    try await change(
      id, .init(capacity: .CapacityChange(.init(ordersPerSlot: .case1(nil), service: service))))
  }

  /// Applies `change` to store `id` (`PATCH /v1/stores/{id}/state`) and returns its new state.
  public func change(_ id: String, _ change: Components.Schemas.StateChange) async throws
    -> StoreOperationalState
  {
    let output = try await StoresClientError.unwrapping {
      try await client.changeStoreState(path: .init(id: id), body: .json(change))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// The stores whose state changed after `version` (every store with a state for 0), for a
  /// system that mirrors it: ask again with the answer's `version`.
  public func changedStates(since version: Int = 0) async throws -> ChangedStates {
    let output = try await StoresClientError.unwrapping {
      try await client.getChangedStates(query: .init(changedSince: version))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// The state changes of store `id`, newest first.
  public func stateHistory(of id: String, limit: Int? = nil) async throws -> StateHistory {
    let output = try await StoresClientError.unwrapping {
      try await client.getStoreStateHistory(path: .init(id: id), query: .init(limit: limit))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }
}
