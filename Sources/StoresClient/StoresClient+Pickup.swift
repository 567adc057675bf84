import Foundation

/// The pickup plan (`stores pickup --format json`): `status` `assigned` with the `store` and the
/// times as `Date` (`readyAt`, `arrivalAt`, `pickupAt`), or `none` with `passedOver` and
/// `earliest`. A plan with no store is an answer, not an error.
public typealias PickupResult = Components.Schemas.PickupResult

/// How the customer travels to the store, which bounds how far a store may be.
public enum Travel: Sendable, Hashable {
  /// 5 km/h, the service's default.
  case walk
  /// 15 km/h.
  case bike
  /// 30 km/h.
  case drive
  /// Any speed above zero.
  case kilometresPerHour(Double)

  /// As the document's `TravelMode` writes it.
  var wireValue: String {
    switch self {
    case .walk: "walk"
    case .bike: "bike"
    case .drive: "drive"
    case .kilometresPerHour(let speed): "\(speed)km/h"
    }
  }
}

extension StoresClient {
  /// Plans the pickup of an order ready `readyIn` from now (or from `now`) for a customer at
  /// `near` (`POST /v1/pickup` with a plain request).
  /// - Parameters:
  ///   - store: the store the customer chose; the plan says whether it can serve, with alternatives.
  ///   - travel: how the customer travels (default walking).
  ///   - withinMeters: how far to look for stores (default 10 km).
  ///   - service: the service the order is for (`drive_through`): its hours decide (docs/state.md).
  ///   - maxDelay: how much later than the next store a store whose slot is full may still take
  ///     the order in its next free slot (0 to 2 hours; the service's default is 15 minutes).
  ///   - now: the clock to plan at (default the service's), for reproducible answers.
  ///
  /// To hold the slot as well, `pickup(near:readyIn:…reserve:holdFor:idempotencyKey:)`.
  public func pickup(
    near: Coordinate, readyIn: Duration, store: String? = nil, travel: Travel? = nil,
    withinMeters: Double? = nil, service: String? = nil, maxDelay: Duration? = nil, now: Date? = nil
  ) async throws -> PickupResult {
    try await pickup(
      near: .case2(.init(latitude: near.latitude, longitude: near.longitude)), readyIn: readyIn, store: store,
      travel: travel, withinMeters: withinMeters, service: service, maxDelay: maxDelay, now: now)
  }

  /// Plans the pickup of an order ready `readyIn` from now for a customer at the place named
  /// `place` (`"Seattle"`, `"Springfield, IL"`), resolved by the service as `stores pickup --near`
  /// resolves it; the other parameters as in `pickup(near:readyIn:…)` with a coordinate. A name
  /// with no place clearly meant throws the 400 whose `places` lists the candidates.
  public func pickup(
    near place: String, readyIn: Duration, store: String? = nil, travel: Travel? = nil,
    withinMeters: Double? = nil, service: String? = nil, maxDelay: Duration? = nil, now: Date? = nil
  ) async throws -> PickupResult {
    try await pickup(
      near: .Location(place), readyIn: readyIn, store: store, travel: travel, withinMeters: withinMeters,
      service: service, maxDelay: maxDelay, now: now)
  }

  private func pickup(
    near: Components.Schemas.PickupRequestReadyIn.NearPayload, readyIn: Duration, store: String?,
    travel: Travel?, withinMeters: Double?, service: String?, maxDelay: Duration?, now: Date?
  ) async throws -> PickupResult {
    let request = Components.Schemas.PickupRequestReadyIn(
      near: near,
      readyIn: WireFormat.duration(readyIn),
      store: store,
      within: withinMeters.map { .case2($0) },
      travel: travel?.wireValue,
      now: now,
      service: service,
      maxDelay: maxDelay.map(WireFormat.duration)
    )
    return try await plan(.PickupRequestReadyIn(request))
  }

  /// Plans the pickup of an order ready at `readyAt` for a customer at `near` (`POST /v1/pickup`);
  /// the other parameters as in `pickup(near:readyIn:…)`.
  public func pickup(
    near: Coordinate, readyAt: Date, store: String? = nil, travel: Travel? = nil,
    withinMeters: Double? = nil, service: String? = nil, maxDelay: Duration? = nil, now: Date? = nil
  ) async throws -> PickupResult {
    try await pickup(
      near: .case2(.init(latitude: near.latitude, longitude: near.longitude)), readyAt: readyAt, store: store,
      travel: travel, withinMeters: withinMeters, service: service, maxDelay: maxDelay, now: now)
  }

  /// Plans the pickup of an order ready at `readyAt` for a customer at the place named `place`;
  /// as `pickup(near:readyIn:…)` with a place name.
  public func pickup(
    near place: String, readyAt: Date, store: String? = nil, travel: Travel? = nil,
    withinMeters: Double? = nil, service: String? = nil, maxDelay: Duration? = nil, now: Date? = nil
  ) async throws -> PickupResult {
    try await pickup(
      near: .Location(place), readyAt: readyAt, store: store, travel: travel, withinMeters: withinMeters,
      service: service, maxDelay: maxDelay, now: now)
  }

  private func pickup(
    near: Components.Schemas.PickupRequestReadyAt.NearPayload, readyAt: Date, store: String?,
    travel: Travel?, withinMeters: Double?, service: String?, maxDelay: Duration?, now: Date?
  ) async throws -> PickupResult {
    let request = Components.Schemas.PickupRequestReadyAt(
      near: near,
      readyAt: WireFormat.instant(readyAt),
      store: store,
      within: withinMeters.map { .case2($0) },
      travel: travel?.wireValue,
      now: now,
      service: service,
      maxDelay: maxDelay.map(WireFormat.duration)
    )
    return try await plan(.PickupRequestReadyAt(request))
  }

  /// Sends a plain pickup request and returns its plan: 200, or 201 when it held a slot
  /// (`reserve`), the plan with its `reservation`.
  func plan(
    _ request: Operations.PlanPickup.Input.Body.JsonPayload, idempotencyKey: String? = nil
  ) async throws -> PickupResult {
    let output = try await StoresClientError.unwrapping {
      try await client.planPickup(headers: .init(idempotencyKey: idempotencyKey), body: .json(request))
    }
    switch output {
    case .ok(let ok):
      // A plain request is answered with the plan alone; an order document would come back whole.
      if case .PickupResult(let plan) = try ok.body.json { return plan }
      throw StoresClientError.unexpectedResponse(status: 200, body: "an order where a plan was expected")
    case .created(let created):
      if case .PickupResult(let plan) = try created.body.json { return plan }
      throw StoresClientError.unexpectedResponse(status: 201, body: "an order where a plan was expected")
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }
}
