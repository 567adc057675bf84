/// `KDTree.nearest(_:to:)` for many query points at once, with the same answers bit for bit, for
/// a caller that asks about every point of a large set: the loader infers the time zone of each of
/// a million stores from its nearest places.
///
/// One search per query walks the tree from its root, and misses the cache on the way, however
/// near the queries are to each other. Here the queries are sorted into the cells of a cube map
/// (each face of a cube around the sphere cut as a quadtree; the edges of the cells are arcs of
/// great circles), and the tree is searched once per cell. With `c` the cell's centre, `D` the
/// distance of `c`'s k-th nearest point, and `r` the distance from `c` to the cell's farthest
/// corner, every point among the k nearest of a query `p` in the cell is within `D + 2r` of `c`:
/// the k nearest of `c` are within `D + r` of `p`, so `p`'s k-th nearest is too, and `p` is within
/// `r` of `c`. Those candidates are found once per cell, and each query ranks only them
/// (`NearbyPoints`) by the tree's own rule.
///
/// A cell is used when `r ≤ D`, so that its candidates lie within `3D` of its centre (a few dozen
/// points where the points are evenly spread), and is split in four otherwise. Queries of cells
/// with few of them (`minimumShare`), and those of a finest cell with too many candidates, are
/// searched in the tree one by one.
///
/// The whole cell is within `r` of `c`: a cell is a convex spherical polygon smaller than a
/// hemisphere, so a cap of radius under a quarter circle around `c` that holds the cell's corners
/// holds the cell. The reach is padded by `margin` against rounding: the haversine formula and the
/// cell geometry are good to far less than a millimetre, so a metre only adds candidates.
///
/// Measured (`stores-benchmarks batch`, the bundled places, k = 8, one thread): about 0.5× the
/// time of searching one query at a time for a million queries uniform on the sphere, 0.65–0.75×
/// for 300,000 around towns; at k = 1 a search alone is quick, and a batch gains little.
public struct NearestBatch: Sendable {
  /// How many neighbours a query may ask for.
  public let k: Int
  let tree: KDTree
  /// Each query's cell at the finest level (face in 3 bits, then the Morton code of its column
  /// and row), shifted left by `indexBits`, with the query's index in the low bits; sorted, so
  /// that the queries of any cell are a contiguous run.
  let keys: [UInt64]
  /// The queries in the order of `keys`: read one after another as they are answered, not
  /// gathered from all over the caller's array (a cache miss each, which nothing overlapped).
  let sortedQueries: [Coordinate]

  /// The finest level of the quadtree: cells of about 300 m on a side.
  static let finestLevel = 15
  static let indexBits = 31
  /// More candidates than this and a cell is split again: the points are far from evenly spread
  /// around it.
  static let maximumCandidates = 512
  /// Padding of every distance bound, in metres.
  static let margin = 1.0
  /// Cells with fewer queries than this are searched one by one: a cell costs a search from its
  /// centre and a radius search, which only pay off when shared (`stores-benchmarks batch`: 2, 4,
  /// 8 and 16 measured alike on a million queries; 8 and 16 lost least on 20,000).
  static let minimumShare = 8

  /// Sorts `queries` into cells.
  ///
  /// - Parameters:
  ///   - k: The largest `k` the queries will ask for (at least 1).
  /// - Complexity: O(m log m) for m queries.
  public init(tree: KDTree, k: Int, queries: [Coordinate]) {
    precondition(k >= 1, "k must be at least 1")
    precondition(queries.count < 1 << Self.indexBits, "at most 2^31 - 1 queries")
    self.k = k
    self.tree = tree
    var keys = [UInt64](unsafeUninitializedCapacity: queries.count) { buffer, initialized in
      for (index, query) in queries.enumerated() {
        buffer[index] = Self.finestCell(of: query) << Self.indexBits | UInt64(index)
      }
      initialized = queries.count
    }
    keys.sort()
    self.keys = keys
    self.sortedQueries = keys.map { queries[Int($0 & (1 << Self.indexBits - 1))] }
  }

  /// The number of queries.
  public var count: Int { keys.count }

  /// The index in `queries` of the query at `position` of the batch's order.
  public func query(at position: Int) -> Int { Int(keys[position] & (1 << Self.indexBits - 1)) }

  /// `values`, one per query in the order of `queries`, in the batch's order: for a caller that
  /// reads something of each query as it is answered, one after another.
  public func inBatchOrder<Value>(_ values: [Value]) -> [Value] {
    precondition(values.count == count, "one value per query")
    return keys.map { values[Int($0 & (1 << Self.indexBits - 1))] }
  }

