import FuzzSupport
import OpeningHours
import StoreLocator

/// Holiday files (the `--holidays` format, Data/holidays/README.md) on any text, added on top of
/// the bundled ones as the command does; for what loads, every calendar agrees with itself, and a
/// `PH off` schedule is closed on its holidays.
@main enum HolidaysFuzz {
  nonisolated(unsafe) static var bundled = HolidayRegistry()
  nonisolated(unsafe) static var utc: TimeZoneRules?

  static func main() {
    bundled = (try? HoursResources.holidayRegistry(countries: nil)) ?? HolidayRegistry()
    utc = try? TimeZoneRules(identifier: "UTC")
    runFuzzer { data, count in
      if let text = utf8Text(fuzzInput(data, count)) { HolidaysFuzz.check(text) }
      return 0
    }
  }

  static func check(_ text: String) {
    // The file alone first, for the countries it names: checking every bundled country on each
    // input would spend the time on calendars the input did not touch.
    var own = HolidayRegistry()
    do { try own.add(json: text, file: "fuzz.json") } catch { return }
    var registry = bundled
    do { try registry.add(json: text, file: "fuzz.json") } catch {
      fuzzCheck(false, "the file reads alone but not over the bundled holidays: \(error)")
    }
    guard let utc, let hours = try? OpeningHours(parsing: "Mo-Su 08:00-18:00; PH off") else { return }
    for country in own.countries {
      let regions = registry.regions(country: country)
      for region in [nil] + regions.prefix(8).map(Optional.some) {
        guard let calendar = registry.calendar(country: country, region: region) else { continue }
        let schedule = Schedule(hours, timeZone: utc, holidays: calendar)
        for (date, name) in calendar.holidays.prefix(64) {
          fuzzCheck(calendar.covers(date), "\(country) \(region ?? ""): holiday \(date) outside its years")
          fuzzCheck(calendar.holiday(on: date) == name, "\(country): holiday(on: \(date)) is not \(name)")
          fuzzCheck(calendar.isHoliday(date) == true, "\(country): isHoliday(\(date)) is not true")
          let noon = Instant(secondsSinceEpoch: Int64(date.daysSinceEpoch) * 86_400 + 43_200)
          fuzzCheck(schedule.status(at: noon).state == .closed, "PH off, yet not closed on \(date) (\(name))")
        }
      }
      if let region = regions.first {
        _ = registry.resolveRegion(country: country, region: region)
      }
    }
  }
}
