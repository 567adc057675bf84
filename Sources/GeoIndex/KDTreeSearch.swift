internal import CGeoIndexPrefetch

/// Unchecked pointers to a tree's arrays, for the search loops. Valid only inside
/// `KDTree.withView`, and only for a non-empty tree.
struct View {
  let xs: UnsafePointer<Double>
  let ys: UnsafePointer<Double>
  let zs: UnsafePointer<Double>
  let ids: UnsafePointer<Int32>
  let boxes: UnsafePointer<Float>
  let coordinates: UnsafePointer<Coordinate>
  let count: Int
  let depth: Int
  /// The masks of a `MaskRequirement`, when the search has one.
  let masks: MaskView?

  /// The first node on the leaf level.
  @inline(__always)
  var firstLeafNode: Int { (1 << depth) - 1 }

  @inline(__always)
  func boxDistance2(_ node: Int, _ qx: Double, _ qy: Double, _ qz: Double) -> Double {
    let b = boxes + 6 * node
    let dx = Swift.max(0, Swift.max(Double(b[0]) - qx, qx - Double(b[3])))
    let dy = Swift.max(0, Swift.max(Double(b[1]) - qy, qy - Double(b[4])))
    let dz = Swift.max(0, Swift.max(Double(b[2]) - qz, qz - Double(b[5])))
    return dx * dx + dy * dy + dz * dz
  }

  /// `boxDistance2`, or infinity when the requirement rules the whole node out.
  @inline(__always)
  func nodeDistance2(_ node: Int, _ qx: Double, _ qy: Double, _ qz: Double) -> Double {
    if let masks, !masks.nodeMayMatch(node) { return .infinity }
    return boxDistance2(node, qx, qy, qz)
  }

  /// Before the first point mask of leaf `node` (positions `start..<end`) is read: checks the
  /// leaf's masks against their digest when they came from a file.
  @inline(__always)
  func checkMasks(ofLeaf node: Int, _ start: Int, _ end: Int) {
    masks?.checkLeaf(node - firstLeafNode, start, end)
  }

  /// False when the requirement rules out the point at tree position `p`.
  @inline(__always)
  func meetsRequirement(_ p: Int) -> Bool {
    guard let masks else { return true }
    return masks.pointMatches(p)
  }

  @inline(__always)
  func chord2(_ p: Int, _ qx: Double, _ qy: Double, _ qz: Double) -> Double {
    let dx = xs[p] - qx
    let dy = ys[p] - qy
    let dz = zs[p] - qz
    return dx * dx + dy * dy + dz * dz
  }

  /// The tree positions `start..<end` of leaf node `node`.
  @inline(__always)
  func leafBounds(_ node: Int) -> (start: Int, end: Int) {
    let leaf = node - firstLeafNode
    return ((leaf * count) >> depth, ((leaf + 1) * count) >> depth)
  }

  /// Starts loading the boxes of `node`'s four grandchildren (96 bytes, contiguous), so that
  /// a descent has two levels of box loads in flight instead of one.
  @inline(__always)
  func prefetchGrandchildBoxes(_ node: Int) {
    let first = boxes + 6 * (4 * node + 3)
    geo_index_prefetch(first)
    geo_index_prefetch(first + 23)
  }

  /// Starts loading the points of tree positions `start..<end` (their vectors and ids), so that
  /// a leaf's cache misses overlap the work before it is scanned.
  @inline(__always)
  func prefetchPoints(_ start: Int, _ end: Int) {
    guard start < end else { return }
    // A line holds 8 doubles and 16 ids; the last line of each array may be one past the stride.
    var p = start
    while p < end {
      geo_index_prefetch(xs + p)
      geo_index_prefetch(ys + p)
      geo_index_prefetch(zs + p)
      p &+= 8
    }
    geo_index_prefetch(xs + end - 1)
    geo_index_prefetch(ys + end - 1)
    geo_index_prefetch(zs + end - 1)
    p = start
    while p < end {
      geo_index_prefetch(ids + p)
      p &+= 16
    }
    geo_index_prefetch(ids + end - 1)
  }

  /// Bounds the disagreement between the chord and haversine rankings, on the chord (about 6 µm
  /// on the Earth): both are computed to within about 10⁻¹⁵ of the exact chord, so when
  /// `a.distance(to: p) <= a.distance(to: q)` the computed chords satisfy
  /// `chord(p) <= chord(q) + chordTieTolerance`.
  static let chordTieTolerance = 1e-12