  /// `values`, one per query in the batch's order, in the order of `queries`.
  public func inQueryOrder<Value>(_ values: [Value]) -> [Value] {
    precondition(values.count == count, "one value per query")
    return [Value](unsafeUninitializedCapacity: count) { buffer, initialized in
      for (position, key) in keys.enumerated() {
        (buffer.baseAddress! + Int(key & (1 << Self.indexBits - 1))).initialize(to: values[position])
      }
      initialized = count
    }
  }

  /// Calls `body` for each position of the batch's order in `range` (a range of `0..<count`;
  /// parts of the order can be answered on threads of their own), in order, with a search aimed
  /// at the query there (`query(at:)`).
  public func answer(_ range: Range<Int>, _ body: (_ position: Int, _ search: inout NearbyPoints) -> Void) {
    precondition(range.lowerBound >= 0 && range.upperBound <= count, "positions of the batch")
    var search = NearbyPoints(tree: tree, maximumK: k)
    keys.withUnsafeBufferPointer { keys in
      var start = range.lowerBound
      for face in 0..<6 {
        let end = Self.firstKey(
          atLeast: UInt64(face + 1) << (2 * Self.finestLevel), in: keys, start..<range.upperBound)
        answer(face: face, level: 0, column: 0, row: 0, start..<end, keys: keys, search: &search, body)
        start = end
      }
    }
  }

  private func answer(
    face: Int, level: Int, column: Int, row: Int, _ range: Range<Int>, keys: UnsafeBufferPointer<UInt64>,
    search: inout NearbyPoints, _ body: (Int, inout NearbyPoints) -> Void
  ) {
    guard !range.isEmpty else { return }
    func oneByOne() {
      for position in range {
        search.aim(at: sortedQueries[position], amongCandidates: false)
        body(position, &search)
      }
    }
    guard range.count >= Self.minimumShare, tree.count > 0 else { return oneByOne() }
    let cell = CubeCell(face: face, level: level, column: column, row: row)
    let (center, radius) = cell.bounds()
    let kthNearest = tree.nearest(k, to: center).last!.distance.meters
    if radius <= kthNearest || level == Self.finestLevel {
      let vector = fastUnitVector(center)
      let reach = ChordLimit(Distance(meters: kthNearest + 2 * radius + Self.margin))!
      let taken = tree.withView { view in
        search.take(view: view, center: vector, reach: reach, atMost: Self.maximumCandidates)
      }
      if taken {
        for position in range {
          search.aim(at: sortedQueries[position], amongCandidates: true)
          body(position, &search)
        }
        return
      }
      if level == Self.finestLevel { return oneByOne() }
    }
    // The four children, in the order of their Morton codes (the column's bit above the row's).
    let childBits = 2 * (Self.finestLevel - level - 1)
    let base = UInt64(face) << (2 * Self.finestLevel) | CubeCell.morton(column, row) << (childBits + 2)
    var start = range.lowerBound
    for child in 0..<4 {
      let end =
        child == 3
        ? range.upperBound
        : Self.firstKey(atLeast: base | UInt64(child + 1) << childBits, in: keys, start..<range.upperBound)
      answer(
        face: face, level: level + 1, column: column << 1 | child >> 1, row: row << 1 | child & 1,
        start..<end, keys: keys, search: &search, body)
      start = end
    }
  }

  /// The first position in `range` whose key is at least `cell << indexBits`, or
  /// `range.upperBound`.
  private static func firstKey(
    atLeast cell: UInt64, in keys: UnsafeBufferPointer<UInt64>, _ range: Range<Int>
  ) -> Int {
    let bound = cell << indexBits
    var low = range.lowerBound
    var high = range.upperBound
    while low < high {
      let middle = (low + high) / 2
      if keys[middle] < bound { low = middle + 1 } else { high = middle }
    }
    return low
  }

  /// The finest cell holding `coordinate`, as face and Morton code.
  static func finestCell(of coordinate: Coordinate) -> UInt64 {
    let vector = fastUnitVector(coordinate)
    let (face, u, v) = CubeCell.project((vector.x, vector.y, vector.z))
    let side = Double(1 << finestLevel)
    let column = Swift.min(Int((u + 1) / 2 * side), (1 << finestLevel) - 1)
    let row = Swift.min(Int((v + 1) / 2 * side), (1 << finestLevel) - 1)
    return UInt64(face) << (2 * finestLevel) | CubeCell.morton(Swift.max(column, 0), Swift.max(row, 0))
  }
}

/// A cell of the cube map: a square of a face's (u, v) plane, seen from the sphere's centre.
///
/// The six faces are those of the cube around the unit sphere: 0, 1, 2 where x, y or z is the
/// largest coordinate in magnitude and positive, 3, 4, 5 where it is negative. A point's (u, v)
/// on its face are its other two coordinates (in the order x, y, z) divided by that magnitude,
/// each in [-1, 1]. Lines of the plane are great circles of the sphere, so a cell is a convex
/// spherical polygon.
struct CubeCell {
  let face: Int
  let level: Int
  let column: Int
  let row: Int

