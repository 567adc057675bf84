import GeoIndex
import OpeningHours

#if canImport(Glibc)
  /// glibc's `malloc_trim` (declared in malloc.h, which the Glibc module does not export).
  @_silgen_name("malloc_trim") private func glibcMallocTrim(_ pad: Int) -> Int32
#endif

/// A chain's stores as loaded, with what the loader noticed, and the spatial index over every store
/// that has a location.
///
/// One storage whatever the input: a `StoreTable` (compact columns, every text once) beside the
/// k-d tree, built in memory by the loader or mapped from a snapshot, which is the same bytes
/// written to disk. Immutable and `Sendable`: build it once, query it from anywhere.
public struct Catalog: Sendable {
  /// Every record, in input order, including those without a location; each made from its row
  /// when read.
  public let stores: StoreList
  /// The file the stores came from, or `-` for standard input.
  public let source: String
  /// Names this exact data: 16 hex digits of a checksum of the GeoJSON file's bytes, or of a
  /// snapshot's sections, so every replica that serves the same file says the same version; for a
  /// catalog built from records, a checksum of their ids.
  public internal(set) var dataVersion: String

  /// The index over the stores that have a coordinate; its point `i` is `stores[storePositions[i]]`.
  let tree: KDTree
  let storePositions: StorePositions
  /// The stores, their hours and the diagnostics.
  let table: StoreTable
  /// Summaries built by `indexing(_:)` in place of the table's own.
  private var builtMasks: SearchMasks?
  /// The service a request named and the stores' state, applied over the table's hours
  /// (`applying(_:)`, `serving(_:)`); `nil` for the hours as the data gives them.
  var overlay: ScheduleOverlay?
  /// What the pickup slots hold (`counting(_:)`): pickup planning reads it beside the state.
  public internal(set) var bookings = SlotBookings.empty

  /// Builds a catalog from records already read.
  ///
  /// When ids repeat, `store(withID:)` finds the first and `stores(withID:)` all of them; the
  /// loader reports the duplicates. Each store's `catalogIndex` is set to its position.
  /// - Parameters:
  ///   - hours: Holidays and time-zone places for compiling opening hours; without it no store
  ///     has a schedule and every opening-hours question answers "unknown".
  /// - Complexity: O(n log n), plus parsing each distinct opening-hours text once.
  /// - Precondition: The records' texts fit a table (4 GiB once each distinct text is kept once);
  ///   `init(geoJSON:source:options:)` reports larger input as an error instead.
  public init(
    stores: [Store], diagnostics: [Diagnostic] = [], source: String = "", hours: HoursResources? = nil
  ) {
    do {
      var assembly = CatalogAssembly(expectedCount: stores.count)
      for store in stores { try assembly.append(store) }
      try self.init(assembling: &assembly, diagnostics: diagnostics, source: source, hours: hours)
    } catch {
      preconditionFailure(error.reason)
    }
  }

