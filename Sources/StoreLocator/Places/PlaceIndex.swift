import GeoIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Finds populated places by name: autocomplete by prefix, and the one place a name such as
/// "Seattle" or "Springfield, IL" stands for.
///
/// The places are those of `Data/timezones/places.tsv` (GeoNames places of 5,000 people or more,
/// with the alternate names `scripts/make_timezone_places.py` keeps), the same places time zones
/// are inferred from. Every name and alternate name is folded (`PlaceNameFolding`: case, accents,
/// ß → ss, punctuation) and the keys are sorted, so a prefix is one binary search and a scan of
/// the names that start with it.
public final class PlaceIndex: Sendable {
  /// The longest query, in characters.
  public static let maximumQueryLength = 100
  /// The most results one search returns.
  public static let maximumLimit = 50
  /// How many places an ambiguous name lists.
  public static let maximumCandidates = 10
  /// How many close names an unknown name suggests.
  public static let maximumSuggestions = 5
  /// The bonus of a whole-name match over a longer name that merely starts with the query.
  public static let exactMatchBonus = 1.0
  /// How many times as populous as every other place a place known by a name must be to be
  /// taken for it, when no place has the name as its own (see `resolve`).
  public static let alternateNameDominance = 100
  /// The distance at which being far costs a factor of 4 in population (see `search`).
  public static let distanceScaleKilometers = 100.0

  let text: [UInt8]
  let coordinates: [Coordinate]
  let populations: [Int]
  let countries: [UInt16]
  /// Byte ranges in `text` of each place's name, division code, division name and the division's
  /// ISO 3166-2 code without the country (`WA`, `ON`; a qualifier only).
  let nameRanges: [Range<UInt32>]
  let divisionCodeRanges: [Range<UInt32>]
  let divisionNameRanges: [Range<UInt32>]
  let divisionISORanges: [Range<UInt32>]
  /// One entry per searchable name: its place, its byte range in `text`, its folded key's range
  /// in `keys`, and whether it is the place's own name.
  let entryPlace: [UInt32]
  let entryName: [Range<UInt32>]
  let entryKey: [Range<UInt32>]
  let keys: [UInt8]
  /// The entries sorted by key (then by place, main name first).
  let sorted: [UInt32]

  /// The number of places.
  public var count: Int { coordinates.count }
  /// The number of searchable names (names and alternate names).
  public var nameCount: Int { entryPlace.count }

  /// Loads a places file (the format is in `scripts/make_timezone_places.py`). A file of six
  /// fields (no population, division or alternate names) is searched by its names alone; one of
  /// nine has no ISO division codes.
  /// - Throws: `CatalogError` as `TimeZoneLocator` does.
  public convenience init(contentsOf path: String) throws(CatalogError) {
    try self.init(
      bytes: FileBytes.read(path, maximumBytes: InputLimits.storeFileBytes, what: "places file"), source: path
    )
  }

  /// The index of the bundled places (`TimeZoneLocator.bundledPath`), built once per process on
  /// first use (about 0.25 s in a release build; Benchmarks/README.md, "Place search").
  public static func bundled() throws(PlaceLookupError) -> PlaceIndex {
    switch bundledIndex {
    case .success(let index): return index
    case .failure(let error):
      throw PlaceLookupError(.unavailable, "place names cannot be looked up: \(error.description)")
    }
  }

  private static let bundledIndex: Result<PlaceIndex, CatalogError> = {
    do throws(CatalogError) {
      return .success(try PlaceIndex(contentsOf: TimeZoneLocator.bundledPath))
    } catch {
      return .failure(error)
    }
  }()

