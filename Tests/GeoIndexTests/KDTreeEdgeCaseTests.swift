import Testing

@testable import GeoIndex

/// Clusters at the antimeridian and the poles, duplicates, and the degenerate cases.
@Suite struct KDTreeEdgeCaseTests {
  /// Checks every query kind on `points` against brute force from each of `centers`.
  func checkAll(_ points: [Coordinate], centers: [Coordinate], boxes: [GeoBox], leafSize: Int = 16) {
    let tree = KDTree(coordinates: points, leafSize: leafSize)
    for center in centers {
      let expected = bruteForce(points, from: center)
      for k in [1, 10, 100] {
        expectSameNeighbors(
          tree.nearest(k, to: center), Array(expected.prefix(k)), points: points, center: center,
          "k=\(k) center \(center)")
      }
      for radius in [0.0, 10, 100, 500, 1_000, 2_000, 50_000, 25_000_000] {
        expectSameNeighbors(
          tree.within(.meters(radius), of: center), expected.filter { $0.distance.meters <= radius },
          points: points, center: center, "radius \(radius) center \(center)")
      }
      expectSameNeighbors(
        Array(tree.byDistance(from: center)), expected, points: points, center: center,
        "lazy center \(center)")
    }
    for box in boxes {
      #expect(tree.within(box) == points.indices.filter { box.contains(points[$0]) }, "box \(box)")
    }
  }

  @Test func clusterStraddlingTheAntimeridian() throws {
    var rng = SplitMix64(seed: 180)
    var points: [Coordinate] = []
    for _ in 0..<2_000 {
      let latitude = rng.uniform(-0.01, 0.01)
      let offset = rng.uniform(0, 0.01)
      // 179.99x and -179.99x, and a few exactly on ±180.
      let longitude = rng.next() % 2 == 0 ? 180 - offset : -180 + offset
      points.append(Coordinate(uncheckedLatitude: latitude, longitude: longitude))
    }
    points.append(Coordinate(uncheckedLatitude: 0, longitude: 180))
    points.append(Coordinate(uncheckedLatitude: 0, longitude: -180))
    points.append(Coordinate(uncheckedLatitude: 0.001, longitude: 180))
    let centers = [
      Coordinate(uncheckedLatitude: 0, longitude: 180),
      Coordinate(uncheckedLatitude: 0, longitude: -180),
      Coordinate(uncheckedLatitude: 0.002, longitude: 179.999),
      Coordinate(uncheckedLatitude: -0.003, longitude: -179.9995),
      Coordinate(uncheckedLatitude: 0, longitude: 179.95),
    ]
    let boxes = [
      try GeoBox(west: 179.995, south: -0.005, east: -179.995, north: 0.005),
      try GeoBox(west: 179.99, south: -1, east: 180, north: 1),
      try GeoBox(west: -180, south: -1, east: -179.995, north: 1),
      try GeoBox(west: -179.995, south: -1, east: 179.995, north: 1),  // everything else
      try GeoBox(west: 180, south: -1, east: -180, north: 1),  // only the antimeridian
    ]
    checkAll(points, centers: centers, boxes: boxes)

    // The nearest neighbour across the antimeridian is found.
    let tree = KDTree(coordinates: points)
    let east = Coordinate(uncheckedLatitude: 0, longitude: 179.99999)
    let nearest = try #require(tree.nearest(1, to: east).first)
    #expect(nearest.distance.meters < 5)
  }

