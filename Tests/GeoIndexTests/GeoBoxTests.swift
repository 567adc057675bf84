import Testing

@testable import GeoIndex

@Suite struct GeoBoxTests {
  func point(_ latitude: Double, _ longitude: Double) -> Coordinate {
    Coordinate(uncheckedLatitude: latitude, longitude: longitude)
  }

  @Test func parsesWestSouthEastNorth() throws {
    let box = try GeoBox(parsing: "-122.5, 47.5,-122.2,47.7")
    #expect(box.west == -122.5)
    #expect(box.south == 47.5)
    #expect(box.east == -122.2)
    #expect(box.north == 47.7)
    #expect(!box.crossesAntimeridian)
  }

  @Test(arguments: ["", "1,2,3", "a,b,c,d", "-181,0,0,1", "0,-91,1,1", "0,10,1,5", "0,0,1,nan"])
  func refusesBadText(_ text: String) {
    #expect(throws: GeoBoxError.self) { try GeoBox(parsing: text) }
  }

  @Test func containsIncludesEdges() throws {
    let box = try GeoBox(west: 10, south: 20, east: 30, north: 40)
    #expect(box.contains(point(20, 10)))
    #expect(box.contains(point(40, 30)))
    #expect(box.contains(point(30, 20)))
    #expect(!box.contains(point(19.999, 20)))
    #expect(!box.contains(point(30, 30.001)))
  }

  @Test func crossingTheAntimeridian() throws {
    let box = try GeoBox(west: 170, south: -10, east: -170, north: 10)
    #expect(box.crossesAntimeridian)
    #expect(box.contains(point(0, 175)))
    #expect(box.contains(point(0, -175)))
    #expect(box.contains(point(0, 180)))
    #expect(box.contains(point(0, -180)))
    #expect(!box.contains(point(0, 0)))
    #expect(!box.contains(point(0, 169)))
  }

  @Test func eitherSignOfTheAntimeridian() throws {
    let east = try GeoBox(west: 170, south: -10, east: 180, north: 10)
    #expect(east.contains(point(0, -180)))
    let west = try GeoBox(west: -180, south: -10, east: -170, north: 10)
    #expect(west.contains(point(0, 180)))
    #expect(!west.contains(point(0, 179.9)))
  }
}
