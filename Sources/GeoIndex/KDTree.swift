/// A static k-d tree over points on the sphere, answering nearest, radius and box queries exactly.
///
/// Points are kept as 3-D unit vectors and ranked by the chord between them, which grows strictly
/// with the great-circle angle: there is no special case at the antimeridian or the poles.
/// Reported distances are haversine distances computed from the original coordinates
/// (`Coordinate.distance(to:)`), so they equal what a user computes.
///
/// Layout (struct of arrays, no node objects): the unit vectors `xs`, `ys`, `zs` and the input
/// index `ids` in tree order, and one bounding box per node as six `Float`s rounded outward. The
/// tree is complete: node `i` has children `2i+1` and `2i+2`, all `2^depth` leaves are on the last
/// level, and leaf `j` holds the points `(j·n) >> depth ..< ((j+1)·n) >> depth`, so no node stores
/// a range. That is 28 bytes a point plus 48 / (points per leaf) bytes of boxes (about 29.6 bytes a
/// point with the default leaf size of 32, whose leaves hold 16 to 32 points), not counting
/// `coordinates`.
///
/// The arrays live in memory the tree allocates when it builds, or in a mapped file it borrows
/// (`init(coordinates:borrowing:owner:)`, for snapshots), so opening a saved tree copies nothing.
///
/// The tree is immutable once built; rebuild it to change the points.
///
/// `@unchecked Sendable`: the buffers are never written after the initializer, and `memory`
/// keeps them alive as long as any copy of the tree.
public struct KDTree: @unchecked Sendable {
  /// Owns (or keeps alive) the buffers below.
  let memory: TreeMemory
  /// The points, in the order given.
  let coordinateBuffer: UnsafeBufferPointer<Coordinate>
  /// Unit vectors in tree order.
  let xs: UnsafeBufferPointer<Double>
  let ys: UnsafeBufferPointer<Double>
  let zs: UnsafeBufferPointer<Double>
  /// Index into `coordinates` of the point at each tree position.
  let ids: UnsafeBufferPointer<Int32>
  /// Per node: min x, y, z, then max x, y, z, each rounded outward to `Float`. An empty node has
  /// min +∞ and max -∞.
  let boxes: UnsafeBufferPointer<Float>
  /// The level of the leaves; there are `1 << depth` of them.
  let depth: Int

  /// The points, in the order given; `Neighbor.index` refers to their positions.
  public var coordinates: TreeCoordinates { TreeCoordinates(buffer: coordinateBuffer, memory: memory) }

