import GeoIndex

/// How the customer gets to the store, which turns a distance into a travel time.
///
/// Distances in the catalog are great-circle distances; streets are not straight, so the travel
/// distance is the great-circle distance times `detourFactor` (1.3, a common rule of thumb for
/// town street networks). Travel times are rounded up to the whole minute.
public enum TravelMode: Hashable, Sendable, CustomStringConvertible {
  /// On foot, 5 km/h.
  case walk
  /// By bicycle, 15 km/h.
  case bike
  /// By car in town, 30 km/h on average (traffic lights and parking included).
  case drive
  /// A speed given by the caller, in metres per second (greater than zero).
  case speed(metersPerSecond: Double)

  /// How much longer the way by street is than the great-circle distance.
  public static let detourFactor = 1.3

  /// Travel times longer than this (30 minutes) earn the `far-from-customer` warning.
  public static let farTravelSeconds: Int64 = 30 * 60

  /// The speed in metres per second.
  public var metersPerSecond: Double {
    switch self {
    case .walk: 5 / 3.6
    case .bike: 15 / 3.6
    case .drive: 30 / 3.6
    case .speed(let value): value
    }
  }

  /// `walk`, `bike`, `drive`, or `speed` for a speed given by the caller.
  public var name: String {
    switch self {
    case .walk: "walk"
    case .bike: "bike"
    case .drive: "drive"
    case .speed: "speed"
    }
  }

  /// `walk`, `bike`, `drive`, or the speed as `12 km/h`.
  public var description: String {
    if case .speed = self { return TravelMode.kilometersPerHourText(metersPerSecond) }
    return name
  }

  /// Seconds to cover `distance` (great-circle) at this speed, with the detour factor applied,
  /// rounded up to the whole minute; 0 for a zero distance.
  public func travelSeconds(for distance: Distance) -> Int64 {
    let meters = max(0, distance.meters) * TravelMode.detourFactor
    guard meters > 0, metersPerSecond > 0, metersPerSecond.isFinite else { return 0 }
    let seconds = (meters / metersPerSecond).rounded(.up)
    guard seconds < 1e12 else { return 1_000_000_000_000 }
    return (Int64(seconds) + 59) / 60 * 60
  }

  /// Parses `walk`, `bike`, `drive` (also `foot`, `cycle`, `car`), or a speed: `12km/h`,
  /// `12 kmh`, `3m/s`, `10mph`.
  ///
  /// - Throws: `TravelModeError` when the text is none of these or the speed is not above zero.
  public init(parsing text: String) throws(TravelModeError) {
    let lowered = text.lowercased().split(whereSeparator: \.isWhitespace).joined()
    switch lowered {
    case "walk", "walking", "foot": self = .walk
    case "bike", "bicycle", "cycle", "cycling": self = .bike
    case "drive", "driving", "car": self = .drive
    default:
      // Metres per second are the value divided by the divisor.
      let units: [(suffix: String, divisor: Double)] = [
        ("km/h", 3.6), ("kmh", 3.6), ("kph", 3.6), ("m/s", 1), ("mps", 1), ("mph", 3600 / 1609.344),
      ]
      // `Double(_:)` reads through C's strtod, which stops at a NUL: `15\0x km/h` would be 15.
      guard !lowered.utf8.contains(0), let unit = units.first(where: { lowered.hasSuffix($0.suffix) }),
        let value = Double(lowered.dropLast(unit.suffix.count)), value.isFinite, value > 0
      else { throw TravelModeError(text: text) }
      self = .speed(metersPerSecond: value / unit.divisor)
    }
  }

  static func kilometersPerHourText(_ metersPerSecond: Double) -> String {
    let kmh = (metersPerSecond * 3.6 * 10).rounded() / 10
    return kmh == kmh.rounded() ? "\(Int(kmh)) km/h" : "\(kmh) km/h"
  }
}

/// A travel mode that could not be read.
public struct TravelModeError: Error, Hashable, Sendable, CustomStringConvertible {
  public let text: String
  public var description: String {
    "'\(text)' is not a travel mode: expected walk, bike, drive, or a speed above zero such as 12km/h or 3m/s"
  }
}