  @Test func clustersAtBothPoles() throws {
    var rng = SplitMix64(seed: 90)
    var points: [Coordinate] = []
    for _ in 0..<1_500 {
      // Within 1 km of a pole: 1 km is about 0.009°.
      points.append(
        Coordinate(uncheckedLatitude: 90 - rng.uniform(0, 0.009), longitude: rng.uniform(-180, 180)))
      points.append(
        Coordinate(uncheckedLatitude: -90 + rng.uniform(0, 0.009), longitude: rng.uniform(-180, 180)))
    }
    points.append(Coordinate(uncheckedLatitude: 90, longitude: 0))
    points.append(Coordinate(uncheckedLatitude: 90, longitude: 123))
    points.append(Coordinate(uncheckedLatitude: -90, longitude: -45))
    let centers = [
      Coordinate(uncheckedLatitude: 90, longitude: 0),
      Coordinate(uncheckedLatitude: 90, longitude: 77),
      Coordinate(uncheckedLatitude: -90, longitude: 180),
      Coordinate(uncheckedLatitude: 89.995, longitude: -179.9),
      Coordinate(uncheckedLatitude: -89.999, longitude: 45),
      Coordinate(uncheckedLatitude: 0, longitude: 0),
    ]
    let boxes = [
      try GeoBox(west: -180, south: 89.995, east: 180, north: 90),
      try GeoBox(west: 0, south: 89.99, east: 90, north: 90),
      try GeoBox(west: 170, south: 89.99, east: -170, north: 90),
      try GeoBox(west: -10, south: -90, east: 10, north: -89.995),
      try GeoBox(west: 100, south: -90, east: -100, north: -89.9),
      try GeoBox(west: 0, south: -90, east: 0, north: 90),
    ]
    checkAll(points, centers: centers, boxes: boxes)
  }

  @Test(arguments: [1, 4, 16])
  func duplicatesTieByIndex(leafSize: Int) {
    // 600 points at 6 places, interleaved so equal points have scattered indices.
    let places = [
      Coordinate(uncheckedLatitude: 47.6062, longitude: -122.3321),
      Coordinate(uncheckedLatitude: 47.6097, longitude: -122.3331),
      Coordinate(uncheckedLatitude: -33.8688, longitude: 151.2093),
      Coordinate(uncheckedLatitude: 0, longitude: 180),
      Coordinate(uncheckedLatitude: 90, longitude: 0),
      Coordinate(uncheckedLatitude: 47.6062, longitude: -122.3321),
    ]
    let points = (0..<600).map { places[($0 * 7) % places.count] }
    let tree = KDTree(coordinates: points, leafSize: leafSize)
    for center in places {
      let expected = bruteForce(points, from: center)
      for k in [1, 7, 50, 150, 599, 600, 1_000] {
        // Identical points have identical distances: exact order, no tolerance.
        #expect(tree.nearest(k, to: center) == Array(expected.prefix(k)))
      }
      #expect(Array(tree.byDistance(from: center)) == expected)
      let zero = tree.within(.meters(0), of: center)
      #expect(zero == expected.filter { $0.distance.meters == 0 })
      #expect(zero.allSatisfy { points[$0.index] == center })
      #expect(zero.map(\.index) == zero.map(\.index).sorted())
      #expect(tree.within(.kilometers(1), of: center) == expected.filter { $0.distance.meters <= 1_000 })
    }
    let identical = KDTree(coordinates: Array(repeating: places[2], count: 100), leafSize: leafSize)
    #expect(identical.nearest(5, to: places[2]).map(\.index) == [0, 1, 2, 3, 4])
    #expect(identical.nearest(5, to: places[0]).map(\.index) == [0, 1, 2, 3, 4])
    #expect(identical.within(.meters(0), of: places[2]).map(\.index) == Array(0..<100))
  }

  @Test func radiusZeroFindsOnlyExactDuplicates() {
    var rng = SplitMix64(seed: 0)
    var points = rng.coordinates(1_000)
    let center = points[17]
    points.append(center)
    // A millimetre away is not a duplicate.
    points.append(Coordinate(uncheckedLatitude: center.latitude + 1e-8, longitude: center.longitude))
    let tree = KDTree(coordinates: points)
    #expect(tree.within(.meters(0), of: center).map(\.index) == [17, 1_000])
    #expect(tree.within(.meters(0), of: rng.coordinate()).isEmpty)
    #expect(tree.nearest(10, to: center, within: .meters(0)).map(\.index) == [17, 1_000])
  }

