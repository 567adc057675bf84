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
    let catalog = try Catalog.load(contentsOf: try fixturePath("broken_middle.geojson"))
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
      _ = try Catalog.load(contentsOf: path, options: LoadOptions(strict: true))
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
    let catalog = try Catalog.load(contentsOf: try fixturePath("truncated.geojson"))
    #expect(catalog.stores.map(\.id) == ["1", "2"])
    let truncated = try #require(catalog.diagnostics("truncated").first)
    #expect(truncated.position == SourcePosition(featureIndex: 2, line: 4, column: 1))
    #expect(truncated.message.contains("ends early"))
    #expect(truncated.message.contains("line 4:"))
    #expect(truncated.message.contains("the 2 complete features before it were loaded"))
  }

  @Test func truncatedAfterTheFeaturesArray() throws {
    let catalog = try load(#"{"type":"FeatureCollection","features":[\#(feature("a", 1, 2))]"#)
    #expect(catalog.stores.count == 1)
    #expect(catalog.codes == ["truncated"])
  }

  @Test func newlineDelimitedWithABadLine() throws {
    let catalog = try Catalog.load(contentsOf: try fixturePath("stores.ndgeojson"))
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
    let catalog = try Catalog.load(contentsOf: try fixturePath("sequence.geojsons"))
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
    #expect(error?.message.contains("is empty: no GeoJSON") == true)
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
      _ = try Catalog.load(contentsOf: "/nonexistent/stores.geojson")
      Issue.record("should throw")
    } catch {
      #expect(error.kind == .inputMissing)
      #expect(error.message.contains("no such file"))
    }
  }

  @Test func directoryIsInputMissing() {
    do {
      _ = try Catalog.load(contentsOf: "/tmp")
      Issue.record("should throw")
    } catch {
      #expect(error.kind == .inputMissing)
    }
  }

  @Test func standardInputReadsAPipe() throws {
    // `load(contentsOf: "-")` reads descriptor 0 the same way; a pipe stands in for it here.
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    let text = Array((feature("a", 1, 2) + "\n" + feature("b", 3, 4) + "\n").utf8)
    // Bigger than a pipe buffer would block the writer, so write from another thread.
    let payload = Array(Array(repeating: text, count: 2000).joined())
    let writeEnd = descriptors[1]
    let writer = Thread {
      payload.withUnsafeBytes { raw in
        var written = 0
        while written < raw.count {
          let n = write(writeEnd, raw.baseAddress! + written, raw.count - written)
          if n <= 0 { break }
          written += n
        }
      }
      close(writeEnd)
    }
    writer.start()
    let bytes = try FileBytes.read(descriptor: descriptors[0], source: "-")
    close(descriptors[0])
    #expect(bytes == Array(payload))
    let catalog = try Catalog(geoJSON: bytes, source: "-")
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
