import GeoIndex
import OpeningHours

/// "The stores nearest to a point": `stores nearest` and `GET /v1/stores/nearest`.
public struct NearestRequest: Sendable {
  /// The parameters it reads, in their query-string spelling.
  public static let parameterNames =
    ["near", "bias", "country", "k", "within", "where"] + OpeningConditions.names + ["now", "fields"]
  /// How many stores when `k` is not given.
  public static let defaultCount = 5
  /// The most stores one answer lists; a bigger `k` is refused (`within` pages through more).
  public static let maximumCount = 1000

  public let near: Coordinate
  /// The place `near` named (`--near "Seattle"`), when it was a name and not LAT,LON.
  public let nearPlace: Place?
  /// The other places of that name, which `nearPlace` outweighs (`PlaceIndex.resolve`).
  public let nearAlternatives: [Place]
  public let count: Int
  public let maximumDistance: Distance?
  public let conditions: [StoreFilter.Condition]
  /// The members of each store the answer writes (`fields`); every member by default.
  public let fields: StoreFields
  let opening: OpeningConditions
  let now: Instant?
  let style: ParameterStyle

  /// Reads `near` (required; with `bias` and `country` for a name several places have), `k`,
  /// `within`, `where` (repeatable), `open_now`, `open_at`, `open_for`, `allow_unknown`, `now`
  /// and `fields`.
  /// - Throws: `RequestError` (`.invalid`) naming the first parameter that is missing, malformed,
  ///   out of range or unknown.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    guard let near = try parameters.nearPoint() else {
      throw RequestError(
        .invalid, parameter: parameters.spelling(of: "near"),
        "\(parameters.spelling(of: "near")) is required: where the customer is, LAT,LON in degrees or a place name"
      )
    }
    self.near = near.coordinate
    self.nearPlace = near.place
    self.nearAlternatives = near.alternatives
    count = try parameters.integer("k", in: 1...Self.maximumCount) ?? Self.defaultCount
    maximumDistance = try parameters.parse("within", Distance.init(parsing:))
    conditions = try parameters.conditions()
    opening = try OpeningConditions(parameters)
    now = try parameters.now()
    fields = try parameters.storeFields()
    style = parameters.style
  }
}

extension NearestRequest {
  /// The largest `k` of a request that `isBounded` may call cheap.
  public static let boundedCount = 20
  /// The parameters a bounded request may have: none that makes the search look past the nearest
  /// stores (`where`, opening conditions), look a name up (`bias`, `country`) or apply a
  /// service's hours.
  static let boundedParameterNames: Set<String> = ["near", "k", "within", "now", "fields"]

  /// Whether the answer to a request with `parameters` costs about what finding its nearest
  /// `k ≤ boundedCount` stores and their states costs, whatever the data: `near` not a place name
  /// (no lookup), `k` at most `boundedCount`, no `where` and no opening condition (either may
  /// pass over every store of the catalog before `k` match). The service answers such a request
  /// where it arrives instead of handing it to a query thread, which costs more than the
  /// search itself.
  ///
  /// Read from the values as given, before the request is parsed; a request called bounded may
  /// still be refused when it is.
  /// - Complexity: O(number of parameters).
  public static func isBounded(_ parameters: RequestParameters) -> Bool {
    var count = defaultCount
    var hasPoint = false
    for (name, value) in parameters.pairs {
      guard boundedParameterNames.contains(name) else { return false }
      switch name {
      case "near":
        // Not a name, so no lookup (a malformed coordinate is refused as cheaply).
        guard !NearPoint.looksLikeName(value) else { return false }
        hasPoint = true
      case "k": count = Int(value) ?? .max
      default: break
      }
    }
    return hasPoint && count <= boundedCount
  }
}

