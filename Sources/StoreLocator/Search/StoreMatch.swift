import GeoIndex
import OpeningHours

/// A store found by a query, with its distance from the query point when there was one, and
/// whether it is open at the query's time when one was given.
public struct StoreMatch: Hashable, Sendable {
  public let store: Store
  /// Great-circle distance from the query point; `nil` for box queries.
  public let distance: Distance?
  /// Open, closed or unknown at the query's time, and until when.
  public var status: StoreStatus?

  public init(store: Store, distance: Distance?, status: StoreStatus? = nil) {
    self.store = store
    self.distance = distance
    self.status = status
  }
}

extension Catalog {
  /// `matches` with each store's status at `time` filled in.
  public func withStatus(_ matches: [StoreMatch], at time: TimeQuery) -> [StoreMatch] {
    matches.map { match in
      var match = match
      match.status = status(of: match.store, at: time)
      return match
    }
  }
}