  /// `(√chord2 + chordTieTolerance)²`: every point whose haversine distance is at most that of a
  /// point with squared chord `chord2` has a squared chord at most this. Monotone in `chord2`.
  @inline(__always)
  static func tieBound2(_ chord2: Double) -> Double {
    let chord = chord2.squareRoot() + chordTieTolerance
    return chord * chord
  }

  /// An upper bound of `tieBound2(chord2)` without its square root, for the search's bound,
  /// which tightens after each candidate the heap keeps (the root's latency was on that path).
  /// `(√c + t)² = c + 2t√c + t² ≤ c + t(c + 1) + t²` (as `2√c ≤ c + 1`); `c + t(c + 2)` exceeds
  /// that by at least `t - t²`, far above the rounding of either (about 10⁻¹⁶ for `c ≤ 4`).
  /// Looser only by `t(√c - 1)² + t`: the search keeps a few more near ties, which the final
  /// `tieBound2` drops, so answers are the same.
  @inline(__always)
  static func searchBound2(_ chord2: Double) -> Double {
    chord2 + chordTieTolerance * (chord2 + 2)
  }

  /// k nearest, best first: the node nearest the query is taken from a priority queue, followed
  /// down to a leaf by its nearer child (the farther one queued), and the leaf scanned; the search
  /// ends when the nearest queued node is farther than the worst candidate kept (or the distance
  /// limit). Leaves are thus scanned in order of their distance, so the bound tightens as fast
  /// as it can and, when the filter rejects most points, fewer leaves and predicate calls are
  /// spent before it does.
  ///
  /// The heap keeps the `k` best by (chord, index), but the answer is ranked by (haversine,
  /// index), and the two may disagree between points whose chords differ by rounding. So the
  /// search prunes at `searchBound2(heap.top.chord2)` (at least `tieBound2`), not at the top's
  /// chord, and every included point up to that bound that the heap does not keep (rejected, or
  /// evicted later) goes to `nearTies`. Once the search ends, the answer is the best `k` by (haversine, index) of the heap
  /// and of the near ties within `tieBound2` of the final top: any point beyond that is farther,
  /// by haversine, than all `k` points in the heap.
  @inline(__always)
  func nearest<Filter: PointFilter>(
    qx: Double, qy: Double, qz: Double, limit: ChordLimit, center: Coordinate,
    heap: inout BoundedMaxHeap, nearTies: inout [Candidate], filter: Filter
  ) {
    let firstLeaf = firstLeafNode
    var bound2 = limit.outer2
    let rootDistance = nodeDistance2(0, qx, qy, qz)
    guard rootDistance <= bound2 else { return }
    withUnsafeTemporaryAllocation(of: (Int32, Int32, Double).self, capacity: leafCapacity) { nearby in
      withUnsafeTemporaryAllocation(of: NodeQueue.Entry.self, capacity: NodeQueue.initialCapacity + 64) {
        buffer in
        var queue = NodeQueue(initial: buffer.baseAddress!)
        defer { queue.release() }
        // The far children of one descent, queued only after its leaf is scanned: the leaf
        // usually tightens the bound past most of them (k = 10: all but two or three of the
        // fifteen of the first descent), which then cost no queue operation. A descent is at
        // most `depth` ≤ 31 levels.
        let pending = buffer.baseAddress! + NodeQueue.initialCapacity
        queue.push(NodeQueue.Entry(distance2: rootDistance, node: 0))
        while queue.count > 0 {
          let entry = queue.popMin()
          // Every queued node is at least this far: nothing left can enter the answer.
          if entry.distance2 > bound2 { break }
          var node = entry.node
          var distance2 = entry.distance2
          var pendingCount = 0
          defer {
            for i in 0..<pendingCount where pending[i].distance2 <= bound2 { queue.push(pending[i]) }
          }
          while node < firstLeaf {
            let left = 2 * node + 1
            let right = left + 1
            // Two levels ahead: the boxes a level below the children, or, above the leaves,
            // the points of both (the far one is usually scanned next).
            if left < firstLeaf {
              prefetchGrandchildBoxes(node)
            } else {
              prefetchPoints(leafBounds(left).start, leafBounds(right).end)
            }
            let dl = nodeDistance2(left, qx, qy, qz)
            let dr = nodeDistance2(right, qx, qy, qz)
            let far: Int
            let farDistance: Double
            if dl <= dr {
              node = left
              distance2 = dl
              far = right
              farDistance = dr
            } else {
              node = right
              distance2 = dr
              far = left
              farDistance = dl
            }
            if farDistance <= bound2 {
              pending[pendingCount] = NodeQueue.Entry(distance2: farDistance, node: far)
              pendingCount &+= 1
            }
            if distance2 > bound2 { break }
          }
          guard node >= firstLeaf, distance2 <= bound2 else { continue }
          // The node scanned after this leaf is the nearest queued one or a pending far child
          // (usually this leaf's sibling, whose points the parent's step above prefetched):
          // start loading the queued one while this leaf is scanned.
          if queue.count > 0 {
            let next = queue.minimum.node
            if next >= firstLeaf {
              let (nextStart, nextEnd) = leafBounds(next)
              prefetchPoints(nextStart, nextEnd)
            } else {
              geo_index_prefetch(boxes + 6 * (2 * next + 1))
            }
          }
          let (start, end) = leafBounds(node)
          // First the points within the bound, with no branch a point (most of a leaf is usually
          // outside it); their ids are read here too, so that those cache misses overlap the
          // vectors' instead of following them.
          var found = 0
          for p in start..<end {
            let d2 = chord2(p, qx, qy, qz)
            nearby[found] = (Int32(truncatingIfNeeded: p), ids[p], d2)
            found &+= Self.isWithin(d2, bound2)
          }
          // Then the requirement and the filter, in a loop of their own (the call is the costly
          // part when it rejects most points), keeping the points they admit; then the heap.
          var admitted = 0
          if found > 0 { checkMasks(ofLeaf: node, start, end) }
          for i in 0..<found {
            let (position, index, d2) = nearby[i]
            guard meetsRequirement(Int(position)) else { continue }
            nearby[admitted] = (position, index, d2)
            admitted &+= filter.includes(Int(index)) ? 1 : 0
          }
          for i in 0..<admitted {
            let (_, index, d2) = nearby[i]
            if d2 > bound2 { continue }
            let candidate = Candidate(chord2: d2, index: index)
            if d2 > limit.inner2 && center.distance(to: coordinates[Int(index)]).meters > limit.meters {
              continue
            }
            // The answer's distances read the coordinates of the points kept: start loading
            // them now, while the search goes on.
            geo_index_prefetch(coordinates + Int(index))
            if !heap.isFull {
              heap.insert(candidate)
              if heap.isFull { bound2 = Swift.min(bound2, Self.searchBound2(heap.top.chord2)) }
              continue
            }
            let worst = heap.top
            guard Candidate.precedes(candidate, worst) else {
              // Not among the best k by chord, but within the tie bound (`d2 <= bound2`).
              nearTies.append(candidate)
              continue
            }
            heap.replaceTop(with: candidate)
            bound2 = Swift.min(bound2, Self.searchBound2(heap.top.chord2))
            if worst.chord2 <= bound2 { nearTies.append(worst) }
          }
        }
      }
    }
  }

