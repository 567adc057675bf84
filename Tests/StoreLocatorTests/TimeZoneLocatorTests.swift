import Foundation
import GeoIndex
import Testing

@testable import StoreLocator

/// Time-zone inference from the bundled GeoNames places (Data/timezones/places.tsv).
///
/// The expected zones are what a polygon lookup (timezonefinder, timezone-boundary-builder 2026c)
/// says for the same points; the cases where the nearest-place rule disagrees are marked.
@Suite struct TimeZoneLocatorTests {
  static let locator: TimeZoneLocator? = try? TimeZoneLocator(contentsOf: TimeZoneLocator.bundledPath)

  func locator() throws -> TimeZoneLocator {
    try #require(Self.locator, "cannot load \(TimeZoneLocator.bundledPath)")
  }

  func zone(_ latitude: Double, _ longitude: Double, country: String? = nil) throws -> TimeZoneGuess {
    let point = try Coordinate(latitude: latitude, longitude: longitude)
    return try #require(try locator().timeZone(near: point, country: country))
  }

  @Test func bundledFileLoads() throws {
    let locator = try locator()
    #expect(locator.count > 60_000)
    #expect(locator.timeZoneIdentifiers.contains("Pacific/Fiji"))
    #expect(locator.timeZoneIdentifiers.count > 300)
  }

  @Test(arguments: [
    (-33.8688, 151.2093, "Australia/Sydney", "AU"),
    (-18.1416, 178.4419, "Pacific/Fiji", "FJ"),  // Suva
    (69.6492, 18.9553, "Europe/Oslo", "NO"),  // Tromsø
    (33.4484, -112.0740, "America/Phoenix", "US"),  // Phoenix: no daylight saving time
    (35.1983, -111.6513, "America/Phoenix", "US"),  // Flagstaff
    (39.7684, -86.1581, "America/Indiana/Indianapolis", "US"),
    (37.9716, -87.5711, "America/Chicago", "US"),  // Evansville, Indiana: Central time
    (41.5934, -87.3464, "America/Chicago", "US"),  // Gary, Indiana: Central time
    (38.2776, -85.7372, "America/Kentucky/Louisville", "US"),  // Jeffersonville, Indiana
    (31.7619, -106.4850, "America/Denver", "US"),  // El Paso, Texas: Mountain time
    (31.6904, -106.4245, "America/Ciudad_Juarez", "MX"),  // Ciudad Juárez
    (42.0400, -8.6450, "Europe/Madrid", "ES"),  // Tui, north bank of the Minho
    (42.0330, -8.6420, "Europe/Lisbon", "PT"),  // Valença, south bank, 1.5 km away
  ])
  func cities(latitude: Double, longitude: Double, expected: String, country: String) throws {
    #expect(try zone(latitude, longitude).identifier == expected)
    #expect(try zone(latitude, longitude, country: country).identifier == expected)
    #expect(try zone(latitude, longitude).countryCode == country)
  }

  @Test func guessNamesThePlace() throws {
    let guess = try zone(69.6492, 18.9553)
    #expect(guess.placeName == "Tromsø")
    #expect(guess.countryCode == "NO")
    #expect(guess.distance < .kilometers(1))
    #expect(guess.note.hasPrefix("inferred from Tromsø (NO), 0."))
    #expect(guess.note.hasSuffix(" km away"))
  }

  /// A point in Portugal, 1 km west of the Caia (the border), nearer to Badajoz (Spain) than to
  /// Elvas: the nearest place is wrong, the store's country puts it right.
  @Test func acrossTheSpainPortugalBorder() throws {
    #expect(try zone(38.88, -7.04).identifier == "Europe/Madrid")  // nearest place: Badajoz
    let guess = try zone(38.88, -7.04, country: "PT")
    #expect(guess.identifier == "Europe/Lisbon")
    #expect(guess.countryCode == "PT")
    #expect(try zone(38.88, -7.04, country: "pt").identifier == "Europe/Lisbon")  // case
    #expect(try zone(38.88, -6.98, country: "ES").identifier == "Europe/Madrid")
  }

  /// In Ciudad Juárez just south of the Rio Grande, El Paso's centre is nearer than Juárez's.
  @Test func elPasoAndCiudadJuarez() throws {
    #expect(try zone(31.76, -106.45).identifier == "America/Denver")  // wrong without a country
    #expect(try zone(31.76, -106.45, country: "MX").identifier == "America/Ciudad_Juarez")
    #expect(try zone(31.76, -106.45, country: "US").identifier == "America/Denver")
  }

