import GeoIndex

/// Where a request's `near` is: `LAT,LON` as typed, or the one place a name stands for
/// (`--near "Seattle"`, `near=Paris,%20FR`), read the same way by the CLI and the service.
public struct NearPoint: Hashable, Sendable {
  /// The point searched from: the coordinate typed, or the place's position.
  public let coordinate: Coordinate
  /// The place the name stood for; `nil` when a coordinate was typed.
  public let place: Place?

  public init(coordinate: Coordinate, place: Place? = nil) {
    self.coordinate = coordinate
    self.place = place
  }

  /// Reads `LAT,LON` exactly as `Coordinate(parsing:)` does; text that is not a number pair and
  /// starts with a letter is a place name, resolved by `PlaceIndex.resolve` on the bundled places
  /// (built on first use). Anything else keeps the coordinate's error.
  /// - Throws: `NearPointError`: the coordinate's sentence, or the place lookup's (ambiguous with
  ///   its candidates, unknown with close names).
  public init(parsing text: String, places: () throws(PlaceLookupError) -> PlaceIndex = PlaceIndex.bundled)
    throws(NearPointError)
  {
    do throws(CoordinateError) {
      self.init(coordinate: try Coordinate(parsing: text))
    } catch {
      guard error.problem == .notANumberPair, Self.looksLikeName(text) else { throw .coordinate(error) }
      do throws(PlaceLookupError) {
        let found = try places().resolve(text)
        self.init(coordinate: found.place.coordinate, place: found.place)
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

  /// The note said beside an answer that used a place: `near: Seattle, Washington, US
  /// (47.6062,-122.3321; population 780,995)`.
  public var placeNote: String? {
    place.map {
      "near: \($0.label) (\($0.coordinate.latitude),\($0.coordinate.longitude); population \(Place.grouped($0.population)))"
    }
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
