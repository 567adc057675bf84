import GeoIndex
import OpeningHours

/// A chain's stores as loaded, with what the loader noticed, and the spatial index over every store
/// that has a location.
///
/// Immutable and `Sendable`: build it once, query it from anywhere.
public struct Catalog: Sendable {
  /// Every record, in input order, including those without a location.
  public let stores: StoreList
  /// The file the stores came from, or `-` for standard input.
  public let source: String

  /// The index over the stores that have a coordinate; its point `i` is `stores[storePositions[i]]`.
  let tree: KDTree
  let storePositions: [Int32]
  /// Ids, schedules and diagnostics: built in memory, or read from a snapshot on demand.
  let storage: Storage
  /// Summaries built in memory (from records, or by `indexing(_:)`).
  private var builtMasks: SearchMasks?

  enum Storage: Sendable {
    case memory(MemoryStorage)
    case snapshot(SnapshotCatalog)
  }

  /// What a catalog built from records keeps beside them.
  struct MemoryStorage: Sendable {
    var diagnostics: [Diagnostic]
    var positionsByID: [String: Int]
    /// Each store's compiled opening hours, parallel to `stores`; `nil` when it has none usable.
    var schedules: [Schedule?]
    /// Why a store has no schedule, parallel to `stores`.
    var scheduleGaps: [String?]
    /// The rules of every valid time zone the stores name, loaded once while compiling.
    var timeZones: [String: TimeZoneRules]
  }

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
    let hoursWindow = SearchMasks.hoursWindow(around: .now())
    let compiled = hours.map {
      Catalog.compileSchedules(
        of: &stores, with: $0, openHoursWindow: hoursWindow, diagnostics: &diagnostics)
    }
    self.stores = StoreList(stores)
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
    self.storage = .memory(
      MemoryStorage(
        diagnostics: diagnostics, positionsByID: byID,
        schedules: compiled?.schedules ?? Array(repeating: nil, count: stores.count),
        scheduleGaps: compiled?.gaps
          ?? Array(repeating: "opening hours are not evaluated", count: stores.count),
        timeZones: compiled?.zones ?? [:]))
    if compiled != nil {
      self.builtMasks = SearchMasks(
        tree: tree, stores: self.stores, storeAtPoint: positions, openHours: compiled?.openHours,
        hoursWindow: hoursWindow, conditions: [])
    }
  }

  /// A catalog read from a snapshot: records, ids, schedules and diagnostics stay in the mapped
  /// file until asked for.
  init(snapshot: SnapshotCatalog, tree: KDTree, storePositions: [Int32]) {
    self.stores = StoreList(snapshot)
    self.source = snapshot.source
    self.tree = tree
    self.storePositions = storePositions
    self.storage = .snapshot(snapshot)
  }

  /// Per-subtree summaries of opening hours and indexed conditions; `nil` when there is nothing
  /// to summarise (no hours evaluated, no conditions indexed). A snapshot's are read on first use,
  /// so queries without conditions never load them.
  var searchMasks: SearchMasks? {
    if let builtMasks { return builtMasks }
    if case .snapshot(let snapshot) = storage { return snapshot.searchMasks(for: tree) }
    return nil
  }

  /// What the loader noticed, in input order.
  ///
  /// - Complexity: O(1) for a catalog built from records; the first call on a snapshot decodes them.
  public var diagnostics: [Diagnostic] {
    switch storage {
    case .memory(let memory): memory.diagnostics
    case .snapshot(let snapshot): snapshot.diagnostics
    }
  }

  /// How many diagnostics have `severity`, without decoding a snapshot's diagnostics.
  public func diagnosticCount(_ severity: Diagnostic.Severity) -> Int {
    switch storage {
    case .memory(let memory): memory.diagnostics.count { $0.severity == severity }
    case .snapshot(let snapshot): snapshot.diagnosticCounts[severity] ?? 0
    }
  }

  /// The position in `stores` of the first store with `id`.
  func position(ofID id: String) -> Int? {
    switch storage {
    case .memory(let memory): memory.positionsByID[id]
    case .snapshot(let snapshot): snapshot.position(ofID: id)
    }
  }

  /// The compiled schedule of the store at `position`, or `nil` when it has none usable.
  func schedule(at position: Int) -> Schedule? {
    switch storage {
    case .memory(let memory): memory.schedules[position]
    case .snapshot(let snapshot): snapshot.schedule(at: position)
    }
  }

  /// Why the store at `position` has no schedule.
  func scheduleGap(at position: Int) -> String? {
    switch storage {
    case .memory(let memory): memory.scheduleGaps[position]
    case .snapshot(let snapshot): snapshot.scheduleGap(at: position)
    }
  }

  /// The rules of a time zone the stores name.
  func timeZone(named name: String) -> TimeZoneRules? {
    switch storage {
    case .memory(let memory): memory.timeZones[name]
    case .snapshot(let snapshot): snapshot.timeZone(named: name)
    }
  }

  /// The same catalog with `conditions` indexed: each gets a bit in the per-subtree summaries, so
  /// searches that require it skip whole regions without it and never test it store by store.
  ///
  /// Worth it for a catalog that answers many queries (a service, a snapshot); see
  /// `suggestedIndexConditions(limit:)`. At most 64 conditions are kept; the rest are ignored.
  /// - Parameters:
  ///   - conditions: The conditions to index first.
  ///   - addingSuggested: Also index `suggestedIndexConditions()` not already given, as
  ///     `stores snapshot build` does.
  /// - Complexity: O(n × conditions).
  public func indexing(_ conditions: [StoreFilter.Condition], addingSuggested: Bool = false) -> Catalog {
    var conditions = conditions
    if addingSuggested { conditions += suggestedIndexConditions().filter { !conditions.contains($0) } }
    var copy = self
    copy.builtMasks =
      searchMasks?.indexing(conditions, tree: tree, stores: stores, storeAtPoint: storePositions)
      ?? SearchMasks(
        tree: tree, stores: stores, storeAtPoint: storePositions, openHours: nil,
        hoursWindow: SearchMasks.hoursWindow(around: .now()), conditions: conditions)
    return copy
  }

  /// The conditions the per-subtree summaries answer (see `indexing(_:)`).
  public var indexedConditions: [StoreFilter.Condition] { searchMasks?.conditions ?? [] }

  /// The number of stores that have a location and can be found by the queries.
  public var indexedCount: Int { tree.count }

  /// The store with `id`, or `nil`.
  ///
  /// - Complexity: O(1).
  public func store(withID id: String) -> Store? {
    position(ofID: id).map { stores[$0] }
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
    let (requirement, filter) = searchPlan(filter, open)
    let neighbors =
      filter.isEmpty && open == nil
      ? tree.nearest(k, to: center, within: maximumDistance, requiring: requirement)
      : tree.nearest(k, to: center, within: maximumDistance, requiring: requirement) {
        admits($0, filter, open)
      }
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
    let (requirement, filter) = searchPlan(filter, open)
    return tree.within(radius, of: center, requiring: requirement) { admits($0, filter, open) }
      .map { StoreMatch(store: store(atTreeIndex: $0.index), distance: $0.distance) }
  }

  /// Every store inside `box` (which may cross the antimeridian) that passes `filter` (and is
  /// open as `open` requires), in input order.
  public func stores(in box: GeoBox, where filter: StoreFilter = .all, open: OpeningRequirement? = nil)
    -> [StoreMatch]
  {
    let (requirement, filter) = searchPlan(filter, open)
    // The tree answers in point order, and points are numbered in store order.
    return tree.within(box, requiring: requirement) { admits($0, filter, open) }
      .map { StoreMatch(store: store(atTreeIndex: $0), distance: nil) }
  }

  /// The bits the tree can check on whole subtrees, and the conditions left to test per store.
  private func searchPlan(_ filter: StoreFilter, _ open: OpeningRequirement?) -> (
    MaskRequirement?, StoreFilter
  ) {
    guard !(filter.isEmpty && open == nil), let searchMasks else { return (nil, filter) }
    return searchMasks.requirement(for: filter, open: open)
  }

  /// The one predicate every search runs on a candidate point.
  @inline(__always)
  private func admits(_ treeIndex: Int, _ filter: StoreFilter, _ open: OpeningRequirement?) -> Bool {
    let position = Int(storePositions[treeIndex])
    if !filter.isEmpty, !filter.matches(stores[position]) { return false }
    if let open, !open.isMet(by: schedule(at: position)) { return false }
    return true
  }

  @inline(__always)
  private func store(atTreeIndex index: Int) -> Store { stores[Int(storePositions[index])] }
}
