import Testing

@testable import GeoIndex

/// SplitMix64: a small deterministic generator, so every run sees the same points.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in 0..<1 with 53 random bits.
  mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

  mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

  /// A point uniform on the sphere.
  mutating func coordinate() -> Coordinate {
    let z = uniform(-1, 1)
    let latitude = _asin(z) * (180 / .pi)
    return Coordinate(uncheckedLatitude: latitude, longitude: uniform(-180, 180))
  }

  mutating func coordinates(_ count: Int) -> [Coordinate] { (0..<count).map { _ in coordinate() } }
}

/// Brute force: every included point with its haversine distance, by (distance, index).
func bruteForce(
  _ points: [Coordinate], from center: Coordinate, where isIncluded: (Int) -> Bool = { _ in true }
) -> [Neighbor] {
  var all: [Neighbor] = []
  all.reserveCapacity(points.count)
  for i in points.indices where isIncluded(i) {
    all.append(Neighbor(index: i, distance: center.distance(to: points[i])))
  }
  all.sort(by: Neighbor.precedes)
  return all
}

/// Brute force for one query, with the haversine distance to every point computed once; answers
/// sort only the points they need (a full sort of 10,000 per query is slow in debug builds).
struct BruteForce {
  let points: [Coordinate]
  let center: Coordinate
  let meters: [Double]
  /// The nearest `cached` points, sorted, so most answers need no pass over all points.
  let top: [Neighbor]
  static let cached = 256

  init(_ points: [Coordinate], from center: Coordinate) {
    self.points = points
    self.center = center
    let meters = points.map { center.distance(to: $0).meters }
    self.meters = meters
    self.top = Self.nearest(Self.cached, meters: meters, where: nil)
  }

  /// Every included point within `radius` metres (inclusive), by (distance, index).
  func within(_ radius: Double, where isIncluded: ((Int) -> Bool)? = nil) -> [Neighbor] {
    if isIncluded == nil, top.count == Self.cached, radius < top[top.count - 1].distance.meters {
      return Array(top.prefix { $0.distance.meters <= radius })
    }
    return Self.within(radius, meters: meters, where: isIncluded)
  }

  /// The `k` nearest included points, by (distance, index).
  func nearest(_ k: Int, where isIncluded: ((Int) -> Bool)? = nil) -> [Neighbor] {
    if isIncluded == nil, k <= top.count { return Array(top.prefix(k)) }
    return Self.nearest(k, meters: meters, where: isIncluded)
  }

  static func within(_ radius: Double, meters: [Double], where isIncluded: ((Int) -> Bool)?) -> [Neighbor] {
    var found: [Neighbor] = []
    for i in meters.indices where meters[i] <= radius && isIncluded?(i) ?? true {
      found.append(Neighbor(index: i, distance: Distance(meters: meters[i])))
    }
    found.sort(by: Neighbor.precedes)
    return found
  }

  /// All points within a radius that doubles until it holds `k` of them, sorted.
  static func nearest(_ k: Int, meters: [Double], where isIncluded: ((Int) -> Bool)?) -> [Neighbor] {
    var radius = 100_000.0
    while radius < 2.1e7 {
      var count = 0
      for i in meters.indices where meters[i] <= radius && isIncluded?(i) ?? true { count += 1 }
      if count >= k { break }
      radius *= 2
    }
    return Array(within(radius, meters: meters, where: isIncluded).prefix(k))
  }
}

/// Checks that `actual` is `expected`, position by position. A different point is allowed only
/// where the two haversine distances differ, by less than a micrometre; where they are equal
/// (bitwise) the index must match, since ties break by index. Distances must be exact haversine
/// values, in (distance, index) order.
func expectSameNeighbors(
  _ actual: [Neighbor], _ expected: [Neighbor], points: [Coordinate], center: Coordinate,
  _ context: @autoclosure () -> String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
  guard actual.count == expected.count else {
    Issue.record(
      "count \(actual.count) != expected \(expected.count) \(context())",
      sourceLocation: sourceLocation)
    return
  }
  for i in actual.indices {
    let a = actual[i]
    let e = expected[i]
    let equalDistances = a.distance.meters.bitPattern == e.distance.meters.bitPattern
    if a.index != e.index && (equalDistances || abs(a.distance.meters - e.distance.meters) >= 1e-6) {
      Issue.record(
        "position \(i): index \(a.index) at \(a.distance.meters) m, expected \(e.index) at \(e.distance.meters) m \(context())",
        sourceLocation: sourceLocation)
      return
    }
    if a.distance != center.distance(to: points[a.index]) {
      Issue.record(
        "position \(i): distance is not the haversine value \(context())", sourceLocation: sourceLocation)
      return
    }
    if i > 0 && !Neighbor.precedes(actual[i - 1], a) {
      Issue.record(
        "position \(i): not in (distance, index) order after index \(actual[i - 1].index) \(context())",
        sourceLocation: sourceLocation)
      return
    }
  }
}
