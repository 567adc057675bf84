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
  /// Infers a store's time zone when its data gives none, and its public holidays when its data
  /// has no country or region; `nil` disables inference.
  public var timeZoneLocator: TimeZoneLocator?
  /// Which holiday region a place's division lies in, for inferring a store's region; `nil`:
  /// regions are not inferred (countries still are).
  public var holidayDivisions: HolidayDivisions?

  public init(
    holidays: HolidayRegistry = HolidayRegistry(), timeZoneLocator: TimeZoneLocator? = nil,
    holidayDivisions: HolidayDivisions? = nil
  ) {
    self.holidays = holidays
    self.timeZoneLocator = timeZoneLocator
    self.holidayDivisions = holidayDivisions
  }

  /// The bundled holiday directory, `Data/holidays`, beside the bundled data set.
  public static var bundledHolidayDirectory: String {
    DefaultData.dataDirectory + "/holidays"
  }

  /// Loads what `stores` needs for these stores: the bundled holiday files of their countries,
  /// then `extraHolidayFiles` (which extend or override them), and the places when some store
  /// has no time zone, or may name holidays (`PH`, `SH`) without saying where they are: no
  /// `addr:country` (then every bundled country is loaded, since the place decides), or a
  /// country whose holiday regions differ and no `addr:state`.
  ///
  /// - Throws: `CatalogError` when a holiday file, the places file or the divisions file cannot
  ///   be read.
  public static func bundled(for stores: [Store], extraHolidayFiles: [String] = []) throws(CatalogError)
    -> HoursResources
  {
    var inputs = HoursInputs(expectedCount: stores.count)
    for store in stores { inputs.append(store) }
    return try bundled(for: inputs, extraHolidayFiles: extraHolidayFiles)
  }

  /// `bundled(for:extraHolidayFiles:)` of the stores whose hours inputs are `inputs`.
  static func bundled(for inputs: HoursInputs, extraHolidayFiles: [String] = []) throws(CatalogError)
    -> HoursResources
  {
    // Every question below is asked of each kind of store once.
    let stores = inputs.distinctSubjects()
    var countries = Set<String>()
    for store in stores where store.openingHours != nil {
      if let country = store.country, country.count == 2 {
        countries.insert(country.uppercased())
      }
    }
    // Stores that may name holidays without saying where: without a country, the place
    // decides it (so every bundled country is loaded); with one but no region, it may decide the
    // region.
    var lacksCountry = false
    var lacksRegion = Set<String>()
    for store in stores where !lacksCountry {
      guard store.coordinate != nil, let hours = store.openingHours, mayNameHolidays(hours) else { continue }
      if let country = store.country.flatMap(InferredHolidays.countryCode) {
        if store.region == nil { lacksRegion.insert(country) }
      } else {
        lacksCountry = true
      }
    }
    let registry = try holidayRegistry(
      countries: lacksCountry ? nil : countries, extraFiles: extraHolidayFiles)
    // Without the file (an older copy of Data/), regions are not inferred; countries still are.
    let divisions =
      (lacksCountry || !lacksRegion.isEmpty) && isReadableFile(HolidayDivisions.bundledPath)
      ? try HolidayDivisions(contentsOf: HolidayDivisions.bundledPath) : nil
    let lacksPlace = lacksCountry || lacksRegion.contains { divisions?.hasRegions(country: $0) == true }
    // Inference is needed for located stores without a zone, or with a name that is not a zone.
    var validNames: [String: Bool] = [:]
    let needsInference = stores.contains { store in
      guard store.coordinate != nil else { return false }
      guard let name = store.timezone else { return true }
      if validNames[name] == nil { validNames[name] = (try? TimeZoneRules(identifier: name)) != nil }
      return validNames[name] == false
    }
    let locator =
      needsInference || lacksPlace ? try TimeZoneLocator(contentsOf: TimeZoneLocator.bundledPath) : nil
    return HoursResources(holidays: registry, timeZoneLocator: locator, holidayDivisions: divisions)
  }

  /// Whether an `opening_hours` text may name holidays (`PH` or `SH`): a quick look before it is
  /// parsed, so places are loaded only when they may be needed. False positives cost the load.
  static func mayNameHolidays(_ hours: String) -> Bool {
    var previous: UInt8 = 0
    for byte in hours.utf8 {
      if byte == UInt8(ascii: "H") || byte == UInt8(ascii: "h"),
        previous | 0x20 == UInt8(ascii: "p") || previous | 0x20 == UInt8(ascii: "s")
      {
        return true
      }
      previous = byte
    }
    return false
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
        for country in countries.sorted() { try addBundledHolidays(of: country.uppercased(), to: &registry) }
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

  /// Adds the bundled public holidays of `country` (an upper-case ISO 3166 code), when there are
  /// any, to `registry`: each bundled file holds the country it is named for.
  static func addBundledHolidays(of country: String, to registry: inout HolidayRegistry)
    throws(HolidayDataError)
  {
    let path = bundledHolidayDirectory + "/" + country + ".json"
    if isReadableFile(path) { try registry.add(contentsOf: path) }
  }

  /// The calendar for a store: its country's, with the region from `addr:state` when the data
  /// knows it (`NSW`, `AU-NSW`, `Bayern` and `3` for Norway's `03` all work), each inferred from
  /// the location when the data has none (`Store.inferredHolidays`); `nil` when there is no data
  /// for the country.
  public func holidayCalendar(for store: Store) -> HolidayCalendar? {
    holidayCalendar(country: store.holidayCountry, region: store.holidayRegion)
  }

  /// The calendar of a store whose holiday country is `country` and region `region`.
  func holidayCalendar(country: String?, region: String?) -> HolidayCalendar? {
    guard let country, country.count == 2 else { return nil }
    return holidays.calendar(country: country, region: region)
  }

  /// What a store's location adds to its public holidays when its data lacks the country or the
  /// region (see `InferredHolidays`), or `nil`.
  /// - Parameters:
  ///   - country: The store's `addr:country`, if any; `region` its `addr:state`.
  ///   - place: The place its location was matched to (`TimeZoneLocator.timeZone(near:country:)`
  ///     with the store's country, so a place in that country is preferred).
  public func inferredHolidays(country: String?, region: String?, from place: TimeZoneGuess)
    -> InferredHolidays?
  {
    InferredHolidays.inferred(
      country: country, region: region, from: place, knownCountries: Set(holidays.countries),
      divisions: holidayDivisions)
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
