import Foundation
import GeoIndex
import Testing

@testable import StoreLocator

/// Checks one edge case's decided outcome against `bytes`.
private func verify(_ edge: EdgeCase, bytes: [UInt8]) {
  switch edge.outcome {
  case .badData:
    do {
      let catalog = try Catalog(geoJSON: bytes, source: edge.name, options: .loaderOnly)
      Issue.record("\(edge.name): expected .badData, loaded \(catalog.stores.count) stores")
    } catch {
      #expect(error.kind == .badData, "\(edge.name)")
      #expect(error.diagnostics.map(\.code.rawValue) == edge.codes, "\(edge.name)")
    }
  case .loads(let stores, let indexed):
    do {
      let catalog = try Catalog(geoJSON: bytes, source: edge.name, options: .loaderOnly)
      #expect(catalog.stores.count == stores, "\(edge.name)")
      #expect(catalog.indexedCount == indexed, "\(edge.name)")
      #expect(catalog.codes == edge.codes, "\(edge.name): \(catalog.diagnostics)")
    } catch {
      Issue.record("\(edge.name): expected to load, threw \(error)")
    }
  }
}

@Suite("Edge cases (own copies)")
struct EdgeCaseTests {
  @Test("every edge case has its decided outcome", arguments: EdgeCase.all)
  func decidedOutcome(_ edge: EdgeCase) {
    verify(edge, bytes: Array(edge.text.utf8))
  }

  @Test func thirtyFourCases() {
    #expect(EdgeCase.all.count == 34)
    #expect(Set(EdgeCase.all.map(\.name)).count == 34)
  }

  private func text(_ name: String) throws -> String {
    try #require(EdgeCase.named(name)).text
  }

  private func only(_ name: String) throws -> Store {
    let catalog = try load(try text(name))
    return try #require(catalog.stores.first)
  }

  private func coordinate(_ name: String) throws -> Coordinate {
    try #require(try only(name).coordinate)
  }

  @Test func pointIgnoresAltitude() throws {
    let point = try coordinate("point_with_altitude")
    #expect(point.longitude == -122.33)
    #expect(point.latitude == 47.61)
  }

  @Test func fourValuesUseTheFirstTwo() throws {
    let point = try coordinate("point_with_4_values")
    #expect(point.longitude == 1)
    #expect(point.latitude == 2)
  }

  @Test func numericIDsKeepTheirText() throws {
    let small = try only("id_number")
    #expect(small.id == "42")
    #expect(small.idSource == .feature)
    let big = try only("id_float_big")
    #expect(big.id == "9007199254740993")  // not 9007199254740992
  }

  @Test func refBecomesTheID() throws {
    let store = try only("id_missing_ref_in_props")
    #expect(store.id == "849-2059")
    #expect(store.idSource == .ref)
  }

  @Test func generatedIDsAreNamedAfterTheFeatureIndex() throws {
    let store = try only("properties_null")
    #expect(store.id == "feature-0")
    #expect(store.idSource == .generated)
    #expect(store.properties.isEmpty)
  }

  @Test func multiPoints() throws {
    let single = try coordinate("multipoint_single")
    #expect(single.longitude == 19.405002)
    #expect(single.latitude == 50.131627)
    let many = try coordinate("multipoint_many")
    #expect(many.longitude == 1)
    #expect(many.latitude == 2)
  }

  @Test func polygonUsesTheRingCentroid() throws {
    let point = try coordinate("polygon_building")
    // Triangle (115.76,-32.11) (115.77,-32.11) (115.77,-32.10): centroid is the vertex mean.
    #expect(abs(point.longitude - 115.766_666_67) < 1e-7)
    #expect(abs(point.latitude - -32.106_666_67) < 1e-7)
  }

  @Test func geometryCollectionUsesItsFirstPoint() throws {
    let point = try coordinate("geometry_collection")
    #expect(point.longitude == 1)
    #expect(point.latitude == 2)
  }

  @Test func longitudeMinus180IsAccepted() throws {
    let point = try coordinate("lon_minus_180")
    #expect(point.longitude == -180)
    #expect(point.latitude == -17)
  }

  @Test func exponentNumbers() throws {
    let point = try coordinate("exponent_number")
    #expect(point.longitude == 12)
    #expect(point.latitude == -0.3)
  }

  @Test func duplicateKeysKeepTheLast() throws {
    let store = try only("duplicate_keys")
    #expect(store.properties.count == 1)
    #expect(store.properties["name"] == .string("B"))
  }

  @Test func nanNamesThePosition() throws {
    let error = try #require(loadError(try text("nan_literal")))
    #expect(error.kind == .badData)
    #expect(error.message.contains("at line 1:77, found 'N'"))
    #expect(error.message.contains("NaN and Infinity are not JSON numbers"))
  }

  @Test func wrongCaseTypeSaysSo() throws {
    let error = try #require(loadError(try text("type_wrong_case")))
    #expect(error.message.contains("case-sensitive: expected \"Feature\""))
  }

  @Test func projectedAndOutOfRangeMessages() throws {
    let projected = try load(try text("projected_coords"))
    #expect(
      projected.diagnostics("projected-coordinates").first?.message.contains(
        "projected coordinates (metres), not degrees") == true)
    let lon181 = try load(try text("lon_181"))
    #expect(
      lon181.diagnostics("coordinates-out-of-range").first?.message.contains(
        "longitude 181.0 is out of range") == true)
  }

  @Test func truncatedSaysWhereTheFileEnds() throws {
    let catalog = try load(try text("truncated_file"))
    let truncated = try #require(catalog.diagnostics("truncated").first)
    #expect(truncated.severity == .error)
    #expect(truncated.message.contains("ends early at byte offset 134 (line 3:1)"))
    #expect(catalog.stores.map(\.id) == ["1"])
  }

  @Test func emptyFileSaysSo() {
    let error = loadError("")
    #expect(error?.kind == .badData)
    #expect(error?.message.contains("empty file") == true)
  }

  @Test func legacyCRSIsANote() throws {
    let catalog = try load(try text("legacy_crs_member"))
    #expect(catalog.diagnostics.first?.severity == .note)
  }
}

@Suite("Edge cases (../shared/corpus)", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct CorpusEdgeCaseTests {
  struct Line: Decodable {
    let name: String
    let expect: String
    let text: String
  }

  static func lines() throws -> [Line] {
    let data = try Data(contentsOf: URL(fileURLWithPath: Corpus.geojson("edge_cases.jsonl")))
    return try String(decoding: data, as: UTF8.self).split(separator: "\n").map {
      try JSONDecoder().decode(Line.self, from: Data($0.utf8))
    }
  }

  @Test("every corpus edge case has its decided outcome")
  func corpusEdgeCases() throws {
    let lines = try Self.lines()
    #expect(lines.count == 34)
    for line in lines {
      let edge = try #require(EdgeCase.named(line.name), "no decision for corpus edge case \(line.name)")
      #expect(edge.text == line.text, "the copy of \(line.name) differs from the corpus")
      verify(edge, bytes: Array(line.text.utf8))
    }
  }
}
