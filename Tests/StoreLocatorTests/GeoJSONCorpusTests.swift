import GeoIndex
import Testing

@testable import StoreLocator

@Suite("Real-world corpus (../shared/corpus/geojson)", .enabled(if: Corpus.isAvailable, Corpus.skipMessage))
struct GeoJSONCorpusTests {
  struct Expected: Sendable, CustomTestStringConvertible {
    let file: String
    let stores: Int
    let indexed: Int
    let codeCounts: [String: Int]
    var testDescription: String { file }
  }

  static let files: [Expected] = [
    Expected(file: "atp_dixy_ru.ndgeojson", stores: 4, indexed: 4, codeCounts: [:]),
    Expected(
      file: "atp_dunkin_starbucks_suffolk_ma.geojson", stores: 212, indexed: 212,
      // Ids from the "id" property, addresses from "address": one note each.
      codeCounts: ["property-alias": 2]),
    Expected(
      file: "osm_cafes_fremantle.geojson", stores: 49, indexed: 49,
      codeCounts: ["polygon-representative-point": 16]),
    Expected(
      file: "osm_cafes_colorado.geojson", stores: 323, indexed: 323,
      // Ids from "osm_id", address parts from "addr_*": one note each, no generated ids.
      codeCounts: ["legacy-crs": 1, "property-alias": 2]),
    Expected(file: "starbucks_los_angeles.geojson", stores: 50, indexed: 50, codeCounts: [:]),
    Expected(file: "starbucks_manila.geojson", stores: 50, indexed: 50, codeCounts: [:]),
    Expected(
      file: "starbucks_worldwide_2017.geojson", stores: 25_600, indexed: 25_599,
      codeCounts: ["missing-geometry": 1, "duplicate-ref": 1]),
  ]

  @Test("each file loads with the right counts and diagnostics", arguments: files)
  func loads(_ expected: Expected) throws {
    let catalog = try Catalog.load(contentsOf: Corpus.geojson(expected.file), options: .loaderOnly)
    #expect(catalog.stores.count == expected.stores)
    #expect(catalog.indexedCount == expected.indexed)
    #expect(catalog.codeCounts == expected.codeCounts)
    #expect(!catalog.diagnostics.contains { $0.severity == .error })
    // Strict mode passes too: nothing here is an error.
    _ = try Catalog.load(
      contentsOf: Corpus.geojson(expected.file), options: LoadOptions(strict: true, evaluatesHours: false))
  }

  @Test func starbucksWorldwideDefects() throws {
    let catalog = try Catalog.load(
      contentsOf: Corpus.geojson("starbucks_worldwide_2017.geojson"), options: .loaderOnly)
    let unlocated = try #require(catalog.store(withID: "8029"))
    #expect(unlocated.coordinate == nil)
    #expect(unlocated[property: "ref"] == "19773-160973")
    #expect(unlocated.position == SourcePosition(featureIndex: 8028, line: 8030, column: 1))
    let missing = try #require(catalog.diagnostics("missing-geometry").first)
    #expect(missing.storeID == "8029")
    #expect(missing.severity == .warning)

    let duplicate = try #require(catalog.diagnostics("duplicate-ref").first)
    #expect(duplicate.severity == .warning)
    #expect(duplicate.storeID == "8160")
    #expect(duplicate.message.contains("19773-160973"))
    #expect(duplicate.message.contains("feature 8028 (line 8030:1)"))
    #expect(duplicate.position?.line == 8161)

    // The address with an embedded newline survives as written.
    #expect(
      catalog.stores.contains { $0.properties.contains { $0.value.stringValue?.contains("\n") == true } })
    // Ids are numbers kept as text; positions count lines.
    #expect(catalog.stores[0].id == "1")
    #expect(catalog.stores[0].position == SourcePosition(featureIndex: 0, line: 2, column: 1))
  }

  @Test func fremantlePolygonsGetCentroids() throws {
    let catalog = try Catalog.load(
      contentsOf: Corpus.geojson("osm_cafes_fremantle.geojson"), options: .loaderOnly)
    let building = try #require(catalog.store(withID: "way/44416697"))
    let point = try #require(building.coordinate)
    #expect(abs(point.longitude - 115.7642663) < 1e-6)
    #expect(abs(point.latitude - -32.1115094) < 1e-6)
    #expect(catalog.diagnostics("polygon-representative-point").allSatisfy { $0.severity == .note })
  }

  @Test func coloradoKeepsNullsAndLongNumbers() throws {
    let catalog = try Catalog.load(
      contentsOf: Corpus.geojson("osm_cafes_colorado.geojson"), options: .loaderOnly)
    let vics = try #require(catalog.stores.first { $0[property: "name"] == "Vics" })
    #expect(vics.coordinate?.longitude == -105.132311300000012)
    #expect(vics.properties["address"] == .null)
    #expect(vics.properties.first?.key == "osm_id")
    #expect(catalog.diagnostics("legacy-crs").first?.position == nil)
  }

  @Test func dixyDecodesEscapes() throws {
    let catalog = try Catalog.load(contentsOf: Corpus.geojson("atp_dixy_ru.ndgeojson"), options: .loaderOnly)
    #expect(catalog.stores.allSatisfy { $0.name == "Дикси" })
    #expect(catalog.stores.map(\.idSource) == [.feature, .feature, .feature, .feature])
    #expect(catalog.stores.map(\.position.line) == [1, 2, 3, 4])
  }
}
