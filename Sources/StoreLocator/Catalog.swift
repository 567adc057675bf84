import GeoIndex
import OpeningHours

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
  /// Each store's compiled opening hours, parallel to `stores`; `nil` when it has none usable.
  let schedules: [Schedule?]
  /// Why a store has no schedule, parallel to `stores`.
  let scheduleGaps: [String?]
  /// The rules of every valid time zone the stores name, loaded once while compiling.
  let timeZones: [String: TimeZoneRules]

  /// Builds a catalog from records already read.
  ///
  /// When ids repeat, `store(withID:)` finds the first; the loader reports the duplicates.
  /// - Parameters:
  ///   - hours: Holidays and time-zone places for compiling opening hours; without it no store
  ///     has a schedule and every opening-hours question answers "unknown".
  /// - Complexity: O(n log n), plus parsing each store's hours once.
  public init(
    stores: [Store], diagnostics: [Diagnostic] = [], source: String = "", hours: HoursResources? = nil
  ) {
    var stores = stores
    var diagnostics = diagnostics
    let compiled = hours.map { Catalog.compileSchedules(of: &stores, with: $0, diagnostics: &diagnostics) }
    self.schedules = compiled?.schedules ?? Array(repeating: nil, count: stores.count)
    self.timeZones = compiled?.zones ?? [:]
    self.scheduleGaps =
      compiled?.gaps ?? Array(repeating: "opening hours are not evaluated", count: stores.count)
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

  /// Up to `limit` ids that contain `id`, are contained in it, or share its first three
  /// characters (case-insensitive), for a "did you mean" hint when a lookup fails.
  ///
  /// - Complexity: O(n).
  public func ids(resembling id: String, limit: Int) -> [String] {
    let wanted = id.lowercased()
    guard !wanted.isEmpty else { return [] }
    return stores.lazy.map(\.id).filter {
      let candidate = $0.lowercased()
      return candidate.contains(wanted) || wanted.contains(candidate)
        || candidate.hasPrefix(String(wanted.prefix(3)))
    }.prefix(limit).map { $0 }
  }

  /// True when the data has no errors, and no warnings either when `warningsAreErrors`:
  /// the verdict of `stores validate` (and `--strict` there).
  public func isValid(warningsAreErrors: Bool = false) -> Bool {
    !diagnostics.contains { $0.severity == .error || (warningsAreErrors && $0.severity == .warning) }
  }

  /// The `k` stores nearest to `center` that pass `filter` (and are open as `open` requires),
  /// nearest first; equal distances keep input order.
  ///
  /// The conditions run inside the search, so `k` results come back whenever `k` stores meet them.
  /// - Parameters:
  ///   - k: How many stores at most.
  ///   - center: Where the customer is.
  ///   - maximumDistance: Leave out stores farther than this.
  ///   - filter: Conditions on the stores' properties.
  ///   - open: When the stores must be open, each in its own time zone.
  /// - Complexity: about O(log n + k) for well-spread stores and permissive conditions.
  public func nearest(
    _ k: Int, to center: Coordinate, within maximumDistance: Distance? = nil,
    where filter: StoreFilter = .all,
    open: OpeningRequirement? = nil
  ) -> [StoreMatch] {
    let neighbors =
      filter.isEmpty && open == nil
      ? tree.nearest(k, to: center, within: maximumDistance)
      : tree.nearest(k, to: center, within: maximumDistance) { admits($0, filter, open) }
    return neighbors.map { StoreMatch(store: store(atTreeIndex: $0.index), distance: $0.distance) }
  }

  /// Every store within `radius` of `center` that passes `filter` (and is open as `open`
  /// requires), nearest first.
  ///
  /// - Complexity: O(log n + m) for m stores found, for well-spread stores.
  public func stores(
    within radius: Distance, of center: Coordinate, where filter: StoreFilter = .all,
    open: OpeningRequirement? = nil
  ) -> [StoreMatch] {
    tree.within(radius, of: center) { admits($0, filter, open) }
      .map { StoreMatch(store: store(atTreeIndex: $0.index), distance: $0.distance) }
  }

  /// Every store inside `box` (which may cross the antimeridian) that passes `filter` (and is
  /// open as `open` requires), in input order.
  public func stores(in box: GeoBox, where filter: StoreFilter = .all, open: OpeningRequirement? = nil)
    -> [StoreMatch]
  {
    // The tree answers in point order, and points are numbered in store order.
    tree.within(box) { admits($0, filter, open) }
      .map { StoreMatch(store: store(atTreeIndex: $0), distance: nil) }
  }

  /// The one predicate every search runs on a candidate point.
  @inline(__always)
  private func admits(_ treeIndex: Int, _ filter: StoreFilter, _ open: OpeningRequirement?) -> Bool {
    let position = Int(storePositions[treeIndex])
    if !filter.isEmpty, !filter.matches(stores[position]) { return false }
    if let open, !open.isMet(by: schedules[position]) { return false }
    return true
  }

  @inline(__always)
  private func store(atTreeIndex index: Int) -> Store { stores[Int(storePositions[index])] }
}
