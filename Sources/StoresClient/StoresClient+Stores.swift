import Foundation

/// Where a customer is: `Coordinate(latitude: 47.6062, longitude: -122.3321)`.
public typealias Coordinate = Components.Schemas.Coordinate
/// `stores nearest --format json`: the question as understood, and the stores nearest first.
public typealias NearestAnswer = Components.Schemas.NearestAnswer
/// A store with its state at the time asked (`stores show ID --format json`).
public typealias Store = Components.Schemas.Store
/// A store with its state and whether it stays open (`stores open ID --format json`).
public typealias OpenStore = Components.Schemas.OpenStore
/// A store's state and its open spans day by day (`stores hours ID --format json`).
public typealias HoursAnswer = Components.Schemas.HoursAnswer
/// A member of the stores of a search answer, as `fields` names it (`.id`, `.name`, `.distanceM`,
/// `.state`, …).
public typealias StoreMember = Components.Schemas.StoreMember
/// `stores nearest --fields … --format json`: the stores nearest first, with only the members
/// asked for.
public typealias NearestSelection = Components.Schemas.NearestSelection
/// A store with only the members asked for (and `id`); the others are `nil`.
public typealias SelectedStore = Components.Schemas.SelectedStore
/// Places whose name starts with the text typed (`stores places QUERY --format json`).
public typealias PlacesAnswer = Components.Schemas.PlacesAnswer

// The questions an app asks most, in Swift's types. Each throws `StoresClientError` when the
// service says no (a problem document) and the generated client's errors otherwise.
extension StoresClient {
  /// The stores nearest to `coordinate`, nearest first (`GET /v1/stores/nearest`).
  /// - Parameters:
  ///   - count: how many (`k`, default 10, at most 1000).
  ///   - withinMeters: only stores at most this far.
  ///   - openAt: only stores open at this instant; the states describe it.
  ///   - openNow: only stores open now (not with `openAt`).
  ///   - openFor: only stores that stay open this long from `openAt` (or from now).
  ///   - conditions: on the stores' properties, `KEY=VALUE`, `KEY!=VALUE` or `KEY`; all must hold.
  ///   - allowUnknown: with an opening condition, keep stores whose hours do not say.
  ///   - service: go by this service's hours (`drive_through`), docs/state.md.
  ///   - now: the clock to answer at (default the service's), for reproducible answers.
  public func nearest(
    to coordinate: Coordinate, count: Int? = nil, withinMeters: Double? = nil, openAt: Date? = nil,
    openNow: Bool = false, openFor: Duration? = nil, where conditions: [String] = [],
    allowUnknown: Bool = false, service: String? = nil, now: Date? = nil
  ) async throws -> NearestAnswer {
    try await nearest(
      near: WireFormat.latLon(coordinate), count: count, withinMeters: withinMeters, openAt: openAt,
      openNow: openNow, openFor: openFor, where: conditions, allowUnknown: allowUnknown, service: service,
      now: now)
  }

  /// The stores nearest to the place named `place` (`"Seattle"`, `"Springfield, IL"`, `"Paris, FR"`),
  /// which the service resolves as `stores nearest --near` does; `query.nearPlace` in the answer
  /// says which place it took. The other parameters as in `nearest(to:count:…)` with a coordinate.
  /// - Throws: `StoresClientError.problem` 400 `invalid-request` when the name names several
  ///   places with none clearly meant, or none: the problem's `places` lists them (typed
  ///   `Place`s, to offer the customer), or close names in `suggestions`.
  public func nearest(
    to place: String, count: Int? = nil, withinMeters: Double? = nil, openAt: Date? = nil,
    openNow: Bool = false, openFor: Duration? = nil, where conditions: [String] = [],
    allowUnknown: Bool = false, service: String? = nil, now: Date? = nil
  ) async throws -> NearestAnswer {
    try await nearest(
      near: place, count: count, withinMeters: withinMeters, openAt: openAt, openNow: openNow,
      openFor: openFor, where: conditions, allowUnknown: allowUnknown, service: service, now: now)
  }

  /// The stores nearest to `coordinate` with only the members in `fields` (and `id`), for a
  /// list that shows a few: `[.name, .distanceM, .state]`. Without the open-state and ordering
  /// members the service evaluates no opening hours for them. The other parameters as in
  /// `nearest(to:count:…)`.
  public func nearest(
    to coordinate: Coordinate, fields: [StoreMember], count: Int? = nil, withinMeters: Double? = nil,
    openAt: Date? = nil, openNow: Bool = false, openFor: Duration? = nil, where conditions: [String] = [],
    allowUnknown: Bool = false, service: String? = nil, now: Date? = nil
  ) async throws -> NearestSelection {
    let body = try await nearest(
      near: WireFormat.latLon(coordinate), fields: fields.isEmpty ? [.id] : fields, count: count,
      withinMeters: withinMeters, openAt: openAt, openNow: openNow, openFor: openFor, where: conditions,
      allowUnknown: allowUnknown, service: service, now: now)
    switch body {
    case .NearestSelection(let answer): return answer
    // Every member named: the service answers the whole store, which has them all.
    case .NearestAnswer(let whole):
      return NearestSelection(
        query: whole.query, fields: StoreMember.allCases, count: whole.count,
        stores: whole.stores.map(SelectedStore.init))
    default: throw StoresClientError.unexpectedResponse(status: 200, body: "GeoJSON where JSON was asked")
    }
  }

