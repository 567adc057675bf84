#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// When the sun crosses an altitude on a given day, or that it does not.
public enum SolarEvent: Hashable, Sendable, CustomStringConvertible {
  /// The sun crosses the altitude at this instant.
  case at(Instant)
  /// The sun stays above the altitude all day (polar day; for dawn and dusk: civil twilight
  /// all night, the "white nights").
  case alwaysUp
  /// The sun stays below the altitude all day (polar night).
  case alwaysDown

  /// The instant, or `nil` when the sun does not cross the altitude that day.
  public var instant: Instant? {
    if case .at(let instant) = self { return instant }
    return nil
  }

  public var description: String {
    switch self {
    case .at(let instant): instant.description
    case .alwaysUp: "always up"
    case .alwaysDown: "always down"
    }
  }
}

/// The sun's daily events at a place, for `sunrise`, `sunset`, `dawn` and `dusk` in opening hours.
///
/// The algorithm is NOAA's (the Solar Calculator's, after Meeus, "Astronomical Algorithms"),
/// iterated so that declination and the equation of time are taken at the event itself. Sunrise
/// and sunset are when the sun's upper limb touches the horizon of a sea-level observer with
/// standard refraction: its centre at −0.833°. Dawn and dusk are civil twilight, the centre at
/// −6°. Agrees with the Python `astral` package (3.2) to within about a minute at latitudes up
/// to 70°; near the start or end of polar day or night the times drift apart faster, as the sun
/// grazes the horizon.
///
/// Which day: the events of the solar day whose noon is nearest to local noon of `date` at
/// `utcOffsetSeconds`, so a place whose zone is a day off its longitude (Fiji's Taveuni at
/// −179.9° in UTC+12) still gets the sunrise that falls on `date` locally. Without an offset the
/// place's mean solar time (longitude / 15°) is used. Pass the zone's offset at local noon.
public enum SolarEvents {
  /// Altitude of the sun's centre at sunrise and sunset: radius 16′ plus refraction 34′ (−0.833°).
  public static let sunriseAltitude = -0.833
  /// Altitude of the sun's centre at civil dawn and dusk.
  public static let civilTwilightAltitude = -6.0

  /// The sun's upper limb appears above the horizon.
  public static func sunrise(
    on date: LocalDate, latitude: Double, longitude: Double, utcOffsetSeconds: Int? = nil
  ) -> SolarEvent {
    crossing(
      altitude: sunriseAltitude, rising: true, on: date, latitude: latitude, longitude: longitude,
      utcOffsetSeconds: utcOffsetSeconds)
  }

  /// The sun's upper limb disappears below the horizon.
  public static func sunset(
    on date: LocalDate, latitude: Double, longitude: Double, utcOffsetSeconds: Int? = nil
  ) -> SolarEvent {
    crossing(
      altitude: sunriseAltitude, rising: false, on: date, latitude: latitude, longitude: longitude,
      utcOffsetSeconds: utcOffsetSeconds)
  }

  /// Civil dawn: the sun's centre rises through −6°.
  public static func dawn(
    on date: LocalDate, latitude: Double, longitude: Double, utcOffsetSeconds: Int? = nil
  ) -> SolarEvent {
    crossing(
      altitude: civilTwilightAltitude, rising: true, on: date, latitude: latitude, longitude: longitude,
      utcOffsetSeconds: utcOffsetSeconds)
  }

  /// Civil dusk: the sun's centre sets through −6°.
  public static func dusk(
    on date: LocalDate, latitude: Double, longitude: Double, utcOffsetSeconds: Int? = nil
  ) -> SolarEvent {
    crossing(
      altitude: civilTwilightAltitude, rising: false, on: date, latitude: latitude, longitude: longitude,
      utcOffsetSeconds: utcOffsetSeconds)
  }

  /// Solar noon (the sun's transit) of the day.
  public static func noon(on date: LocalDate, longitude: Double, utcOffsetSeconds: Int? = nil) -> Instant {
    Instant(
      secondsSinceEpoch: Int64(
        (transit(on: date, longitude: longitude, utcOffsetSeconds: utcOffsetSeconds) * 86_400).rounded()))
  }

