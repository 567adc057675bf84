import GeoIndex
import Testing

@testable import StoreLocator

/// The point a store mapped as a polygon gets: the centroid of its outer ring when that lies
/// inside the ring, else a point inside it, always inside the ring's bounding box. A ring that
/// crosses itself once sent a store near Berlin to another continent.
@Suite struct PolygonPointTests {
  /// The catalog of one store mapped as a Polygon with this outer ring.
  static func polygonStore(_ ring: [(Double, Double)]) throws -> Catalog {
    let positions = ring.map { "[\($0.0),\($0.1)]" }.joined(separator: ",")
    return try load(
      #"{"type":"Feature","id":"p","properties":{},"geometry":{"type":"Polygon","coordinates":[[\#(positions)]]}}"#
    )
  }

  static func expectInsideBox(
    _ point: Coordinate, _ ring: [(Double, Double)], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let longitudes = ring.map(\.0)
    let latitudes = ring.map(\.1)
    #expect(
      (longitudes.min()!...longitudes.max()!).contains(point.longitude)
        && (latitudes.min()!...latitudes.max()!).contains(point.latitude),
      "\(point) lies outside the ring's bounding box", sourceLocation: sourceLocation)
  }

  /// A bow-tie near the Brandenburg Gate: its two lobes' signed areas almost cancel, and the
  /// centroid formula put the store at longitude 120 (exit 0, only a note).
  @Test func aBowTieNearBerlinStaysInBerlin() throws {
    let ring = [(13.40, 52.50), (13.42, 52.52), (13.42, 52.50), (13.40, 52.5200001), (13.40, 52.50)]
    let catalog = try Self.polygonStore(ring)
    let point = try #require(catalog.stores.first?.coordinate)
    Self.expectInsideBox(point, ring)
    #expect(GeoJSONReader.ringPoint(ring.map { (x: $0.0, y: $0.1) }).placement == .fallback)
    let warning = try #require(catalog.diagnostics("geometry-self-intersecting").first)
    #expect(warning.severity == .warning)
    #expect(warning.storeID == "p")
    #expect(warning.message.hasPrefix("the Polygon's outer ring crosses itself: its centroid, [120.07"))
    #expect(warning.message.contains("lies outside the ring's bounding box"))
    // The time zone is inferred from the point: Berlin's, not Vancouver's or Shanghai's.
    let hours = try Catalog(
      geoJSON: Array(
        #"{"type":"Feature","id":"p","properties":{"opening_hours":"Mo-Su 08:00-20:00"},"geometry":{"type":"Polygon","coordinates":[[[13.40,52.50],[13.42,52.52],[13.42,52.50],[13.40,52.5200001],[13.40,52.50]]]}}"#
          .utf8), source: "test.geojson")
    #expect(hours.stores.first?.timezone == "Europe/Berlin")
  }

  /// A ring that zig-zags north and back, crossing itself at every step: the centroid's latitude
  /// came out beyond the pole and was clamped to it.
  @Test func aZigZagRingKeepsItsLatitude() throws {
    var ring: [(Double, Double)] = []
    for step in 0..<10 {
      ring.append((13.4 + 0.001 * Double(step % 2), 52.0 + 0.001 * Double(step)))
    }
    for step in (0..<10).reversed() {
      let nudge = step == 9 ? 1e-9 : 0
      ring.append((13.4 + 0.001 * Double(1 - step % 2) + nudge, 52.0 + 0.001 * Double(step)))
    }
    ring.append(ring[0])
    let catalog = try Self.polygonStore(ring)
    let point = try #require(catalog.stores.first?.coordinate)
    Self.expectInsideBox(point, ring)
    #expect(abs(point.latitude) < 90)
    #expect(catalog.codeCounts["geometry-self-intersecting"] == 1)
  }

  /// Ordinary outlines answer as before: the same point, to the last digit, and only the note.
  @Test func ordinaryPolygonsAreUnchanged() throws {
    for (ring, longitude, latitude) in [
      (
        [(13.3777, 52.5163), (13.3783, 52.5163), (13.3783, 52.5167), (13.3777, 52.5167), (13.3777, 52.5163)],
        13.378, 52.5165
      ),
      ([(2.29, 48.85), (2.30, 48.85), (2.295, 48.86), (2.29, 48.85)], 2.295, 48.85333333333333),
      (
        [(0.5, 0.5), (4.5, 0.5), (4.5, 2.5), (2.5, 2.5), (2.5, 4.5), (0.5, 4.5), (0.5, 0.5)],
        2.1666666666666665, 2.1666666666666665
      ),
    ] {
      let catalog = try Self.polygonStore(ring)
      let point = try #require(catalog.stores.first?.coordinate)
      #expect(abs(point.longitude - longitude) < 1e-12 && abs(point.latitude - latitude) < 1e-12, "\(ring)")
      #expect(catalog.codes == ["polygon-representative-point"])
      #expect(catalog.diagnostics[0].message.contains("the centroid of its outer ring, ["))
    }
    // Across the antimeridian: still near ±180, no warning.
    let fiji = [(179.9, 0.0), (-179.9, 0.0), (-179.9, 1.0), (179.9, 1.0), (179.9, 0.0)]
    let point = try #require(try Self.polygonStore(fiji).stores.first?.coordinate)
    #expect(abs(abs(point.longitude) - 180) < 1e-9 && abs(point.latitude - 0.5) < 1e-9)
    #expect(try Self.polygonStore(fiji).codes == ["polygon-representative-point"])
  }

  /// A U-shaped outline's centroid lies in the notch, outside the building: a point inside it is
  /// used, and the note says so (no warning: the outline is sound).
  @Test func aConcaveOutlineGetsAPointInside() throws {
    let ring = [
      (0.0, 0.0), (3.0, 0.0), (3.0, 3.0), (2.0, 3.0), (2.0, 1.0), (1.0, 1.0), (1.0, 3.0), (0.0, 3.0),
      (0.0, 0.0),
    ]
    let catalog = try Self.polygonStore(ring.map { ($0.0 + 10, $0.1 + 10) })
    let point = try #require(catalog.stores.first?.coordinate)
    #expect(catalog.codes == ["polygon-representative-point"])
    #expect(catalog.diagnostics[0].message.contains("lies outside it, so a point inside it, ["))
    let inside = GeoJSONReader.ringPoint(ring.map { (x: $0.0, y: $0.1) })
    #expect(inside.placement == .inside)
    // In one of the three bars, not in the notch.
    let x = point.longitude - 10
    let y = point.latitude - 10
    #expect(y < 1 || x < 1 || x > 2, "\(point)")
    #expect(abs(inside.x - x) < 1e-9 && abs(inside.y - y) < 1e-9)
  }

  /// Across the antimeridian, a bow-tie's fallback stays next to it, not on the far side.
  @Test func aBowTieAcrossTheAntimeridianStaysThere() throws {
    let ring = [(179.99, -17.0), (-179.99, -16.98), (-179.99, -17.0), (179.99, -16.9799999), (179.99, -17.0)]
    let catalog = try Self.polygonStore(ring)
    let point = try #require(catalog.stores.first?.coordinate)
    #expect(abs(point.longitude) >= 179.99 - 1e-9, "\(point)")
    #expect(point.latitude >= -17.0 && point.latitude <= -16.98)
  }
}
