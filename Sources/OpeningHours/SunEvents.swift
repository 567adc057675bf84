// The one place where sun-dependent times (sunrise, sunset, dawn, dusk) enter the engine.

/// Seconds after local midnight of `date` at which `event` happens at the store.
///
/// With coordinates, the times come from `SolarEvents` (standard refraction for sunrise and
/// sunset, civil twilight for dawn and dusk) in the store's wall clock. Without them, the
/// `opening_hours` specification's defaults: dawn 05:30, sunrise 06:00, sunset 18:00, dusk 18:30.
/// When the sun does not cross the altitude that day, or an event falls on another calendar day (a
/// sunset after midnight in a subarctic summer), the day is cut at its edges: under the midnight
/// sun rising events are 00:00 and setting events 24:00, so `sunrise-sunset` is the whole day; in
/// the polar night the events do not happen (`nil`), so a span between them is empty.
/// - Parameters:
///   - event: which event.
///   - date: the local calendar day.
///   - latitude: degrees north, `nil` when unknown.
///   - longitude: degrees east, `nil` when unknown.
///   - timeZone: the store's time zone, to turn a UTC event time into wall-clock time.
/// - Returns: seconds into the local day, 0...86_400, or `nil` when the event does not happen.
func sunEventSecondsIntoDay(
  _ event: SunEvent, on date: LocalDate, latitude: Double?, longitude: Double?, timeZone: TimeZoneRules
) -> Int? {
  let midnight = 86_400
  guard let latitude, let longitude else {
    switch event {
    case .dawn: return 5 * 3600 + 30 * 60
    case .sunrise: return 6 * 3600
    case .sunset: return 18 * 3600
    case .dusk: return 18 * 3600 + 30 * 60
    }
  }
  // The offset at local noon decides which day's events these are (Taveuni, UTC+12 at -179.9°).
  let noon = TimeQuery.wallTime(LocalDateTime(date: date, hour: 12, minute: 0)).instant(in: timeZone)
  let offset = timeZone.offset(at: noon)
  let solar: SolarEvent
  let rising: Bool
  switch event {
  case .dawn:
    solar = SolarEvents.dawn(on: date, latitude: latitude, longitude: longitude, utcOffsetSeconds: offset)
    rising = true
  case .sunrise:
    solar = SolarEvents.sunrise(on: date, latitude: latitude, longitude: longitude, utcOffsetSeconds: offset)
    rising = true
  case .sunset:
    solar = SolarEvents.sunset(on: date, latitude: latitude, longitude: longitude, utcOffsetSeconds: offset)
    rising = false
  case .dusk:
    solar = SolarEvents.dusk(on: date, latitude: latitude, longitude: longitude, utcOffsetSeconds: offset)
    rising = false
  }
  switch solar {
  case .alwaysUp: return rising ? 0 : midnight
  case .alwaysDown: return nil
  case .at(let instant):
    let local = timeZone.localDateTime(at: instant)
    if local.date < date { return 0 }
    if local.date > date { return midnight }
    return local.secondsIntoDay
  }
}