  /// Builds the tree.
  ///
  /// Each node is split on the axis of largest spread (for nodes of more than 512 points, the
  /// spread of 128 evenly spaced ones), at the position found by selection, not by a full sort.
  ///
  /// - Parameters:
  ///   - coordinates: The points; their positions are the indices results refer to.
  ///   - leafSize: The most points a leaf bucket holds (at least 1); leaves hold between about
  ///     half of this and this many. The default, 32, measured faster than 16 on a million points
  ///     for building (one level less to select) and for every query kind (fewer boxes to test
  ///     and fewer cache lines of boxes; the extra points a leaf are scanned in order).
  /// - Complexity: O(n log n).
  public init(coordinates: [Coordinate], leafSize: Int = 32) {
    precondition(leafSize >= 1, "leafSize must be at least 1")
    precondition(coordinates.count < Int(Int32.max), "at most Int32.max - 1 points")
    let n = coordinates.count
    var depth = 0
    while (n + (1 << depth) - 1) >> depth > leafSize { depth += 1 }
    let nodeCount = (2 << depth) - 1

    let memory = TreeMemory(owner: nil)
    let stored = memory.allocate(Coordinate.self, count: n)
    _ = stored.initialize(from: coordinates)
    let xs = memory.allocate(Double.self, count: n)
    let ys = memory.allocate(Double.self, count: n)
    let zs = memory.allocate(Double.self, count: n)
    let ids = memory.allocate(Int32.self, count: n)
    // The unit vectors of `Coordinate.unitVector`, with both angles of a point in one `sinCos`.
    for i in 0..<n {
      let c = stored[i]
      let (sine, cosine) = sinCos(SIMD2(c.latitude, c.longitude) * (.pi / 180))
      xs[i] = cosine.x * cosine.y
      ys[i] = cosine.x * sine.y
      zs[i] = sine.x
      ids[i] = Int32(truncatingIfNeeded: i)
    }
    // An empty tree is one empty leaf: min +∞, max -∞, which every search skips.
    let boxes = memory.allocate(Float.self, count: n > 0 ? 6 * nodeCount : 6)
    if n > 0 {
      let scratch = UnsafeMutablePointer<Double>.allocate(capacity: Builder.sampleCapacity)
      let offsets = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * Builder.block)
      let small = UnsafeMutablePointer<SIMD4<Double>>.allocate(capacity: Builder.smallSubtree)
      defer {
        scratch.deallocate()
        offsets.deallocate()
        small.deallocate()
      }
      let builder = Builder(
        xs: xs.baseAddress!, ys: ys.baseAddress!, zs: zs.baseAddress!, ids: ids.baseAddress!,
        boxes: boxes.baseAddress!, count: n, depth: depth, scratch: scratch, offsets: offsets, small: small)
      builder.build(node: 0, level: 0, firstLeaf: 0, lower: 0, upper: n)
    } else {
      for i in 0..<6 { boxes[i] = i < 3 ? .infinity : -.infinity }
    }
    self.init(
      memory: memory, coordinates: UnsafeBufferPointer(stored), depth: depth, xs: UnsafeBufferPointer(xs),
      ys: UnsafeBufferPointer(ys), zs: UnsafeBufferPointer(zs), ids: UnsafeBufferPointer(ids),
      boxes: UnsafeBufferPointer(boxes))
  }

  /// A tree over buffers already laid out, checked by the caller.
  init(
    memory: TreeMemory, coordinates: UnsafeBufferPointer<Coordinate>, depth: Int,
    xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>, zs: UnsafeBufferPointer<Double>,
    ids: UnsafeBufferPointer<Int32>, boxes: UnsafeBufferPointer<Float>
  ) {
    self.memory = memory
    self.coordinateBuffer = coordinates
    self.depth = depth
    self.xs = xs
    self.ys = ys
    self.zs = zs
    self.ids = ids
    self.boxes = boxes
  }

  /// The number of points.
  ///
  /// - Complexity: O(1).
  public var count: Int { coordinateBuffer.count }

  /// The `k` points nearest to `center` that satisfy `isIncluded`, nearest first; ties by index.
  ///
  /// The predicate runs inside the search, so the result holds `k` matching points whenever
  /// that many exist (within `maximumDistance`), however rare the matches.
  ///
  /// - Parameters:
  ///   - k: How many to return at most. Zero or less returns nothing.
  ///   - center: The query point.
  ///   - maximumDistance: Points farther than this are not returned (`nil`: no limit). The
  ///     limit is inclusive and exact with respect to the haversine distance.
  ///   - requirement: Bits a point's mask must hold; subtrees where no point has them all are
  ///     skipped whole. `nil`: no requirement.
  ///   - isIncluded: A predicate on the point index, evaluated inside the search (after the
  ///     requirement).
  /// - Returns: At most `k` neighbours sorted by (distance, index).
  /// - Complexity: O(k log k + log n) expected for well-spread points and a predicate that
  ///   matches a fixed fraction of them; O(n log k) at worst.
  public func nearest(
    _ k: Int, to center: Coordinate, within maximumDistance: Distance? = nil,
    requiring requirement: MaskRequirement? = nil, where isIncluded: (Int) -> Bool
  ) -> [Neighbor] {
    withoutActuallyEscaping(isIncluded) { isIncluded in
      nearest(
        k, to: center, within: maximumDistance, requiring: requirement, filter: ClosureFilter(isIncluded))
    }
  }

  /// The `k` points nearest to `center`, nearest first; ties by index.
  ///
  /// The same as `nearest(_:to:within:requiring:where:)` with a predicate that admits every
  /// point, without a call per point.
  public func nearest(
    _ k: Int, to center: Coordinate, within maximumDistance: Distance? = nil,
    requiring requirement: MaskRequirement? = nil
  ) -> [Neighbor] {
    nearest(k, to: center, within: maximumDistance, requiring: requirement, filter: EveryPoint())
  }

  private func nearest<Filter: PointFilter>(
    _ k: Int, to center: Coordinate, within maximumDistance: Distance?,
    requiring requirement: MaskRequirement?,
    filter: Filter
  ) -> [Neighbor] {
    let n = count
    guard k > 0, n > 0 else { return [] }
    var limit = ChordLimit.unlimited
    if let maximumDistance {
      guard let chordLimit = ChordLimit(maximumDistance) else { return [] }
      limit = chordLimit
    }
    let capacity = Swift.min(k, n)
    let q = center.unitVector
    return withUnsafeTemporaryAllocation(of: Candidate.self, capacity: capacity) { buffer in
      var heap = BoundedMaxHeap(storage: buffer.baseAddress!, capacity: capacity)
      var nearTies: [Candidate] = []
      withView(requiring: requirement) { view in
        view.nearest(
          qx: q.x, qy: q.y, qz: q.z, limit: limit, center: center, heap: &heap,
          nearTies: &nearTies, filter: filter)
      }
      if !nearTies.isEmpty {
        // Only with a full heap. Keep the near ties that can still rank among the best k by
        // (haversine, index); the heap's own candidates all can.
        let bound2 = View.tieBound2(heap.top.chord2)
        nearTies.removeAll { $0.chord2 > bound2 }
      }
      let heapCount = heap.count
      var result = Self.neighbors(
        count: heapCount + nearTies.count,
        index: { $0 < heapCount ? Int(buffer[$0].index) : Int(nearTies[$0 - heapCount].index) },
        from: center, in: coordinateBuffer)
      result.sort(by: Neighbor.precedes)
      if result.count > capacity { result.removeSubrange(capacity...) }
      return result
    }
  }

  /// Every point within `radius` of `center` (inclusive) that satisfies `isIncluded`, nearest
  /// first; ties by index.
  ///
  /// The boundary is exact with respect to the haversine distance: a point is returned exactly
  /// when `center.distance(to: point) <= radius`. A radius of zero finds the exact duplicates of
  /// `center`; a radius of half the circumference or more finds every point.
  ///
  /// - Parameters:
  ///   - radius: The largest distance returned. Negative or NaN returns nothing.
  ///   - center: The query point.
  ///   - requirement: Bits a point's mask must hold; subtrees where no point has them all are
  ///     skipped whole. `nil`: no requirement.
  ///   - isIncluded: A predicate on the point index, evaluated inside the search (after the
  ///     requirement).
  /// - Returns: The neighbours sorted by (distance, index).
  /// - Complexity: O(log n + m log m) expected for m results.
  public func within(
    _ radius: Distance, of center: Coordinate, requiring requirement: MaskRequirement? = nil,
    where isIncluded: (Int) -> Bool = { _ in true }
  ) -> [Neighbor] {
    guard count > 0, let limit = ChordLimit(radius) else { return [] }
    let q = center.unitVector
    let candidates = withView(requiring: requirement) { view in
      view.within(qx: q.x, qy: q.y, qz: q.z, limit: limit, isIncluded: isIncluded)
    }
    var result = Self.neighbors(
      count: candidates.count, index: { Int(candidates[$0]) }, from: center, in: coordinateBuffer)
    // The exact boundary: the chord bound let through points up to a hair beyond the radius.
    result.removeAll { $0.distance.meters > limit.meters }
    result.sort(by: Neighbor.precedes)
    return result
  }

  /// Every point inside `box` (edges included) that satisfies `isIncluded`, in index order.
  ///
  /// The box may cross the antimeridian (`west > east`) and may touch the poles. Whole subtrees
  /// are skipped by a conservative test in 3-D (the band of `z` between the latitudes, and the
  /// wedge between the meridians); points are then tested exactly with `GeoBox.contains` on the
  /// original coordinates.
  ///
  /// - Parameters:
  ///   - box: The rectangle in degrees.
  ///   - requirement: Bits a point's mask must hold; subtrees where no point has them all are
  ///     skipped whole. `nil`: no requirement.
  ///   - isIncluded: A predicate on the point index, evaluated inside the search (after the
  ///     requirement).
  ///   - ordered: Whether to sort the indices; a caller that only counts or aggregates them
  ///     spares the O(m log m) sort (a whole-world box of a million points).
  /// - Returns: The indices of the matching points, ascending when `ordered`, else in the
  ///   tree's order (the same for the same tree).
  /// - Complexity: O(√n + m log m) expected for m results in a small box; O(√n + m) unordered.
  public func within(
    _ box: GeoBox, requiring requirement: MaskRequirement? = nil, ordered: Bool = true,
    where isIncluded: (Int) -> Bool = { _ in true }
  ) -> [Int] {
    guard count > 0 else { return [] }
    var result = withView(requiring: requirement) { view in
      view.within(box: box, isIncluded: isIncluded)
    }
    if ordered { result.sort() }
    return result
  }

  /// All points in increasing distance from `center`, computed lazily: stop iterating when
  /// enough have passed your own filter.
  ///
  /// The order is the order of `nearest(_:to:within:where:)`: by (distance, index), and the
  /// first `k` elements are `nearest(k, to: center)`.
  ///
  /// - Parameter center: The query point.
  /// - Returns: A sequence that searches best-first as it is iterated.
  /// - Complexity: O(1) to create; the first `k` elements cost about as much as
  ///   `nearest(k, to: center)`, all n cost O(n log n).
  public func byDistance(from center: Coordinate) -> NeighborSequence {
    NeighborSequence(tree: self, center: center)
  }

  /// The neighbours `index(0..<count)` with their haversine distances from `center`.
  ///
  /// The coordinates are gathered first in a loop of independent loads, so their cache misses
  /// overlap, and measured after.
  @inline(__always)
  static func neighbors(
    count: Int, index: (Int) -> Int, from center: Coordinate,
    in coordinates: UnsafeBufferPointer<Coordinate>
  ) -> [Neighbor] {
    guard count > 0 else { return [] }
    return withUnsafeTemporaryAllocation(of: Coordinate.self, capacity: count) { gathered in
      for i in 0..<count { gathered[i] = coordinates[index(i)] }
      let origin = HaversineOrigin(center)
      // `reserveCapacity`, not `[Neighbor](unsafeUninitializedCapacity:)`: the latter allocates
      // through the standard library's unspecialized entry point, which looks the storage class
      // up in the runtime's metadata table on every call.
      var result: [Neighbor] = []
      result.reserveCapacity(count)
      for i in 0..<count {
        result.append(Neighbor(index: index(i), distance: origin.distance(to: gathered[i])))
      }
      return result
    }
  }

  /// Calls `body` with unchecked pointers to the tree's arrays (and the masks'). Requires
  /// `count > 0`.
  @inline(__always)
  func withView<R>(requiring requirement: MaskRequirement? = nil, _ body: (View) -> R) -> R {
    guard let requirement else { return withView(masks: nil, body) }
    let masks = requirement.masks
    precondition(
      masks.points.count == ids.count && masks.nodes.count == boxes.count / 6,
      "the masks were built for another tree")
    // Masks from a file are checked leaf by leaf as the search reads them, until all have been.
    let check = masks.leafCheck
    let digests = check.flatMap { $0.verifiedWhole.load(ordering: .relaxed) ? nil : $0.digests.baseAddress }
    let result = withView(
      masks: MaskView(
        points: masks.points.baseAddress!, nodes: masks.nodes.baseAddress!, required: requirement.required,
        digests: digests, leafCheck: check),
      body)
    // The view's pointers are only valid while the masks' memory lives.
    withExtendedLifetime(masks.memory) {}
    return result
  }

  @inline(__always)
  private func withView<R>(masks: MaskView?, _ body: (View) -> R) -> R {
    let result = body(
      View(
        xs: xs.baseAddress!, ys: ys.baseAddress!, zs: zs.baseAddress!, ids: ids.baseAddress!,
        boxes: boxes.baseAddress!, coordinates: coordinateBuffer.baseAddress!, count: ids.count, depth: depth,
        masks: masks))
    // The view's pointers are only valid while the memory lives.
    withExtendedLifetime(memory) {}
    return result
  }
}

