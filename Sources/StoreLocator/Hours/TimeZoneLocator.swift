import GeoIndex

/// A time zone inferred for a point from a nearby populated place.
public struct TimeZoneGuess: Hashable, Sendable, CustomStringConvertible {
  /// The IANA time zone identifier of the place, e.g. `Europe/Oslo`.
  public let identifier: String
  /// The GeoNames name of the place the zone was taken from.
  public let placeName: String
  /// The place's ISO 3166-1 alpha-2 country code, e.g. `NO`.
  public let countryCode: String
  /// The place's first-level division as GeoNames codes it (`02` for Bavaria in `DE`, `CO` for
  /// Colorado in `US`; not ISO 3166-2), empty when the data has none. `HolidayDivisions` maps it
  /// to a region of the public-holiday data.
  public let division: String
  /// The place's position.
  public let placeCoordinate: Coordinate
  /// How far the place is from the point asked about. Large distances (say, over 100 km) mean
  /// the point is far from any town in the extract — at sea, or in a desert — and the guess is
  /// weak; pass `within:` to `timeZone(near:country:within:)` to get `nil` instead.
  public internal(set) var distance: Distance

  public init(
    identifier: String, placeName: String, countryCode: String, division: String = "",
    placeCoordinate: Coordinate, distance: Distance
  ) {
    self.identifier = identifier
    self.placeName = placeName
    self.countryCode = countryCode
    self.division = division
    self.placeCoordinate = placeCoordinate
    self.distance = distance
  }

  /// A note for people: `inferred from Tromsø (NO), 2.3 km away`.
  public var note: String {
    "inferred from \(placeName) (\(countryCode)), \(distance.kilometersText) away"
  }

  /// `Europe/Oslo, inferred from Tromsø (NO), 2.3 km away`.
  public var description: String { "\(identifier), \(note)" }
}

/// Infers the IANA time zone of a point from the populated places of a bundled GeoNames extract
/// (`Data/timezones/places.tsv`, made by `scripts/make_timezone_places.py`; CC BY 4.0, see
/// Data/README.md).
///
/// The rule: take the `candidateCount` (8) places nearest to the point. When the caller knows
/// the point's country (a store's `addr:country`), the nearest of those places in that country
/// wins; otherwise, or when none of them is in that country, the nearest place wins. The
/// country preference fixes points near a border whose nearest town is across it (a store in
/// Niagara Falls, Ontario, is nearer to Niagara Falls, New York); limiting it to the few
/// nearest places keeps a wrong or odd country code from pulling the answer far away.
///
/// It is a heuristic: it is wrong near zone borders that do not follow a country border (US
/// states split between zones, Mexico, Indonesia), and far from any place. Data/README.md has
/// the measured agreement with polygon-based lookups.
public struct TimeZoneLocator: Sendable {
  /// How many nearest places the country preference looks at.
  public static let candidateCount = 8

  /// The bundled places file, `Data/timezones/places.tsv`.
  public static var bundledPath: String { DefaultData.dataDirectory + "/timezones/places.tsv" }

  /// The places, indexed.
  let tree: KDTree
  /// The distinct zone identifiers; `zoneOfPlace` indexes this.
  let zones: [String]
  let zoneOfPlace: [UInt16]
  /// Each place's country code as two ASCII bytes (`high << 8 | low`), 0 when absent.
  let countryOfPlace: [UInt16]
  /// Byte range of each place's name in `text`; names are decoded only for answers.
  let nameStart: [UInt32]
  let nameEnd: [UInt32]
  /// Byte range of each place's first-level division code (GeoNames admin1) in `text`.
  let divisionStart: [UInt32]
  let divisionEnd: [UInt32]
  let text: [UInt8]

  /// The number of places.
  public var count: Int { tree.count }

  /// The distinct time zones of the places, sorted.
  public var timeZoneIdentifiers: [String] { zones.sorted() }

  /// Loads a places file (the format is in `scripts/make_timezone_places.py`).
  ///
  /// - Throws: `CatalogError` with `.inputMissing` when the file cannot be read, `.badData` (with
  ///   the line number) when a line is not a place.
  /// - Complexity: O(n log n) for n places (about 50 ms in a release build for the bundled 69,472).
  public init(contentsOf path: String) throws(CatalogError) {
    try self.init(
      bytes: FileBytes.read(path, maximumBytes: InputLimits.storeFileBytes, what: "places file"), source: path
    )
  }

