import Testing

@testable import GeoIndex

/// The best-first nearest search on the paths the other tests reach rarely: a node queue that
/// outgrows its stack buffer, leaves larger than the stack buffer of nearby points, a predicate
/// on its own and through the public overloads, and ties at equal distances.
@Suite struct KDTreeBestFirstTests {
  static let points: [Coordinate] = {
    var rng = SplitMix64(seed: 0xBE57)
    // Every tenth point repeats an earlier one: exact ties at every distance.
    var points = rng.coordinates(12_000)
    for i in stride(from: 10, to: points.count, by: 10) { points[i] = points[Int(rng.next() % UInt64(i))] }
    return points
  }()

  /// Rare matches and large k make the search visit hundreds of leaves, so the node queue grows
  /// past its first 64 entries; the answer must still be brute force's, ties in index order.
  @Test(arguments: [(1, 1_000), (10, 997), (600, 7), (3_000, 1)])
  func manyLeavesMatchBruteForce(k: Int, every: Int) {
    let tree = KDTree(coordinates: Self.points)
    var rng = SplitMix64(seed: UInt64(k * 7 + every))
    for _ in 0..<6 {
      let center = rng.coordinate()
      let isIncluded = { (i: Int) in i % every == 0 }
      let expected = Array(bruteForce(Self.points, from: center, where: isIncluded).prefix(k))
      #expect(tree.nearest(k, to: center, where: isIncluded) == expected)
      if every == 1 { #expect(tree.nearest(k, to: center) == expected) }
    }
  }

  /// Leaves of up to 300 points, beyond the stack buffer for one leaf's nearby points.
  @Test(arguments: [33, 64, 300])
  func largeLeavesMatchBruteForce(leafSize: Int) {
    let tree = KDTree(coordinates: Self.points, leafSize: leafSize)
    var rng = SplitMix64(seed: UInt64(leafSize))
    for _ in 0..<6 {
      let center = rng.coordinate()
      let expected = bruteForce(Self.points, from: center)
      #expect(tree.nearest(25, to: center) == Array(expected.prefix(25)))
      let odd = bruteForce(Self.points, from: center, where: { $0 % 2 == 1 })
      #expect(tree.nearest(25, to: center, where: { $0 % 2 == 1 }) == Array(odd.prefix(25)))
    }
  }

  /// The overload without a predicate and the one with an always-true predicate agree, with and
  /// without a distance limit (whose boundary is decided by haversine).
  @Test func overloadsAgree() {
    let tree = KDTree(coordinates: Self.points)
    var rng = SplitMix64(seed: 0x0E4)
    for _ in 0..<50 {
      let center = rng.coordinate()
      let k = Int(rng.next() % 40) + 1
      let limit = Distance.kilometers(rng.uniform(0, 900))
      #expect(tree.nearest(k, to: center) == tree.nearest(k, to: center, where: { _ in true }))
      let limited = tree.nearest(k, to: center, within: limit)
      #expect(limited == tree.nearest(k, to: center, within: limit, where: { _ in true }))
      let expected = bruteForce(Self.points, from: center).prefix { $0.distance <= limit }.prefix(k)
      #expect(limited == Array(expected))
    }
  }

  /// The far children of a descent are queued only after its leaf is scanned, and only those
  /// within the bound the leaf left. Deep trees (leaves of one to three points: descents of up to
  /// fourteen levels) with k from 1 to 60, rare and common matches and distance limits: every
  /// child that can still hold an answer must be queued, or these differ from brute force.
  @Test(arguments: [1, 2, 3])
  func deferredFarChildrenMatchBruteForce(leafSize: Int) {
    let points = Array(Self.points.prefix(4_000))
    let tree = KDTree(coordinates: points, leafSize: leafSize)
    var rng = SplitMix64(seed: UInt64(0xDEF0 + leafSize))
    for query in 0..<24 {
      // Half the queries on data points: exact ties at distance zero.
      let center = query % 2 == 0 ? rng.coordinate() : points[Int(rng.next() % UInt64(points.count))]
      let k = [1, 2, 10, 60][query % 4]
      let every = [1, 3, 50][query % 3]
      let isIncluded = { (i: Int) in i % every == 0 }
      let all = bruteForce(points, from: center, where: isIncluded)
      #expect(tree.nearest(k, to: center, where: isIncluded) == Array(all.prefix(k)))
      let limit = Distance.kilometers(rng.uniform(0, 2_000))
      #expect(
        tree.nearest(k, to: center, within: limit, where: isIncluded)
          == Array(all.prefix { $0.distance <= limit }.prefix(k)))
    }
  }

  /// Queries on the data points themselves: the exact duplicates come first, in index order.
  @Test func duplicatesComeInIndexOrder() {
    let tree = KDTree(coordinates: Self.points)
    for i in stride(from: 10, to: 2_000, by: 170) {
      let center = Self.points[i]
      let found = tree.nearest(8, to: center)
      #expect(found == Array(bruteForce(Self.points, from: center).prefix(8)))
      let zeros = found.prefix { $0.distance.meters == 0 }.map(\.index)
      #expect(zeros == zeros.sorted() && zeros.contains(i))
    }
  }
}
