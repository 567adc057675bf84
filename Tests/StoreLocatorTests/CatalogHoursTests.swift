import OpeningHours
import Testing

@testable import StoreLocator

/// Settling each store's time zone while the catalog compiles its hours.
@Suite struct CatalogHoursTests {
  @Test func aZoneNameThatIsNotAZoneIsReplacedByAnInferredOne() throws {
    let text = #"""
      {"type":"FeatureCollection","features":[
      {"type":"Feature","id":"bj","properties":{"opening_hours":"Mo-Su 08:00-20:00","timezone":"Asia/Beijing"},"geometry":{"type":"Point","coordinates":[116.4,39.9]}},
      {"type":"Feature","id":"ok","properties":{"opening_hours":"Mo-Su 08:00-20:00","timezone":"Asia/Tokyo"},"geometry":{"type":"Point","coordinates":[139.7,35.7]}}
      ]}
      """#
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "zones.geojson")
    let beijing = try #require(catalog.store(withID: "bj"))
    #expect(beijing.timezone == "Asia/Shanghai")
    #expect(beijing.inferredTimezone?.identifier == "Asia/Shanghai")
    #expect(catalog.timeZone(of: beijing)?.identifier == "Asia/Shanghai")
    #expect(catalog.schedule(for: beijing) != nil)
    let codes = catalog.diagnostics.filter { $0.storeID == "bj" }.map(\.code.rawValue)
    #expect(codes == ["unknown-timezone", "timezone-inferred"])
    let tokyo = try #require(catalog.store(withID: "ok"))
    #expect(tokyo.inferredTimezone == nil)
    #expect(catalog.timeZone(of: tokyo)?.identifier == "Asia/Tokyo")
  }
}