/// "Every store in a circle or a box": `stores within` and `GET /v1/stores/within`, paged by
/// `limit` and `cursor`.
public struct WithinRequest: Sendable {
  public static let parameterNames =
    ["near", "bias", "country", "radius", "bbox", "where"] + OpeningConditions.names + [
      "limit", "cursor", "now", "fields",
    ]
  /// The page size of the service when `limit` is not given (the command line lists every store).
  public static let defaultPageSize = 100
  /// The largest page.
  public static let maximumPageSize = 1000
  /// A radius larger than half the Earth's circumference covers every point already.
  public static let maximumRadius = Distance.meters(earthMeanRadiusMeters * Double.pi)

  public let area: SearchArea
  /// The place `near` named, when it was a name and not LAT,LON.
  public let nearPlace: Place?
  /// The other places of that name, which `nearPlace` outweighs.
  public let nearAlternatives: [Place]
  public let conditions: [StoreFilter.Condition]
  /// Stores a page; `nil` for all of them.
  public let limit: Int?
  /// Where this page starts; `nil` for the first page.
  public let cursor: String?
  /// The members of each store the answer writes (`fields`); every member by default.
  public let fields: StoreFields
  let opening: OpeningConditions
  let now: Instant?
  let style: ParameterStyle

  /// Reads `near` with `radius` (and `bias`, `country` for a name), or `bbox`; `where`, `open_now`, `open_at`, `open_for`,
  /// `allow_unknown`, `limit`, `cursor`, `now` and `fields`. Without `limit`, a query string gets pages of
  /// `defaultPageSize`; the command line lists every store.
  /// - Throws: `RequestError` (`.invalid`) naming the parameter.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    let nearPoint = try parameters.nearPoint()
    let near = nearPoint?.coordinate
    nearPlace = nearPoint?.place
    nearAlternatives = nearPoint?.alternatives ?? []
    let radius = try parameters.parse("radius", Distance.init(parsing:))
    let box = try parameters.parse("bbox", GeoBox.init(parsing:))
    let name = parameters.spelling(of:)
    switch (near, radius, box) {
    case (.some(let near), .some(let radius), nil):
      guard radius <= Self.maximumRadius else {
        throw RequestError(
          .invalid, parameter: name("radius"),
          "\(name("radius")) must be at most 20015 km, half the Earth's circumference, which already "
            + "reaches every point (got \(Int(radius.meters / 1000)) km)")
      }
      area = .circle(center: near, radius: radius)
    case (nil, nil, .some(let box)): area = .box(box)
    case (_, _, .some):
      throw RequestError(
        .invalid, parameter: name("bbox"),
        "give either \(name("near")) with \(name("radius")), or \(name("bbox")), not both")
    case (.some, nil, nil):
      throw RequestError(
        .invalid, parameter: name("radius"),
        "\(name("near")) needs \(name("radius")) (such as \(parameters.style == .commandLine ? "--radius 2km" : "radius=2km"))"
      )
    case (nil, .some, nil):
      throw RequestError(.invalid, parameter: name("near"), "\(name("radius")) needs \(name("near")) LAT,LON")
    case (nil, nil, nil):
      throw RequestError(
        .invalid, parameter: nil,
        "give \(name("near")) LAT,LON with \(name("radius")) DIST, or \(name("bbox")) W,S,E,N")
    }
    conditions = try parameters.conditions()
    opening = try OpeningConditions(parameters)
    limit =
      try parameters.integer("limit", in: 1...Self.maximumPageSize)
      ?? (parameters.style == .queryString ? Self.defaultPageSize : nil)
    cursor = try parameters.value("cursor")
    now = try parameters.now()
    fields = try parameters.storeFields()
    style = parameters.style
  }
}