  @Test func emptyTree() throws {
    let tree = KDTree(coordinates: [])
    let here = Coordinate(uncheckedLatitude: 1, longitude: 2)
    #expect(tree.count == 0)
    #expect(tree.nearest(10, to: here).isEmpty)
    #expect(tree.within(.kilometers(30_000), of: here).isEmpty)
    #expect(tree.within(try GeoBox(west: -180, south: -90, east: 180, north: 90)).isEmpty)
    #expect(Array(tree.byDistance(from: here)).isEmpty)
  }

  @Test func kLargerThanCountAndNonPositiveK() {
    var rng = SplitMix64(seed: 3)
    let points = rng.coordinates(37)
    let tree = KDTree(coordinates: points)
    let center = rng.coordinate()
    let expected = bruteForce(points, from: center)
    expectSameNeighbors(tree.nearest(1_000, to: center), expected, points: points, center: center)
    expectSameNeighbors(tree.nearest(Int.max, to: center), expected, points: points, center: center)
    #expect(tree.nearest(0, to: center).isEmpty)
    #expect(tree.nearest(-1, to: center).isEmpty)
    #expect(tree.within(.meters(-1), of: center).isEmpty)
    #expect(tree.within(.meters(.nan), of: center).isEmpty)
    #expect(tree.nearest(5, to: center, within: .meters(-1)).isEmpty)
  }

  @Test func radiusBeyondHalfTheCircumferenceFindsEverything() {
    var rng = SplitMix64(seed: 5)
    let points = rng.coordinates(500)
    let tree = KDTree(coordinates: points)
    let center = rng.coordinate()
    let halfCircumference = Double.pi * earthMeanRadiusMeters
    for radius in [halfCircumference, halfCircumference + 1, 1e9, .infinity] {
      #expect(tree.within(.meters(radius), of: center).count == 500)
    }
    // Every point of a single-point tree is found from its antipode.
    let single = KDTree(coordinates: [Coordinate(uncheckedLatitude: 10, longitude: 20)])
    let antipode = Coordinate(uncheckedLatitude: -10, longitude: -160)
    let d = antipode.distance(to: single.coordinates[0])
    #expect(single.within(d, of: antipode).count == 1)
    #expect(single.nearest(1, to: antipode, within: d).count == 1)
  }

  /// The predicate runs inside the search: a rare match is still found, and the predicate is
  /// not asked about far more points than needed.
  @Test func predicateRunsInsideTheSearch() {
    var rng = SplitMix64(seed: 11)
    let points = rng.coordinates(20_000)
    let tree = KDTree(coordinates: points)
    let center = rng.coordinate()
    let only = 12_345
    let found = tree.nearest(10, to: center, where: { $0 == only })
    #expect(found.map(\.index) == [only])
    var calls = 0
    let ten = tree.nearest(
      10, to: center,
      where: { _ in
        calls += 1; return true
      })
    #expect(ten.count == 10)
    #expect(calls < 400)
    var lazyCount = 0
    for neighbor in tree.byDistance(from: center) where neighbor.index % 100 == 0 {
      lazyCount += 1
      if lazyCount == 10 { break }
    }
    #expect(lazyCount == 10)
    let expected = bruteForce(points, from: center, where: { $0 % 100 == 0 })
    let lazy = Array(tree.byDistance(from: center).lazy.filter { $0.index % 100 == 0 }.prefix(10))
    expectSameNeighbors(lazy, Array(expected.prefix(10)), points: points, center: center)
    expectSameNeighbors(
      tree.nearest(10, to: center, where: { $0 % 100 == 0 }), Array(expected.prefix(10)), points: points,
      center: center)
  }

  @Test func coordinatesAndCountAreKept() {
    var rng = SplitMix64(seed: 8)
    let points = rng.coordinates(100)
    let tree = KDTree(coordinates: points, leafSize: 8)
    #expect(Array(tree.coordinates) == points)
    #expect(tree.count == 100)
    #expect(tree.ids.sorted() == Array(0..<100))
  }
}