  /// Builds the index from the text of a places file.
  public init(bytes: [UInt8], source: String) throws(CatalogError) {
    guard bytes.count < Int(UInt32.max) else {
      throw CatalogError(.badData, source: source, "the places file is too large")
    }
    var coordinates: [Coordinate] = []
    var populations: [Int] = []
    var countries: [UInt16] = []
    var nameRanges: [Range<UInt32>] = []
    var divisionCodeRanges: [Range<UInt32>] = []
    var divisionNameRanges: [Range<UInt32>] = []
    var divisionISORanges: [Range<UInt32>] = []
    var entryPlace: [UInt32] = []
    var entryName: [Range<UInt32>] = []
    var entryKey: [Range<UInt32>] = []
    var keys: [UInt8] = []
    var foldCache: [Unicode.Scalar: [UInt8]] = [:]
    keys.reserveCapacity(bytes.count / 2)
    var failure: CatalogError?

    bytes.withUnsafeBufferPointer { buffer in
      var lineStart = 0
      var lineNumber = 0
      func addName(_ range: Range<Int>, place: Int) {
        let key = PlaceNameFolding.key(
          String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self), cache: &foldCache)
        guard !key.isEmpty else { return }
        entryPlace.append(UInt32(place))
        entryName.append(UInt32(range.lowerBound)..<UInt32(range.upperBound))
        entryKey.append(UInt32(keys.count)..<UInt32(keys.count + key.count))
        keys.append(contentsOf: key)
      }
      while lineStart < buffer.count {
        lineNumber += 1
        var lineEnd = lineStart
        while lineEnd < buffer.count, buffer[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
        defer { lineStart = lineEnd + 1 }
        var contentEnd = lineEnd
        if contentEnd > lineStart, buffer[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
        if contentEnd == lineStart || buffer[lineStart] == UInt8(ascii: "#") { continue }
        var fields: [Range<Int>] = []
        var fieldStart = lineStart
        for position in lineStart...contentEnd
        where position == contentEnd || buffer[position] == UInt8(ascii: "\t") {
          fields.append(fieldStart..<position)
          fieldStart = position + 1
        }
        guard fields.count == 6 || fields.count == 9 || fields.count == 10 else {
          failure = CatalogError(
            .badData, source: source,
            "line \(lineNumber): expected 6, 9 or 10 tab-separated fields, found \(fields.count)")
          return
        }
        guard
          let latitude = TimeZoneLocator.parseDecimal(buffer, fields[0].lowerBound, fields[0].upperBound),
          let longitude = TimeZoneLocator.parseDecimal(buffer, fields[1].lowerBound, fields[1].upperBound),
          (-90.0...90.0).contains(latitude), (-180.0...180.0).contains(longitude)
        else {
          failure = CatalogError(
            .badData, source: source, "line \(lineNumber): expected a latitude and a longitude in degrees")
          return
        }
        let country =
          fields[3].count == 2
          ? UInt16(buffer[fields[3].lowerBound]) << 8 | UInt16(buffer[fields[3].lowerBound + 1]) : 0
        var population = 0
        if fields.count >= 9 {
          for position in fields[6] {
            let digit = buffer[position] &- UInt8(ascii: "0")
            guard digit < 10, population < Int.max / 100 else {
              failure = CatalogError(.badData, source: source, "line \(lineNumber): expected a population")
              return
            }
            population = population * 10 + Int(digit)
          }
        }
        let place = coordinates.count
        coordinates.append(Coordinate(uncheckedLatitude: latitude, longitude: longitude))
        populations.append(population)
        countries.append(country)
        func range(_ field: Range<Int>) -> Range<UInt32> {
          UInt32(field.lowerBound)..<UInt32(field.upperBound)
        }
        nameRanges.append(range(fields[5]))
        divisionCodeRanges.append(range(fields[4]))
        divisionNameRanges.append(fields.count >= 9 ? range(fields[7]) : 0..<0)
        divisionISORanges.append(fields.count == 10 ? range(fields[9]) : 0..<0)
        addName(fields[5], place: place)
        if fields.count >= 9, !fields[8].isEmpty {
          var nameStart = fields[8].lowerBound
          for position in fields[8].lowerBound...fields[8].upperBound
          where position == fields[8].upperBound || buffer[position] == UInt8(ascii: "|") {
            if position > nameStart { addName(nameStart..<position, place: place) }
            nameStart = position + 1
          }
        }
      }
    }
    if let failure { throw failure }
    guard !coordinates.isEmpty else { throw CatalogError(.badData, source: source, "no places in the file") }

    var sorted = (0..<UInt32(entryPlace.count)).map { $0 }
    keys.withUnsafeBufferPointer { keyBytes in
      sorted.sort { a, b in
        let order = Self.compare(keyBytes, entryKey[Int(a)], keyBytes, entryKey[Int(b)])
        if order != 0 { return order < 0 }
        return a < b  // entries of one place are in file order, its own name first
      }
    }
    self.text = bytes
    self.coordinates = coordinates
    self.populations = populations
    self.countries = countries
    self.nameRanges = nameRanges
    self.divisionCodeRanges = divisionCodeRanges
    self.divisionNameRanges = divisionNameRanges
    self.divisionISORanges = divisionISORanges
    self.entryPlace = entryPlace
    self.entryName = entryName
    self.entryKey = entryKey
    self.keys = keys
    self.sorted = sorted
  }

  /// Byte order of two keys: negative, zero or positive.
  private static func compare(
    _ a: UnsafeBufferPointer<UInt8>, _ aRange: Range<UInt32>, _ b: UnsafeBufferPointer<UInt8>,
    _ bRange: Range<UInt32>
  ) -> Int {
    let aCount = aRange.count
    let bCount = bRange.count
    let shared = min(aCount, bCount)
    var offset = 0
    while offset < shared {
      let x = a[Int(aRange.lowerBound) + offset]
      let y = b[Int(bRange.lowerBound) + offset]
      if x != y { return Int(x) - Int(y) }
      offset += 1
    }
    return aCount - bCount
  }

  // MARK: - Places

  func string(_ range: Range<UInt32>) -> String {
    String(decoding: text[Int(range.lowerBound)..<Int(range.upperBound)], as: UTF8.self)
  }

  /// The place at `index` (file order).
  func place(_ index: Int) -> Place {
    let country = countries[index]
    let countryCode =
      country == 0
      ? ""
      : String(
        decoding: [UInt8(truncatingIfNeeded: country >> 8), UInt8(truncatingIfNeeded: country)], as: UTF8.self
      )
    let divisionName = divisionNameRanges[index].isEmpty ? nil : string(divisionNameRanges[index])
    return Place(
      name: string(nameRanges[index]), countryCode: countryCode,
      divisionCode: string(divisionCodeRanges[index]),
      divisionName: divisionName, coordinate: coordinates[index], population: populations[index])
  }

  /// The positions in `sorted` of the entries whose key starts with `prefix` (`exact`: equals it).
  private func entries(matching prefix: [UInt8], exact: Bool) -> Range<Int> {
    keys.withUnsafeBufferPointer { keyBytes in
      prefix.withUnsafeBufferPointer { query in
        let queryRange = UInt32(0)..<UInt32(query.count)
        // The first entry whose key is not below the query.
        var low = 0
        var high = sorted.count
        while low < high {
          let middle = (low + high) / 2
          if Self.compare(keyBytes, entryKey[Int(sorted[middle])], query, queryRange) < 0 {
            low = middle + 1
          } else {
            high = middle
          }
        }
        var end = low
        while end < sorted.count {
          let key = entryKey[Int(sorted[end])]
          if exact {
            guard key.count == query.count, Self.compare(keyBytes, key, query, queryRange) == 0 else { break }
          } else {
            guard key.count >= query.count,
              Self.compare(
                keyBytes, key.lowerBound..<(key.lowerBound + UInt32(query.count)), query, queryRange) == 0
            else { break }
          }
          end += 1
        }
        return low..<end
      }
    }
  }

  // MARK: - Search

  /// The places whose name or an alternate name starts with `query` (folded: case, accents and
  /// punctuation do not matter), best first, each place once.
  ///
  /// The ranking: score = log10(max(population, 1)) + `exactMatchBonus` (1) when the whole name
  /// matches − 2 · log10(1 + distance in km / `distanceScaleKilometers` (100)) when `near` is
  /// given. So a whole-name match counts as ten times the people; 100 km away costs a factor of
  /// 4 in population, 1,000 km a factor of about 120. Ties go to the larger population, then the
  /// name. A place matched by several names reports its best; at equal scores its own name.
  ///
  /// - Parameters:
  ///   - query: What was typed so far; must fold to at least one letter or digit.
  ///   - near: Ranks nearer places first, and gives each result its `distance`.
  ///   - limit: 1...`maximumLimit`.
  /// - Complexity: O(log n + m) for the m names that start with the query.
  public func search(_ query: String, near: Coordinate? = nil, limit: Int = 10) -> [PlaceMatch] {
    let key = PlaceNameFolding.key(query)
    guard !key.isEmpty, limit > 0 else { return [] }
    let range = entries(matching: key, exact: false)
    // The best entry of each place: (score, entry).
    var best: [UInt32: (score: Double, entry: UInt32)] = [:]
    for position in range {
      let entry = sorted[position]
      let place = entryPlace[Int(entry)]
      var score = log10(Double(max(populations[Int(place)], 1)))
      if entryKey[Int(entry)].count == key.count { score += Self.exactMatchBonus }
      if let near {
        let kilometers = near.distance(to: coordinates[Int(place)]).kilometers
        score -= 2 * log10(1 + kilometers / Self.distanceScaleKilometers)
      }
      if let known = best[place], known.score > score || (known.score == score && known.entry < entry) {
        continue
      }
      best[place] = (score, entry)
    }
    let ranked = best.sorted { a, b in
      if a.value.score != b.value.score { return a.value.score > b.value.score }
      let (aPopulation, bPopulation) = (populations[Int(a.key)], populations[Int(b.key)])
      if aPopulation != bPopulation { return aPopulation > bPopulation }
      let (aName, bName) = (string(nameRanges[Int(a.key)]), string(nameRanges[Int(b.key)]))
      if aName != bName { return aName < bName }
      return a.key < b.key
    }
    return ranked.prefix(min(limit, Self.maximumLimit)).map { placeIndex, found in
      match(entry: Int(found.entry), place: Int(placeIndex), near: near, score: found.score)
    }
  }

  private func match(entry: Int, place index: Int, near: Coordinate?, score: Double) -> PlaceMatch {
    let place = place(index)
    let isOwnName = entryName[entry] == nameRanges[index]
    return PlaceMatch(
      place: place, matchedName: isOwnName ? nil : string(entryName[entry]),
      distance: near.map { $0.distance(to: place.coordinate) }, score: score)
  }

  // MARK: - Resolve

  /// The one place `text` names: a name that, folded, is the whole name or an alternate name of
  /// exactly one place ("Seattle", "zurich"), or a name with qualifiers after commas that narrow
  /// it to one: a country code, a division code (GeoNames' or ISO 3166-2's) or a division name
  /// ("Paris, FR", "Springfield, IL", "Perth, WA", "Springfield, Illinois, US"). Each qualifier
  /// must match the place's country or division. A place's own name comes before smaller places'
  /// alternate names (`contenders`).
  ///
  /// - Throws: `PlaceLookupError`: `.ambiguous` with the candidates (most populous first), never
  ///   a guess; `.unknown` with close names; `.malformed` for empty or over-long text.
  public func resolve(_ text: String) throws(PlaceLookupError) -> PlaceMatch {
    guard text.unicodeScalars.count <= Self.maximumQueryLength else {
      throw PlaceLookupError(
        .malformed,
        "a place name is at most \(Self.maximumQueryLength) characters (got \(text.unicodeScalars.count))")
    }
    let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { PlaceNameFolding.key($0) }
    guard let nameKey = parts.first, !nameKey.isEmpty else {
      throw PlaceLookupError(
        .malformed,
        "\(MessageText.quoted(text)) is not a place name: expected a name such as \"Seattle\" or \"Paris, FR\""
      )
    }
    let qualifiers = Array(parts.dropFirst())
    guard qualifiers.count <= 2, !qualifiers.contains(where: \.isEmpty) else {
      throw PlaceLookupError(
        .malformed,
        "\(MessageText.quoted(text)) is not a place name: expected NAME, NAME, COUNTRY or NAME, DIVISION, COUNTRY (such as \"Springfield, Illinois, US\")"
      )
    }
    var named: [Int] = []
    var entryOfPlace: [Int: Int] = [:]
    for position in entries(matching: nameKey, exact: true) {
      let entry = Int(sorted[position])
      let place = Int(entryPlace[entry])
      if entryOfPlace[place] == nil {
        entryOfPlace[place] = entry
        named.append(place)
      }
    }
    let pieces = text.split(separator: ",", omittingEmptySubsequences: false).map(Self.trimmed)
    let displayed = MessageText.quoted(pieces[0])
    guard !named.isEmpty else {
      let suggestions = self.suggestions(for: nameKey)
      let hint =
        suggestions.isEmpty
        ? "" : "; did you mean " + suggestions.map(\.label).joined(separator: " or ") + "?"
      throw PlaceLookupError(
        .unknown,
        "no place is named \(displayed) (the places known are those of 5,000 people or more)\(hint); "
          + "or give LAT,LON in degrees, such as 47.6062,-122.3321",
        suggestions: suggestions)
    }
    let qualified = named.filter { place in qualifiers.allSatisfy { matches($0, place: place) } }
    let byPopulation = { (places: [Int]) in
      places.sorted {
        self.populations[$0] != self.populations[$1] ? self.populations[$0] > self.populations[$1] : $0 < $1
      }
    }
    let contenders = self.contenders(qualified, entryOfPlace: entryOfPlace)
    if contenders.count == 1, let only = contenders.first, let entry = entryOfPlace[only] {
      return match(entry: entry, place: only, near: nil, score: log10(Double(max(populations[only], 1))))
    }
    let listed = byPopulation(
      qualified.isEmpty ? self.contenders(named, entryOfPlace: entryOfPlace) : contenders)
    let candidates = listed.prefix(Self.maximumCandidates).map { place($0) }
    let more = listed.count > candidates.count ? "; and \(listed.count - candidates.count) more" : ""
    let list = candidates.map(\.labelWithPopulation).joined(separator: "; ") + more
    if qualified.isEmpty {
      let asked = pieces.dropFirst().joined(separator: ", ")
      throw PlaceLookupError(
        .unknown,
        "no place named \(displayed) is in \(MessageText.quoted(asked)); places named \(displayed): \(list)",
        suggestions: candidates)
    }
    let example =
      candidates.first.map {
        " such as \"\($0.name), \($0.division.isEmpty ? $0.countryCode : "\($0.division), \($0.countryCode)")\""
      } ?? ""
    throw PlaceLookupError(
      .ambiguous,
      "\(displayed) names \(listed.count) places; add the division or country\(example), or give LAT,LON: \(list)",
      candidates: candidates)
  }

  /// Of the places a name matched, those it may mean. A place's own name comes before other
  /// places' alternate names: "Chicago" is Chicago, Illinois (2.7 million people), although
  /// GeoNames lists "Chicago" among the names of Willard, Ohio (6,063). An alternate name still
  /// counts when its place is larger than every place whose own name it is: "St. Petersburg" is
  /// the own name of the one in Florida (257,083) and another name of Saint Petersburg, Russia
  /// (5.4 million), so it stays ambiguous. Places that share an own name are never told apart by
  /// size ("Paris").
  ///
  /// Where no place has the name as its own, every match counts, unless one is more than
  /// `alternateNameDominance` times as populous as each of the others: "New York" is no place's
  /// own name, and New York City (8.8 million) is 900 times Niu-York, Ukraine (9,735), the next
  /// place known by it. 102 names of the bundled places resolve so; at 30 times it would be 345,
  /// with pairs such as Guangzhou and Zhanjiang (11 times) that people do confuse.
  private func contenders(_ places: [Int], entryOfPlace: [Int: Int]) -> [Int] {
    let own = Set(
      places.filter { place in entryOfPlace[place].map { entryName[$0] == nameRanges[place] } ?? false })
    guard let largestOwn = own.map({ populations[$0] }).max() else {
      let bySize = places.sorted { populations[$0] > populations[$1] }
      if bySize.count > 1,
        populations[bySize[0]] > Self.alternateNameDominance * max(populations[bySize[1]], 1)
      {
        return [bySize[0]]
      }
      return places
    }
    return places.filter { own.contains($0) || populations[$0] > largestOwn }
  }

  /// `text` without spaces around it.
  static func trimmed(_ text: Substring) -> String {
    String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }

  /// Whether a folded qualifier is the place's country code, or its division's GeoNames code,
  /// ISO 3166-2 code (`WA`, `ON`) or name.
  private func matches(_ qualifier: [UInt8], place: Int) -> Bool {
    let country = countries[place]
    if qualifier.count == 2, UInt16(qualifier[0] &- 32) << 8 | UInt16(qualifier[1] &- 32) == country {
      return true
    }
    return [divisionCodeRanges[place], divisionISORanges[place], divisionNameRanges[place]].contains {
      range in
      !range.isEmpty && PlaceNameFolding.key(string(range)) == qualifier
    }
  }

  /// Places whose names are within two edits of `key` (for keys of 4 bytes or more), then the
  /// most populous names starting with it; each place once, at most `maximumSuggestions`.
  func suggestions(for key: [UInt8]) -> [Place] {
    var close: [(edits: Int, place: Int)] = []
    if key.count >= 4 {
      let bound = key.count >= 8 ? 3 : 2
      keys.withUnsafeBufferPointer { keyBytes in
        for entry in 0..<entryPlace.count {
          let range = entryKey[entry]
          guard abs(range.count - key.count) < bound else { continue }
          let candidate = UnsafeBufferPointer(
            rebasing: keyBytes[Int(range.lowerBound)..<Int(range.upperBound)])
          if let edits = EditDistance.between(candidate, key, below: bound) {
            close.append((edits, Int(entryPlace[entry])))
          }
        }
      }
    }
    close.sort { $0.edits != $1.edits ? $0.edits < $1.edits : populations[$0.place] > populations[$1.place] }
    var chosen: [Int] = []
    for (_, place) in close where !chosen.contains(place) {
      chosen.append(place)
      if chosen.count == Self.maximumSuggestions { break }
    }
    if chosen.count < Self.maximumSuggestions {
      var prefixPlaces: [Int] = []
      for position in entries(matching: key, exact: false) {
        let place = Int(entryPlace[Int(sorted[position])])
        if !prefixPlaces.contains(place) { prefixPlaces.append(place) }
      }
      prefixPlaces.sort { populations[$0] > populations[$1] }
      for place in prefixPlaces where !chosen.contains(place) {
        chosen.append(place)
        if chosen.count == Self.maximumSuggestions { break }
      }
    }
    return chosen.map { place($0) }
  }
}