  /// Builds a locator from the text of a places file.
  public init(bytes: [UInt8], source: String) throws(CatalogError) {
    var coordinates: [Coordinate] = []
    var zones: [String] = []
    var zoneIndex: [String: UInt16] = [:]
    var zoneOfPlace: [UInt16] = []
    var countryOfPlace: [UInt16] = []
    var nameStart: [UInt32] = []
    var nameEnd: [UInt32] = []
    var divisionStart: [UInt32] = []
    var divisionEnd: [UInt32] = []
    guard bytes.count < Int(UInt32.max) else {
      throw CatalogError(.badData, source: source, "the places file is too large")
    }
    let estimate = bytes.count / 48
    coordinates.reserveCapacity(estimate)
    zoneOfPlace.reserveCapacity(estimate)
    countryOfPlace.reserveCapacity(estimate)
    nameStart.reserveCapacity(estimate)
    nameEnd.reserveCapacity(estimate)
    divisionStart.reserveCapacity(estimate)
    divisionEnd.reserveCapacity(estimate)

    let tab = UInt8(ascii: "\t")
    let newline = UInt8(ascii: "\n")
    var failure: CatalogError?
    bytes.withUnsafeBufferPointer { buffer in
      let end = buffer.count
      var lineStart = 0
      var lineNumber = 0
      // The previous row's zone, to skip the dictionary for runs of the same zone.
      var previousZone: (start: Int, end: Int, index: UInt16)?
      func fail(_ message: String) {
        failure = CatalogError(.badData, source: source, "line \(lineNumber): \(message)")
      }
      if end >= 3, buffer[0] == 0xEF, buffer[1] == 0xBB, buffer[2] == 0xBF { lineStart = 3 }
      while lineStart < end {
        lineNumber += 1
        var lineEnd = lineStart
        while lineEnd < end, buffer[lineEnd] != newline { lineEnd += 1 }
        defer { lineStart = lineEnd + 1 }
        var contentEnd = lineEnd
        if contentEnd > lineStart, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
        if contentEnd == lineStart || buffer[lineStart] == UInt8(ascii: "#") { continue }

        // Six fields: latitude, longitude, zone, country, admin1, name; the search's three
        // (population, division, alternate names) and the division's ISO code may follow and are
        // read by `PlaceIndex`.
        var fieldStarts: (Int, Int, Int, Int, Int, Int, Int) = (lineStart, 0, 0, 0, 0, 0, 0)
        var fieldCount = 1
        var position = lineStart
        while position < contentEnd {
          if buffer[position] == tab {
            switch fieldCount {
            case 1: fieldStarts.1 = position + 1
            case 2: fieldStarts.2 = position + 1
            case 3: fieldStarts.3 = position + 1
            case 4: fieldStarts.4 = position + 1
            case 5: fieldStarts.5 = position + 1
            case 6: fieldStarts.6 = position + 1
            default: break
            }
            fieldCount += 1
          }
          position += 1
        }
        guard fieldCount == 6 || fieldCount == 9 || fieldCount == 10 else {
          fail("expected 6, 9 or 10 tab-separated fields, found \(fieldCount)")
          return
        }
        guard
          let latitude = Self.parseDecimal(buffer, fieldStarts.0, fieldStarts.1 - 1),
          let longitude = Self.parseDecimal(buffer, fieldStarts.1, fieldStarts.2 - 1),
          (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude)
        else {
          fail("expected a latitude and a longitude in degrees")
          return
        }
        let zoneStart = fieldStarts.2
        let zoneEnd = fieldStarts.3 - 1
        guard zoneEnd > zoneStart, zoneEnd - zoneStart < 64 else {
          fail("expected a time zone identifier")
          return
        }
        let zone: UInt16
        if let previous = previousZone, previous.end - previous.start == zoneEnd - zoneStart,
          memcmpEqual(buffer, previous.start, zoneStart, zoneEnd - zoneStart)
        {
          zone = previous.index
        } else {
          let identifier = String(decoding: buffer[zoneStart..<zoneEnd], as: UTF8.self)
          if let known = zoneIndex[identifier] {
            zone = known
          } else {
            guard zones.count < Int(UInt16.max) else {
              fail("too many time zones")
              return
            }
            zone = UInt16(zones.count)
            zoneIndex[identifier] = zone
            zones.append(identifier)
          }
        }
        previousZone = (zoneStart, zoneEnd, zone)

        let countryStart = fieldStarts.3
        let countryLength = fieldStarts.4 - 1 - countryStart
        var country: UInt16 = 0
        if countryLength == 2 {
          country =
            UInt16(Self.upper(buffer[countryStart])) << 8
            | UInt16(Self.upper(buffer[countryStart + 1]))
        } else if countryLength != 0 {
          fail("expected a two-letter country code")
          return
        }

        coordinates.append(Coordinate(uncheckedLatitude: latitude, longitude: longitude))
        zoneOfPlace.append(zone)
        countryOfPlace.append(country)
        nameStart.append(UInt32(fieldStarts.5))
        nameEnd.append(UInt32(fieldCount == 6 ? contentEnd : fieldStarts.6 - 1))
        divisionStart.append(UInt32(fieldStarts.4))
        divisionEnd.append(UInt32(fieldStarts.5 - 1))
      }
    }
    if let failure { throw failure }
    guard !coordinates.isEmpty else {
      throw CatalogError(.badData, source: source, "no places in the file")
    }
    self.tree = KDTree(coordinates: coordinates)
    self.zones = zones
    self.zoneOfPlace = zoneOfPlace
    self.countryOfPlace = countryOfPlace
    self.nameStart = nameStart
    self.nameEnd = nameEnd
    self.divisionStart = divisionStart
    self.divisionEnd = divisionEnd
    self.text = bytes
  }

