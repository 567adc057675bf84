import FuzzSupport
import OpeningHours
import StoreLocator

/// The opening-hours parser on any text, and for what parses, the schedule's questions against
/// each other: status at t, the next change, intervals, open-throughout and earliest opening.
///
/// The input is the expression alone (so the corpus of real expressions seeds it as is); the zone,
/// its holidays and the instant t come from a hash of it, so a crash replays.
@main enum HoursFuzz {
  /// Zones with DST, half-hour and 45-minute offsets, the southern hemisphere and the date line,
  /// each with its holidays and a place for sunrise and sunset.
  static let places: [(zone: String, country: String, latitude: Double, longitude: Double)] = [
    ("Europe/Berlin", "DE-BE", 52.52, 13.40),
    ("America/New_York", "US", 40.71, -74.01),
    ("Australia/Lord_Howe", "AU-NSW", -31.55, 159.08),
    ("Asia/Kathmandu", "NP", 27.72, 85.32),
    ("Pacific/Chatham", "NZ", -43.95, -176.55),
    ("America/Sao_Paulo", "BR", -23.55, -46.63),
    ("Europe/London", "GB", 51.51, -0.13),
  ]
  nonisolated(unsafe) static var zones: [(TimeZoneRules, HolidayCalendar?)] = []

  static func main() {
    let registry = (try? HoursResources.holidayRegistry(countries: nil)) ?? HolidayRegistry()
    for place in places {
      guard let zone = try? TimeZoneRules(identifier: place.zone) else {
        fatalError("no time zone \(place.zone): install tzdata")
      }
      zones.append((zone, registry.calendar(isoCode: place.country)))
    }
    runFuzzer { data, count in
      let input = fuzzInput(data, count)
      guard input.count <= 4096, let text = utf8Text(input) else { return 0 }
      HoursFuzz.check(text, hash: fnv1a(input))
      return 0
    }
  }

  static func check(_ text: String, hash: UInt64) {
    guard let hours = try? OpeningHours(parsing: text) else { return }
    let placeIndex = Int(hash % UInt64(places.count))
    let place = places[placeIndex]
    let (zone, holidays) = zones[placeIndex]
    let schedule = Schedule(
      hours, timeZone: zone, holidays: holidays, latitude: place.latitude, longitude: place.longitude)
    // 2020-01-01 … 2030-12-31, to the second; every 4th input on a full hour, where changes are.
    var t = Instant(secondsSinceEpoch: 1_577_836_800 + Int64((hash >> 8) % (11 * 365 * 86_400)))
    if hash & 3 == 0 { t = Instant(secondsSinceEpoch: t.secondsSinceEpoch / 3600 * 3600) }
    let status = schedule.status(at: t)
    fuzzCheck(schedule.isOpen(at: t) == (status.state == .open), "isOpen disagrees with status at \(t)")

    // Next change: the status holds up to it and differs at it.
    let horizonDays = 8
    let horizon = t + Int64(horizonDays) * 86_400
    if let change = schedule.nextChange(after: t, horizonDays: horizonDays) {
      fuzzCheck(change > t && change <= horizon, "nextChange \(change) outside (\(t), \(horizon)]")
      fuzzCheck(schedule.status(at: change - 1) == status, "status just before nextChange \(change) differs")
      fuzzCheck(schedule.status(at: change) != status, "status at nextChange \(change) is unchanged")
      let middle = t + (change.secondsSinceEpoch - t.secondsSinceEpoch) / 2
      fuzzCheck(schedule.status(at: middle) == status, "status changes before nextChange, at \(middle)")
    } else {
      for step in stride(from: Int64(0), to: Int64(horizonDays) * 86_400, by: 3 * 3600 + 7) {
        fuzzCheck(schedule.status(at: t + step) == status, "no nextChange, yet status differs at \(t + step)")
      }
    }
    if let change = schedule.nextStateChange(after: t, horizonDays: horizonDays) {
      fuzzCheck(
        schedule.status(at: change - 1).state == status.state, "state just before nextStateChange differs")
      fuzzCheck(schedule.status(at: change).state != status.state, "state at nextStateChange unchanged")
    }

    // Intervals over three days: contiguous, alternating, and the status at each instant sampled.
    let end = t + 3 * 86_400
    let intervals = schedule.intervals(from: t, to: end)
    fuzzCheck(intervals.first?.start == t && intervals.last?.end == end, "intervals do not cover [t, end)")
    for (index, interval) in intervals.enumerated() {
      fuzzCheck(interval.start < interval.end, "empty interval \(interval)")
      if index > 0 {
        fuzzCheck(intervals[index - 1].end == interval.start, "gap or overlap before \(interval)")
        fuzzCheck(intervals[index - 1].status != interval.status, "adjacent intervals with one status")
      }
      let length = interval.end.secondsSinceEpoch - interval.start.secondsSinceEpoch
      for instant in [interval.start, interval.end - 1, interval.start + length / 2] {
        fuzzCheck(
          schedule.status(at: instant) == interval.status,
          "status at \(instant) is not its interval's \(interval)")
      }
    }
    let open = intervals.filter { $0.status.state == .open }
    let probe = t + Int64(hash >> 40) % (3 * 86_400)
    fuzzCheck(
      schedule.isOpen(at: probe) == open.contains { $0.start <= probe && probe < $0.end },
      "the open intervals disagree with isOpen at \(probe)")

    // Earliest opening lasting d: open throughout from it, and from no earlier candidate (t or an
    // interval start: an open run starts at one of them).
    let lasting = Int64([1, 60, 900, 3600, 4 * 3600][Int(hash >> 60) % 5])
    let searchDays = 2
    if let earliest = schedule.earliestOpening(lasting: lasting, from: t, horizonDays: searchDays) {
      fuzzCheck(earliest >= t && earliest <= t + Int64(searchDays) * 86_400, "earliestOpening out of range")
      fuzzCheck(
        schedule.isOpen(throughout: earliest, seconds: lasting), "not open throughout from earliestOpening")
      fuzzCheck(
        schedule.state(throughout: earliest, seconds: lasting) == .open,
        "state(throughout:) disagrees at earliest")
      for candidate in [t] + intervals.map(\.start) where candidate < earliest {
        fuzzCheck(
          !schedule.isOpen(throughout: candidate, seconds: lasting),
          "open for \(lasting) s from \(candidate), before earliestOpening \(earliest)")
      }
    } else {
      for candidate in [t] + intervals.map(\.start) where candidate <= t + Int64(searchDays) * 86_400 {
        fuzzCheck(
          !schedule.isOpen(throughout: candidate, seconds: lasting),
          "open for \(lasting) s from \(candidate), yet no earliestOpening")
      }
    }
  }
}

/// FNV-1a: a fixed hash (Swift's `Hasher` is seeded per process, and a crash must replay).
func fnv1a(_ bytes: FuzzInput) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
  // Spread the low bits, which pick the place, over the whole word.
  hash ^= hash >> 33
  hash = hash &* 0xff51_afd7_ed55_8ccd
  return hash ^ (hash >> 33)
}