extension RequestParameters {
  /// The `near` parameter, LAT,LON or a place name (`NearPoint`), when given. A name several
  /// places have is read with the request's `bias` (LAT,LON) and `country` (ISO 3166-1 alpha-2),
  /// else with `storeCountries` (see `PlaceIndex.resolve`). A name that is still ambiguous, or
  /// unknown, is refused with the places it may mean, or the close names, as
  /// `RequestError.places`; unless `defersPlaceChoice`, when an ambiguous name stands for its
  /// first candidate until it is read again with the catalog's countries.
  public func nearPoint() throws(RequestError) -> NearPoint? {
    // Read first, so a malformed `bias` or `country` is refused even where no name needs them
    // (a pickup whose order document gives the customer's position).
    let preference = PlacePreference(
      bias: try parse("bias", Coordinate.init(parsing:)), country: try countryCode("country"),
      storeCountries: storeCountries ?? [])
    guard let text = try value("near") else { return nil }
    do throws(NearPointError) { return try NearPoint(parsing: text, preferring: preference) } catch {
      let spelled = spelling(of: "near")
      var places: [Place] = []
      if case .place(let lookup) = error {
        if defersPlaceChoice, lookup.kind == .ambiguous, let first = lookup.candidates.first {
          return NearPoint(coordinate: first.coordinate, place: first)
        }
        places = lookup.candidates.isEmpty ? lookup.suggestions : lookup.candidates
      }
      var message = "\(spelled): \(error.description)"
      if case .place(let lookup) = error, lookup.kind == .ambiguous, try value("bias") == nil {
        message +=
          "; or say where the customer is with \(spelling(of: "bias")) LAT,LON, or the country with \(spelling(of: "country")) CC"
      }
      throw RequestError(.invalid, parameter: spelled, message, places: places)
    }
  }

  /// An ISO 3166-1 alpha-2 country code (`country`), upper-cased (`UK` read as `GB`), when given.
  func countryCode(_ name: String) throws(RequestError) -> String? {
    guard let text = try value(name) else { return nil }
    let spelled = spelling(of: name)
    guard text.utf8.count == 2, text.utf8.allSatisfy({ (65...90).contains($0 & ~0x20) }) else {
      throw RequestError(
        .invalid, parameter: spelled,
        "\(spelled) is a country's two-letter ISO 3166-1 code, such as US or GB (got \(MessageText.quoted(text)))"
      )
    }
    let code = text.uppercased()
    // The United Kingdom's code is GB; UK, which people write, is reserved for it.
    return code == "UK" ? "GB" : code
  }

  /// The `where` conditions, each read as `StoreFilter.Condition` reads one.
  func conditions() throws(RequestError) -> [StoreFilter.Condition] {
    var conditions: [StoreFilter.Condition] = []
    for text in values("where") {
      do { conditions.append(try StoreFilter.Condition(parsing: text)) } catch {
        throw RequestError(
          .invalid, parameter: spelling(of: "where"), "\(spelling(of: "where")): \(error.description)")
      }
    }
    return conditions
  }

  /// The `now` parameter, when given.
  func now() throws(RequestError) -> Instant? {
    guard try value("now") != nil else { return nil }
    return try now(default: Instant(secondsSinceEpoch: 0))
  }
}

/// The stores a search found, with the question it answered, as every output writes them.
public struct SearchAnswer: Sendable {
  /// The stores, nearest first (box: input order), each with its status at the query's time.
  public let matches: [StoreMatch]
  /// The question as the JSON `query` member repeats it.
  public let query: JSONObject
  /// Where the next page starts, for a paged `within`; `nil` on the last page.
  public let nextCursor: String?
  /// True for a `within` answer, whose JSON carries `next_cursor`.
  public let isPaged: Bool
  /// A `near` point that looks typed as LON,LAT, when the data says so.
  public let swappedHint: SwappedCoordinateHint?
  /// The place a `near` name stood for, when the request named one.
  public internal(set) var nearPlace: Place? = nil
  /// The other places of that name, which `nearPlace` outweighs.
  public internal(set) var nearAlternatives: [Place] = []
  /// The members of each store the JSON, GeoJSON, NDJSON and CSV answers write.
  public internal(set) var fields: StoreFields = .all
  /// Where a `within` page stands among all the stores that match: the offset of its first store
  /// and how many match in all; `nil` for `nearest`.
  let pagePlace: (start: Int, total: Int)?
  /// How the request was written: what the sentences beside the answer call its parameters.
  let style: ParameterStyle
  let catalog: Catalog
  let area: SearchArea
  let filter: StoreFilter
  let open: OpeningRequirement?