  /// The time zone at `coordinate`, from the nearest place (preferring places in `country`).
  ///
  /// - Parameters:
  ///   - coordinate: The point, e.g. a store's position.
  ///   - country: The point's ISO 3166-1 alpha-2 country code when known (a store's
  ///     `addr:country`); among the `candidateCount` nearest places, the nearest one in this
  ///     country is used. Anything that is not two ASCII letters is ignored.
  ///   - maximumDistance: When given, places farther than this are not used, and the result is
  ///     `nil` when there is none.
  /// - Returns: The guess, or `nil` only when no place is within `maximumDistance`. Without a
  ///   limit, a point in the middle of an ocean still gets the zone of the nearest place, with
  ///   its (large) `distance`: look at it before trusting the guess.
  /// - Complexity: O(log n) expected.
  public func timeZone(
    near coordinate: Coordinate, country: String? = nil, within maximumDistance: Distance? = nil
  ) -> TimeZoneGuess? {
    nearestPlace(to: coordinate, country: country, within: maximumDistance).map(guess)
  }

  /// The place `timeZone(near:country:within:)` takes its guess from, as a neighbour in the
  /// places' tree: for a caller that makes the guess of each place once (`guess(_:)`).
  func nearestPlace(to coordinate: Coordinate, country: String?, within maximumDistance: Distance?)
    -> Neighbor?
  {
    let wanted = country.flatMap(Self.countryKey)
    guard let nearest = tree.nearest(1, to: coordinate, within: maximumDistance).first else { return nil }
    guard let wanted, countryOfPlace[nearest.index] != wanted else { return nearest }
    return preferredPlace(
      among: tree.nearest(Self.candidateCount, to: coordinate, within: maximumDistance), wanted)
  }

  /// `nearestPlace(to:country:within: nil)` of many points at once, with the same answers, on
  /// `parts` threads.
  ///
  /// Each point's nearest place is searched for alone: that is one quick search (about 0.6 µs
  /// on the bundled places). Those whose nearest place is not in their country, which need the
  /// `candidateCount` nearest (about 1.6 µs alone), are then searched for together
  /// (`NearestBatch`, about half the time when they are many). When most points with a country
  /// would need them (`looksElsewhereMostly`), all of those are batched at once instead: the
  /// batch's nearest is the search alone's, which would only be made twice (a million points
  /// uniform on the sphere, countries drawn apart from positions: 0.89 µs a point batched,
  /// against 0.62 + 0.89 µs).
  ///
  /// - Parameter countries: Each point's country key (`countryKey`), 0 when it has none.
  /// - Returns: Each point's place.
  func nearestPlaces(to points: [Coordinate], countries: [UInt16], parts: Int) -> [Neighbor?] {
    let count = points.count
    let batchesEveryCountry = looksElsewhereMostly(points, countries)
    // Each point's nearest place, but for those batched at once.
    var places = [Neighbor?](unsafeUninitializedCapacity: count) { buffer, initialized in
      let shared = SharedSlots(slots: buffer)
      ActiveProcessors.run(parts: parts) { part in
        for point in ActiveProcessors.range(part, of: parts, in: count) {
          let isBatched = batchesEveryCountry && countries[point] != 0
          (shared.slots.baseAddress! + point).initialize(
            to: isBatched ? nil : tree.nearest(1, to: points[point]).first)
        }
      }
      initialized = count
    }
    let farther = places.indices.filter { point in
      guard countries[point] != 0 else { return false }
      if batchesEveryCountry { return true }
      guard let nearest = places[point] else { return false }
      return countryOfPlace[nearest.index] != countries[point]
    }
    guard !farther.isEmpty else { return places }
    let batch = NearestBatch(tree: tree, k: Self.candidateCount, queries: farther.map { points[$0] })
    let wanted = batch.inBatchOrder(farther.map { countries[$0] })
    let preferred = [Neighbor?](unsafeUninitializedCapacity: batch.count) { buffer, initialized in
      // Each part fills its own positions of the batch's order.
      let shared = SharedSlots(slots: buffer)
      ActiveProcessors.run(parts: parts) { part in
        var neighbors: [Neighbor] = []
        batch.answer(ActiveProcessors.range(part, of: parts, in: batch.count)) { position, search in
          search.nearest(Self.candidateCount, into: &neighbors)
          (shared.slots.baseAddress! + position).initialize(
            to: preferredPlace(among: neighbors, wanted[position]))
        }
      }
      initialized = batch.count
    }
    for (point, place) in zip(farther, batch.inQueryOrder(preferred)) { places[point] = place }
    return places
  }