  /// A country with no place among the nearest candidates (or an unusable code) is ignored.
  @Test func countryThatDoesNotHelpIsIgnored() throws {
    #expect(try zone(-33.8688, 151.2093, country: "JP").identifier == "Australia/Sydney")
    #expect(try zone(-33.8688, 151.2093, country: "").identifier == "Australia/Sydney")
    #expect(try zone(-33.8688, 151.2093, country: "Australia").identifier == "Australia/Sydney")
    #expect(try zone(-33.8688, 151.2093, country: "A1").identifier == "Australia/Sydney")
  }

  /// Taveuni (Fiji) straddles the 180th meridian and has no place in the extract: points on its
  /// eastern side (longitude −179.9) must find Fijian places at +179.
  @Test(arguments: [(-16.80, -179.97), (-16.69, -179.88), (-16.85, 179.99)])
  func antimeridian(latitude: Double, longitude: Double) throws {
    let guess = try zone(latitude, longitude)
    #expect(guess.identifier == "Pacific/Fiji")
    #expect(guess.countryCode == "FJ")
    #expect(guess.distance < .kilometers(100))
    #expect(try zone(latitude, longitude, country: "FJ").identifier == "Pacific/Fiji")
  }

  /// Mid-Pacific (0°, 140° W), about 990 km from the nearest place (in the Marquesas): that place's
  /// zone is still returned, and its distance says how weak that is; `within:` turns it into `nil`.
  @Test func middleOfTheOcean() throws {
    let point = try Coordinate(latitude: 0, longitude: -140)
    let guess = try #require(try locator().timeZone(near: point))
    #expect(guess.distance > .kilometers(500))
    #expect(guess.countryCode == "PF")
    #expect(guess.identifier == "Pacific/Marquesas")  // from Taiohae
    #expect(guess.note.hasSuffix(" km away"))
    #expect(try locator().timeZone(near: point, within: .kilometers(100)) == nil)
    // Near a place, the limit does not change the answer.
    let sydney = try Coordinate(latitude: -33.8688, longitude: 151.2093)
    #expect(
      try locator().timeZone(near: sydney, within: .kilometers(100))?.identifier == "Australia/Sydney")
  }

  /// The bundled demo stores carry their zone; inference must agree with nearly all of them.
  @Test func agreesWithTheBundledStores() throws {
    let catalog = try Catalog.load(contentsOf: DefaultData.bundledPath)
    let locator = try locator()
    var checked = 0
    var agreed = 0
    for store in catalog.stores {
      guard let coordinate = store.coordinate, let timezone = store.timezone else { continue }
      checked += 1
      let guess = locator.timeZone(near: coordinate, country: store[property: "addr:country"])
      if guess?.identifier == timezone { agreed += 1 }
    }
    #expect(checked == 2000)
    #expect(agreed == checked, "\(checked - agreed) of \(checked) bundled stores disagree")
  }

  @Test func parsesAndRejects() throws {
    let text = "# comment\r\n-12.5\t+177.05\tPacific/Fiji\tfj\t04\tAhau\r\n\n0\t0\tEtc/UTC\t\t\tNull Island\n"
    let locator = try TimeZoneLocator(bytes: Array(text.utf8), source: "t.tsv")
    #expect(locator.count == 2)
    let ahau = try #require(locator.timeZone(near: Coordinate(latitude: -12.5, longitude: 177.05)))
    #expect(ahau.placeName == "Ahau")
    #expect(ahau.countryCode == "FJ")
    #expect(ahau.placeCoordinate == Coordinate(uncheckedLatitude: -12.5, longitude: 177.05))
    let null = try #require(locator.timeZone(near: Coordinate(latitude: 0.1, longitude: 0)))
    #expect(null.countryCode == "")
    #expect(null.identifier == "Etc/UTC")

    for bad in [
      "1\t2\tZ/Z\tAA\t\n",  // five fields
      "91\t2\tZ/Z\tAA\t\tX\n",  // latitude out of range
      "1\t2x\tZ/Z\tAA\t\tX\n",  // not a number
      "1\t2\t\tAA\t\tX\n",  // no zone
      "1\t2\tZ/Z\tAAA\t\tX\n",  // country
      "# only a comment\n",
      "",
    ] {
      #expect(throws: CatalogError.self) { try TimeZoneLocator(bytes: Array(bad.utf8), source: "t.tsv") }
    }
    #expect(throws: CatalogError.self) { try TimeZoneLocator(contentsOf: "/nonexistent/places.tsv") }
  }

  @Test func decimals() {
    func parse(_ text: String) -> Double? {
      let bytes = Array(text.utf8)
      return bytes.withUnsafeBufferPointer { TimeZoneLocator.parseDecimal($0, 0, $0.count) }
    }
    #expect(parse("-12.3456") == -12.3456)
    #expect(parse("178.4253") == 178.4253)
    #expect(parse("7") == 7)
    #expect(parse("+0.5") == 0.5)
    #expect(parse("-0") == 0)
    #expect(parse(".5") == 0.5)
    for bad in ["", "-", ".", "1.2.3", "1e5", " 1", "1234567890123456"] { #expect(parse(bad) == nil) }
  }

  /// The places of many points found at once (as the loader asks) are each point's own, whether
  /// the points are mostly in their countries (each searched for alone, the few others batched)
  /// or mostly not (all with a country batched at once), points without a country among them.
  @Test func placesOfManyPointsAreEachPointsOwn() throws {
    let locator = try locator()
    var random = QueryTestRandom(seed: 35)
    let codes = ["US", "FR", "JP", "BR", "DE", "GB", "IN", "AU", "CA", "ES", "IT", "MX"].map {
      TimeZoneLocator.countryKey($0)!
    }
    let points = (0..<12_000).map { _ in
      let latitude = asin(2 * random.uniform(in: 0...1) - 1) * 180 / .pi
      return try! Coordinate(latitude: latitude, longitude: random.uniform(in: -180...180))
    }
    // Countries drawn apart from the points, as in the generated benchmark files.
    let drawn = points.indices.map {
      $0 % 10 == 0 ? 0 : codes[Int(random.next() % UInt64(codes.count))]
    }
    // Each point's nearest place's country, but every tenth point with none and every seventh
    // with another, as a chain's file near borders.
    let own = points.indices.map { index -> UInt16 in
      if index % 10 == 0 { return 0 }
      if index % 7 == 0 { return codes[index % codes.count] }
      return locator.countryOfPlace[locator.tree.nearest(1, to: points[index]).first!.index]
    }
    #expect(locator.looksElsewhereMostly(points, drawn))
    #expect(!locator.looksElsewhereMostly(points, own))
    for countries in [drawn, own] {
      for parts in [1, 2, 3] {
        let places = locator.nearestPlaces(to: points, countries: countries, parts: parts)
        for (index, point) in points.enumerated() {
          let country =
            countries[index] == 0
            ? nil
            : String(decoding: [UInt8(countries[index] >> 8), UInt8(countries[index] & 0xFF)], as: UTF8.self)
          let alone = locator.nearestPlace(to: point, country: country, within: nil)
          #expect(places[index] == alone, "point \(index) at \(point), country \(country ?? "none")")
        }
      }
    }
  }

  /// Opt-in: with `STORES_TZ_REPORT=path` set, writes the inferred zone of every store of the
  /// corpus file (`STORES_TZ_CORPUS`, default ../shared/corpus/geojson/starbucks_worldwide_2017.geojson)
  /// to `path` for scripts/measure_timezone_inference.py to compare with polygon lookups.
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["STORES_TZ_REPORT"] != nil,
      "a measurement, not a check: set STORES_TZ_REPORT=PATH to write the report that scripts/measure_timezone_inference.py reads"
    ))
  func writeInferenceReport() throws {
    let environment = ProcessInfo.processInfo.environment
    let output = try #require(environment["STORES_TZ_REPORT"])
    var root = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { root.deleteLastPathComponent() }
    let corpus =
      environment["STORES_TZ_CORPUS"]
      ?? root.appendingPathComponent("shared/corpus/geojson/starbucks_worldwide_2017.geojson").path
    let catalog = try Catalog.load(contentsOf: corpus)
    let locator = try locator()
    let columns = [
      "id", "latitude", "longitude", "country", "inferred", "inferred_no_country", "place",
      "place_country", "distance_km",
    ]
    var lines = [columns.joined(separator: "\t")]
    for store in catalog.stores {
      guard let coordinate = store.coordinate else { continue }
      let country = store[property: "addr:country"] ?? ""
      guard let guess = locator.timeZone(near: coordinate, country: country),
        let plain = locator.timeZone(near: coordinate)
      else { continue }
      lines.append(
        [
          store.id, "\(coordinate.latitude)", "\(coordinate.longitude)", country, guess.identifier,
          plain.identifier, guess.placeName, guess.countryCode,
          String(format: "%.3f", guess.distance.kilometers),
        ].joined(separator: "\t"))
    }
    try (lines.joined(separator: "\n") + "\n").write(toFile: output, atomically: true, encoding: .utf8)
    #expect(lines.count > 1)
  }
}
