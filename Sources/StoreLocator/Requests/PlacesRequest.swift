import GeoIndex

/// "Places whose name starts with this": `stores places QUERY` and `GET /v1/places`, the
/// autocomplete of a search box.
public struct PlacesRequest: Sendable {
  /// The parameters it reads, in their query-string spelling.
  public static let parameterNames = ["q", "near", "limit"]
  /// How many places when `limit` is not given.
  public static let defaultLimit = 10

  /// What was typed, as given.
  public let query: String
  /// Ranks nearer places first and gives each its distance: LAT,LON or a place name.
  public let near: NearPoint?
  /// 1...`PlaceIndex.maximumLimit`.
  public let limit: Int

  /// Reads `q` (required: 1 to `PlaceIndex.maximumQueryLength` characters; a text of punctuation
  /// alone finds nothing), `near` and `limit`.
  /// - Throws: `RequestError` (`.invalid`) naming the parameter.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    let name = parameters.spelling(of: "q")
    guard let query = try parameters.value("q") else {
      throw RequestError(
        .invalid, parameter: name,
        "\(name) is required: the start of a place name, such as \"Seat\" or \"zur\"")
    }
    // Characters as JSON Schema's maxLength counts them: Unicode scalars.
    let length = query.unicodeScalars.count
    guard length <= PlaceIndex.maximumQueryLength else {
      throw RequestError(
        .invalid, parameter: name,
        "\(name) is at most \(PlaceIndex.maximumQueryLength) characters (got \(length))")
    }
    guard length > 0 else {
      throw RequestError(.invalid, parameter: name, "\(name) is empty: give the start of a place name")
    }
    self.query = query
    near = try parameters.nearPoint()
    limit = try parameters.integer("limit", in: 1...PlaceIndex.maximumLimit) ?? Self.defaultLimit
  }
}

/// The places a search found, as every output writes them.
public struct PlacesAnswer: Sendable {
  public let matches: [PlaceMatch]
  /// The request's query, for the sentence of an empty answer.
  public let query: String

  /// `{"places":[…]}` with each place's `name`, `matched_name` (when an alternate name matched),
  /// `division`, `division_code`, `country`, `latitude`, `longitude`, `population` and
  /// `distance_m` (when `near` was given), ending in a newline.
  public var jsonText: String {
    var object = JSONObject()
    object["places"] = .array(matches.map { .object($0.jsonObject) })
    return JSONValue.object(object).jsonText + "\n"
  }

  /// One line a place, best first: `Zürich, ZH, CH (as "Zurigo")  47.3667,8.55  population
  /// 415,367  12.3 km`; an empty answer says that no place starts with the query.
  public var text: String {
    guard !matches.isEmpty else {
      return "no place has a name starting with \(MessageText.quoted(query)) (the places known are those of "
        + "5,000 people or more)\n"
    }
    return matches.map { match in
      let place = match.place
      var line = place.label
      if let matched = match.matchedName { line += " (as \"\(matched)\")" }
      line += "  \(place.coordinate.latitude),\(place.coordinate.longitude)"
      line += "  population \(Place.grouped(place.population))"
      if let distance = match.distance { line += "  \(distance.kilometersText)" }
      return line + "\n"
    }.joined()
  }
}

extension PlaceIndex {
  /// Answers `request` (see `search(_:near:limit:)` for the ranking).
  public func answer(_ request: PlacesRequest) -> PlacesAnswer {
    PlacesAnswer(
      matches: search(request.query, near: request.near?.coordinate, limit: request.limit),
      query: request.query)
  }
}
