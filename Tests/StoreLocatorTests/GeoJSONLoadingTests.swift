import Foundation
import GeoIndex
import Testing

@testable import StoreLocator

private func feature(_ id: String, _ lon: Double, _ lat: Double, properties: String = "{}") -> String {
  #"{"type":"Feature","id":"\#(id)","properties":\#(properties),"geometry":{"type":"Point","coordinates":[\#(lon),\#(lat)]}}"#
}

@Suite("Loading: recovery")
struct GeoJSONRecoveryTests {
  @Test func idComesFromFeatureThenRefThenIDProperty() throws {
    let catalog = try load(
      """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","id":"f","properties":{"ref":"r1","id":"p1"},"geometry":{"type":"Point","coordinates":[1,2]}},
      {"type":"Feature","properties":{"ref":"r2","id":"p2"},"geometry":{"type":"Point","coordinates":[1,2]}},
      {"type":"Feature","properties":{"id":"9MsJi3NZsG9NeimQe8gh8HCT3ZI="},"geometry":{"type":"Point","coordinates":[1,2]}},
      {"type":"Feature","properties":{"@id":"node/42"},"geometry":{"type":"Point","coordinates":[1,2]}},
      {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}
      ]}
      """)
    #expect(catalog.stores.map(\.id) == ["f", "r2", "9MsJi3NZsG9NeimQe8gh8HCT3ZI=", "node/42", "feature-4"])
    #expect(catalog.stores.map(\.idSource) == [.feature, .ref, .property, .property, .generated])
    #expect(catalog.diagnostics("generated-id").map(\.storeID) == ["feature-4"])
  }

  @Test func brokenFeatureInTheMiddleLoadsTheOthers() throws {
    let catalog = try Catalog.load(contentsOf: try fixturePath("broken_middle.geojson"), options: .loaderOnly)
    #expect(catalog.stores.map(\.id) == ["first", "third"])
    let error = try #require(catalog.diagnostics("invalid-json").first)
    #expect(error.severity == .error)
    #expect(error.position == SourcePosition(featureIndex: 1, line: 6, column: 5))
    #expect(error.message.contains("expected a value at line 6:121, found 'N'"))
    #expect(catalog.codes == ["invalid-json"])
    // Positions of the good ones: the third feature keeps index 2.
    #expect(catalog.stores[1].position == SourcePosition(featureIndex: 2, line: 7, column: 5))
    // Collection time zone is the default; a feature's own wins.
    #expect(catalog.stores[0].timezone == "America/Los_Angeles")
    #expect(catalog.stores[1].timezone == "America/Denver")
  }

  @Test func strictModeThrowsWithAllDiagnostics() throws {
    let path = try fixturePath("broken_middle.geojson")
    do {
      _ = try Catalog.load(contentsOf: path, options: LoadOptions(strict: true, evaluatesHours: false))
      Issue.record("strict mode should throw")
    } catch {
      #expect(error.kind == .strictFailure)
      #expect(error.diagnostics.map(\.code.rawValue) == ["invalid-json"])
      #expect(error.message.contains("1 error"))
    }
  }

  @Test func strictModeAllowsWarnings() throws {
    let catalog = try load(
      #"{"type":"FeatureCollection","features":[\#(feature("a", 0, 0)),\#(feature("b", 1, 2))]}"#,
      strict: true)
    #expect(catalog.codes == ["null-island"])
  }

