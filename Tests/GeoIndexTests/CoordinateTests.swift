import Testing

@testable import GeoIndex

@Suite struct CoordinateTests {
  @Test func parsesNegativeLatitudeAndLongitude() throws {
    let sydney = try Coordinate(parsing: "-33.8688, 151.2093")
    #expect(sydney.latitude == -33.8688)
    #expect(sydney.longitude == 151.2093)
  }

  @Test(arguments: ["", "1", "1,2,3", "a,b", "91,0", "0,181", "nan,0"])
  func refusesBadText(_ text: String) {
    #expect(throws: CoordinateError.self) { try Coordinate(parsing: text) }
  }

  @Test func saysWhenValuesLookSwapped() {
    do {
      _ = try Coordinate(latitude: 151.2, longitude: -33.8)
      Issue.record("accepted latitude 151.2")
    } catch {
      #expect(error.problem == .latitudeOutOfRangeLooksSwapped)
      #expect(error.description.contains("swapped"))
    }
  }

  /// `Double(_:)` reads through C's strtod, which stops at a NUL: a text with one is refused
  /// whole, never read as the number before it.
  @Test(arguments: ["47.6\u{0}abc,-122.3", "47.6,-122.3\u{0}", "\u{0}47.6,-122.3"])
  func refusesATextWithANul(_ text: String) {
    #expect(throws: CoordinateError.self) { try Coordinate(parsing: text) }
    #expect(throws: GeoBoxError.self) {
      try GeoBox(parsing: "-123,47,-122,48" + text.filter { $0 == "\u{0}" })
    }
  }
}