  /// The JSON document of `--format json`: `query`, `count`, `stores` (and `next_cursor` for
  /// `within`), ending in a newline.
  public var jsonText: String { String(decoding: jsonUTF8, as: UTF8.self) }

  /// A line for people under a page of a `within` that is not the whole answer: which stores of
  /// how many it shows and how to ask for the next page, in the request's own spelling
  /// (`Stores 1–2 of 57; next page: --cursor 5f0c….2`, or `cursor=5f0c….2` in a query string),
  /// or that it is the last page. `nil` when
  /// the page holds every store that matches (no limit was reached, no cursor given) or is empty.
  public var pageSummary: String? {
    guard let (start, total) = pagePlace, !matches.isEmpty, nextCursor != nil || start > 0 else {
      return nil
    }
    let shown = "Stores \(start + 1)–\(start + matches.count) of \(total)"
    guard let nextCursor else { return shown + "; the last page" }
    let next =
      style == .commandLine ? "\(style.spelling(of: "cursor")) \(nextCursor)" : "cursor=\(nextCursor)"
    return shown + "; next page: " + next
  }

  /// The place of the first store among all that match, counting from 1: 1 but on a later page
  /// of a `within`, so that a text table's `#` column goes on from page to page.
  public var firstNumber: Int { (pagePlace?.start ?? 0) + 1 }

  /// `jsonText` as UTF-8 bytes, as the service sends it: written once, never converted to a
  /// `String` and back.
  public var jsonUTF8: [UInt8] {
    var output = JSONBytes(capacity: 1024 + matches.count * 1024)
    output.append(ascii: "{\"query\":")
    output.append(query)
    fields.write(to: &output)
    output.appendKey("count")
    output.append(JSONValue(matches.count))
    output.appendKey("stores")
    output.append(UInt8(ascii: "["))
    for (index, match) in matches.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      match.writeJSON(to: &output, fields: fields)
    }
    output.append(UInt8(ascii: "]"))
    if isPaged {
      output.appendKey("next_cursor")
      output.append(nextCursor.map(JSONValue.string) ?? .null)
    }
    output.append(ascii: "}\n")
    return output.bytes
  }

  /// The stores as a GeoJSON FeatureCollection with the `query` as a foreign member.
  public var geoJSONText: String { StoreMatch.geoJSONText(matches, query: query, fields: fields) }

  /// `geoJSONText` as UTF-8 bytes.
  public var geoJSONUTF8: [UInt8] { StoreMatch.geoJSONUTF8(matches, query: query, fields: fields) }

  /// The stores as NDJSON, one object a line, with the members of `fields`.
  public var ndjsonText: String { StoreMatch.ndjsonText(matches, fields: fields) }

  /// The stores as CSV, a column for each member of `fields`.
  public var csvText: String { StoreMatch.csvText(matches, fields: fields) }

  /// Why nothing matched, when nothing did: the sentence and the causes the catalog can tell.
  /// - Parameter distanceText: How to write distances (the CLI passes its `--units`).
  public func emptyExplanation(distanceText: ((Distance) -> String)? = nil) -> EmptyResultExplanation? {
    guard matches.isEmpty else { return nil }
    return catalog.explainEmptyResult(
      in: area, where: filter, open: open, distanceText: distanceText, style: style)
  }

  /// The place a `near` name stood for, and the other places of that name (`NearPoint.placeNote`).
  public var nearPlaceNote: String? {
    nearPlace.flatMap {
      NearPoint(coordinate: $0.coordinate, place: $0, alternatives: nearAlternatives).placeNote
    }
  }

  /// How far the nearest store of a `nearest` answer may be before a note says so: farther than
  /// a customer's town reaches (pickup refuses such stores by its travel bound; a search lists
  /// them, and says how far they are rather than letting a list from another city pass unsaid).
  public static let farNoteDistance = Distance.kilometers(50)

  /// `nearest`'s first store when it is farther than `farNoteDistance`, said with its distance.
  public var farNote: String? {
    guard case .nearest(let point, _) = area, let first = matches.first, let distance = first.distance,
      distance > Self.farNoteDistance
    else { return nil }
    let from = nearPlace?.label ?? "\(point.latitude),\(point.longitude)"
    let name = first.store.name.map { " (\($0))" } ?? ""
    return
      "the nearest store that matches, \(first.store.id)\(name), is \(distance.kilometersText) from \(from): "
      + "none is nearer"
  }

  /// What is said beside the answer (the command line on standard error, the service as
  /// `X-Stores-Note` headers): a LON,LAT hint, a nearest store far away, and why an empty answer
  /// is empty, each naming parameters as the request wrote them (`--near`, `near=`).
  public var notes: [String] {
    (nearPlaceNote.map { [$0] } ?? [])
      + (catalog.unknownServiceNote.map { [$0] } ?? [])
      + (swappedHint.map { ["warning: \($0.text(for: style))"] } ?? [])
      + (farNote.map { [$0] } ?? [])
      + (emptyExplanation()?.reasons.map(\.message) ?? [])
  }
}