  @Test func compactCollectionRecoversAfterASyntaxError() throws {
    let broken = #"{"type":"Feature","id":"x","properties":{"name" "X"},"geometry":null}"#
    let text =
      #"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2)),\#(broken),\#(feature("c", 3, 4))]}"#
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "c"])
    let error = try #require(catalog.diagnostics.first)
    #expect(error.message.contains(#"expected ':' after member name "name""#))
    #expect(error.message.contains("found '\"'"))
  }

  @Test func unbalancedFeatureFallsBackToTheNextFeatureStart() throws {
    // The broken feature lacks its closing brace: bracket matching cannot find its end.
    let broken = #"{"type":"Feature","id":"x","properties":{"name":"X","geometry":null"#
    let text =
      #"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2)),\#n\#(broken),\#n\#(feature("c", 3, 4)),\#n\#(feature("d", 5, 6))]}"#
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "c", "d"])
    #expect(catalog.codes == ["invalid-json"])
  }

  @Test func missingCommaBetweenFeatures() throws {
    let text = #"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2)) \#(feature("b", 3, 4))]}"#
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "b"])
    #expect(catalog.codes == ["invalid-json"])
  }

  @Test func trailingCommaInTheFeaturesArray() throws {
    let catalog = try load(#"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2)),]}"#)
    #expect(catalog.stores.count == 1)
    #expect(catalog.diagnostics.first?.message.contains("no trailing comma") == true)
  }

  @Test func truncatedInsideAFeature() throws {
    let catalog = try Catalog.load(contentsOf: try fixturePath("truncated.geojson"), options: .loaderOnly)
    #expect(catalog.stores.map(\.id) == ["1", "2"])
    let truncated = try #require(catalog.diagnostics("truncated").first)
    #expect(truncated.position == SourcePosition(featureIndex: 2, line: 4, column: 1))
    #expect(truncated.message.contains("ends early"))
    #expect(truncated.message.contains("line 4:"))
    #expect(truncated.message.contains("; the 2 complete features before it were loaded"))
    #expect(!truncated.message.contains("the the"))
  }

  @Test func truncatedAfterTheFeaturesArray() throws {
    let catalog = try load(#"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2))]"#)
    #expect(catalog.stores.count == 1)
    #expect(catalog.codes == ["truncated"])
  }

  @Test func newlineDelimitedWithABadLine() throws {
    let catalog = try Catalog.load(contentsOf: try fixturePath("stores.ndgeojson"), options: .loaderOnly)
    #expect(catalog.stores.map(\.id) == ["a", "c"])
    let error = try #require(catalog.diagnostics.first)
    #expect(error.code.rawValue == "invalid-json")
    #expect(error.position == SourcePosition(featureIndex: 1, line: 2, column: 1))
    #expect(error.message.contains("no trailing comma"))
    #expect(catalog.stores[1].position == SourcePosition(featureIndex: 2, line: 3, column: 1))
  }

  @Test func newlineDelimitedWithATruncatedLastLine() throws {
    let text = feature("a", 1, 2) + "\n" + feature("b", 3, 4) + "\n" + #"{"type":"Feature","id":"c","pro"#
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "b"])
    #expect(catalog.codes == ["truncated"])
  }

  @Test func newlineDelimitedWithAnUnbalancedLine() throws {
    let text =
      feature("a", 1, 2) + "\n" + #"{"type":"Feature","id":"b","properties":{"# + "\n" + feature("c", 3, 4)
      + "\n"
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "c"])
  }

  @Test func textSequences() throws {
    let catalog = try Catalog.load(contentsOf: try fixturePath("sequence.geojsons"), options: .loaderOnly)
    #expect(catalog.stores.map(\.id) == ["r1", "r3"])
    #expect(catalog.codes == ["invalid-json"])
    #expect(catalog.diagnostics[0].position?.featureIndex == 1)
    #expect(catalog.diagnostics[0].position?.line == 2)
  }

  @Test func textSequenceWithATruncatedRecord() throws {
    let text =
      "\u{1E}" + feature("a", 1, 2) + "\n\u{1E}" + #"{"type":"Feat"# + "\n\u{1E}" + feature("c", 3, 4) + "\n"
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "c"])
    #expect(catalog.codes == ["invalid-json"])
  }

  @Test func notJSON() {
    let error = loadError("hello, world")
    #expect(error?.kind == .badData)
    #expect(error?.message.contains("expected '{' at line 1:1, found 'h'") == true)
    let csv = loadError("\n\nid,lat,lon\n1,2,3\n")
    #expect(csv?.message.contains("line 3:1") == true)
  }

  @Test func topLevelArrayIsRefused() {
    let error = loadError("[" + feature("a", 1, 2) + "]")
    #expect(error?.kind == .badData)
    #expect(error?.message.contains("JSON array") == true)
  }

  @Test func whitespaceOnlyIsEmpty() {
    let error = loadError(" \n\t\n")
    #expect(error?.kind == .badData)
    #expect(error?.message.contains("empty file") == true)
  }

  @Test func brokenCollectionHeaderIsBadData() {
    let error = loadError(#"{"type" "FeatureCollection","features":[]}"#)
    #expect(error?.kind == .badData)
    #expect(error?.message.contains("expected ':' after member name \"type\" at line 1:9") == true)
  }

  @Test func objectWithoutGeoJSONTypeIsBadData() {
    let error = loadError(#"{"hello":"world"}"#)
    #expect(error?.kind == .badData)
    #expect(error?.diagnostics.map(\.code.rawValue) == ["invalid-type"])
  }

  @Test func hostileNestingDoesNotCrash() throws {
    let deep = String(repeating: "[", count: 100_000)
    let text =
      #"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2)),{"type":"Feature","properties":{"x":\#(deep)"#
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a"])
    #expect(catalog.diagnostics.contains { $0.message.contains("nested deeper than 512 levels") })
  }

  @Test func missingFileIsInputMissing() {
    do {
      _ = try Catalog.load(contentsOf: "/nonexistent/stores.geojson", options: .loaderOnly)
      Issue.record("should throw")
    } catch {
      #expect(error.kind == .inputMissing)
      #expect(error.message.contains("no such file"))
    }
  }

  @Test func directoryIsInputMissing() {
    do {
      _ = try Catalog.load(contentsOf: "/tmp", options: .loaderOnly)
      Issue.record("should throw")
    } catch {
      #expect(error.kind == .inputMissing)
    }
  }

  @Test func aLargeFileIsReadInPartsAsItIsReadWhole() throws {
    // Past `partedReadBytes` the file is read in parts at once: the bytes must be the file's,
    // from the descriptor's offset on (standard input may be a file already read in part), and
    // the offset must end past them, as one read after another leaves it.
    let count = FileBytes.partedReadBytes + 4_099
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    let content = (0..<count).map { _ in
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return UInt8(truncatingIfNeeded: state >> 56)
    }
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("parts-\(UUID()).bin").path
    try Data(content).write(to: URL(fileURLWithPath: path))
    defer { unlink(path) }
    let descriptor = try FileBytes.openForReading(path)
    defer { close(descriptor) }
    #expect(
      try FileBytes.read(descriptor: descriptor, source: path, maximumBytes: count, what: "test") == content)
    #expect(lseek(descriptor, 0, SEEK_CUR) == count)
    let skipped = 1_000_003
    #expect(lseek(descriptor, off_t(skipped), SEEK_SET) == skipped)
    let rest = try FileBytes.read(descriptor: descriptor, source: path, maximumBytes: count, what: "test")
    #expect(rest == Array(content[skipped...]))
    // A file shorter than its size said (cut while read) is not taken in parts: the offset is
    // left where it was, for the reading one part after another.
    #expect(lseek(descriptor, 0, SEEK_SET) == 0)
    #expect(FileBytes.readInParts(descriptor, count: count + 1) == nil)
    #expect(lseek(descriptor, 0, SEEK_CUR) == 0)
    // One processor reads one part after another.
    let inParts = ActiveProcessors.count > 1
    #expect(FileBytes.readInParts(descriptor, count: count) == (inParts ? content : nil))
    #expect(lseek(descriptor, 0, SEEK_CUR) == (inParts ? count : 0))
    // Below the threshold, one part after another.
    #expect(lseek(descriptor, 0, SEEK_SET) == 0)
    #expect(FileBytes.readInParts(descriptor, count: FileBytes.partedReadBytes - 1) == nil)
  }

  @Test func standardInputReadsAPipe() throws {
    // `load(contentsOf: "-")` reads descriptor 0 the same way; a pipe stands in for it here.
    let text = Array((feature("a", 1, 2) + "\n" + feature("b", 3, 4) + "\n").utf8)
    let payload = Array(Array(repeating: text, count: 2000).joined())
    let readEnd = pipeFed(with: payload)
    let bytes = try FileBytes.read(
      descriptor: readEnd, source: "-", maximumBytes: InputLimits.storeFileBytes, what: "store file")
    close(readEnd)
    #expect(bytes == Array(payload))
    let catalog = try Catalog(geoJSON: bytes, source: "-", options: .loaderOnly)
    #expect(catalog.stores.count == 4000)
    #expect(catalog.source == "-")
    #expect(catalog.codeCounts == ["duplicate-id": 3998])
  }
}

