/// The mean radius of the Earth (IUGG), the sphere every distance here is measured on.
public let earthMeanRadiusMeters = 6_371_008.8

/// A length along the Earth's surface.
public struct Distance: Hashable, Comparable, Sendable {
  /// The length in metres.
  public var meters: Double

  public init(meters: Double) { self.meters = meters }

  public static func meters(_ value: Double) -> Distance { Distance(meters: value) }
  public static func kilometers(_ value: Double) -> Distance { Distance(meters: value * 1000) }
  public static func miles(_ value: Double) -> Distance {
    Distance(meters: value * DistanceUnit.metersPerMile)
  }

  public var kilometers: Double { meters / 1000 }
  public var miles: Double { meters / DistanceUnit.metersPerMile }

  /// The length in `unit`.
  public func value(in unit: DistanceUnit) -> Double { meters / unit.metersPerUnit }

  public static func < (lhs: Distance, rhs: Distance) -> Bool { lhs.meters < rhs.meters }

  /// Parses `500m`, `2km`, `1.5mi`, `300ft`; a bare number is metres.
  ///
  /// - Throws: `DistanceParseError` when the text is not a non-negative number with a known unit.
  public init(parsing text: some StringProtocol) throws(DistanceParseError) {
    let trimmed = String(text).lowercased().filter { $0 != " " }
    let unitStart = trimmed.firstIndex { !($0.isNumber || $0 == "." || $0 == "e" || $0 == "+" || $0 == "-") }
    let numberText = unitStart.map { String(trimmed[..<$0]) } ?? trimmed
    let unitText = unitStart.map { String(trimmed[$0...]) } ?? ""
    guard let value = Double(numberText), value >= 0,
      let unit = DistanceUnit(symbol: unitText.isEmpty ? "m" : unitText)
    else {
      throw DistanceParseError(text: String(text))
    }
    // Finite after conversion: `1e308mi` overflows to +∞.
    let meters = value * unit.metersPerUnit
    guard meters.isFinite else { throw DistanceParseError(text: String(text)) }
    self.init(meters: meters)
  }
}

/// Why a distance could not be read.
public struct DistanceParseError: Error, Hashable, Sendable, CustomStringConvertible {
  public let text: String
  public var description: String {
    "'\(text)' is not a distance: expected a non-negative number with an optional unit m, km, mi or ft "
      + "(500m, 2km, 1.5mi; a bare number is metres)"
  }
}

/// Units a distance is shown in.
public enum DistanceUnit: String, CaseIterable, Sendable {
  case meters = "m"
  case kilometers = "km"
  case miles = "mi"
  case feet = "ft"

  static let metersPerMile = 1609.344

  /// Metres in one of this unit.
  public var metersPerUnit: Double {
    switch self {
    case .meters: 1
    case .kilometers: 1000
    case .miles: DistanceUnit.metersPerMile
    case .feet: 0.3048
    }
  }

  /// Reads `m`, `km`, `mi`, `ft` and their long names.
  public init?(symbol: String) {
    switch symbol.lowercased() {
    case "m", "meter", "meters", "metre", "metres": self = .meters
    case "km", "kilometer", "kilometers", "kilometre", "kilometres": self = .kilometers
    case "mi", "mile", "miles": self = .miles
    case "ft", "foot", "feet": self = .feet
    default: return nil
    }
  }
}

extension Coordinate {
  /// The great-circle distance to `other` by the haversine formula on a sphere of
  /// `earthMeanRadiusMeters`.
  ///
  /// - Complexity: O(1).
  @inlinable
  public func distance(to other: Coordinate) -> Distance {
    HaversineOrigin(self).distance(to: other)
  }
}

/// The haversine formula with the parts that depend only on the first point computed once, for
/// measuring many points from one query point. `Coordinate.distance(to:)` goes through this type,
/// so both give the same bits.
@usableFromInline
struct HaversineOrigin {
  @usableFromInline let phi1: Double
  @usableFromInline let cosPhi1: Double
  @usableFromInline let longitude: Double

  @inlinable
  init(_ origin: Coordinate) {
    phi1 = origin.latitude * (.pi / 180)
    cosPhi1 = _cos(phi1)
    longitude = origin.longitude
  }

  @inlinable
  func distance(to other: Coordinate) -> Distance {
    let phi2 = other.latitude * (.pi / 180)
    let sinHalfDeltaPhi = _sin((phi2 - phi1) / 2)
    let sinHalfDeltaLambda = _sin((other.longitude - longitude) * (.pi / 180) / 2)
    let h =
      sinHalfDeltaPhi * sinHalfDeltaPhi + cosPhi1 * _cos(phi2) * sinHalfDeltaLambda * sinHalfDeltaLambda
    return Distance(meters: 2 * earthMeanRadiusMeters * _asin(_sqrt(Swift.min(1, h))))
  }
}
