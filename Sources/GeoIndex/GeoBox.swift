/// A latitude/longitude rectangle, as GeoJSON's `bbox` and `--bbox W,S,E,N` write it.
///
/// When `west > east` the box crosses the antimeridian: it covers longitudes from `west` to 180
/// and from -180 to `east`.
public struct GeoBox: Hashable, Sendable {
  public let west: Double
  public let south: Double
  public let east: Double
  public let north: Double

  /// - Throws: `GeoBoxError` when a value is out of range or `south > north`.
  public init(west: Double, south: Double, east: Double, north: Double) throws(GeoBoxError) {
    for (name, value, limit) in [
      ("west", west, 180.0), ("east", east, 180.0), ("south", south, 90.0), ("north", north, 90.0),
    ] {
      guard value.isFinite, abs(value) <= limit else {
        throw GeoBoxError(message: "\(name) \(value) is out of range -\(Int(limit))...\(Int(limit))")
      }
    }
    guard south <= north else {
      throw GeoBoxError(message: "south \(south) is north of north \(north): a box is W,S,E,N")
    }
    self.west = west
    self.south = south
    self.east = east
    self.north = north
  }

  /// A box from values the caller knows are in range and ordered (`south <= north`), such as the
  /// bounds of valid coordinates; checked in debug builds only.
  public init(uncheckedWest west: Double, south: Double, east: Double, north: Double) {
    assert(abs(west) <= 180 && abs(east) <= 180 && -90 <= south && south <= north && north <= 90)
    self.west = west
    self.south = south
    self.east = east
    self.north = north
  }

  /// Parses `W,S,E,N` in degrees.
  public init(parsing text: some StringProtocol) throws(GeoBoxError) {
    let values = text.split(separator: ",", omittingEmptySubsequences: false).map {
      Double($0.trimmingSpaces)
    }
    // `Double(_:)` reads through C's strtod, which stops at a NUL.
    guard values.count == 4, !text.utf8.contains(0), let west = values[0], let south = values[1],
      let east = values[2],
      let north = values[3]
    else {
      throw GeoBoxError(
        message: "'\(text)' is not a box: expected W,S,E,N in degrees, such as -122.5,47.5,-122.2,47.7")
    }
    try self.init(west: west, south: south, east: east, north: north)
  }

  /// True when the box crosses the antimeridian (`west > east`).
  public var crossesAntimeridian: Bool { west > east }

  /// True when `coordinate` is inside the box or on its edge.
  @inlinable
  public func contains(_ coordinate: Coordinate) -> Bool {
    guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
    let longitude = coordinate.longitude
    if west <= east {
      if longitude >= west && longitude <= east { return true }
      // -180 and 180 name one meridian.
      return abs(longitude) == 180 && (west == -180 || east == 180)
    }
    return longitude >= west || longitude <= east || abs(longitude) == 180
  }
}

/// Why a box was refused.
public struct GeoBoxError: Error, Hashable, Sendable, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}