extension Catalog {
  /// Answers `request`: the stores nearest its point that meet its conditions.
  /// - Parameter now: The current instant, unless the request gives `now`.
  /// - Complexity: as `nearest(_:to:within:where:open:)`.
  public func answer(_ request: NearestRequest, now clock: Instant) -> SearchAnswer {
    guard request.opening.service == service else {
      return serving(request.opening.service).answer(request, now: clock)
    }
    let now = request.now ?? clock
    let filter = StoreFilter(request.conditions)
    let open = request.opening.requirement(now: now)
    let found = nearest(
      request.count, to: request.near, within: request.maximumDistance, where: filter, open: open)
    var query = JSONObject()
    query["near"] = .object(request.near.jsonObject)
    NearPoint(coordinate: request.near, place: request.nearPlace, alternatives: request.nearAlternatives)
      .describe(into: &query)
    query["k"] = JSONValue(request.count)
    query["within_m"] = request.maximumDistance.map { JSONValue($0.meters) } ?? .null
    query["where"] = .array(request.conditions.map { .string($0.description) })
    request.opening.describe(into: &query, now: now)
    query["state_version"] = JSONValue(Int(stateVersion))
    // A filter or an opening condition may pass the nearest store over; then a search tells.
    let nearestDistance = filter.isEmpty && open == nil ? found.first?.distance : nil
    var answer = SearchAnswer(
      matches: withStatus(found, at: request.opening.time(now: now), for: request.fields), query: query,
      nextCursor: nil,
      isPaged: false,
      swappedHint: swappedCoordinateHint(for: request.near, nearestDistance: nearestDistance), pagePlace: nil,
      style: request.style, catalog: self,
      area: .nearest(to: request.near, within: request.maximumDistance), filter: filter, open: open)
    answer.nearPlace = request.nearPlace
    answer.nearAlternatives = request.nearAlternatives
    answer.fields = request.fields
    return answer
  }

