import GeoIndex

/// A store found by a query, with its distance from the query point when there was one.
public struct StoreMatch: Hashable, Sendable {
  public let store: Store
  /// Great-circle distance from the query point; `nil` for box queries.
  public let distance: Distance?

  public init(store: Store, distance: Distance?) {
    self.store = store
    self.distance = distance
  }
}
