import Testing

@testable import GeoIndex

/// Ties and near-ties: points mirrored around the query, whose haversine distances are equal or
/// differ by rounding while their chords may rank them the other way. The answers must equal brute
/// force by (haversine, index) exactly, with no tolerance.
@Suite struct KDTreeTieTests {
  /// The review's case: equal haversine distances east and west, chords differing by ~3e-19.
  @Test(arguments: [1, 2, 16])
  func equalDistancesEastAndWestBreakByIndex(leafSize: Int) {
    let points = [
      Coordinate(uncheckedLatitude: 20, longitude: 10),
      Coordinate(uncheckedLatitude: 20, longitude: 11),
      Coordinate(uncheckedLatitude: 20, longitude: 9),
    ]
    let center = Coordinate(uncheckedLatitude: 20, longitude: 10)
    let tree = KDTree(coordinates: points, leafSize: leafSize)
    #expect(center.distance(to: points[1]) == center.distance(to: points[2]))
    #expect(tree.nearest(2, to: center).map(\.index) == [0, 1])
    #expect(tree.nearest(3, to: center).map(\.index) == [0, 1, 2])
    #expect(Array(tree.byDistance(from: center).prefix(2)).map(\.index) == [0, 1])
    #expect(tree.nearest(1, to: center, where: { $0 != 0 }).map(\.index) == [1])
    let radius = center.distance(to: points[1])
    #expect(tree.within(radius, of: center).map(\.index) == [0, 1, 2])
    #expect(tree.nearest(2, to: center, within: radius).map(\.index) == [0, 1])
  }

  /// A longitude in -180...180 for any value within one turn of that range.
  static func wrapped(_ longitude: Double) -> Double {
    longitude > 180 ? longitude - 360 : (longitude < -180 ? longitude + 360 : longitude)
  }

  /// The point `dLatitude`, `dLongitude` degrees from `center`, continued over a pole when the
  /// latitude passes ±90.
  static func offset(_ center: Coordinate, _ dLatitude: Double, _ dLongitude: Double) -> Coordinate {
    var latitude = center.latitude + dLatitude
    var longitude = center.longitude + dLongitude
    if latitude > 90 {
      latitude = 180 - latitude
      longitude += 180
    } else if latitude < -90 {
      latitude = -180 - latitude
      longitude += 180
    }
    return Coordinate(uncheckedLatitude: latitude, longitude: wrapped(wrapped(longitude)))
  }

  /// A multiple of 2⁻¹⁶ degrees (about 1.7 m), so the mirrored offsets below add exactly.
  static func dyadic(_ value: Double) -> Double { (value * 65_536).rounded() / 65_536 }

  /// Query points: anywhere, at the antimeridian, near and at the poles, on the equator.
  static func centers() -> [Coordinate] {
    var rng = SplitMix64(seed: 0x71E5)
    var centers: [Coordinate] = []
    for i in 0..<120 {
      var latitude: Double
      var longitude: Double
      switch i % 6 {
      case 0:
        let c = rng.coordinate()
        (latitude, longitude) = (c.latitude, c.longitude)
      case 1:  // straddling the antimeridian
        latitude = rng.uniform(-60, 60)
        longitude = rng.next() % 2 == 0 ? rng.uniform(179, 180) : rng.uniform(-180, -179)
      case 2:  // near a pole
        latitude = (rng.next() % 2 == 0 ? 1 : -1) * rng.uniform(88.5, 90)
        longitude = rng.uniform(-180, 180)
      case 3:  // on the antimeridian, near a pole
        latitude = (rng.next() % 2 == 0 ? 1 : -1) * rng.uniform(89, 90)
        longitude = rng.next() % 2 == 0 ? 180 : -180
      case 4:  // at a pole
        latitude = rng.next() % 2 == 0 ? 90 : -90
        longitude = rng.uniform(-180, 180)
      default:  // on the equator
        latitude = 0
        longitude = rng.uniform(-180, 180)
      }
      centers.append(
        Coordinate(uncheckedLatitude: dyadic(latitude), longitude: dyadic(longitude)))
    }
    return centers
  }