  /// The face of a unit vector, and its (u, v) on that face.
  static func project(_ vector: (x: Double, y: Double, z: Double)) -> (face: Int, u: Double, v: Double) {
    let (x, y, z) = vector
    let (ax, ay, az) = (abs(x), abs(y), abs(z))
    if ax >= ay, ax >= az { return (x >= 0 ? 0 : 3, y / ax, z / ax) }
    if ay >= az { return (y >= 0 ? 1 : 4, x / ay, z / ay) }
    return (z >= 0 ? 2 : 5, x / az, y / az)
  }

  /// The point of the face at (u, v).
  func point(u: Double, v: Double) -> Coordinate {
    let sign: Double = face < 3 ? 1 : -1
    let (x, y, z): (Double, Double, Double)
    switch face % 3 {
    case 0: (x, y, z) = (sign, u, v)
    case 1: (x, y, z) = (u, sign, v)
    default: (x, y, z) = (u, v, sign)
    }
    return Coordinate(
      uncheckedLatitude: _atan2(z, (x * x + y * y).squareRoot()) * (180 / .pi),
      longitude: _atan2(y, x) * (180 / .pi))
  }

  /// The cell's centre, and the haversine distance in metres from it to the farthest corner.
  func bounds() -> (center: Coordinate, radius: Double) {
    let side = 2 / Double(1 << level)
    let u0 = -1 + side * Double(column)
    let v0 = -1 + side * Double(row)
    let center = point(u: u0 + side / 2, v: v0 + side / 2)
    let origin = HaversineOrigin(center)
    var radius = 0.0
    for (u, v) in [(u0, v0), (u0 + side, v0), (u0, v0 + side), (u0 + side, v0 + side)] {
      radius = max(radius, origin.distance(to: point(u: u, v: v)).meters)
    }
    return (center, radius)
  }

  /// The Morton code of a cell: the bits of `column` and `row` interleaved, the column's above.
  static func morton(_ column: Int, _ row: Int) -> UInt64 {
    spread(UInt64(column)) << 1 | spread(UInt64(row))
  }

  /// The low 32 bits of `value` at the even bit positions.
  private static func spread(_ value: UInt64) -> UInt64 {
    var x = value & 0xFFFF_FFFF
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F
    x = (x | x << 2) & 0x3333_3333_3333_3333
    x = (x | x << 1) & 0x5555_5555_5555_5555
    return x
  }
}

/// A k-nearest search aimed at one query of a `NearestBatch`: among the candidates of the
/// query's cell, or in the whole tree.
///
/// The candidates are sorted by their chord from the cell's centre `c`. A candidate `q` is at
/// least `|c - q| - |c - p|` from the query `p`, so once that exceeds the query's k-th smallest
/// chord so far (with the tie tolerance), no later candidate can rank, and the scan stops: a query
/// looks at about as many candidates as it needs. A query's k nearest, once found, answer any
/// smaller k: the k nearest by (distance, index) are a prefix of the K nearest.
public struct NearbyPoints {
  let tree: KDTree
  /// The largest `k` the candidates can answer.
  let maximumK: Int
  /// The query the search is aimed at, and its unit vector.
  public private(set) var query = Coordinate(uncheckedLatitude: 0, longitude: 0)
  private var queryVector = SIMD3<Double>(1, 0, 0)
  private var amongCandidates = false
  /// The candidates' indices and unit vectors, by increasing chord from the cell's centre (as a
  /// lower bound, `centerChords`).
  private var indices: [Int32] = []
  private var candidateVectors: [SIMD3<Double>] = []
  private var centerChords: [Double] = []
  private var center = SIMD3<Double>(1, 0, 0)
  /// The query's `rankedK` nearest, once found.
  private var ranked: [Neighbor] = []
  private var rankedK = 0
  /// Scratch: the query's squared chords to the candidates looked at, and the k smallest in order.
  private var chords: [Double] = []
  private var smallest: [Double]
  /// Scratch: the candidates as they are found, sort keys.
  private var keys: [UInt64] = []

  init(tree: KDTree, maximumK: Int) {
    self.tree = tree
    self.maximumK = maximumK
    self.smallest = Array(repeating: 0, count: maximumK)
  }

