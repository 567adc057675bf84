import GeoIndex
import OpeningHours

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What evaluating opening hours needs beyond the store records: public-holiday calendars,
/// time-zone rules, and the places a missing time zone is inferred from.
public struct HoursResources: Sendable {
  /// Public holidays by country and region.
  public var holidays: HolidayRegistry
  /// Infers a store's time zone when its data gives none; `nil` disables inference.
  public var timeZoneLocator: TimeZoneLocator?

  public init(holidays: HolidayRegistry = HolidayRegistry(), timeZoneLocator: TimeZoneLocator? = nil) {
    self.holidays = holidays
    self.timeZoneLocator = timeZoneLocator
  }

  /// The bundled holiday directory, `Data/holidays`, beside the bundled data set.
  public static var bundledHolidayDirectory: String {
    DefaultData.dataDirectory + "/holidays"
  }

  /// Loads what `stores` needs for these stores: the bundled holiday files of their countries,
  /// then `extraHolidayFiles` (which extend or override them), and the time-zone places when
  /// some store has no time zone.
  ///
  /// - Throws: `CatalogError` when a holiday file or the places file cannot be read.
  public static func bundled(for stores: [Store], extraHolidayFiles: [String] = []) throws(CatalogError)
    -> HoursResources
  {
    var countries = Set<String>()
    for store in stores where store.openingHours != nil {
      if let country = store.country, country.count == 2 {
        countries.insert(country.uppercased())
      }
    }
    let registry = try holidayRegistry(countries: countries, extraFiles: extraHolidayFiles)
    // Inference is needed for located stores without a zone, or with a name that is not a zone.
    var validNames: [String: Bool] = [:]
    let needsInference = stores.contains { store in
      guard store.coordinate != nil else { return false }
      guard let name = store.timezone else { return true }
      if validNames[name] == nil { validNames[name] = (try? TimeZoneRules(identifier: name)) != nil }
      return validNames[name] == false
    }
    let locator = needsInference ? try TimeZoneLocator(contentsOf: TimeZoneLocator.bundledPath) : nil
    return HoursResources(holidays: registry, timeZoneLocator: locator)
  }

  /// The bundled holidays of `countries` (all bundled countries when `nil`), then `extraFiles`.
  ///
  /// - Throws: `CatalogError` naming the file that cannot be read and where it is wrong.
  public static func holidayRegistry(countries: Set<String>?, extraFiles: [String] = []) throws(CatalogError)
    -> HolidayRegistry
  {
    var registry = HolidayRegistry()
    // Without the directory every PH rule would answer "unknown": refuse instead, and say where
    // the data was looked for.
    if countries?.isEmpty != true, !isDirectory(bundledHolidayDirectory) {
      throw CatalogError(
        .inputMissing, source: bundledHolidayDirectory,
        "no such directory: the public-holiday data is missing; set \(DefaultData.resourcesVariable) to a copy "
          + "of the repository's Data/ directory")
    }
    do {
      if let countries {
        for country in countries.sorted() {
          let path = bundledHolidayDirectory + "/" + country.uppercased() + ".json"
          if isReadableFile(path) { try registry.add(contentsOf: path) }
        }
      } else {
        try registry.addDirectory(bundledHolidayDirectory)
      }
    } catch {
      throw CatalogError(.badData, source: error.file, error.messageWithoutFile)
    }
    for path in extraFiles {
      guard isReadableFile(path) else {
        throw CatalogError(.inputMissing, source: path, "no such holiday file")
      }
      do { try registry.add(contentsOf: path) } catch {
        throw CatalogError(.badData, source: path, error.messageWithoutFile)
      }
    }
    return registry
  }

  /// The calendar for a store: its country's, with the region from `addr:state` when the data
  /// knows it (`NSW`, `AU-NSW`, `Bayern` and `3` for Norway's `03` all work); `nil` when there is
  /// no data for the country.
  public func holidayCalendar(for store: Store) -> HolidayCalendar? {
    guard let country = store.country, country.count == 2 else { return nil }
    return holidays.calendar(country: country, region: store.region)
  }
}

/// True when `path` names a readable file.
func isReadableFile(_ path: String) -> Bool { access(path, R_OK) == 0 }

/// True when `path` names a directory that can be listed.
func isDirectory(_ path: String) -> Bool {
  guard let directory = opendir(path) else { return false }
  closedir(directory)
  return true
}

extension HolidayDataError {
  /// `line 12:5: expected a date …`: the message for a `CatalogError`, which names the file itself.
  fileprivate var messageWithoutFile: String {
    line > 0 ? "line \(line):\(column): \(message)" : message
  }
}
