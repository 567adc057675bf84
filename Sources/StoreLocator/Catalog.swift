import GeoIndex

/// A chain's stores as loaded, with what the loader noticed, and the spatial index over every store
/// that has a location.
///
/// Immutable and `Sendable`: build it once, query it from anywhere.
public struct Catalog: Sendable {
  /// Every record, in input order, including those without a location.
  public let stores: [Store]
  /// What the loader noticed, in input order.
  public let diagnostics: [Diagnostic]
  /// The file the stores came from, or `-` for standard input.
  public let source: String

  /// The index over the stores that have a coordinate; its point `i` is `stores[storePositions[i]]`.
  let tree: KDTree
  let storePositions: [Int32]
  let positionsByID: [String: Int]

  /// Builds a catalog from records already read.
  ///
  /// When ids repeat, `store(withID:)` finds the first; the loader reports the duplicates.
  /// - Complexity: O(n log n).
  public init(stores: [Store], diagnostics: [Diagnostic] = [], source: String = "") {
    self.stores = stores
    self.diagnostics = diagnostics
    self.source = source
    var coordinates: [Coordinate] = []
    var positions: [Int32] = []
    coordinates.reserveCapacity(stores.count)
    positions.reserveCapacity(stores.count)
    var byID: [String: Int] = [:]
    byID.reserveCapacity(stores.count)
    for (position, store) in stores.enumerated() {
      if byID[store.id] == nil { byID[store.id] = position }
      guard let coordinate = store.coordinate else { continue }
      coordinates.append(coordinate)
      positions.append(Int32(position))
    }
    self.tree = KDTree(coordinates: coordinates)
    self.storePositions = positions
    self.positionsByID = byID
  }

  /// The number of stores that have a location and can be found by the queries.
  public var indexedCount: Int { tree.count }

  /// The store with `id`, or `nil`.
  ///
  /// - Complexity: O(1).
  public func store(withID id: String) -> Store? {
    positionsByID[id].map { stores[$0] }
  }

  /// The `k` stores nearest to `center` that pass `filter`, nearest first; equal distances keep
  /// input order.
  ///
  /// The filter runs inside the search, so `k` results come back whenever `k` stores pass it.
  /// - Parameters:
  ///   - k: How many stores at most.
  ///   - center: Where the customer is.
  ///   - maximumDistance: Leave out stores farther than this.
  ///   - filter: Conditions on the stores' properties.
  /// - Complexity: about O(log n + k) for well-spread stores and permissive filters.
  public func nearest(
    _ k: Int, to center: Coordinate, within maximumDistance: Distance? = nil, where filter: StoreFilter = .all
  ) -> [StoreMatch] {
    let neighbors =
      filter.isEmpty
      ? tree.nearest(k, to: center, within: maximumDistance)
      : tree.nearest(k, to: center, within: maximumDistance) { filter.matches(store(atTreeIndex: $0)) }
    return neighbors.map { StoreMatch(store: store(atTreeIndex: $0.index), distance: $0.distance) }
  }

  /// Every store within `radius` of `center` that passes `filter`, nearest first.
  ///
  /// - Complexity: O(log n + m) for m stores found, for well-spread stores.
  public func stores(within radius: Distance, of center: Coordinate, where filter: StoreFilter = .all)
    -> [StoreMatch]
  {
    tree.within(radius, of: center) { filter.isEmpty || filter.matches(store(atTreeIndex: $0)) }
      .map { StoreMatch(store: store(atTreeIndex: $0.index), distance: $0.distance) }
  }

  /// Every store inside `box` (which may cross the antimeridian) that passes `filter`, in input order.
  public func stores(in box: GeoBox, where filter: StoreFilter = .all) -> [StoreMatch] {
    tree.within(box) { filter.isEmpty || filter.matches(store(atTreeIndex: $0)) }
      .map { Int(storePositions[$0]) }
      .sorted()
      .map { StoreMatch(store: stores[$0], distance: nil) }
  }

  @inline(__always)
  private func store(atTreeIndex index: Int) -> Store { stores[Int(storePositions[index])] }
}
