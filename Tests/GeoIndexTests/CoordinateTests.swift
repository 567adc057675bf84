import Testing

@testable import GeoIndex

@Suite struct CoordinateTests {
  @Test func parsesNegativeLatitudeAndLongitude() throws {
    let sydney = try Coordinate(parsing: "-33.8688, 151.2093")
    #expect(sydney.latitude == -33.8688)
    #expect(sydney.longitude == 151.2093)
  }

  /// Texts made of the characters a coordinate is written with, and their mistakes: each is
  /// read as splitting at the commas would read it (two parts, each a number once spaces around
  /// it are trimmed), the rule before the parser lost its array of parts.
  @Test func readsTextsAsSplittingAtTheCommaReadsThem() {
    var generator = SystemRandomNumberGenerator()
    let alphabet = Array("0123456789.,- e+")
    for _ in 0..<20_000 {
      let text = String(
        (0..<Int.random(in: 0...12, using: &generator)).map { _ in
          alphabet.randomElement(using: &generator)!
        })
      let parts = text.split(separator: ",", omittingEmptySubsequences: false)
      var expected: Coordinate?
      if parts.count == 2, let latitude = Double(parts[0].trimmingSpaces),
        let longitude = Double(parts[1].trimmingSpaces)
      {
        expected = try? Coordinate(latitude: latitude, longitude: longitude)
      }
      #expect((try? Coordinate(parsing: text)) == expected, "\(text)")
      #expect((try? Coordinate(parsing: ("x" + text + "x").dropFirst().dropLast())) == expected, "\(text)")
    }
  }

  @Test(arguments: ["", "1", "1,2,3", "a,b", "91,0", "0,181", "nan,0", ",", "1,", ",2", "1,,2"])
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
