// The one place where sun-dependent times (sunrise, sunset, dawn, dusk) enter the engine.

/// Seconds after local midnight of `date` at which `event` happens at the store.
///
/// For now this returns the defaults of the `opening_hours` specification (dawn 05:30, sunrise
/// 06:00, sunset 18:00, dusk 18:30) whatever the place; real solar times computed from the
/// coordinates plug in here (and only here).
/// - Parameters:
///   - event: which event.
///   - date: the local calendar day.
///   - latitude: degrees north, `nil` when unknown.
///   - longitude: degrees east, `nil` when unknown.
///   - timeZone: the store's time zone, to turn a UTC event time into wall-clock time.
/// - Returns: seconds into the local day, 0..<86_400.
func sunEventSecondsIntoDay(
  _ event: SunEvent, on date: LocalDate, latitude: Double?, longitude: Double?, timeZone: TimeZoneRules
) -> Int {
  switch event {
  case .dawn: 5 * 3600 + 30 * 60
  case .sunrise: 6 * 3600
  case .sunset: 18 * 3600
  case .dusk: 18 * 3600 + 30 * 60
  }
}
