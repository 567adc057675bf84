import Testing

@testable import GeoIndex

@Suite struct DistanceTests {
  @Test(arguments: [
    ("500m", 500.0), ("2km", 2_000), ("1.5mi", 2_414.016), ("300ft", 91.44), ("250", 250),
    ("0", 0), ("2 km", 2_000), ("1.5 MI", 2_414.016), ("10metres", 10), ("3kilometers", 3_000),
    ("0.5", 0.5), ("1e3", 1_000), ("1e3m", 1_000),
  ])
  func parses(_ text: String, meters: Double) throws {
    let distance = try Distance(parsing: text)
    #expect(abs(distance.meters - meters) < 1e-9)
  }

  @Test(arguments: [
    "", "km", "-5m", "5 parsecs", "1.2.3km", "nan", "inf", "m5", "5kmm",
    // Finite numbers that overflow to +∞ in metres.
    "1e308mi", "1e308km", "1.7976931348623157e308mi",
  ])
  func refuses(_ text: String) {
    #expect(throws: DistanceParseError.self) { try Distance(parsing: text) }
  }

  @Test func unitConversions() throws {
    #expect(Distance.kilometers(2).meters == 2_000)
    #expect(Distance.miles(1).meters == 1_609.344)
    #expect(Distance.meters(1_609.344).miles == 1)
    #expect(Distance.meters(1_500).value(in: .kilometers) == 1.5)
    #expect(Distance.meters(1) < Distance.meters(2))
    #expect(DistanceUnit.miles.metersPerUnit == 1_609.344)
    #expect(DistanceUnit.feet.metersPerUnit == 0.3048)
    #expect(try Distance(parsing: "1e308m").meters == 1e308)
  }

  @Test func oneDegreeOfLatitude() {
    // 2πR / 360 on R = 6,371,008.8 m.
    let a = Coordinate(uncheckedLatitude: 10, longitude: 30)
    let b = Coordinate(uncheckedLatitude: 11, longitude: 30)
    #expect(abs(a.distance(to: b).meters - 111_195.08) < 0.01)
    // One degree of longitude on the equator is the same.
    let c = Coordinate(uncheckedLatitude: 0, longitude: 179.5)
    let d = Coordinate(uncheckedLatitude: 0, longitude: -179.5)
    #expect(abs(c.distance(to: d).meters - 111_195.08) < 0.01)
  }

  @Test func antipodesArePiR() {
    let halfCircumference = Double.pi * earthMeanRadiusMeters
    let pairs: [(Coordinate, Coordinate)] = [
      (.init(uncheckedLatitude: 0, longitude: 0), .init(uncheckedLatitude: 0, longitude: 180)),
      (.init(uncheckedLatitude: 90, longitude: 0), .init(uncheckedLatitude: -90, longitude: 0)),
      (.init(uncheckedLatitude: 47.6, longitude: -122.3), .init(uncheckedLatitude: -47.6, longitude: 57.7)),
    ]
    for (a, b) in pairs {
      #expect(abs(a.distance(to: b).meters - halfCircumference) < 1e-3)
    }
  }

  @Test func distanceIsSymmetricAndZeroToItself() {
    var rng = SplitMix64(seed: 1)
    for _ in 0..<1_000 {
      let a = rng.coordinate()
      let b = rng.coordinate()
      #expect(a.distance(to: a).meters == 0)
      #expect(abs(a.distance(to: b).meters - b.distance(to: a).meters) < 1e-6)
    }
    // -180 and 180 are one meridian.
    let west = Coordinate(uncheckedLatitude: 12, longitude: -180)
    let east = Coordinate(uncheckedLatitude: 12, longitude: 180)
    #expect(west.distance(to: east).meters < 1e-6)
  }

  @Test func unitVectorIsUnitAndPointsTheRightWay() {
    let north = Coordinate(uncheckedLatitude: 90, longitude: 40).unitVector
    #expect(abs(north.z - 1) < 1e-15)
    let east = Coordinate(uncheckedLatitude: 0, longitude: 90).unitVector
    #expect(abs(east.y - 1) < 1e-15)
    var rng = SplitMix64(seed: 2)
    for _ in 0..<100 {
      let v = rng.coordinate().unitVector
      #expect(abs(v.x * v.x + v.y * v.y + v.z * v.z - 1) < 1e-15)
    }
  }
}
