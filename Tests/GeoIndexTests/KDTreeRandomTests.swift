import Testing

@testable import GeoIndex

/// The tree against brute-force haversine on 10,000 points uniform on the sphere.
@Suite struct KDTreeRandomTests {
  static let points: [Coordinate] = {
    var rng = SplitMix64(seed: 42)
    return rng.coordinates(10_000)
  }()

  static let tree = KDTree(coordinates: points)

  /// 1,000 queries: mostly uniform, every tenth exactly on a data point.
  static let queries: [Coordinate] = {
    var rng = SplitMix64(seed: 4242)
    return (0..<1_000).map { i in
      i % 10 == 0 ? points[Int(rng.next() % UInt64(points.count))] : rng.coordinate()
    }
  }()

  /// Brute force for every query, computed once and shared by the tests.
  static let expected: [BruteForce] = queries.map { BruteForce(points, from: $0) }

  @Test(arguments: [1, 10, 100])
  func nearestMatchesBruteForce(k: Int) {
    for (q, center) in Self.queries.enumerated() {
      let found = Self.tree.nearest(k, to: center)
      expectSameNeighbors(
        found, Self.expected[q].nearest(k), points: Self.points, center: center,
        "k=\(k) query \(q)")
    }
  }

  @Test(arguments: [0.0, 1_000, 50_000, 500_000, 5_000_000, 20_100_000])
  func withinRadiusMatchesBruteForce(radius: Double) {
    // Large radii return most points; fewer queries keep the debug run fast.
    let step = radius >= 5_000_000 ? 20 : 1
    for q in stride(from: 0, to: Self.queries.count, by: step) {
      let center = Self.queries[q]
      let found = Self.tree.within(.meters(radius), of: center)
      let expected = Self.expected[q].within(radius)
      expectSameNeighbors(
        found, expected, points: Self.points, center: center, "radius \(radius) query \(q)")
    }
  }

  @Test(arguments: [10, 100])
  func nearestWithinLimitMatchesBruteForce(k: Int) {
    for (q, center) in Self.queries.enumerated() {
      let limit = Distance.kilometers(Double(q % 7) * 150)
      let found = Self.tree.nearest(k, to: center, within: limit)
      let expected = Self.expected[q].nearest(k).filter { $0.distance <= limit }
      expectSameNeighbors(found, expected, points: Self.points, center: center, "query \(q)")
    }
  }

  /// A radius equal to the exact distance of some point includes that point (the boundary is
  /// exact with respect to haversine).
  @Test func radiusBoundaryIsInclusiveAndExact() {
    for (q, center) in Self.queries.prefix(100).enumerated() {
      // Full sorts are slow in debug builds: the far ranks on a few queries only.
      let ranks = q < 10 ? [0, 5, 50, 500, 5_000, 9_999] : [0, 5, 50, 500]
      let sorted =
        q < 10 ? Self.expected[q].meters.sorted() : Self.expected[q].nearest(501).map(\.distance.meters)
      for rank in ranks {
        let boundary = Distance(meters: sorted[rank])
        let found = Self.tree.within(boundary, of: center)
        let expected = Self.expected[q].within(boundary.meters)
        #expect(found.count == expected.count, "query \(q) rank \(rank)")
        #expect(found.map(\.index).sorted() == expected.map(\.index).sorted(), "query \(q) rank \(rank)")
      }
    }
  }

  static let boxes: [GeoBox] = {
    var rng = SplitMix64(seed: 7)
    var boxes: [GeoBox] = []
    for _ in 0..<150 {
      // Random sizes from tiny to most of the globe; half of them cross the antimeridian.
      let west = rng.uniform(-180, 180)
      let east = rng.uniform(-180, 180)
      let a = rng.uniform(-90, 90)
      let b = rng.uniform(-90, 90)
      boxes.append(try! GeoBox(west: west, south: min(a, b), east: east, north: max(a, b)))
      let w = rng.uniform(-180, 180)
      let width = rng.uniform(0, 20)
      let e = w + width > 180 ? w + width - 360 : w + width
      let s = rng.uniform(-90, 80)
      boxes.append(try! GeoBox(west: w, south: s, east: e, north: min(90, s + rng.uniform(0, 10))))
    }
    let fixed: [(Double, Double, Double, Double)] = [
      (-180, -90, 180, 90),  // the whole globe
      (170, -10, -170, 10),  // across the antimeridian
      (179, -90, -179, 90),  // a thin band across the antimeridian, pole to pole
      (-180, 80, 180, 90),  // the north polar cap
      (-180, -90, 180, -80),  // the south polar cap
      (10, 85, 20, 90),  // a wedge touching the north pole
      (-20, -90, -10, -85),  // a wedge touching the south pole
      (150, 70, -150, 90),  // across the antimeridian, touching the pole
      (0, -90, 0, 90),  // one meridian
      (180, -90, -180, 90),  // the antimeridian itself
      (-180, -5, -180, 5),
      (-90, -45, 90, 45),  // exactly 180° wide
      (90, -45, -90, 45),  // 180° wide across the antimeridian
      (-100, -45, 100, 45),  // more than 180° wide
      (100, -45, -100, 45),  // more than 180° wide across the antimeridian
      (0, 0, 0, 0),
    ]
    for (w, s, e, n) in fixed { boxes.append(try! GeoBox(west: w, south: s, east: e, north: n)) }
    return boxes
  }()

