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
  /// What a search takes off the score of a place found by the start of one of its alternate
  /// names, not its own: 1.5, a factor of about 30 in population (see `search`).
  public static let alternateNamePenalty = 1.5
  /// What a search takes off when the whole alternate name was typed: 2, so that against a
  /// whole own name it counts as a hundredth of the people, as `alternateNameDominance` does
  /// when a name is resolved.
  public static let wholeAlternateNamePenalty = 2.0
  /// What a search takes off for the start of an alternate name of several words whose first
  /// word is not a word of the place's own name: 3, a factor of 1,000. Such names are mostly
  /// nicknames, long forms and parts named after another place ("New York Van Java" for
  /// Jakarta, "Londinium Orientale" for East London, "São Sebastião do Rio de Janeiro").
  public static let unrelatedAlternateNamePenalty = 3.0
  /// How many times the weight of every other place a name may mean the first must have for the
  /// name to be taken for it (see `resolve`): 10. The weight is the population, divided by
  /// (1 + distance / 100 km)² from the request's bias when there is one.
  public static let dominance = 10.0
  /// The same when the first place is known by the name only as an alternate name: 100
  /// ("New York" for New York City, "Cologne" for Köln; see `resolve`).
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
  /// in `keys`, and what kind of name it is (`NameKind`).
  let entryPlace: [UInt32]
  let entryKind: [NameKind]
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
    var entryKind: [NameKind] = []
    var entryName: [Range<UInt32>] = []
    var entryKey: [Range<UInt32>] = []
    var keys: [UInt8] = []
    var foldCache: [Unicode.Scalar: [UInt8]] = [:]
    keys.reserveCapacity(bytes.count / 2)
    var failure: CatalogError?

    bytes.withUnsafeBufferPointer { buffer in
      var lineStart = 0
      var lineNumber = 0
      // The words of the current place's own name, folded.
      var ownWords: [ArraySlice<UInt8>] = []
      func addName(_ range: Range<Int>, place: Int, own: Bool) {
        let key = PlaceNameFolding.key(
          String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self), cache: &foldCache)
        let space = UInt8(ascii: " ")
        if own { ownWords = key.split(separator: space) }
        guard !key.isEmpty else { return }
        var kind = NameKind.own
        if !own {
          kind = .alternate
          if let end = key.firstIndex(of: space), !ownWords.contains(key[..<end]) {
            kind = .unrelatedAlternate
          }
        }
        entryKind.append(kind)
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
        addName(fields[5], place: place, own: true)
        if fields.count >= 9, !fields[8].isEmpty {
          var nameStart = fields[8].lowerBound
          for position in fields[8].lowerBound...fields[8].upperBound
          where position == fields[8].upperBound || buffer[position] == UInt8(ascii: "|") {
            if position > nameStart { addName(nameStart..<position, place: place, own: false) }
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
    self.entryKind = entryKind
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
  /// punctuation do not matter), best first, each place once. Qualifiers after commas narrow the
  /// places as `resolve` reads them ("seattle, wa", "Paris, FR"); the last one may be the start
  /// of a country code, a division code or a division name, as it is being typed ("Perth, wes").
  ///
  /// The ranking: score = log10(max(population, 1)) + `exactMatchBonus` (1) when the whole name
  /// matches − 2 · log10(1 + distance in km / `distanceScaleKilometers` (100)) when `near` is
  /// given − a penalty when the name matched is one of the place's alternate names, not its own:
  /// `alternateNamePenalty` (1.5) for its start, `wholeAlternateNamePenalty` (2) for the whole
  /// of it, `unrelatedAlternateNamePenalty` (3) for the start of an alternate name of several
  /// words whose first word is not in the place's own name. So a whole-name match counts as ten
  /// times the people; 100 km away costs a factor of 4 in population, 1,000 km a factor of about
  /// 120; a place found by another name than its own needs about 30 times the people to come
  /// first ("sea" is Seattle before Kolkata, known also as "Sealdah"). Ties go to the larger
  /// population, then the name. A place matched by several names reports its best; at equal
  /// scores its own name.
  ///
  /// - Parameters:
  ///   - query: What was typed so far; its name must fold to at least one letter or digit.
  ///   - near: Ranks nearer places first, and gives each result its `distance`.
  ///   - limit: 1...`maximumLimit`.
  /// - Complexity: O(log n + m) for the m names that start with the query.
  public func search(_ query: String, near: Coordinate? = nil, limit: Int = 10) -> [PlaceMatch] {
    let parts = query.split(separator: ",", omittingEmptySubsequences: false)
    let key = PlaceNameFolding.key(parts[0])
    guard !key.isEmpty, limit > 0 else { return [] }
    var qualifiers = parts.dropFirst().map { PlaceNameFolding.key($0) }
    // A comma just typed, with nothing after it yet, narrows nothing.
    if qualifiers.last?.isEmpty == true { qualifiers.removeLast() }
    if qualifiers.contains(where: \.isEmpty) { return [] }
    let range = entries(matching: key, exact: false)
    // The best entry of each place: (score, entry).
    var best: [UInt32: (score: Double, entry: UInt32)] = [:]
    var qualified: [UInt32: Bool] = [:]
    for position in range {
      let entry = sorted[position]
      let place = entryPlace[Int(entry)]
      if !qualifiers.isEmpty {
        let passes =
          qualified[place]
          ?? qualifiers.indices.allSatisfy { index in
            matches(qualifiers[index], place: Int(place), asPrefix: index == qualifiers.count - 1)
          }
        qualified[place] = passes
        guard passes else { continue }
      }
      var score = log10(Double(max(populations[Int(place)], 1)))
      let whole = entryKey[Int(entry)].count == key.count
      if whole { score += Self.exactMatchBonus }
      switch entryKind[Int(entry)] {
      case .own: break
      case .alternate: score -= whole ? Self.wholeAlternateNamePenalty : Self.alternateNamePenalty
      case .unrelatedAlternate:
        score -= whole ? Self.wholeAlternateNamePenalty : Self.unrelatedAlternateNamePenalty
      }
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
  /// one place ("Seattle", "zurich"), or of a place that clearly outweighs the others that have
  /// it ("London", "Cologne"), or a name with qualifiers after commas that narrow it so: a
  /// country code, a division code (GeoNames' or ISO 3166-2's) or a division name ("Paris, FR",
  /// "Springfield, IL", "Perth, WA", "Springfield, Illinois, US"). Each qualifier must match the
  /// place's country or division.
  ///
  /// The rule, for a name several places have:
  /// 1. A place's own name comes before smaller places' alternate names (`contenders`).
  /// 2. `preference.country`, else `preference.storeCountries` when the request gives no bias:
  ///    when some of the places are in those countries, only they are weighed.
  /// 3. Each place weighs its population, divided by (1 + d / 100 km)² for its distance d from
  ///    `preference.bias` when there is one (as `search` ranks).
  /// 4. The heaviest is the place meant when it weighs at least `dominance` (10) times every
  ///    other, `alternateNameDominance` (100) times when the name is only one of its alternate
  ///    names. The others are the match's `alternatives`. Otherwise the name is refused.
  ///
  /// So "London" is London, England (8,961,989 people, 21 times London, Ontario) and "Paris" is
  /// Paris, France (86 times Paris, Texas); "Springfield" (Missouri 170,188, Massachusetts
  /// 154,341, Illinois 114,394, …) is refused, and is Springfield, Illinois with a bias near it.
  /// Population alone: the places file keeps no capital or division-seat status.
  ///
  /// - Parameters:
  ///   - text: The name, with up to two qualifiers after commas.
  ///   - preference: Where the person is or which country they mean, and the catalog's
  ///     countries, for names several places share.
  /// - Returns: The place, with the other places of the name as `alternatives` (heaviest first,
  ///   at most `maximumCandidates`).
  /// - Throws: `PlaceLookupError`: `.ambiguous` with the candidates (heaviest first) when no
  ///   place outweighs the others, never a guess; `.unknown` with close names; `.malformed` for
  ///   empty or over-long text.
  /// - Complexity: O(log n + m) for the m places with the name (n names in all); an unknown name
  ///   compares every name for the suggestions.
  public func resolve(_ text: String, preferring preference: PlacePreference = PlacePreference())
    throws(PlaceLookupError) -> PlaceMatch
  {
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
    let isOwnName = { (place: Int) in
      entryOfPlace[place].map { self.entryName[$0] == self.nameRanges[place] } ?? false
    }
    let contenders = self.contenders(qualified, isOwnName: isOwnName)
    // The places weighed: those of the preferred countries, when the name has some there.
    func inCountries(_ codes: Set<UInt16>, else all: [Int]) -> [Int] {
      let kept = all.filter { codes.contains(self.countries[$0]) }
      return kept.isEmpty ? all : kept
    }
    let weighed =
      preference.country.map { inCountries([Self.countryCode($0)], else: contenders) } ?? contenders
    let weight = { (place: Int) -> Double in
      let people = Double(max(self.populations[place], 1))
      guard let bias = preference.bias else { return people }
      let scaled = 1 + bias.distance(to: self.coordinates[place]).kilometers / Self.distanceScaleKilometers
      return people / (scaled * scaled)
    }
    let byWeight = { (places: [Int]) in
      places.map { (place: $0, weight: weight($0)) }.sorted {
        if $0.weight != $1.weight { return $0.weight > $1.weight }
        if self.populations[$0.place] != self.populations[$1.place] {
          return self.populations[$0.place] > self.populations[$1.place]
        }
        return $0.place < $1.place
      }.map(\.place)
    }
    func dominant(_ ranked: [Int]) -> Int? {
      guard let first = ranked.first else { return nil }
      let factor = isOwnName(first) ? Self.dominance : Double(Self.alternateNameDominance)
      return ranked.count == 1 || weight(first) >= factor * weight(ranked[1]) ? first : nil
    }
    var ranked = byWeight(weighed)
    // The last resort: the countries of the catalog's stores, when the request says nothing.
    if dominant(ranked) == nil, preference.bias == nil, preference.country == nil,
      !preference.storeCountries.isEmpty
    {
      let narrowed = byWeight(
        inCountries(Set(preference.storeCountries.map(Self.countryCode)), else: weighed))
      if dominant(narrowed) != nil { ranked = narrowed }
    }
    if let first = dominant(ranked), let entry = entryOfPlace[first] {
      let others = byWeight(contenders.filter { $0 != first }).prefix(Self.maximumCandidates)
      var found = match(
        entry: entry, place: first, near: nil, score: log10(Double(max(populations[first], 1))))
      found.alternatives = others.map { place($0) }
      return found
    }
    let listed = qualified.isEmpty ? byWeight(self.contenders(named, isOwnName: isOwnName)) : ranked
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
    let total = weighed.count < contenders.count ? "\(weighed.count) places there" : "\(listed.count) places"
    throw PlaceLookupError(
      .ambiguous,
      "\(displayed) names \(total) and none is \(Int(Self.dominance)) times as populous as the others; add the division or country\(example), or give LAT,LON: \(list)",
      candidates: candidates)
  }

  /// `GB` as the index stores a country code.
  static func countryCode(_ code: String) -> UInt16 {
    let bytes = Array(code.utf8)
    guard bytes.count == 2 else { return 0 }
    return UInt16(bytes[0] & ~0x20) << 8 | UInt16(bytes[1] & ~0x20)
  }

  /// Of the places a name matched, those it may mean. A place's own name comes before other
  /// places' alternate names: "Chicago" is Chicago, Illinois (2.7 million people), although
  /// GeoNames lists "Chicago" among the names of Willard, Ohio (6,063). An alternate name still
  /// counts when its place is larger than every place whose own name it is: "St. Petersburg" is
  /// the own name of the one in Florida (257,083) and another name of Saint Petersburg, Russia
  /// (5.4 million); then `resolve` asks the larger to outweigh the others
  /// `alternateNameDominance` (100) times, which Saint Petersburg does not (21 times), so the
  /// name stays ambiguous. Where no place has the name as its own, every match counts: "New
  /// York" is no place's own name, and New York City (8.8 million) is 900 times Niu-York,
  /// Ukraine (9,735), the next place known by it.
  private func contenders(_ places: [Int], isOwnName: (Int) -> Bool) -> [Int] {
    let own = Set(places.filter(isOwnName))
    guard let largestOwn = own.map({ populations[$0] }).max() else { return places }
    return places.filter { own.contains($0) || populations[$0] > largestOwn }
  }

  /// `text` without spaces around it.
  static func trimmed(_ text: Substring) -> String {
    String(text.drop(while: { $0 == " " }).reversed().drop(while: { $0 == " " }).reversed())
  }

  /// Whether a folded qualifier is the place's country code, or its division's GeoNames code,
  /// ISO 3166-2 code (`WA`, `ON`) or name (`asPrefix`: or the start of one of them).
  private func matches(_ qualifier: [UInt8], place: Int, asPrefix: Bool = false) -> Bool {
    let country = countries[place]
    let countryKey = [
      UInt8(truncatingIfNeeded: country >> 8) | 0x20, UInt8(truncatingIfNeeded: country) | 0x20,
    ]
    func fits(_ key: [UInt8]) -> Bool {
      asPrefix ? key.starts(with: qualifier) : key == qualifier
    }
    if country != 0, fits(countryKey) { return true }
    return [divisionCodeRanges[place], divisionISORanges[place], divisionNameRanges[place]].contains {
      range in
      !range.isEmpty && fits(PlaceNameFolding.key(string(range)))
    }
  }

  /// Places whose names are within two edits of `key` (three from 8 bytes; for keys of 4 bytes
  /// or more), best first, each place once, at most `maximumSuggestions`; when no name is so
  /// close, the most populous places with a name starting with it.
  ///
  /// A close name scores log10(population) − `suggestionEditCost` (2) per edit −
  /// `alternateNamePenalty` (1.5) when it is an alternate name, and only those within
  /// `suggestionSpread` (1.5) of the best are offered: "Seatle" is Seattle (one edit), not also
  /// Châtelet, known as "Shatle" (one edit, an alternate name of a place 22 times smaller), nor
  /// Salé (two edits).
  func suggestions(for key: [UInt8]) -> [Place] {
    var close: [(score: Double, place: Int)] = []
    if key.count >= 4 {
      let bound = key.count >= 8 ? 3 : 2
      keys.withUnsafeBufferPointer { keyBytes in
        for entry in 0..<entryPlace.count {
          let range = entryKey[entry]
          guard abs(range.count - key.count) < bound else { continue }
          let candidate = UnsafeBufferPointer(
            rebasing: keyBytes[Int(range.lowerBound)..<Int(range.upperBound)])
          if let edits = EditDistance.between(candidate, key, below: bound) {
            let place = Int(entryPlace[entry])
            let score =
              log10(Double(max(populations[place], 1))) - Self.suggestionEditCost * Double(edits)
              - (entryKind[entry] == .own ? 0 : Self.alternateNamePenalty)
            close.append((score, place))
          }
        }
      }
    }
    close.sort { $0.score != $1.score ? $0.score > $1.score : populations[$0.place] > populations[$1.place] }
    var chosen: [Int] = []
    if let best = close.first?.score {
      for (score, place) in close where score >= best - Self.suggestionSpread && !chosen.contains(place) {
        chosen.append(place)
        if chosen.count == Self.maximumSuggestions { break }
      }
    } else {
      var prefixPlaces: [Int] = []
      for position in entries(matching: key, exact: false) {
        let place = Int(entryPlace[Int(sorted[position])])
        if !prefixPlaces.contains(place) { prefixPlaces.append(place) }
      }
      prefixPlaces.sort { populations[$0] > populations[$1] }
      chosen = Array(prefixPlaces.prefix(Self.maximumSuggestions))
    }
    return chosen.map { place($0) }
  }

  /// What one edit costs a close name's score in suggestions: 2, a factor of 100 in population.
  public static let suggestionEditCost = 2.0
  /// How far below the best close name's score a suggestion may be: 1.5, a factor of about 30.
  public static let suggestionSpread = 1.5
}

/// What kind of name a searchable name is to its place: how much finding the place by it counts.
enum NameKind: UInt8, Sendable {
  /// The place's own (GeoNames) name.
  case own
  /// An alternate name: an exonym, a local spelling, an older name.
  case alternate
  /// An alternate name of several words whose first word is not a word of the own name: mostly
  /// nicknames, long forms and parts named after another place.
  case unrelatedAlternate
}