  /// `nearest(to:…)` with `near` as the wire writes it: `LAT,LON` or a place name.
  private func nearest(
    near: String, count: Int?, withinMeters: Double?, openAt: Date?, openNow: Bool, openFor: Duration?,
    where conditions: [String], allowUnknown: Bool, service: String?, now: Date?
  ) async throws -> NearestAnswer {
    let body = try await nearest(
      near: near, fields: nil, count: count, withinMeters: withinMeters, openAt: openAt, openNow: openNow,
      openFor: openFor, where: conditions, allowUnknown: allowUnknown, service: service, now: now)
    // The JSON entry also admits a FeatureCollection (for `format=geojson`, not asked here).
    if case .NearestAnswer(let answer) = body { return answer }
    throw StoresClientError.unexpectedResponse(status: 200, body: "GeoJSON where JSON was asked")
  }

  /// The body of `GET /v1/stores/nearest` for these parameters.
  private func nearest(
    near: String, fields: [StoreMember]?, count: Int?, withinMeters: Double?, openAt: Date?, openNow: Bool,
    openFor: Duration?, where conditions: [String], allowUnknown: Bool, service: String?, now: Date?
  ) async throws -> Operations.NearestStores.Output.Ok.Body.JsonPayload {
    let query = Operations.NearestStores.Input.Query(
      near: near,
      k: count,
      within: withinMeters.map { "\($0)m" },
      _where: conditions.isEmpty ? nil : conditions,
      openNow: openNow ? ._true : nil,
      openAt: openAt.map(WireFormat.instant),
      openFor: openFor.map(WireFormat.duration),
      allowUnknown: allowUnknown ? ._true : nil,
      service: service,
      now: now,
      fields: fields
    )
    let output = try await StoresClientError.unwrapping { try await client.nearestStores(query: query) }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// The places whose name (or another name) starts with `text`, best first, for a search box
  /// (`GET /v1/places`).
  /// - Parameters:
  ///   - text: what was typed, 1 to 100 characters, in any case, with or without accents.
  ///   - near: ranks nearer places first and gives each its `distanceM`.
  ///   - limit: how many (default 10, at most 50).
  public func places(startingWith text: String, near: Coordinate? = nil, limit: Int? = nil) async throws
    -> PlacesAnswer
  {
    let output = try await StoresClientError.unwrapping {
      try await client.searchPlaces(query: .init(q: text, near: near.map(WireFormat.latLon), limit: limit))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// One store with its state at `at` (default now) (`GET /v1/stores/{id}`).
  public func store(id: String, at: Date? = nil, service: String? = nil, now: Date? = nil) async throws
    -> Store
  {
    let output = try await StoresClientError.unwrapping {
      try await client.getStore(
        path: .init(id: id), query: .init(at: at.map(WireFormat.instant), service: service, now: now))
    }
    switch output {
    case .ok(let ok):
      if case .Store(let store) = try ok.body.json { return store }
      throw StoresClientError.unexpectedResponse(status: 200, body: "GeoJSON where JSON was asked")
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// A store's state at `at` and its open spans for `days` local days from then
  /// (`GET /v1/stores/{id}/hours`).
  public func hours(id: String, at: Date? = nil, days: Int? = nil, service: String? = nil, now: Date? = nil)
    async throws -> HoursAnswer
  {
    let output = try await StoresClientError.unwrapping {
      try await client.getStoreHours(
        path: .init(id: id),
        query: .init(at: at.map(WireFormat.instant), days: days, service: service, now: now))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }

  /// Whether a store is open at `at` (default now) and, with `for`, stays open that long
  /// (`GET /v1/stores/{id}/open`). A closed store is an answer, not an error: read `state`.
  public func open(
    id: String, at: Date? = nil, for duration: Duration? = nil, service: String? = nil, now: Date? = nil
  ) async throws -> OpenStore {
    let output = try await StoresClientError.unwrapping {
      try await client.getStoreOpen(
        path: .init(id: id),
        query: .init(
          at: at.map(WireFormat.instant), _for: duration.map(WireFormat.duration), service: service,
          now: now))
    }
    switch output {
    case .ok(let ok): return try ok.body.json
    case .undocumented(let status, _): throw StoresClientError.unexpectedResponse(status: status, body: "")
    default: throw StoresClientError.unexpected(output)
    }
  }
}

extension SelectedStore {
  /// `store` with every member, as a selection of all of them.
  init(_ store: Store) {
    self.init(
      id: store.id, name: store.name, brand: store.brand, address: store.address, latitude: store.latitude,
      longitude: store.longitude, distanceM: store.distanceM, timezone: store.timezone,
      openingHours: store.openingHours, state: store.state, comment: store.comment,
      nextChange: store.nextChange,
      statusText: store.statusText, ordering: store.ordering, orderingNote: store.orderingNote,
      phone: store.phone,
      website: store.website, properties: store.properties)
  }
}