  /// The loader's way in: the rows are written as the records arrive (`CatalogAssembly`), then
  /// the hours compiled from what the assembly kept of them, the rows settled and the table opened
  /// like a snapshot. The assembly is used up.
  init(
    assembling assembly: inout CatalogAssembly, diagnostics: [Diagnostic], source: String,
    hours: HoursResources?,
    progress: WorkProgress? = nil
  ) throws(StoreTableOverflow) {
    var diagnostics = diagnostics
    let hoursWindow = SearchMasks.hoursWindow(around: .now())
    // The rows were written as the records came; what is left a store is compiling its hours
    // and settling its row.
    var compiled: CompiledSchedules?
    if let hours {
      progress?.begin("compiling opening hours and time zones", total: assembly.count, unit: .stores)
      compiled = try Catalog.compileSchedules(
        into: &assembly, with: hours, openHoursWindow: hoursWindow, diagnostics: &diagnostics,
        progress: progress)
    } else {
      try assembly.settleWithoutHours()
    }
    let storeCount = assembly.count
    var coordinates: [Coordinate] = []
    var positions: [Int32] = []
    coordinates.reserveCapacity(storeCount)
    positions.reserveCapacity(storeCount)
    for (position, coordinate) in assembly.hoursInputs.coordinates.enumerated() {
      guard let coordinate else { continue }
      coordinates.append(coordinate)
      positions.append(Int32(position))
    }
    // Building the tree tells nothing on the way: the step has a name but no share.
    progress?.begin("indexing \(storeCount) stores", total: 0, unit: .stores)
    let tree = KDTree(coordinates: coordinates)
    coordinates = []
    let masks = compiled.map {
      SearchMasks(
        tree: tree, storeAtPoint: positions, openHours: $0.openHours, hoursWindow: hoursWindow,
        conditions: [], conditionBits: [])
    }
    compiled?.openHours = []
    var counts: [Diagnostic.Severity: Int] = [:]
    for diagnostic in diagnostics { counts[diagnostic.severity, default: 0] += 1 }
    let meta = SnapshotImage.metaSection(
      SnapshotImage.Meta(
        source: source, storeCount: storeCount, indexedCount: tree.count, masks: masks,
        diagnosticCounts: counts, reasons: assembly.reasons, countries: assembly.countries))
    let builder = assembly.finish()
    let version = Catalog.version(of: builder.joinedIDs)
    // What was kept for the hours is free now but still counted against the process: give it
    // back before the image is assembled.
    Catalog.returnFreedMemory()
    var sections =
      [(SnapshotFormat.Section.meta, meta)] + SnapshotImage.treeSections(tree, storePositions: positions)
      + SnapshotImage.maskSections(masks)
      + builder.sections(groupLeaders: compiled?.groupLeaders ?? [], diagnostics: diagnostics)
    let opened = StoreTable.opening(image: SnapshotImage.assemble(taking: &sections), options: LoadOptions())
    // The diagnostics are read from the image when asked for, as a snapshot's are: the list
    // holds stand-ins for the notes of inferred zones, and a million notes as text would cost
    // 200 bytes a store for as long as the catalog lives.
    opened.table.prefill(schedules: compiled?.groupSchedules ?? [], zones: compiled?.zones ?? [:])
    self.init(table: opened.table, tree: opened.tree, storePositions: opened.storePositions)
    self.dataVersion = version
  }

  /// Gives free heap pages back to the system (glibc's `malloc_trim`, which also releases free
  /// pages inside the heap); elsewhere nothing.
  static func returnFreedMemory() {
    #if canImport(Glibc)
      _ = glibcMallocTrim(0)
    #endif
  }

  /// A catalog over an opened table.
  init(table: StoreTable, tree: KDTree, storePositions: StorePositions) {
    self.stores = StoreList(table)
    self.source = table.source
    self.dataVersion = Catalog.hexadecimal(table.contentChecksum)
    self.tree = tree
    self.storePositions = storePositions
    self.table = table
  }

  /// The version of data whose bytes are `bytes`: their checksum in 16 hex digits.
  static func version(of bytes: [UInt8]) -> String {
    hexadecimal(bytes.withUnsafeBytes { snapshotChecksum($0) })
  }