  /// 1 when `d2 <= bound2`, else 0, from the sign of the difference, so that it is not a branch
  /// (both are squared chords, at most 4, or the bound is +∞; the difference is negative exactly
  /// when `d2 > bound2`).
  @inline(__always)
  static func isWithin(_ d2: Double, _ bound2: Double) -> Int {
    1 &- Int(truncatingIfNeeded: (bound2 - d2).bitPattern >> 63)
  }

  /// The most points a leaf holds.
  var leafCapacity: Int { (count + (1 << depth) - 1) >> depth }

  /// The input indices of every included point with squared chord ≤ `limit.outer2`, unordered:
  /// the candidates for a radius query, which the caller checks by haversine.
  func within(
    qx: Double, qy: Double, qz: Double, limit: ChordLimit, isIncluded: (Int) -> Bool
  ) -> [Int32] {
    var result: [Int32] = []
    forEachWithin(qx: qx, qy: qy, qz: qz, limit: limit) { p, _ in
      let index = ids[p]
      guard isIncluded(Int(index)) else { return }
      result.append(index)
    }
    return result
  }

  /// Calls `visit` with the tree position and squared chord of every point (that meets the
  /// requirement) with squared chord ≤ `limit.outer2`, unordered.
  @inline(__always)
  func forEachWithin(
    qx: Double, qy: Double, qz: Double, limit: ChordLimit,
    _ visit: (_ position: Int, _ chord2: Double) -> Void
  ) {
    let firstLeaf = firstLeafNode
    let bound2 = limit.outer2
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { stack in
      stack[0] = 0
      var top = 1
      while top > 0 {
        top -= 1
        var node = stack[top]
        if nodeDistance2(node, qx, qy, qz) > bound2 { continue }
        // Descend, keeping one child and stacking the other.
        while node < firstLeaf {
          let left = 2 * node + 1
          let leftIn = nodeDistance2(left, qx, qy, qz) <= bound2
          let rightIn = nodeDistance2(left + 1, qx, qy, qz) <= bound2
          if leftIn && rightIn {
            stack[top] = left + 1
            top += 1
            node = left
          } else if leftIn {
            node = left
          } else if rightIn {
            node = left + 1
          } else {
            node = -1
            break
          }
        }
        guard node >= 0 else { continue }
        let (start, end) = leafBounds(node)
        checkMasks(ofLeaf: node, start, end)
        for p in start..<end {
          let d2 = chord2(p, qx, qy, qz)
          if d2 > bound2 || !meetsRequirement(p) { continue }
          visit(p, d2)
        }
      }
    }
  }

