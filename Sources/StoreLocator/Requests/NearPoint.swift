import GeoIndex

/// Where a request's `near` is: `LAT,LON` as typed, or the one place a name stands for
/// (`--near "Seattle"`, `near=Paris,%20FR`), read the same way by the CLI and the service.
public struct NearPoint: Hashable, Sendable {
  /// The point searched from: the coordinate typed, or the place's position.
  public let coordinate: Coordinate
  /// The place the name stood for; `nil` when a coordinate was typed.
  public let place: Place?
  /// The other places of that name, which `place` outweighs (`PlaceIndex.resolve`).
  public let alternatives: [Place]

  public init(coordinate: Coordinate, place: Place? = nil, alternatives: [Place] = []) {
    self.coordinate = coordinate
    self.place = place
    self.alternatives = alternatives
  }

  /// Reads `LAT,LON` exactly as `Coordinate(parsing:)` does; text that is not a number pair and
  /// starts with a letter is a place name, resolved by `PlaceIndex.resolve` on the bundled places
  /// (built on first use) with `preference`. Anything else keeps the coordinate's error.
  /// - Throws: `NearPointError`: the coordinate's sentence, or the place lookup's (ambiguous with
  ///   its candidates, unknown with close names).
  public init(
    parsing text: String, preferring preference: PlacePreference = PlacePreference(),
    places: () throws(PlaceLookupError) -> PlaceIndex = PlaceIndex.bundled
  ) throws(NearPointError) {
    do throws(CoordinateError) {
      self.init(coordinate: try Coordinate(parsing: text))
    } catch {
      guard error.problem == .notANumberPair, Self.looksLikeName(text) else { throw .coordinate(error) }
      do throws(PlaceLookupError) {
        let found = try places().resolve(text, preferring: preference)
        self.init(coordinate: found.place.coordinate, place: found.place, alternatives: found.alternatives)
      } catch {
        throw .place(error)
      }
    }
  }

  /// A name starts with a letter (after spaces) and holds no NUL; a coordinate starts with a
  /// digit, a sign or a point, and keeps its own error.
  static func looksLikeName(_ text: String) -> Bool {
    guard !text.utf8.contains(0), let first = text.unicodeScalars.first(where: { $0 != " " }) else {
      return false
    }
    return first.properties.isAlphabetic
  }

  /// How many other places of the name the note lists.
  public static let notedAlternatives = 3

  /// The note said beside an answer that used a place: `near: Seattle, Washington, US
  /// (47.6062,-122.3321; population 780,995)`, and the other places of the name when it has
  /// some: `…; also named so: London, Ontario, CA (population 422,324); … and 2 more`.
  public var placeNote: String? {
    place.map {
      var note =
        "near: \($0.label) (\($0.coordinate.latitude),\($0.coordinate.longitude); population \(Place.grouped($0.population)))"
      if !alternatives.isEmpty {
        note +=
          "; also named so: "
          + alternatives.prefix(Self.notedAlternatives).map(\.labelWithPopulation).joined(separator: "; ")
        if alternatives.count > Self.notedAlternatives {
          note += "; and \(alternatives.count - Self.notedAlternatives) more"
        }
      }
      return note
    }
  }

  /// Writes `near_place` and `near_alternatives` into an answer's `query` when a name was read.
  func describe(into query: inout JSONObject) {
    guard let place else { return }
    query["near_place"] = .object(place.jsonObject)
    query["near_alternatives"] = .array(alternatives.map { .object($0.jsonObject) })
  }
}

/// Why a `near` value was refused.
public enum NearPointError: Error, Sendable, CustomStringConvertible {
  case coordinate(CoordinateError)
  case place(PlaceLookupError)

  public var description: String {
    switch self {
    case .coordinate(let error): return error.description
    case .place(let error): return error.description
    }
  }
}
