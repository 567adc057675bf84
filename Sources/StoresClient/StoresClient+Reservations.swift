import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A pickup slot held for an order (docs/pickup.md, "Holding a slot"): `status` `held` until it is
/// confirmed, released or `expiresAt` passes (then `expired`); `slotStart`, `slotEnd` as `Date`.
public typealias Reservation = Components.Schemas.Reservation
/// `held`, `confirmed`, `released` or `expired`.
public typealias ReservationStatus = Components.Schemas.ReservationStatus
/// One store's pickup slots on one day, with what each holds (`GET /v1/stores/{id}/slots`).
public typealias SlotListing = Components.Schemas.SlotListing
/// One slot of a `SlotListing`: its limit, holds, confirmed orders, places left, and whether the
/// store is open then.
public typealias Slot = Components.Schemas.Slot

/// Sends an order token (one of the service's `STORES_ORDER_TOKENS`) as `Authorization: Bearer`
/// with every request: for the order flow's server, which holds, confirms and releases pickup
/// slots. An app never holds it; the service takes an admin token (`AdminTokenMiddleware`) too.
public struct OrderTokenMiddleware: ClientMiddleware {
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

extension Reservation {
  /// The reservation a pickup plan carries (`plan.reservation`), as the reservation routes answer
  /// it.
  public init(_ held: Components.Schemas.ReservationOrNull) {
    self.init(
      id: held.id, store: held.store, service: held.service, slotStart: held.slotStart, slotEnd: held.slotEnd,
      status: held.status, expiresAt: held.expiresAt, createdAt: held.createdAt, changedAt: held.changedAt)
  }
}

// The order flow in Swift's types (docs/pickup.md, "The order flow"): plan, hold the slot, place
// the order, confirm (or release). Holding, confirming and releasing need a client made with
// `OrderTokenMiddleware` (else the service answers 401, or 403 when it takes no order tokens at
// all), thrown as `StoresClientError` like every refusal.
extension StoresClient {
  /// Plans the pickup of an order ready `readyIn` from now and, with `reserve`, holds one place
  /// in the assigned store's slot (`POST /v1/pickup` with `"reserve": true`).
  ///
  /// The plan's `reservation` is the hold (`Reservation(plan.reservation!)`); it is nil when no
  /// store can take the order (`status` `none`, nothing held). The pickup may be in a later slot
  /// than a plain plan said, or at another store: `warnings` and `passedOver` say why
  /// (`slot-full`). Holds go by the service's clock: there is no `now`.
  /// - Parameters:
  ///   - store, travel, withinMeters, service, maxDelay: as in `pickup(near:readyIn:…)`.
  ///   - holdFor: how long the hold waits for `confirm(reservation:)` before it frees its place
  ///     by itself (1 s to 30 minutes; the service's default is 5 minutes). Only with `reserve`.
  ///   - idempotencyKey: a key of the order (1 to 255 visible ASCII characters, such as a UUID):
  ///     the same request again (a retry after a timeout) answers the first answer and never
  ///     holds a second place; the same key with another request is a 422
  ///     `idempotency-key-reused`.
  /// - Throws: `StoresClientError`: 401 without an order token, 409 `slots-full` (retry),
  ///   503 `state-unavailable` (nothing held), 400 for a parameter out of range.
  public func pickup(
    near: Coordinate, readyIn: Duration, store: String? = nil, travel: Travel? = nil,
    withinMeters: Double? = nil, service: String? = nil, maxDelay: Duration? = nil,
    reserve: Bool, holdFor: Duration? = nil, idempotencyKey: String? = nil
  ) async throws -> PickupResult {
    let request = Components.Schemas.PickupRequestReadyIn(
      near: .case2(.init(latitude: near.latitude, longitude: near.longitude)),
      readyIn: WireFormat.duration(readyIn),
      store: store,
      within: withinMeters.map { .case2($0) },
      travel: travel?.wireValue,
      service: service,
      maxDelay: maxDelay.map(WireFormat.duration),
      reserve: reserve,
      holdFor: holdFor.map(WireFormat.duration)
    )
    return try await plan(.PickupRequestReadyIn(request), idempotencyKey: idempotencyKey)
  }

  /// Plans the pickup of an order ready at `readyAt` (a time the customer chose, say from
  /// `slots(store:date:service:)`) and, with `reserve`, holds its slot; the other parameters as in
  /// `pickup(near:readyIn:…reserve:holdFor:idempotencyKey:)`.
  public func pickup(
    near: Coordinate, readyAt: Date, store: String? = nil, travel: Travel? = nil,
    withinMeters: Double? = nil, service: String? = nil, maxDelay: Duration? = nil,
    reserve: Bool, holdFor: Duration? = nil, idempotencyKey: String? = nil
  ) async throws -> PickupResult {
    let request = Components.Schemas.PickupRequestReadyAt(
      near: .case2(.init(latitude: near.latitude, longitude: near.longitude)),
      readyAt: WireFormat.instant(readyAt),
      store: store,
      within: withinMeters.map { .case2($0) },
      travel: travel?.wireValue,
      service: service,
      maxDelay: maxDelay.map(WireFormat.duration),
      reserve: reserve,
      holdFor: holdFor.map(WireFormat.duration)
    )
    return try await plan(.PickupRequestReadyAt(request), idempotencyKey: idempotencyKey)
  }

  /// Keeps a held slot once the order is placed (`POST /v1/reservations/{id}/confirm`): the
  /// reservation, `confirmed`. Confirming again answers the same.
  /// - Throws: `StoresClientError` with a 409 `reservation-expired` (not confirmed within its
  ///   `holdFor`) or `reservation-released`: plan and hold again; 404 `unknown-reservation`.
  @discardableResult
  public func confirm(reservation id: String) async throws -> Reservation {
    let output = try await StoresClientError.unwrapping {
      try await client.confirmReservation(path: .init(id: id))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// Frees the place of a held or confirmed reservation, for a cancelled order
  /// (`DELETE /v1/reservations/{id}`): the reservation, `released` (or `expired`, when the hold
  /// expired first). Releasing again answers the same.
  @discardableResult
  public func release(reservation id: String) async throws -> Reservation {
    let output = try await StoresClientError.unwrapping {
      try await client.releaseReservation(path: .init(id: id))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// The reservation `id` with its status now (`GET /v1/reservations/{id}`); needs no token.
  public func reservation(_ id: String) async throws -> Reservation {
    let output = try await StoresClientError.unwrapping {
      try await client.getReservation(path: .init(id: id))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// The pickup slots of `store` on a day, with what each holds (`GET /v1/stores/{id}/slots`), for
  /// a "choose a time" screen: offer the slots that are `open` with `free` above 0 (or nil: no
  /// limit). Public.
  /// - Parameters:
  ///   - date: the day in the store's time zone, `2026-12-24` (default: today there).
  ///   - service: the service the order is for (`drive_through`): its capacity and hours count.
  ///   - now: the clock (default the service's): which holds have expired, and today.
  public func slots(store: String, date: String? = nil, service: String? = nil, now: Date? = nil)
    async throws -> SlotListing
  {
    let output = try await StoresClientError.unwrapping {
      try await client.getStoreSlots(
        path: .init(id: store), query: .init(date: date, service: service, now: now))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }
}
