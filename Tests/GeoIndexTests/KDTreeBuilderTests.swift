import Testing

@testable import GeoIndex

/// The build: the unit vectors of `sinCos`, and splits that are true median splits whatever the
/// keys (sampled pivots and block partitions on large nodes, equal keys everywhere).
@Suite struct KDTreeBuilderTests {
  @Test func sinCosIsWithinOneUlpOfThePlatform() {
    var rng = SplitMix64(seed: 0x51C0)
    var angles: [Double] = [
      0, -0.0, .pi, -.pi, .pi / 2, -.pi / 2, .pi / 4, -.pi / 4, 3 * .pi / 4, 1e-300, -1e-9,
    ]
    for degrees in stride(from: -180.0, through: 180, by: 0.5) { angles.append(degrees * (.pi / 180)) }
    for _ in 0..<20_000 { angles.append(rng.uniform(-.pi, .pi)) }
    for pair in stride(from: 0, to: angles.count - 1, by: 2) {
      let (sine, cosine) = sinCos(SIMD2(angles[pair], angles[pair + 1]))
      for (lane, x) in [angles[pair], angles[pair + 1]].enumerated() {
        let s = _sin(x)
        let c = _cos(x)
        #expect(abs(sine[lane] - s) <= s.ulp, "sin \(x): \(sine[lane]) vs \(s)")
        #expect(abs(cosine[lane] - c) <= c.ulp, "cos \(x): \(cosine[lane]) vs \(c)")
      }
    }
  }

  @Test func unitVectorsAreTheCoordinatesOwn() {
    var rng = SplitMix64(seed: 0x0E17)
    let points =
      rng.coordinates(3_000) + [
        Coordinate(uncheckedLatitude: 90, longitude: 180),
        Coordinate(uncheckedLatitude: -90, longitude: -180),
        Coordinate(uncheckedLatitude: 0, longitude: 0), Coordinate(uncheckedLatitude: 0, longitude: -90),
      ]
    let tree = KDTree(coordinates: points)
    for p in 0..<tree.count {
      let v = points[Int(tree.ids[p])].unitVector
      #expect(
        abs(tree.xs[p] - v.x) <= 2.3e-16 && abs(tree.ys[p] - v.y) <= 2.3e-16
          && abs(tree.zs[p] - v.z) <= 2.3e-16)
    }
  }

  /// Sets that put many points on one key: few distinct coordinates, one meridian, one parallel,
  /// all but one point the same.
  static func awkwardSets() -> [[Coordinate]] {
    var rng = SplitMix64(seed: 0xD0B1)
    let fewDistinct = (0..<5_000).map { _ in
      Coordinate(
        uncheckedLatitude: Double(rng.next() % 3) * 20 - 20, longitude: Double(rng.next() % 5) * 30 - 60)
    }
    let meridian = (0..<3_000).map { _ in Coordinate(uncheckedLatitude: rng.uniform(-80, 80), longitude: 10) }
    let parallel = (0..<3_000).map { _ in Coordinate(uncheckedLatitude: 45, longitude: rng.uniform(-180, 180))
    }
    var allButOne = Array(repeating: Coordinate(uncheckedLatitude: 1, longitude: 2), count: 2_000)
    allButOne[1_234] = Coordinate(uncheckedLatitude: -1, longitude: -2)
    return [fewDistinct, meridian, parallel, allButOne, rng.coordinates(20_000)]
  }

  @Test(arguments: 0..<5)
  func splitsAreMedianSplits(set: Int) throws {
    let points = Self.awkwardSets()[set]
    let tree = KDTree(coordinates: points)
    try tree.validateStructure()
    let n = tree.count
    let firstLeaf = (1 << tree.depth) - 1
    // The positions of a node: the leaves below it, in order.
    func range(_ node: Int) -> Range<Int> {
      var first = node
      var last = node
      while first < firstLeaf {
        first = 2 * first + 1
        last = 2 * last + 2
      }
      return ((first - firstLeaf) * n) >> tree.depth..<((last - firstLeaf + 1) * n) >> tree.depth
    }
    let axes = [tree.xs, tree.ys, tree.zs]
    for node in 0..<firstLeaf {
      let left = range(2 * node + 1)
      let right = range(2 * node + 2)
      guard !left.isEmpty, !right.isEmpty else { continue }
      // Some axis separates the halves: nothing on the left above anything on the right.
      let separated = axes.contains { keys in
        left.map { keys[$0] }.max()! <= right.map { keys[$0] }.min()!
      }
      #expect(separated, "node \(node) of set \(set)")
    }
    var rng = SplitMix64(seed: 0xA11 + UInt64(set))
    for _ in 0..<20 {
      let center = rng.coordinate()
      let expected = bruteForce(points, from: center)
      #expect(tree.nearest(12, to: center) == Array(expected.prefix(12)))
    }
  }
}
