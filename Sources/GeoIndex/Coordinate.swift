/// A point on the Earth's surface in degrees (WGS 84 latitude and longitude).
///
/// People type `latitude,longitude`; GeoJSON stores `[longitude, latitude]`. This type names both
/// parts so the two orders never meet in an unlabelled tuple.
public struct Coordinate: Hashable, Sendable {
  /// Degrees north of the equator, in -90...90.
  public let latitude: Double
  /// Degrees east of Greenwich, in -180...180.
  public let longitude: Double

  /// Creates a coordinate, checking that both parts are finite and in range.
  ///
  /// - Parameters:
  ///   - latitude: Degrees north, -90...90.
  ///   - longitude: Degrees east, -180...180 (both ends name the same meridian).
  /// - Throws: `CoordinateError` naming the part that is wrong and, when the values look swapped,
  ///   saying so.
  public init(latitude: Double, longitude: Double) throws(CoordinateError) {
    guard latitude.isFinite, longitude.isFinite else {
      throw CoordinateError(latitude: latitude, longitude: longitude, problem: .notFinite)
    }
    guard (-90.0...90.0).contains(latitude) else {
      let swapped = (-90.0...90.0).contains(longitude) && (-180.0...180.0).contains(latitude)
      throw CoordinateError(
        latitude: latitude, longitude: longitude,
        problem: swapped ? .latitudeOutOfRangeLooksSwapped : .latitudeOutOfRange)
    }
    guard (-180.0...180.0).contains(longitude) else {
      throw CoordinateError(latitude: latitude, longitude: longitude, problem: .longitudeOutOfRange)
    }
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Creates a coordinate without checking; the caller guarantees the ranges.
  public init(uncheckedLatitude latitude: Double, longitude: Double) {
    self.latitude = latitude
    self.longitude = longitude
  }

  /// Parses the `LAT,LON` form people type, such as `-33.8688,151.2093`.
  ///
  /// Spaces around either number are allowed.
  /// - Throws: `CoordinateError` when the text is not two numbers or they are out of range.
  public init(parsing text: some StringProtocol) throws(CoordinateError) {
    // One concrete type and no array of parts: a generic `split` was a tenth of answering a
    // `nearest` request.
    let text = Substring(text)
    let utf8 = text.utf8
    // Exactly one comma. `Double(_:)` reads through C's strtod, which stops at a NUL: `47.6\0abc`
    // would be 47.6.
    guard let comma = utf8.firstIndex(of: UInt8(ascii: ",")),
      case let afterComma = utf8.index(after: comma),
      !utf8[afterComma...].contains(UInt8(ascii: ",")), !utf8.contains(0),
      let latitude = Double(text[..<comma].trimmingSpaces),
      let longitude = Double(text[afterComma...].trimmingSpaces)
    else {
      throw CoordinateError(text: String(text))
    }
    try self.init(latitude: latitude, longitude: longitude)
  }

  /// The point as a unit vector from the Earth's centre: x towards (0°, 0°), z towards the
  /// north pole.
  @inlinable
  public var unitVector: (x: Double, y: Double, z: Double) {
    let phi = latitude * (.pi / 180)
    let lambda = longitude * (.pi / 180)
    let cosPhi = _cos(phi)
    return (cosPhi * _cos(lambda), cosPhi * _sin(lambda), _sin(phi))
  }
}

extension Coordinate: CustomStringConvertible {
  /// `latitude,longitude`, the order people type.
  public var description: String { "\(latitude),\(longitude)" }
}

/// Why a coordinate was refused, with the values and a sentence a person can act on.
public struct CoordinateError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Problem: Hashable, Sendable {
    case notANumberPair
    case notFinite
    case latitudeOutOfRange
    case latitudeOutOfRangeLooksSwapped
    case longitudeOutOfRange
  }

  public let latitude: Double?
  public let longitude: Double?
  public let text: String?
  public let problem: Problem

  init(latitude: Double, longitude: Double, problem: Problem) {
    self.latitude = latitude
    self.longitude = longitude
    self.text = nil
    self.problem = problem
  }

  init(text: String) {
    self.latitude = nil
    self.longitude = nil
    self.text = text
    self.problem = .notANumberPair
  }

  public var description: String {
    switch problem {
    case .notANumberPair:
      return "'\(text ?? "")' is not a location: expected LAT,LON in degrees, such as 47.6062,-122.3321"
    case .notFinite:
      return "coordinates must be finite numbers (got \(latitude ?? .nan), \(longitude ?? .nan))"
    case .latitudeOutOfRange:
      return "latitude \(latitude ?? .nan) is out of range -90...90"
    case .latitudeOutOfRangeLooksSwapped:
      return "latitude \(latitude ?? .nan) is out of range -90...90; "
        + "the values look swapped: GeoJSON is [longitude, latitude], a location here is LAT,LON"
    case .longitudeOutOfRange:
      return "longitude \(longitude ?? .nan) is out of range -180...180"
    }
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces (only U+0020), for the number lists people type.
  var trimmingSpaces: Substring {
    var slice = Substring(self)
    while slice.first == " " { slice.removeFirst() }
    while slice.last == " " { slice.removeLast() }
    return slice
  }
}

extension Coordinate {
  /// Whether a `Coordinate` lies in memory as its latitude then its longitude, two `Double`s, so
  /// saved pairs can be read in place.
  static let isLatitudeLongitudePair =
    MemoryLayout<Coordinate>.size == 16 && MemoryLayout<Coordinate>.offset(of: \.latitude) == 0
    && MemoryLayout<Coordinate>.offset(of: \.longitude) == 8
}