  /// Answers `request`: one page of the stores in its circle (nearest first) or box (input
  /// order) that meet its conditions.
  /// - Parameter now: The current instant, unless the request gives `now`.
  /// - Throws: `RequestError` (`.invalid`) for a cursor this catalog did not write, or one written
  ///   for another version of the data.
  /// - Complexity: O(log n + m) for the m stores in the area, whatever the page.
  public func answer(_ request: WithinRequest, now clock: Instant) throws(RequestError) -> SearchAnswer {
    guard request.opening.service == service else {
      return try serving(request.opening.service).answer(request, now: clock)
    }
    let now = request.now ?? clock
    let filter = StoreFilter(request.conditions)
    let open = request.opening.requirement(now: now)
    let start =
      try request.cursor.map { cursor throws(RequestError) in
        try pageStart(of: cursor, parameter: request.style.spelling(of: "cursor"))
      } ?? 0
    var query = JSONObject()
    let found: [StoreMatch]
    var hint: SwappedCoordinateHint?
    switch request.area {
    case .box(let box):
      found = stores(in: box, where: filter, open: open)
      query["bbox"] = .array([box.west, box.south, box.east, box.north].map { JSONValue($0) })
    case .circle(let center, let radius), .nearest(let center, .some(let radius)):
      found = stores(within: radius, of: center, where: filter, open: open)
      hint = swappedCoordinateHint(
        for: center, nearestDistance: filter.isEmpty && open == nil ? found.first?.distance : nil)
      query["near"] = .object(center.jsonObject)
      NearPoint(coordinate: center, place: request.nearPlace, alternatives: request.nearAlternatives)
        .describe(into: &query)
      query["radius_m"] = JSONValue(radius.meters)
    case .nearest(_, nil):
      preconditionFailure("a within request always has a radius or a box")
    }
    query["where"] = .array(request.conditions.map { .string($0.description) })
    request.opening.describe(into: &query, now: now)
    query["state_version"] = JSONValue(Int(stateVersion))
    query["limit"] = request.limit.map { JSONValue($0) } ?? .null
    query["cursor"] = request.cursor.map { .string(MessageText.shortened($0)) } ?? .null
    let end = request.limit.map { min(found.count, start + $0) } ?? found.count
    let page = start < end ? Array(found[start..<end]) : []
    var answer = SearchAnswer(
      matches: withStatus(page, at: request.opening.time(now: now), for: request.fields), query: query,
      nextCursor: end < found.count ? "\(dataVersion).\(end)" : nil, isPaged: true, swappedHint: hint,
      pagePlace: (start, found.count), style: request.style,
      catalog: self, area: request.area, filter: filter, open: open)
    answer.nearPlace = request.nearPlace
    answer.nearAlternatives = request.nearAlternatives
    answer.fields = request.fields
    return answer
  }

  /// The position a cursor of `answer(_: WithinRequest, now:)` stands for: `VERSION.OFFSET`.
  private func pageStart(of cursor: String, parameter: String) throws(RequestError) -> Int {
    let parts = cursor.split(separator: ".", omittingEmptySubsequences: false)
    // A well-formed cursor of other data is stale, not made up: say so before checking its offset.
    if parts.count == 2, parts[0].count == 16, parts[0] != dataVersion {
      throw RequestError(
        .invalid, parameter: parameter,
        "\(parameter) belongs to another version of the data (\(MessageText.shortened(String(parts[0])))); "
          + "the data is now \(dataVersion): start again without a cursor")
    }
    guard parts.count == 2, parts[0] == dataVersion, let offset = Int(parts[1]), offset >= 0,
      offset <= stores.count
    else {
      throw RequestError(
        .invalid, parameter: parameter,
        "\(parameter) \(MessageText.quoted(cursor)) is not a cursor this service wrote; pass the "
          + "next_cursor of the previous page as it came")
    }
    return offset
  }
}

extension Catalog {
  /// The countries of the stores with opening hours (their `addr:country`, else the country
  /// their position is in): the catalog's extent, the last resort for a place name several
  /// places have (`PlacePreference.storeCountries`). A chain whose stores are all in one country
  /// means that country's Springfield when there is one.
  public var storeCountries: Set<String> { table.countries }
}