  /// Every how many points one is looked at by `looksElsewhereMostly`.
  static let sampleStep = 128

  /// Whether most of `points` with a country have their nearest place in another country, judged
  /// from every `sampleStep`-th point, when at least 64 of those have a country: a chain's file
  /// has its stores in their countries, a generated one may not.
  func looksElsewhereMostly(_ points: [Coordinate], _ countries: [UInt16]) -> Bool {
    var sampled = 0
    var elsewhere = 0
    for point in stride(from: 0, to: points.count, by: Self.sampleStep) where countries[point] != 0 {
      guard let nearest = tree.nearest(1, to: points[point]).first else { return false }
      sampled += 1
      if countryOfPlace[nearest.index] != countries[point] { elsewhere += 1 }
    }
    return sampled >= 64 && 2 * elsewhere > sampled
  }

  /// The rule of `timeZone(near:country:within:)` for a point whose nearest place is not in its
  /// country `wanted`, given its `candidateCount` nearest places: the nearest of them in `wanted`,
  /// else the nearest.
  private func preferredPlace(among neighbors: [Neighbor], _ wanted: UInt16) -> Neighbor? {
    neighbors.first { countryOfPlace[$0.index] == wanted } ?? neighbors.first
  }

  /// The guess of the place `neighbor` names, at its distance.
  func guess(_ neighbor: Neighbor) -> TimeZoneGuess {
    let index = neighbor.index
    let name = String(decoding: text[Int(nameStart[index])..<Int(nameEnd[index])], as: UTF8.self)
    let division = String(
      decoding: text[Int(divisionStart[index])..<Int(divisionEnd[index])], as: UTF8.self)
    let country = countryOfPlace[index]
    let countryBytes = [UInt8(truncatingIfNeeded: country >> 8), UInt8(truncatingIfNeeded: country)]
    let countryCode = country == 0 ? "" : String(decoding: countryBytes, as: UTF8.self)
    return TimeZoneGuess(
      identifier: zones[Int(zoneOfPlace[index])], placeName: name, countryCode: countryCode,
      division: division, placeCoordinate: tree.coordinates[index], distance: neighbor.distance)
  }

  /// `"no"` → the key of `NO`; `nil` unless two ASCII letters.
  static func countryKey(_ code: String) -> UInt16? {
    let utf8 = code.utf8
    guard utf8.count == 2, let first = utf8.first, let last = utf8.last, isLetter(first), isLetter(last)
    else {
      return nil
    }
    return UInt16(upper(first)) << 8 | UInt16(upper(last))
  }

  static func isLetter(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
  }

  static func upper(_ byte: UInt8) -> UInt8 {
    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
  }

  /// A plain decimal (`-12.3456`, `7`, `+0.5`) in `buffer[start..<end]`, correctly rounded for up
  /// to 15 significant digits; `nil` for anything else.
  static func parseDecimal(_ buffer: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
    var position = start
    guard position < end else { return nil }
    var negative = false
    if buffer[position] == UInt8(ascii: "-") || buffer[position] == UInt8(ascii: "+") {
      negative = buffer[position] == UInt8(ascii: "-")
      position += 1
    }
    var mantissa: Int64 = 0
    var digits = 0
    var fractionDigits = 0
    var seenPoint = false
    while position < end {
      let byte = buffer[position]
      if byte == UInt8(ascii: ".") {
        guard !seenPoint else { return nil }
        seenPoint = true
      } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
        guard digits < 15 else { return nil }
        mantissa = mantissa * 10 + Int64(byte - UInt8(ascii: "0"))
        digits += 1
        if seenPoint { fractionDigits += 1 }
      } else {
        return nil
      }
      position += 1
    }
    guard digits > 0 else { return nil }
    // Both operands are exact, so one division is correctly rounded.
    var value = Double(mantissa)
    if fractionDigits > 0 { value /= powersOfTen[fractionDigits] }
    return negative ? -value : value
  }

  static let powersOfTen: [Double] = (0...15).map { exponent in
    var value = 1.0
    for _ in 0..<exponent { value *= 10 }
    return value
  }
}

/// Whether `buffer[a..<a+count]` equals `buffer[b..<b+count]`.
private func memcmpEqual(
  _ buffer: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, _ count: Int
) -> Bool {
  for offset in 0..<count where buffer[a + offset] != buffer[b + offset] { return false }
  return true
}