  @Test func boxMatchesBruteForce() {
    for box in Self.boxes {
      let found = Self.tree.within(box)
      let expected = Self.points.indices.filter { box.contains(Self.points[$0]) }
      #expect(found == expected, "box \(box)")
      // Unordered: the same points, each once, in the tree's order.
      #expect(Self.tree.within(box, ordered: false).sorted() == expected, "box \(box), unordered")
    }
  }

  @Test func boxesAroundDataPointsIncludeTheirEdges() throws {
    // Boxes whose edges pass exactly through data points.
    for i in stride(from: 0, to: Self.points.count, by: 97) {
      let p = Self.points[i]
      let box = try GeoBox(
        west: p.longitude, south: p.latitude, east: min(180, p.longitude + 3),
        north: min(90, p.latitude + 3))
      let found = Self.tree.within(box)
      #expect(found.contains(i))
      #expect(found == Self.points.indices.filter { box.contains(Self.points[$0]) })
      let box2 = try GeoBox(
        west: max(-180, p.longitude - 3), south: max(-90, p.latitude - 3), east: p.longitude,
        north: p.latitude)
      #expect(Self.tree.within(box2) == Self.points.indices.filter { box2.contains(Self.points[$0]) })
    }
  }

  /// A predicate matching 1% of the points: results equal brute force over the filtered set.
  @Test(arguments: [1, 10, 100])
  func filteredNearestMatchesBruteForce(k: Int) {
    let isIncluded: (Int) -> Bool = { ($0 &* 2_654_435_761) % 100 == 3 }
    for (q, center) in Self.queries.enumerated() where q % 4 == 0 {
      let found = Self.tree.nearest(k, to: center, where: isIncluded)
      let expected = Self.expected[q].nearest(k, where: isIncluded)
      #expect(found.count == min(k, Self.points.indices.filter(isIncluded).count))
      expectSameNeighbors(found, expected, points: Self.points, center: center, "query \(q)")
    }
  }

  @Test func filteredRadiusAndBoxMatchBruteForce() {
    let isIncluded: (Int) -> Bool = { ($0 &* 2_654_435_761) % 100 == 3 }
    for (q, center) in Self.queries.enumerated() where q % 4 == 0 {
      let found = Self.tree.within(.kilometers(3_000), of: center, where: isIncluded)
      let expected = Self.expected[q].within(3_000_000, where: isIncluded)
      expectSameNeighbors(found, expected, points: Self.points, center: center, "query \(q)")
    }
    for box in Self.boxes {
      let found = Self.tree.within(box, where: isIncluded)
      #expect(found == Self.points.indices.filter { isIncluded($0) && box.contains(Self.points[$0]) })
    }
  }

  @Test func lazySequencePrefixEqualsNearest() {
    for (q, center) in Self.queries.enumerated() where q % 5 == 0 {
      let prefix = Array(Self.tree.byDistance(from: center).prefix(10))
      #expect(prefix == Self.tree.nearest(10, to: center), "query \(q)")
      expectSameNeighbors(
        prefix, Self.expected[q].nearest(10), points: Self.points, center: center)
    }
  }

  @Test func lazySequenceVisitsEveryPointInOrder() {
    for q in [0, 1, 2, 3] {
      let center = Self.queries[q]
      let all = Array(Self.tree.byDistance(from: center))
      expectSameNeighbors(
        all, Self.expected[q].within(.infinity), points: Self.points, center: center, "query \(q)")
    }
  }

  /// Leaf sizes from 1 up, and point counts that leave leaves uneven or empty.
  @Test(arguments: [1, 2, 3, 7, 16, 32, 64])
  func smallTreesOfEveryShape(leafSize: Int) {
    var rng = SplitMix64(seed: UInt64(leafSize))
    for count in [0, 1, 2, 3, 5, 17, 33, 100, 257] {
      let points = rng.coordinates(count)
      let tree = KDTree(coordinates: points, leafSize: leafSize)
      #expect(tree.count == count)
      for _ in 0..<10 {
        let center = rng.coordinate()
        let expected = bruteForce(points, from: center)
        expectSameNeighbors(
          tree.nearest(5, to: center), Array(expected.prefix(5)), points: points, center: center)
        expectSameNeighbors(
          tree.nearest(count + 3, to: center), expected, points: points, center: center)
        expectSameNeighbors(Array(tree.byDistance(from: center)), expected, points: points, center: center)
        let radius = Distance.kilometers(rng.uniform(0, 8_000))
        expectSameNeighbors(
          tree.within(radius, of: center), expected.filter { $0.distance <= radius }, points: points,
          center: center)
      }
      let box = try! GeoBox(west: 100, south: -60, east: -30, north: 70)
      #expect(tree.within(box) == points.indices.filter { box.contains(points[$0]) })
    }
  }
}