  /// Every included point inside `box`, unordered.
  func within(box: GeoBox, isIncluded: (Int) -> Bool) -> [Int] {
    var result: [Int] = []
    let firstLeaf = firstLeafNode
    let filter = BoxFilter(box)
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { stack in
      stack[0] = 0
      var top = 1
      while top > 0 {
        top -= 1
        let node = stack[top]
        guard filter.mayIntersect(boxes + 6 * node), masks?.nodeMayMatch(node) ?? true else { continue }
        if node < firstLeaf {
          stack[top] = 2 * node + 2
          stack[top + 1] = 2 * node + 1
          top += 2
          continue
        }
        let (start, end) = leafBounds(node)
        checkMasks(ofLeaf: node, start, end)
        for p in start..<end {
          // The 3-D test on tree-order data first spares most outside points a cache miss.
          guard filter.mayContain(xs[p], ys[p], zs[p]), meetsRequirement(p) else { continue }
          let index = Int(ids[p])
          guard box.contains(coordinates[index]), isIncluded(index) else { continue }
          result.append(index)
        }
      }
    }
    return result
  }
}

/// A conservative test of whether a node's 3-D box can hold a point of a latitude/longitude box.
struct BoxFilter {
  /// The `z` band: sin(south) ... sin(north), widened by a margin.
  var zLow: Double
  var zHigh: Double
  /// Longitude half-planes, `a·x + b·y ≥ 0`: east of the west meridian (within 180°) and west of
  /// the east meridian (within 180°).
  var westA: Double
  var westB: Double
  var eastA: Double
  var eastB: Double
  /// 0: no longitude constraint; 1: inside both half-planes (width ≤ 180°); 2: inside either
  /// (width > 180°).
  var mode: Int

  static let margin = 1e-12

  init(_ box: GeoBox) {
    zLow = box.south <= -90 ? -.infinity : _sin(box.south * (.pi / 180)) - Self.margin
    zHigh = box.north >= 90 ? .infinity : _sin(box.north * (.pi / 180)) + Self.margin
    var width = box.east - box.west
    if width < 0 { width += 360 }
    let west = box.west * (.pi / 180)
    let east = box.east * (.pi / 180)
    // λ ≥ west (within 180°): sin(λ - west) = y cos(west) - x sin(west) ≥ 0.
    westA = -_sin(west)
    westB = _cos(west)
    // λ ≤ east (within 180°): sin(east - λ) = x sin(east) - y cos(east) ≥ 0.
    eastA = _sin(east)
    eastB = -_cos(east)
    mode = width >= 360 ? 0 : (width <= 180 ? 1 : 2)
  }

  /// The largest `a·x + b·y` over the node's box.
  @inline(__always)
  static func maximum(_ a: Double, _ b: Double, _ box: UnsafePointer<Float>) -> Double {
    a * Double(a > 0 ? box[3] : box[0]) + b * Double(b > 0 ? box[4] : box[1])
  }

  /// False only when the unit vector is certainly outside the box.
  @inline(__always)
  func mayContain(_ x: Double, _ y: Double, _ z: Double) -> Bool {
    if z < zLow || z > zHigh { return false }
    switch mode {
    case 1:
      return westA * x + westB * y >= -Self.margin && eastA * x + eastB * y >= -Self.margin
    case 2:
      return westA * x + westB * y >= -Self.margin || eastA * x + eastB * y >= -Self.margin
    default:
      return true
    }
  }

  @inline(__always)
  func mayIntersect(_ box: UnsafePointer<Float>) -> Bool {
    // Empty nodes have min +∞ > max -∞.
    if Double(box[5]) < zLow || Double(box[2]) > zHigh || box[0] > box[3] { return false }
    switch mode {
    case 1:
      return Self.maximum(westA, westB, box) >= -Self.margin
        && Self.maximum(eastA, eastB, box) >= -Self.margin
    case 2:
      return Self.maximum(westA, westB, box) >= -Self.margin
        || Self.maximum(eastA, eastB, box) >= -Self.margin
    default:
      return true
    }
  }
}
