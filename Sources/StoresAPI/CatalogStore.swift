import Synchronization

/// The catalog the service answers from: one reference, read once per request and replaced
/// whole by a reload, so a request never sees half of one version and half of another.
public final class CatalogStore: Sendable {
  private let loaded: Mutex<LoadedCatalog?>
  private let draining = Atomic<Bool>(false)

  /// - Parameter initial: The data to serve at once; `nil` for a service that is not ready yet.
  public init(_ initial: LoadedCatalog? = nil) {
    loaded = Mutex(initial)
  }

  /// The catalog to answer one request with; `nil` before the first load.
  ///
  /// A request reads this once and keeps the object: a reload meanwhile swaps the reference,
  /// not the catalog the request holds.
  /// - Complexity: O(1); one uncontended lock.
  public var current: LoadedCatalog? { loaded.withLock { $0 } }

  /// Serves `catalog` from now on; returns the one it replaces.
  @discardableResult
  public func replace(with catalog: LoadedCatalog) -> LoadedCatalog? {
    loaded.withLock { current in
      defer { current = catalog }
      return current
    }
  }

  /// True once the service is shutting down: `/readyz` then answers 503, so a load balancer
  /// sends no new requests while those in flight complete.
  public var isDraining: Bool { draining.load(ordering: .relaxed) }

  /// Marks the service as shutting down (see `isDraining`).
  public func beginDraining() { draining.store(true, ordering: .relaxed) }
}