  /// Points mirrored around `center` in latitude, longitude and both, at a few distances, plus
  /// duplicates of the centre and scattered points, in shuffled order.
  static func mirroredPoints(around center: Coordinate, _ rng: inout SplitMix64) -> [Coordinate] {
    var points: [Coordinate] = [center, center]
    let offsets = [
      dyadic(rng.uniform(0.0001, 0.01)), dyadic(rng.uniform(0.01, 0.5)),
      dyadic(rng.uniform(0.5, 3)), dyadic(rng.uniform(3, 40)),
    ]
    for d in offsets where d > 0 {
      for (dLatitude, dLongitude) in [
        (0, d), (0, -d), (d, 0), (-d, 0), (d, d), (d, -d), (-d, d), (-d, -d),
      ] {
        points.append(offset(center, dLatitude, dLongitude))
      }
    }
    // The same small offset on two axes: equal angles only on the equator, near ties elsewhere.
    let e = offsets[0]
    points.append(offset(center, 0, 2 * e))
    points.append(offset(center, 2 * e, 0))
    for _ in 0..<12 {
      points.append(
        offset(center, dyadic(rng.uniform(-2, 2)), dyadic(rng.uniform(-2, 2))))
    }
    points.shuffle(using: &rng)
    return points
  }

  /// The squared chord the tree ranks by.
  static func chord2(_ a: Coordinate, _ b: Coordinate) -> Double {
    let p = a.unitVector
    let q = b.unitVector
    let (dx, dy, dz) = (p.x - q.x, p.y - q.y, p.z - q.z)
    return dx * dx + dy * dy + dz * dz
  }

  @Test func mirroredPointsMatchBruteForceExactly() {
    var rng = SplitMix64(seed: 0x5E77)
    // How often the chord order disagrees with the (haversine, index) order of neighbours in
    // the expected answer: the test is only meaningful when this happens.
    var chordInversionsAtEqualDistance = 0
    var chordInversionsAtUnequalDistance = 0
    for center in Self.centers() {
      let points = Self.mirroredPoints(around: center, &rng)
      let expected = bruteForce(points, from: center)
      for (a, b) in zip(expected, expected.dropFirst()) {
        guard Self.chord2(center, points[a.index]) > Self.chord2(center, points[b.index]) else {
          continue
        }
        if a.distance == b.distance {
          chordInversionsAtEqualDistance += 1
        } else {
          chordInversionsAtUnequalDistance += 1
        }
      }
      let even = { (index: Int) in index % 2 == 0 }
      let expectedEven = bruteForce(points, from: center, where: even)
      for leafSize in [1, 3, 16] {
        let tree = KDTree(coordinates: points, leafSize: leafSize)
        let context = "center \(center) leafSize \(leafSize)"
        let lazy = Array(tree.byDistance(from: center))
        #expect(lazy == expected, "byDistance \(context)")
        for k in 0...(points.count + 1) {
          let nearest = tree.nearest(k, to: center)
          #expect(nearest == Array(expected.prefix(k)), "k=\(k) \(context)")
          #expect(
            Array(tree.byDistance(from: center).prefix(k)) == nearest,
            "byDistance prefix k=\(k) \(context)")
          #expect(
            tree.nearest(k, to: center, where: even) == Array(expectedEven.prefix(k)),
            "filtered k=\(k) \(context)")
        }
        // Radius boundaries on each tie: inclusive and exact.
        for radius in Set(expected.map(\.distance)) {
          #expect(
            tree.within(radius, of: center) == expected.filter { $0.distance <= radius },
            "radius \(radius.meters) \(context)")
          for k in [1, 2, 5] {
            #expect(
              tree.nearest(k, to: center, within: radius)
                == Array(expected.filter { $0.distance <= radius }.prefix(k)),
              "k=\(k) within \(radius.meters) \(context)")
          }
        }
      }
    }
    #expect(chordInversionsAtEqualDistance > 0)
    #expect(chordInversionsAtUnequalDistance > 0)
  }
}