extension Neighbor {
  /// (distance, index) order.
  @inline(__always)
  static func precedes(_ a: Neighbor, _ b: Neighbor) -> Bool {
    a.distance.meters < b.distance.meters
      || (a.distance.meters == b.distance.meters && a.index < b.index)
  }
}

/// A distance limit as bounds on the squared chord.
///
/// `outer2`: every point with haversine distance ≤ the limit has a squared chord ≤ `outer2`.
/// `inner2`: every point with a squared chord ≤ `inner2` has haversine distance ≤ the limit.
/// Between the two, the haversine distance decides. The margins (10⁻¹⁰ relative, 10⁻¹² absolute
/// on the chord) are far above the rounding of either formula (about 10⁻¹⁵).
struct ChordLimit {
  var meters: Double
  var outer2: Double
  var inner2: Double

  static let unlimited = ChordLimit(meters: .infinity, outer2: .infinity, inner2: .infinity)

  init(meters: Double, outer2: Double, inner2: Double) {
    self.meters = meters
    self.outer2 = outer2
    self.inner2 = inner2
  }

  /// nil for a negative or NaN distance.
  init?(_ distance: Distance) {
    let meters = distance.meters
    guard meters >= 0 else { return nil }
    let angle = meters / earthMeanRadiusMeters
    if angle >= .pi {
      self.init(meters: meters, outer2: .infinity, inner2: .infinity)
      return
    }
    let chord = 2 * _sin(angle / 2)
    let outer = chord * (1 + 1e-10) + 1e-12
    let inner = chord * (1 - 1e-10) - 1e-12
    self.init(meters: meters, outer2: outer * outer, inner2: inner > 0 ? inner * inner : -1)
  }
}