@Suite("Loading: records")
struct GeoJSONRecordTests {
  @Test func propertiesKeepOrderAndForm() throws {
    let properties =
      #"{"name":"Café Ümlaut","ref":17,"drive_through":"yes","opening_hours:drive_through":"24/7","rating":4.50,"tags":["a",true,null],"x":{"y":1}}"#
    let catalog = try load(feature("s1", 13.4, 52.5, properties: properties))
    let store = try #require(catalog.stores.first)
    #expect(
      store.properties.map(\.key) == [
        "name", "ref", "drive_through", "opening_hours:drive_through", "rating", "tags", "x",
      ])
    #expect(store.properties["rating"] == .number("4.50"))
    #expect(store.properties["name"] == .string("Café Ümlaut"))
    #expect(store.properties["tags"] == .array([.string("a"), .bool(true), .null]))
    #expect(JSONValue.object(store.properties).jsonText == properties)
  }

  @Test func collectionTimezoneAfterTheFeatures() throws {
    let text =
      #"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2)),\#(feature("b", 1, 2, properties: #"{"timezone":"Asia/Tokyo"}"#))],"timezone":"Europe/Berlin"}"#
    let catalog = try load(text)
    #expect(catalog.stores.map(\.timezone) == ["Europe/Berlin", "Asia/Tokyo"])
  }

  @Test func duplicateIDsNameBothPositions() throws {
    let text =
      "{\"type\":\"FeatureCollection\",\"features\":[\n" + feature("a", 1, 2) + ",\n" + feature("a", 3, 4)
      + "\n]}"
    let catalog = try load(text)
    #expect(catalog.stores.count == 2)
    let duplicate = try #require(catalog.diagnostics("duplicate-id").first)
    #expect(duplicate.severity == .error)
    #expect(duplicate.position == SourcePosition(featureIndex: 1, line: 3, column: 1))
    #expect(duplicate.message.contains("feature 0 (line 2:1)"))
    #expect(catalog.store(withID: "a")?.coordinate?.latitude == 2)
  }

  @Test func duplicateRefWithDistinctIDs() throws {
    let text =
      #"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2, properties: #"{"ref":"R"}"#)),\#(feature("b", 3, 4, properties: #"{"ref":"R"}"#))]}"#
    let catalog = try load(text)
    #expect(catalog.codes == ["duplicate-ref"])
    #expect(catalog.diagnostics[0].severity == .warning)
  }

  @Test func swappedCoordinatesAreNamed() throws {
    let catalog = try load(feature("sydney", -33.8688, 151.2093))
    let error = try #require(catalog.diagnostics.first)
    #expect(error.code.rawValue == "coordinates-swapped")
    #expect(error.severity == .error)
    #expect(error.storeID == "sydney")
    #expect(error.message.contains("latitude 151.2093 is out of range -90...90"))
    #expect(error.message.contains("coordinates look swapped: GeoJSON is [longitude, latitude]"))
    #expect(catalog.indexedCount == 0)
    #expect(catalog.stores.count == 1)
  }

  @Test func longitude180IsAccepted() throws {
    let catalog = try load(feature("dateline", 180, -17))
    #expect(catalog.indexedCount == 1)
    #expect(catalog.diagnostics.isEmpty)
  }

  @Test func polygonAcrossTheAntimeridian() throws {
    let geometry =
      #"{"type":"Polygon","coordinates":[[[179.9,0],[-179.9,0],[-179.9,1],[179.9,1],[179.9,0]]]}"#
    let catalog = try load(#"{"type":"Feature","id":"fiji","properties":{},"geometry":\#(geometry)}"#)
    let point = try #require(catalog.stores.first?.coordinate)
    #expect(abs(abs(point.longitude) - 180) < 1e-9)
    #expect(abs(point.latitude - 0.5) < 1e-9)
  }

  @Test func multiPolygonUsesTheLargestPart() throws {
    let geometry =
      #"{"type":"MultiPolygon","coordinates":[[[[0,0],[0.001,0],[0.001,0.001],[0,0]]],[[[10,10],[11,10],[11,11],[10,11],[10,10]]]]}"#
    let catalog = try load(#"{"type":"Feature","id":"m","properties":{},"geometry":\#(geometry)}"#)
    let point = try #require(catalog.stores.first?.coordinate)
    #expect(abs(point.longitude - 10.5) < 1e-9)
    #expect(abs(point.latitude - 10.5) < 1e-9)
    #expect(catalog.codes == ["polygon-representative-point"])
  }

  @Test func degeneratePolygonFallsBackToTheVertexAverage() throws {
    let geometry = #"{"type":"Polygon","coordinates":[[[1,1],[3,3],[1,1]]]}"#
    let catalog = try load(#"{"type":"Feature","id":"line","properties":{},"geometry":\#(geometry)}"#)
    let point = try #require(catalog.stores.first?.coordinate)
    #expect(point.longitude == 2)
    #expect(point.latitude == 2)
  }

  @Test(
    "geometry problems",
    arguments: [
      (#"{"type":"LineString","coordinates":[[1,2],[3,4]]}"#, "unsupported-geometry"),
      (#"{"type":"point","coordinates":[1,2]}"#, "invalid-geometry"),
      (#"{"type":"Circle","coordinates":[1,2]}"#, "invalid-geometry"),
      (#"{"coordinates":[1,2]}"#, "invalid-geometry"),
      (#"{"type":"Point","coordinates":[1]}"#, "invalid-coordinates"),
      (#"{"type":"Point","coordinates":[[1,2]]}"#, "invalid-coordinates"),
      (#"{"type":"Point"}"#, "missing-geometry"),
      (#"{"type":"MultiPoint","coordinates":[]}"#, "missing-geometry"),
      (#"{"type":"Polygon","coordinates":[]}"#, "missing-geometry"),
      (#"{"type":"Polygon","coordinates":[["x"]]}"#, "invalid-coordinates"),
      (#"{"type":"GeometryCollection","geometries":[]}"#, "missing-geometry"),
      (#"{"type":"Point","coordinates":[1e400,2]}"#, "coordinates-out-of-range"),
      ("[1,2]", "invalid-geometry"),
    ])
  func geometryProblems(geometry: String, code: String) throws {
    let catalog = try load(#"{"type":"Feature","id":"g","properties":{},"geometry":\#(geometry)}"#)
    #expect(catalog.codes == [code])
    #expect(catalog.indexedCount == 0)
    #expect(catalog.stores.count == 1)
  }

  @Test func unsupportedCRSKeepsStoresOutOfTheIndex() throws {
    let text =
      #"{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::3857"}},"features":[\#(feature("a", 1, 2))]}"#
    let catalog = try load(text)
    #expect(catalog.codes == ["unsupported-crs"])
    #expect(catalog.stores.count == 1)
    #expect(catalog.indexedCount == 0)
    #expect(catalog.diagnostics[0].message.contains("EPSG::3857"))
  }

  @Test func epsg4326IsALegacyNote() throws {
    let text =
      #"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2))],"crs":{"type":"name","properties":{"name":"EPSG:4326"}}}"#
    let catalog = try load(text)
    #expect(catalog.codes == ["legacy-crs"])
    #expect(catalog.indexedCount == 1)
  }

  @Test func featureEntriesThatAreNotFeatures() throws {
    let text =
      #"{"type":"FeatureCollection","features":[42,{"type":"FeatureCollection","features":[]},{"properties":{}},\#(feature("a", 1, 2))]}"#
    let catalog = try load(text)
    #expect(catalog.codes == ["invalid-feature", "invalid-type", "invalid-type"])
    #expect(catalog.stores.map(\.id) == ["a"])
    #expect(catalog.stores[0].position.featureIndex == 3)
  }

  @Test func idFallbacks() throws {
    let text = """
      {"type":"Feature","id":true,"properties":{"ref":123},"geometry":null}
      {"type":"Feature","id":"","properties":{"ref":""},"geometry":null}
      {"type":"Feature","id":null,"properties":{"ref":"r"},"geometry":null}
      """
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["123", "feature-1", "r"])
    #expect(catalog.stores.map(\.idSource) == [.ref, .generated, .ref])
    #expect(catalog.codeCounts == ["invalid-id": 1, "missing-geometry": 3, "generated-id": 1])
  }

  @Test func diagnosticsComeInInputOrder() throws {
    let text = """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","id":"a","properties":{},"geometry":null},
      {"type":"Feature","id":"a","properties":{},"geometry":{"type":"Point","coordinates":[0,0]}},
      {"type":"Feature","id":"c","properties":{},"geometry":{"type":"Point","coordinates":[200,0]}}
      ]}
      """
    let catalog = try load(text)
    #expect(catalog.diagnostics.map(\.position?.featureIndex) == [0, 1, 1, 2])
    #expect(catalog.codes == ["missing-geometry", "null-island", "duplicate-id", "coordinates-out-of-range"])
  }
}

@Suite("Loading: review fixes")
struct GeoJSONReviewFixTests {
  // `loaderCodes`: the codes without the opening-hours engine's notes (not the loader's business).
  private func polygonFeature(_ ring: String, id: String = "p") -> String {
    #"{"type":"Feature","id":"\#(id)","properties":{},"geometry":{"type":"Polygon","coordinates":[\#(ring)]}}"#
  }

  @Test(
    "a hostile ring vertex is reported, not looped on", .timeLimit(.minutes(1)),
    arguments: [
      ("[[0,0],[1e300,0],[1,1],[0,0]]", "projected-coordinates", "1e300"),
      ("[[0,0],[1e400,0],[1,1],[0,0]]", "coordinates-out-of-range", "too large"),
      ("[[0,0],[-1e400,0],[1,1],[0,0]]", "coordinates-out-of-range", "too large"),
      ("[[0,0],[181,0],[1,1],[0,0]]", "coordinates-out-of-range", "longitude 181 is out of range"),
      ("[[0,0],[100,95],[1,1],[0,0]]", "coordinates-out-of-range", "latitude 95 is out of range"),
      ("[[0,0],[10,120],[1,1],[0,0]]", "coordinates-swapped", "latitude 120 is out of range"),
    ])
  func hostileRingVertex(ring: String, code: String, text: String) throws {
    let catalog = try load(polygonFeature(ring))
    #expect(catalog.loaderCodes == [code], "\(catalog.diagnostics)")
    #expect(catalog.stores.count == 1)
    #expect(catalog.indexedCount == 0)
    let diagnostic = try #require(catalog.diagnostics.first)
    #expect(diagnostic.message.contains(text), "\(diagnostic.message)")
    #expect(diagnostic.message.contains("vertex 2 of the Polygon's outer ring"), "\(diagnostic.message)")
  }

  @Test(.timeLimit(.minutes(1)))
  func multiPolygonWithAnInfiniteVertex() throws {
    let geometry =
      #"{"type":"MultiPolygon","coordinates":[[[[1,1],[2,1],[2,2],[1,1]]],[[[1,1],[1e400,1],[2,2],[1,1]]]]}"#
    let catalog = try load(#"{"type":"Feature","id":"m","properties":{},"geometry":\#(geometry)}"#)
    #expect(catalog.loaderCodes == ["coordinates-out-of-range"])
    #expect(catalog.diagnostics.first?.message.contains("MultiPolygon's polygon 2") == true)
    #expect(catalog.indexedCount == 0)
  }

  @Test(.timeLimit(.minutes(1)))
  func ringCentroidNeverLoopsAndStaysInRange() {
    // Direct calls, without the validation in front: must return, whatever the input.
    for hostile in [1e300, -1e300, .infinity, -.infinity, .nan, .greatestFiniteMagnitude] {
      let centroid = GeoJSONReader.ringCentroid([(0, 0), (hostile, 0), (1, 1), (0, 0)])
      #expect(centroid.x.isNaN || (-180...180).contains(centroid.x), "\(hostile): \(centroid)")
    }
    // A ring that winds all the way round unwraps past ±180; the result is wrapped back.
    let around = GeoJSONReader.ringCentroid([(170, 10), (-100, 10), (-10, 10), (80, 10), (170, 11)])
    #expect((-180...180).contains(around.x), "\(around)")
    let east = GeoJSONReader.ringCentroid([(179, 0), (-179, 0), (-179, 2), (179, 2), (179, 0)])
    #expect(abs(abs(east.x) - 180) < 1e-9)
    #expect(abs(east.y - 1) < 1e-9)
  }

  @Test func pointWithAnOverflowingLongitude() throws {
    let catalog = try load(
      #"{"type":"Feature","id":"big","properties":{},"geometry":{"type":"Point","coordinates":[1e400, 2]}}"#)
    #expect(catalog.loaderCodes == ["coordinates-out-of-range"])
    let message = try #require(catalog.diagnostics.first?.message)
    #expect(message.contains("[1e400, 2] are too large to be degrees"), "\(message)")
    #expect(catalog.diagnostics.first?.storeID == "big")
  }

  private static let threeFeatures = [
    #"{"type":"Feature","id":"a","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
    #"{"type":"Feature","id":"b","properties":{},"geometry":{"type":"Point","coordinates":[3,4]}}"#,
    #"{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[5,6]}}"#,
  ]

  @Test func brokenHeaderStillReadsTheFeatures() throws {
    let text =
      #"{"type":"FeatureCollection","bbox":[NaN],"name":"x","features":["# + "\n"
      + Self.threeFeatures.joined(separator: ",\n") + "\n" + #"],"timezone":"Europe/Paris"}"# + "\n"
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "b", "feature-2"])
    #expect(catalog.stores.map(\.position.featureIndex) == [0, 1, 2])
    #expect(catalog.stores.map(\.position.line) == [2, 3, 4])
    #expect(catalog.stores.allSatisfy { $0.timezone == "Europe/Paris" })
    #expect(catalog.loaderCodes == ["invalid-json", "generated-id"], "\(catalog.diagnostics)")
    let header = try #require(catalog.diagnostics.first)
    #expect(header.position == nil)
    #expect(header.storeID == nil)
    #expect(header.message.contains("expected a value at line 1:37, found 'N'"), "\(header.message)")
    #expect(header.message.contains("collection's header"), "\(header.message)")
    #expect(!catalog.diagnostics.contains { $0.message.contains("found ','") })
  }

  @Test func brokenHeaderBeforeTheTypePrettyPrinted() throws {
    let text =
      "{\n  \"bbox\": [1, 2,, 3],\n  \"type\": \"FeatureCollection\",\n  \"features\": [\n    "
      + Self.threeFeatures.joined(separator: ",\n    ") + "\n  ]\n}\n"
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "b", "feature-2"])
    #expect(catalog.stores.map(\.position.featureIndex) == [0, 1, 2])
    #expect(catalog.loaderCodes == ["invalid-json", "generated-id"], "\(catalog.diagnostics)")
    #expect(catalog.diagnostics[0].position == nil)
  }

  @Test func brokenNewlineDelimitedRecordIsNotTakenForAHeader() throws {
    // The second record is broken; the third has a "features" array in its properties.
    let text = [
      Self.threeFeatures[0],
      #"{"type":"Feature","id":"x","properties":{"n":NaN},"geometry":null}"#,
      #"{"type":"Feature","id":"c","properties":{"features":[1]},"geometry":null}"#,
    ].joined(separator: "\n")
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a", "c"])
    #expect(catalog.stores.map(\.position.featureIndex) == [0, 2])
    #expect(catalog.diagnostics("invalid-json").map(\.position?.featureIndex) == [1])
  }

  @Test func headerWarningsAreReportedAtTheHeader() throws {
    let text =
      #"{"type":"FeatureCollection","meta":{"a":1,"a":2,"s":"\ud800"},"features":["#
      + Self.threeFeatures[0] + #"],"tail":{"b":1,"b":2}}"#
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a"])
    #expect(
      catalog.loaderCodes == ["duplicate-key", "invalid-escape", "duplicate-key"], "\(catalog.diagnostics)")
    for diagnostic in catalog.diagnostics
    where ["duplicate-key", "invalid-escape"].contains(diagnostic.code.rawValue) {
      #expect(diagnostic.position == nil, "\(diagnostic)")
      #expect(diagnostic.storeID == nil, "\(diagnostic)")
      #expect(diagnostic.message.contains("FeatureCollection's own members"), "\(diagnostic.message)")
    }
    #expect(catalog.diagnostics[0].message.contains("(again at line 1:43)"))
  }

  @Test func headerWarningsDoNotLeakIntoTheNextRecord() throws {
    let text =
      #"{"type":"FeatureCollection","features":[],"tail":{"b":1,"b":2}}"# + "\n" + Self.threeFeatures[0]
    let catalog = try load(text)
    #expect(catalog.stores.map(\.id) == ["a"])
    #expect(catalog.diagnostics("duplicate-key").map(\.storeID) == [nil])
  }

  @Test func singleFeatureWarningsStayWithTheFeature() throws {
    let text = #"{"type":"Feature","id":"s","properties":{"a":1,"a":2},"geometry":null}"#
    let catalog = try load(text)
    let duplicate = try #require(catalog.diagnostics("duplicate-key").first)
    #expect(duplicate.storeID == "s")
    #expect(duplicate.position?.featureIndex == 0)
  }

  @Test func latin1TextNamesTheLeadByte() throws {
    // "café" written in Latin-1: 0xE9 then the closing quote.
    let prefix = #"{"type":"Feature","id":"a","properties":{"name":"caf"#
    let bytes = Array(prefix.utf8) + [0xE9] + Array(#""},"geometry":null}"#.utf8)
    do {
      let catalog = try Catalog(geoJSON: bytes, source: "latin1.geojson", options: .loaderOnly)
      Issue.record("loaded \(catalog.stores.count) stores")
    } catch {
      let message = error.message
      #expect(
        message.contains("invalid UTF-8 byte 0xE9 in a string at line 1:\(prefix.utf8.count + 1)"),
        "\(message)")
      #expect(message.contains("Latin-1"), "\(message)")
      #expect(message.contains("'é'"), "\(message)")
      #expect(!message.contains("0x22"), "\(message)")
    }
  }

  @Test func truncatedFeatureSentenceReadsWell() throws {
    let catalog = try load(
      #"{"type":"FeatureCollection","features":["# + Self.threeFeatures[0] + #",{"type":"Feature""#)
    let truncated = try #require(catalog.diagnostics("truncated").first)
    #expect(!truncated.message.contains("the the"), "\(truncated.message)")
    #expect(
      truncated.message.contains(
        "; the 1 complete feature before it was loaded; the last record loaded is id"),
      "\(truncated.message)")
    let none = loadError(#"{"type":"FeatureCollection","features":[{"type":"Feature""#)
    #expect(
      none?.diagnostics.first?.message.contains("; the 0 complete features before it were loaded") == true)
    #expect(none?.diagnostics.first?.message.contains("the the") == false)
  }

  @Test func byteOrderMarkOnlyIsEmpty() {
    let error = loadErrorBytes([0xEF, 0xBB, 0xBF])
    #expect(error?.kind == .badData)
    #expect(error?.message == "empty file (only a byte-order mark): no GeoJSON to read")
    let spaced = loadErrorBytes([0xEF, 0xBB, 0xBF, 0x0A, 0x20])
    #expect(
      spaced?.message == "empty file (a byte-order mark and 2 bytes of whitespace): no GeoJSON to read")
    #expect(
      loadErrorBytes([0x20, 0x0A])?.message == "empty file (2 bytes of whitespace only): no GeoJSON to read"
    )
  }

  private func loadErrorBytes(_ bytes: [UInt8]) -> CatalogError? {
    do {
      _ = try Catalog(geoJSON: bytes, source: "bom.geojson", options: .loaderOnly)
      return nil
    } catch {
      return error
    }
  }

  @Test func oneListOfGeometryTypes() throws {
    #expect(
      GeoJSONGeometryType.allCases.map(\.rawValue) == [
        "Point", "MultiPoint", "LineString", "MultiLineString", "Polygon", "MultiPolygon",
        "GeometryCollection",
      ])
    #expect(
      GeoJSONGeometryType.allCases.filter(\.canLocate) == [
        .point, .multiPoint, .polygon, .multiPolygon, .geometryCollection,
      ])
    // The three users of the list: bare geometries, the wrong-case check, GeometryCollection members.
    let bare = try load(#"{"type":"MultiLineString","coordinates":[]}"#)
    #expect(bare.loaderCodes == ["bare-geometry", "unsupported-geometry"])
    let wrongCase = try load(
      #"{"type":"Feature","id":"w","properties":{},"geometry":{"type":"multilinestring","coordinates":[]}}"#)
    #expect(wrongCase.diagnostics.first?.message.contains("expected \"MultiLineString\"") == true)
    let collection = try load(
      #"{"type":"Feature","id":"c","properties":{},"geometry":{"type":"GeometryCollection","geometries":[{"type":"LineString","coordinates":[[1,2],[3,4]]},{"type":"Point","coordinates":[5,6]}]}}"#
    )
    #expect(collection.stores.first?.coordinate?.longitude == 5)
    #expect(collection.loaderCodes == ["geometry-collection"])
  }
}

extension Catalog {
  /// The diagnostic codes of the GeoJSON loader, without the opening-hours engine's
  /// `timezone-inferred` notes.
  fileprivate var loaderCodes: [String] { codes.filter { $0 != "timezone-inferred" } }
}