  static func hexadecimal(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Per-subtree summaries of opening hours and indexed conditions; `nil` when there is nothing
  /// to summarise (no hours evaluated, no conditions indexed). A snapshot's are read on first use,
  /// so queries without conditions never load them.
  var searchMasks: SearchMasks? { builtMasks ?? table.searchMasks(for: tree) }

  /// What the loader noticed, in input order.
  ///
  /// - Complexity: O(1) once read; the first call on a snapshot decodes them.
  public var diagnostics: [Diagnostic] { table.diagnostics }

  /// How many diagnostics have `severity`, without decoding a snapshot's diagnostics.
  public func diagnosticCount(_ severity: Diagnostic.Severity) -> Int {
    table.diagnosticCounts[severity] ?? 0
  }

  /// The position in `stores` of the first store with `id`.
  func position(ofID id: String) -> Int? { table.position(ofID: id) }

  /// The positions in `stores` of every store with `id`, in input order.
  func positions(ofID id: String) -> [Int] { table.positions(ofID: id) }

  /// The id of the store at `position`, without making the rest of its record.
  func id(at position: Int) -> String { table.id(at: position) }

  /// The position in `stores` of `store`: its `catalogIndex` when it came from this catalog, else
  /// (a record made elsewhere) the position of the one store with its id; `nil` when the id is
  /// not in the catalog or names several stores, so a lookup never borrows another store's hours.
  func position(of store: Store) -> Int? {
    if let index = store.catalogIndex, stores.indices.contains(index), id(at: index) == store.id {
      return index
    }
    let positions = positions(ofID: store.id)
    return positions.count == 1 ? positions[0] : nil
  }

  /// The compiled schedule of the store at `position`, or `nil` when it has none usable.
  /// With a service or a state applied, the schedule as they make it.
  @inline(__always)
  func schedule(at position: Int) -> Schedule? {
    guard let overlay else { return table.schedule(at: position) }
    return overlay.schedule(at: position, table: table)
  }

  /// Why the store at `position` has no schedule.
  func scheduleGap(at position: Int) -> String? {
    guard let overlay else { return table.scheduleGap(at: position) }
    return overlay.gap(at: position, table: table)
  }

  /// The group of stores sharing the schedule of the store at `position`, or `nil` when it has
  /// none or its hours are its own (a service's, or changed by its state).
  func scheduleGroup(at position: Int) -> Int? {
    if let overlay, overlay.overrides(position) { return nil }
    return table.scheduleGroup(at: position)
  }

  /// The rules of a time zone the stores name.
  func timeZone(named name: String) -> TimeZoneRules? { table.timeZone(named: name) }

  /// The same catalog with `conditions` indexed: each gets a bit in the per-subtree summaries, so
  /// searches that require it skip whole regions without it and never test it store by store.
  ///
  /// Worth it for a catalog that answers many queries (a service, a snapshot); see
  /// `suggestedIndexConditions(limit:)`. At most 64 conditions are kept; the rest are ignored.
  /// - Parameters:
  ///   - conditions: The conditions to index first.
  ///   - addingSuggested: Also index `suggestedIndexConditions()` not already given, as
  ///     `stores snapshot build` does.
  ///   - progress: Told that the conditions are being indexed (for a caller that shows it).
  /// - Complexity: O(n × properties), the stores split among the processors.
  public func indexing(
    _ conditions: [StoreFilter.Condition], addingSuggested: Bool = false, progress: WorkProgress? = nil
  ) -> Catalog {
    progress?.begin("indexing conditions", total: 0, unit: .stores)
    var conditions = conditions
    if addingSuggested { conditions += suggestedIndexConditions().filter { !conditions.contains($0) } }
    conditions = Array(conditions.prefix(SearchMasks.conditionCapacity))
    let bits = ConditionBits.ofEveryStore(meeting: conditions, in: table)
    var copy = self
    copy.builtMasks =
      searchMasks?.indexing(conditions, tree: tree, storeAtPoint: storePositions, conditionBits: bits)
      ?? SearchMasks(
        tree: tree, storeAtPoint: storePositions, openHours: nil,
        hoursWindow: SearchMasks.hoursWindow(around: .now()), conditions: conditions, conditionBits: bits)
    return copy
  }

  /// The conditions the per-subtree summaries answer (see `indexing(_:)`).
  public var indexedConditions: [StoreFilter.Condition] { searchMasks?.conditions ?? [] }

  /// The number of stores that have a location and can be found by the queries.
  public var indexedCount: Int { tree.count }

  /// The first store with `id` (in input order), or `nil`.
  ///
  /// Ids repeat in real data; `stores(withID:)` finds every store with the id.
  /// - Complexity: O(1) (O(log n) for a snapshot).
  public func store(withID id: String) -> Store? {
    position(ofID: id).map { stores[$0] }
  }

  /// Every store with `id`, in input order: none, one, or several when the data repeats the id.
  ///
  /// - Complexity: O(m) for m stores with the id (O(log n + m) for a snapshot).
  public func stores(withID id: String) -> [Store] {
    positions(ofID: id).map { stores[$0] }
  }

  /// Up to `limit` distinct ids that resemble `id`, most similar first, for a "did you mean" hint
  /// when a lookup fails.
  ///
  /// An id resembles `id` (ignoring case) when it is within a few edits of it (a third of its
  /// length, at least 2), contains it or is contained in it, or shares its first three characters.
  /// The most similar come first: fewest edits, then longest common prefix, then input order.
  /// - Complexity: O(n × length of `id`) at worst; most candidates are given up after a few rows.
  public func ids(resembling id: String, limit: Int) -> [String] {
    let wanted = Array(id.lowercased().unicodeScalars)
    guard !wanted.isEmpty, limit > 0 else { return [] }
    let closeEnough = max(2, wanted.count / 3)
    var best: [(edits: Int, prefix: Int, position: Int, id: String)] = []
    var seen: Set<String> = []
    for position in stores.indices {
      let candidateID = self.id(at: position)
      guard !candidateID.isEmpty, !seen.contains(candidateID) else { continue }
      let candidate = Array(candidateID.lowercased().unicodeScalars)
      let prefix = zip(candidate, wanted).prefix { $0 == $1 }.count
      let related =
        prefix >= min(3, wanted.count) || candidate.contains(wanted) || wanted.contains(candidate)
      // Only a candidate that could enter the list is worth counting edits for.
      // (A tie in edits may still win on the prefix.)
      let worst = best.count == limit ? best[limit - 1].edits + 1 : Int.max
      let bound = related ? worst : min(worst, closeEnough + 1)
      guard let edits = EditDistance.between(candidate, wanted, below: bound) else { continue }
      guard related || edits <= closeEnough else { continue }
      seen.insert(candidateID)
      best.append((edits, prefix, position, candidateID))
      best.sort { ($0.edits, -$0.prefix, $0.position) < ($1.edits, -$1.prefix, $1.position) }
      if best.count > limit { best.removeLast() }
    }
    return best.map(\.id)
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
    let rows = RowFilter(filter, table: table)
    let neighbors =
      filter.isEmpty && open == nil
      ? tree.nearest(k, to: center, within: maximumDistance, requiring: requirement)
      : tree.nearest(k, to: center, within: maximumDistance, requiring: requirement) {
        admits($0, rows, open)
      }
    return neighbors.map { match(atTreeIndex: $0.index, distance: $0.distance) }
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
    let rows = RowFilter(filter, table: table)
    return tree.within(radius, of: center, requiring: requirement) { admits($0, rows, open) }
      .map { match(atTreeIndex: $0.index, distance: $0.distance) }
  }

  /// Every store inside `box` (which may cross the antimeridian) that passes `filter` (and is
  /// open as `open` requires), in input order.
  public func stores(in box: GeoBox, where filter: StoreFilter = .all, open: OpeningRequirement? = nil)
    -> [StoreMatch]
  {
    // The tree answers in point order, and points are numbered in store order.
    treeIndices(in: box, where: filter, open: open).map {
      match(atTreeIndex: $0, distance: nil)
    }
  }

  /// The tree indices of the stores inside `box` that pass `filter` (and are open as `open`
  /// requires), ascending when `ordered`: a search that needs positions only never builds a
  /// `Store`.
  func treeIndices(
    in box: GeoBox, where filter: StoreFilter, open: OpeningRequirement?, ordered: Bool = true
  ) -> [Int] {
    let (requirement, filter) = searchPlan(filter, open)
    let rows = RowFilter(filter, table: table)
    return tree.within(box, requiring: requirement, ordered: ordered) { admits($0, rows, open) }
  }

  /// The bits the tree can check on whole subtrees, and the conditions left to test per store.
  private func searchPlan(_ filter: StoreFilter, _ open: OpeningRequirement?) -> (
    MaskRequirement?, StoreFilter
  ) {
    guard !(filter.isEmpty && open == nil), let searchMasks else { return (nil, filter) }
    // The hours summaries are of the stores' own hours: a service's hours, or a special day that
    // opens a store, may be open where they say closed. The open test then runs store by store.
    let usableOpen = overlay.map { $0.keepsHoursMasks } ?? true ? open : nil
    guard !(filter.isEmpty && usableOpen == nil) else { return (nil, filter) }
    return searchMasks.requirement(for: filter, open: usableOpen)
  }

  /// The one predicate every search runs on a candidate point.
  @inline(__always)
  private func admits(_ treeIndex: Int, _ filter: RowFilter, _ open: OpeningRequirement?) -> Bool {
    let position = Int(storePositions[treeIndex])
    if !filter.isEmpty {
      table.checkRow(position)
      if !filter.matches(table, at: position) { return false }
    }
    if let open, !open.isMet(by: schedule(at: position)) { return false }
    return true
  }

  /// The match of the store at tree point `index`: its row, not a copy of it.
  @inline(__always)
  func match(atTreeIndex index: Int, distance: Distance?) -> StoreMatch {
    StoreMatch(table: table, position: Int(storePositions[index]), distance: distance)
  }
}