  /// When the sun's centre crosses `altitude` (degrees) going up (`rising`) or down on the day.
  public static func crossing(
    altitude: Double, rising: Bool, on date: LocalDate, latitude: Double, longitude: Double,
    utcOffsetSeconds: Int? = nil
  ) -> SolarEvent {
    let latitude = min(max(latitude, -89.8), 89.8)
    let noon = transit(on: date, longitude: longitude, utcOffsetSeconds: utcOffsetSeconds)
    // Whether the sun crosses the altitude that day, judged at noon.
    switch hourAngle(latitude: latitude, declination: Sun(days: noon).declination, altitude: altitude) {
    case .up: return .alwaysUp
    case .down: return .alwaysDown
    case .angle: break
    }
    var time = noon
    for _ in 0..<4 {
      let sun = Sun(days: time)
      let angle: Double
      switch hourAngle(latitude: latitude, declination: sun.declination, altitude: altitude) {
      case .angle(let degrees): angle = degrees
      case .up: angle = 180  // grazing: the crossing is at (or beyond) midnight
      case .down: angle = 0  // grazing: the crossing is at noon
      }
      // Transit for this time's equation of time, then the hour angle either side.
      let transitAtTime = noonDays(
        near: noon, longitude: longitude, equationOfTimeMinutes: sun.equationOfTimeMinutes)
      let next = transitAtTime + (rising ? -angle : angle) / 360
      if abs(next - time) < 0.1 / 86_400 {
        time = next
        break
      }
      time = next
    }
    return .at(Instant(secondsSinceEpoch: Int64((time * 86_400).rounded())))
  }

  // MARK: - Internals (times in days since 1970-01-01T00:00Z)

  enum HourAngle {
    case angle(Double)
    case up
    case down
  }

  static func hourAngle(latitude: Double, declination: Double, altitude: Double) -> HourAngle {
    let phi = latitude * .pi / 180
    let delta = declination * .pi / 180
    let cosH = (sin(altitude * .pi / 180) - sin(phi) * sin(delta)) / (cos(phi) * cos(delta))
    if cosH > 1 { return .down }
    if cosH < -1 { return .up }
    return .angle(acos(cosH) * 180 / .pi)
  }

  /// The transit nearest to local noon of `date`.
  static func transit(on date: LocalDate, longitude: Double, utcOffsetSeconds: Int?) -> Double {
    let offsetDays = utcOffsetSeconds.map { Double($0) / 86_400 } ?? longitude / 360
    let localNoon = Double(date.daysSinceEpoch) + 0.5 - offsetDays
    var time = localNoon
    for _ in 0..<3 {
      time = noonDays(
        near: localNoon, longitude: longitude, equationOfTimeMinutes: Sun(days: time).equationOfTimeMinutes)
    }
    return time
  }

  /// The instant of transit, in days, closest to `reference`, for an equation of time.
  static func noonDays(near reference: Double, longitude: Double, equationOfTimeMinutes: Double) -> Double {
    // At 0h UTC + (720 − 4·longitude − EoT) minutes on some UTC day.
    let fraction = (720 - 4 * longitude - equationOfTimeMinutes) / 1440
    let day = (reference - fraction).rounded()
    return day + fraction
  }

  /// The sun's declination and the equation of time at an instant (NOAA).
  struct Sun {
    let declination: Double
    let equationOfTimeMinutes: Double

    init(days: Double) {
      let julianDay = days + 2_440_587.5
      let t = (julianDay - 2_451_545) / 36_525
      let radians = Double.pi / 180
      var meanLongitude = (280.46646 + t * (36_000.76983 + t * 0.0003032)).truncatingRemainder(
        dividingBy: 360)
      if meanLongitude < 0 { meanLongitude += 360 }
      let meanAnomaly = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
      let eccentricity = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
      let m = meanAnomaly * radians
      let center =
        sin(m) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * m) * (0.019993 - 0.000101 * t)
        + sin(3 * m) * 0.000289
      let trueLongitude = meanLongitude + center
      let omega = (125.04 - 1934.136 * t) * radians
      let apparentLongitude = trueLongitude - 0.00569 - 0.00478 * sin(omega)
      let meanObliquity = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
      let obliquity = (meanObliquity + 0.00256 * cos(omega)) * radians
      declination = asin(sin(obliquity) * sin(apparentLongitude * radians)) / radians
      let y = tan(obliquity / 2) * tan(obliquity / 2)
      let l0 = meanLongitude * radians
      let equation =
        y * sin(2 * l0) - 2 * eccentricity * sin(m) + 4 * eccentricity * y * sin(m) * cos(2 * l0)
        - 0.5 * y * y * sin(4 * l0) - 1.25 * eccentricity * eccentricity * sin(2 * m)
      equationOfTimeMinutes = 4 * equation / radians
    }
  }
}
