import Testing

@testable import GeoIndex

/// `NearestBatch` answers each query as `KDTree.nearest` does, bit for bit: the same neighbours,
/// order and distances, whether the query was ranked among its cell's candidates or searched in
/// the tree, and however the batch is cut into parts.
@Suite struct NearestBatchTests {
  /// Every query's answers for k in `ks` from the batch, checked against the tree's; returns how
  /// many queries were ranked among candidates (so a test can tell the cells were used).
  @discardableResult
  static func expectSameAnswers(
    tree: KDTree, queries: [Coordinate], k: Int, ks: [Int], parts: Int = 1,
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> Int {
    let batch = NearestBatch(tree: tree, k: k, queries: queries)
    var seen = [Bool](repeating: false, count: queries.count)
    var amongCandidates = 0
    var mismatches = 0
    var result: [Neighbor] = []
    for part in 0..<parts {
      let range = (part * batch.count / parts)..<((part + 1) * batch.count / parts)
      batch.answer(range) { position, search in
        let query = batch.query(at: position)
        #expect(!seen[query], "a query answered twice", sourceLocation: sourceLocation)
        seen[query] = true
        #expect(search.query == queries[query], sourceLocation: sourceLocation)
        if search.isAmongCandidates { amongCandidates += 1 }
        for asked in ks {
          search.nearest(asked, into: &result)
          let expected = tree.nearest(asked, to: queries[query])
          if result != expected {
            mismatches += 1
            if mismatches <= 5 {
              Issue.record(
                "query \(query) at \(queries[query]), k \(asked): \(result) instead of \(expected)",
                sourceLocation: sourceLocation)
            }
          }
        }
      }
    }
    #expect(seen.allSatisfy { $0 }, "every query answered once", sourceLocation: sourceLocation)
    #expect(mismatches == 0, sourceLocation: sourceLocation)
    return amongCandidates
  }

  /// Queries in clusters of a few kilometres around random centres, as stores are in towns.
  static func clustered(_ count: Int, clusters: Int, spread: Double, rng: inout SplitMix64) -> [Coordinate] {
    let centres = rng.coordinates(clusters)
    return (0..<count).map { _ in
      let centre = centres[Int(rng.next() % UInt64(clusters))]
      return KDTreeTieTests.offset(centre, rng.uniform(-spread, spread), rng.uniform(-spread, spread))
    }
  }

  @Test func clusteredAndScatteredQueriesGetTheTreesAnswers() {
    var rng = SplitMix64(seed: 0xBA7C4)
    // Places: dense clusters (towns) and a thin spread (villages, islands).
    let points = Self.clustered(3_000, clusters: 60, spread: 0.5, rng: &rng) + rng.coordinates(2_000)
    let tree = KDTree(coordinates: points)
    let queries = Self.clustered(12_000, clusters: 200, spread: 0.05, rng: &rng) + rng.coordinates(6_000)
    let among = Self.expectSameAnswers(tree: tree, queries: queries, k: 8, ks: [1, 3, 8, 2])
    // The cells did the work: most queries were ranked among candidates, not searched alone.
    #expect(among > queries.count / 2)
  }

  @Test func partsAnsweredApartGetTheSameAnswers() {
    var rng = SplitMix64(seed: 0x9A27)
    let points = rng.coordinates(4_000)
    let tree = KDTree(coordinates: points)
    let queries = Self.clustered(5_000, clusters: 40, spread: 0.2, rng: &rng) + rng.coordinates(3_000)
    for parts in [2, 3, 7] {
      Self.expectSameAnswers(tree: tree, queries: queries, k: 8, ks: [1, 8], parts: parts)
    }
  }

  /// Ties: places on a grid of dyadic degrees, duplicated, and queries at the grid's points and
  /// half-way between them, where several places are exactly as far.
  @Test func tiesBreakByIndexAsInTheTree() {
    var points: [Coordinate] = []
    for latitude in stride(from: -60.0, through: 60.0, by: 0.25) {
      for longitude in stride(from: -10.0, through: 10.0, by: 0.25) {
        points.append(Coordinate(uncheckedLatitude: latitude, longitude: longitude))
      }
    }
    points += points.prefix(500)
    let tree = KDTree(coordinates: points)
    var queries: [Coordinate] = []
    // Dense enough that cells share their candidates among many queries.
    for latitude in stride(from: -5.0, through: 5.0, by: 0.03125) {
      for longitude in stride(from: -9.875, through: 9.875, by: 0.125) {
        queries.append(Coordinate(uncheckedLatitude: latitude, longitude: longitude))
      }
    }
    let among = Self.expectSameAnswers(tree: tree, queries: queries, k: 8, ks: [1, 2, 4, 8])
    #expect(among > queries.count / 2)
  }

  /// Queries where the cube's faces meet, at its corners, at the poles and on the antimeridian,
  /// each repeated so that their cells hold several.
  @Test func queriesOnFaceEdgesAndCornersAndPoles() {
    var rng = SplitMix64(seed: 0xC0FE)
    let points = rng.coordinates(3_000)
    let tree = KDTree(coordinates: points)
    let cornerLatitude = _asin(1 / 3.0.squareRoot()) * (180 / .pi)
    var special: [Coordinate] = [
      Coordinate(uncheckedLatitude: 90, longitude: 0), Coordinate(uncheckedLatitude: -90, longitude: 0),
      Coordinate(uncheckedLatitude: 0, longitude: 180), Coordinate(uncheckedLatitude: 0, longitude: -180),
      Coordinate(uncheckedLatitude: 45, longitude: 0), Coordinate(uncheckedLatitude: -45, longitude: 90),
    ]
    for longitude in stride(from: -135.0, through: 135.0, by: 90) {
      special.append(Coordinate(uncheckedLatitude: cornerLatitude, longitude: longitude))
      special.append(Coordinate(uncheckedLatitude: -cornerLatitude, longitude: longitude))
      special.append(Coordinate(uncheckedLatitude: 0, longitude: longitude))
    }
    var queries: [Coordinate] = []
    for point in special {
      queries += Array(repeating: point, count: 3)
      for _ in 0..<20 {
        queries.append(KDTreeTieTests.offset(point, rng.uniform(-1e-6, 1e-6), rng.uniform(-1e-6, 1e-6)))
      }
      for _ in 0..<20 {
        queries.append(KDTreeTieTests.offset(point, rng.uniform(-2, 2), rng.uniform(-2, 2)))
      }
    }
    let among = Self.expectSameAnswers(tree: tree, queries: queries, k: 8, ks: [1, 8])
    #expect(among > 0)
  }

  /// Trees with fewer points than k, or none: every query gets all the points, or nothing.
  @Test(arguments: [0, 1, 3, 8])
  func treesSmallerThanK(count: Int) {
    var rng = SplitMix64(seed: UInt64(count) + 5)
    let tree = KDTree(coordinates: rng.coordinates(count))
    let queries = Self.clustered(300, clusters: 3, spread: 0.01, rng: &rng)
    Self.expectSameAnswers(tree: tree, queries: queries, k: 8, ks: [1, 8])
  }

  @Test func cubeCellsHoldTheirPoints() {
    // Each point lies within its finest cell's radius of the cell's centre, and the cells of a
    // level nest: a point's cell at every level is the prefix of its finest code.
    var rng = SplitMix64(seed: 0x5EED)
    for point in rng.coordinates(2_000) {
      let code = NearestBatch.finestCell(of: point)
      let face = Int(code >> (2 * NearestBatch.finestLevel))
      for level in [0, 3, 9, NearestBatch.finestLevel] {
        var column = 0
        var row = 0
        let morton = code & (1 << (2 * NearestBatch.finestLevel) - 1)
        for bit in 0..<level {
          let pair = Int(morton >> (2 * (NearestBatch.finestLevel - 1 - bit))) & 3
          column = column << 1 | pair >> 1
          row = row << 1 | pair & 1
        }
        let (center, radius) = CubeCell(face: face, level: level, column: column, row: row).bounds()
        #expect(center.distance(to: point).meters <= radius + NearestBatch.margin)
      }
    }
  }
}