  /// Makes the points `candidates` the ones the next queries are ranked among: those of a cell
  /// whose centre is `center`.
  /// Makes the points of `view` within `reach` of `center` the ones the next queries are ranked
  /// among, unless there are more than `limit`; returns whether it did.
  mutating func take(view: View, center: SIMD3<Double>, reach: ChordLimit, atMost limit: Int) -> Bool {
    // Sorted as one integer each: the chord rounded down to a `Float` above the tree position. A
    // chord rounded down is still a lower bound of the distance from the centre, which is all the
    // scan's stop needs.
    keys.removeAll(keepingCapacity: true)
    view.forEachWithin(qx: center.x, qy: center.y, qz: center.z, limit: reach) { position, chord2 in
      let chord = chord2.squareRoot()
      var rounded = Float(chord)
      if Double(rounded) > chord { rounded = rounded.nextDown }
      keys.append(UInt64(rounded.bitPattern) << 32 | UInt64(position))
    }
    guard keys.count <= limit else { return false }
    keys.sort()
    indices.removeAll(keepingCapacity: true)
    candidateVectors.removeAll(keepingCapacity: true)
    centerChords.removeAll(keepingCapacity: true)
    for key in keys {
      let position = Int(truncatingIfNeeded: key & 0xFFFF_FFFF)
      indices.append(view.ids[position])
      candidateVectors.append(SIMD3(view.xs[position], view.ys[position], view.zs[position]))
      centerChords.append(Double(Float(bitPattern: UInt32(key >> 32))))
    }
    if chords.count < keys.count { chords = Array(repeating: 0, count: keys.count) }
    self.center = center
    return true
  }

  /// Whether the query is ranked among its cell's candidates, not searched in the tree.
  var isAmongCandidates: Bool { amongCandidates }

  mutating func aim(at query: Coordinate, amongCandidates: Bool) {
    self.query = query
    self.amongCandidates = amongCandidates
    rankedK = 0
    if amongCandidates { queryVector = fastUnitVector(query) }
  }

  /// The `k` points nearest to the query (at most the batch's `k`), into `result`: the same
  /// neighbours, in the same order and with the same distances, as `tree.nearest(k, to: query)`.
  public mutating func nearest(_ k: Int, into result: inout [Neighbor]) {
    precondition(k <= maximumK, "a batch answers at most the k it was made for")
    result.removeAll(keepingCapacity: true)
    guard amongCandidates else {
      result.append(contentsOf: tree.nearest(k, to: query))
      return
    }
    if rankedK < k { rank(k) }
    result.append(contentsOf: ranked.prefix(k))
  }

  /// Finds the query's `k` nearest among the candidates.
  private mutating func rank(_ k: Int) {
    rankedK = k
    let q = queryVector
    let offset = q - center
    let queryChord = (offset * offset).sum().squareRoot()
    var looked = 0
    var found = 0
    indices.withUnsafeBufferPointer { indices in
      candidateVectors.withUnsafeBufferPointer { vectors in
        centerChords.withUnsafeBufferPointer { centerChords in
          chords.withUnsafeMutableBufferPointer { chords in
            smallest.withUnsafeMutableBufferPointer { smallest in
              // A candidate whose chord from the centre exceeds this is out of reach.
              var reach = Double.infinity
              while looked < indices.count, centerChords[looked] <= reach {
                let difference = vectors[looked] - q
                let d2 = (difference * difference).sum()
                chords[looked] = d2
                looked += 1
                if found == k {
                  guard d2 < smallest[k - 1] else { continue }
                } else {
                  found += 1
                }
                var slot = found - 1
                while slot > 0, smallest[slot - 1] > d2 {
                  smallest[slot] = smallest[slot - 1]
                  slot -= 1
                }
                smallest[slot] = d2
                if found == k { reach = smallest[k - 1].squareRoot() + View.chordTieTolerance + queryChord }
              }
            }
          }
        }
      }
    }
    // The tree's rule: a point ranks among the k nearest by haversine distance only if its chord
    // is within the tie tolerance of the k-th smallest chord.
    let bound2 = found < k ? Double.infinity : View.tieBound2(smallest[k - 1])
    let origin = HaversineOrigin(query)
    let coordinates = tree.coordinateBuffer
    ranked.removeAll(keepingCapacity: true)
    for i in 0..<looked where chords[i] <= bound2 {
      let index = Int(indices[i])
      ranked.append(Neighbor(index: index, distance: origin.distance(to: coordinates[index])))
    }
    withExtendedLifetime(tree) {}
    ranked.sort(by: Neighbor.precedes)
    if ranked.count > k { ranked.removeSubrange(k...) }
  }
}

/// A point's unit vector by `sinCos` (as the tree's build makes them): the batch ranks by chords,
/// which need the vectors to about 10⁻¹⁵, not to the last bit of `Coordinate.unitVector`.
@inline(__always)
func fastUnitVector(_ coordinate: Coordinate) -> SIMD3<Double> {
  let (sine, cosine) = sinCos(SIMD2(coordinate.latitude, coordinate.longitude) * (.pi / 180))
  return SIMD3(cosine.x * cosine.y, cosine.x * sine.y, sine.x)
}
