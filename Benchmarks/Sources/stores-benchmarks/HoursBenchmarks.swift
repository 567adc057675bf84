import OpeningHours
import StoreLocator

/// The expressions of `hours`: a stable key (for `--json` and `hours.tsv`), a label, the text.
let hoursExpressions = [
  ("weekly", "weekly", "Mo-Fr 07:00-19:00; Sa 08:00-18:00; Su 09:00-17:00"),
  ("weekly_past_midnight", "weekly, past midnight", "Mo-Th 07:00-22:00; Fr,Sa 07:00-02:00; Su 09:00-20:00"),
  ("with_ph", "with PH (DE-BE data)", "Mo-Fr 07:00-19:00; Sa 08:00-18:00; PH off"),
  ("seasonal_dates", "seasonal + dates", "Mo-Fr 07:00-19:00; Jun-Aug Mo-Su 07:00-22:00; Dec 25 off"),
]

/// `count` instants spread over 2026 (SplitMix64, seed 4242): uniform whole seconds.
func hoursInstants(count: Int) -> [Instant] {
  var rng = SplitMix64(seed: 4242)
  let start2026: Int64 = 1_767_225_600
  return (0..<count).map { _ in
    Instant(secondsSinceEpoch: start2026 + Int64(rng.next() % (365 * 86_400)))
  }
}

/// `count` instants within two days (2026-11-25 and 26, the same generator): what a service asks,
/// "open now?" of many stores, where a date-dependent schedule paints a day once and reads it after.
func hoursInstantsNearNow(count: Int) -> [Instant] {
  var rng = SplitMix64(seed: 4242)
  let start: Int64 = 1_795_564_800
  return (0..<count).map { _ in Instant(secondsSinceEpoch: start + Int64(rng.next() % (2 * 86_400))) }
}

/// Compiled opening hours, one call at a time: parse, `isOpen(at:)` and `nextChange(after:)` on a
/// weekly schedule (the common case: a table lookup) and on a date-dependent one (public holidays
/// with data, a seasonal rule), at 100,000 instants spread over 2026 (seed 4242). `nextChange`
/// runs on the first tenth of the instants.
func benchmarkHours(instants count: Int, repeats: Int) {
  let instants = hoursInstants(count: count)
  let berlin = try! TimeZoneRules(identifier: "Europe/Berlin")
  let registry = try! HoursResources.holidayRegistry(countries: ["DE"])
  let holidays = registry.calendar(country: "DE", region: "BE")
  var table = Table("Opening hours, Europe/Berlin, \(count) instants in 2026, one call at a time")
  for (key, label, text) in hoursExpressions {
    let parse =
      best(of: repeats) {
        for _ in 0..<1_000 { consume(((try? OpeningHours(parsing: text)) != nil) ? 1 : 0) }
      } / 1_000 * 1e6
    let schedule = Schedule(
      try! OpeningHours(parsing: text), timeZone: berlin, holidays: holidays, latitude: 52.52,
      longitude: 13.40)
    var open = 0
    let isOpen =
      best(of: repeats) {
        for instant in instants where schedule.isOpen(at: instant) { open &+= 1 }
      } / Double(count) * 1e9
    consume(open)
    let recentInstants = hoursInstantsNearNow(count: count)
    let isOpenRecent =
      best(of: repeats) {
        for instant in recentInstants where schedule.isOpen(at: instant) { open &+= 1 }
      } / Double(count) * 1e9
    consume(open)
    // What a service pays a store for "open now, until when?": the status and the next change of
    // state within eight days (`StoreStatus`), within two days.
    let statusRecent =
      best(of: repeats) {
        for instant in recentInstants {
          let status = schedule.status(at: instant)
          consume(Int(schedule.nextStateChange(after: instant, horizonDays: 8)?.secondsSinceEpoch ?? 0))
          consume(status.state == .open ? 1 : 0)
        }
      } / Double(count) * 1e9
    var openCount = 0
    for instant in instants where schedule.isOpen(at: instant) { openCount += 1 }
    let sample = Array(instants.prefix(max(1, count / 10)))
    var changeSum: Int64 = 0
    for instant in sample { changeSum &+= schedule.nextChange(after: instant)?.secondsSinceEpoch ?? 0 }
    let next =
      best(of: repeats) {
        for instant in sample { consume(Int(schedule.nextChange(after: instant)?.secondsSinceEpoch ?? 0)) }
      } / Double(sample.count) * 1e6
    table.add(
      "\(label)",
      "parse \(fixed(parse, 1)) µs   isOpen \(fixed(isOpen, 1)) ns (within two days \(fixed(isOpenRecent, 1)) ns)"
        + "   nextChange \(fixed(next, 2)) µs   status+until (two days) \(fixed(statusRecent, 1)) ns")
    record("hours.\(key).parse_us", parse)
    record("hours.\(key).is_open_ns", isOpen)
    record("hours.\(key).is_open_two_days_ns", isOpenRecent)
    record("hours.\(key).next_change_us", next)
    record("hours.\(key).status_until_two_days_ns", statusRecent)
    // Checks for other implementations on the same instants: how many are open, and the sum of
    // the next changes (seconds since 1970) over the `nextChange` sample.
    record("hours.\(key).open_count", openCount)
    record("hours.\(key).next_change_sum", Double(changeSum))
  }
  // Sun times at Berlin's coordinates: every day its own timeline, which no table of days keeps.
  // Not in `hoursExpressions` (and `hours.tsv`): the anchors would need the coordinates.
  let sun = Schedule(
    try! OpeningHours(parsing: "Mo-Fr sunrise-sunset; Sa 10:00-sunset"), timeZone: berlin, latitude: 52.52,
    longitude: 13.40)
  let sunInstants = hoursInstantsNearNow(count: count)
  var sunOpen = 0
  let sunRecent =
    best(of: repeats) {
      for instant in sunInstants where sun.isOpen(at: instant) { sunOpen &+= 1 }
    } / Double(count) * 1e9
  consume(sunOpen)
  table.add("sunrise-sunset (coordinates)", "isOpen within two days \(fixed(sunRecent, 1)) ns")
  record("hours.sun.is_open_two_days_ns", sunRecent)
  record("hours.instants", count)
  record("hours.next_change_instants", max(1, count / 10))
  table.print()
}
