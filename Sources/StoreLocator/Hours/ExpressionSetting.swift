import GeoIndex
import OpeningHours

/// Where an `opening_hours` expression evaluated on its own (`stores hours --expression`) is
/// evaluated: its time zone and public holidays, each as given, or inferred from a location
/// (`--near`) the way a store's are: the zone, the country and the region of the nearest
/// populated place (the region only where the place's division maps to one of the holiday data,
/// and for a given country only from a place in that country).
public struct ExpressionSetting: Sendable {
  /// The time zone: the one given, else the nearest place's.
  public let timeZone: TimeZoneRules
  /// The public holidays `PH` means, or `nil` when there are none (then `PH` is unknown).
  public let holidays: HolidayCalendar?
  /// What was inferred or is missing, one sentence each, for notes on standard error:
  /// `time zone Europe/Berlin, inferred from Mitte (DE), 0.6 km away`.
  public let notes: [String]
  /// `Europe/Berlin, public holidays of DE-BE`: the heading of the answer.
  public let title: String

  /// Settles the zone and holidays of an expression.
  ///
  /// - Parameters:
  ///   - timeZone: The zone given (`--timezone`), if any.
  ///   - country: The holidays given (`--country`: `DE`, `DE-BY`), if any.
  ///   - near: Where the expression's place is (`--near`), if given.
  ///   - extraHolidayFiles: `--holidays` files, loaded after the bundled ones.
  /// - Returns: `nil` when there is no zone: none given and no location to infer one from.
  /// - Throws: `CatalogError` when the holiday data, the places or the divisions cannot be read.
  public static func settle(
    timeZone: TimeZoneRules?, country: String?, near: Coordinate?, extraHolidayFiles: [String] = []
  ) throws(CatalogError) -> ExpressionSetting? {
    let givenCountry = country.map { String($0.prefix { $0 != "-" }).uppercased() }
    let givenRegion = country.flatMap { text in
      text.firstIndex(of: "-").map { String(text[text.index(after: $0)...]) }
    }
    // The place, when something is left to infer from it.
    var place: TimeZoneGuess?
    if let near, timeZone == nil || givenCountry == nil || givenRegion == nil {
      let locator = try TimeZoneLocator(contentsOf: TimeZoneLocator.bundledPath)
      place = locator.timeZone(near: near, country: givenCountry)
    }
    var notes: [String] = []
    let zone: TimeZoneRules
    if let timeZone {
      zone = timeZone
    } else if let place, let inferred = try? TimeZoneRules(identifier: place.identifier) {
      zone = inferred
      notes.append("time zone \(place)")
    } else {
      return nil
    }

    let holidayCountry = givenCountry ?? place.map { $0.countryCode.uppercased() }
    guard let holidayCountry, !holidayCountry.isEmpty else {
      return ExpressionSetting(timeZone: zone, holidays: nil, notes: notes, title: zone.identifier)
    }
    let registry = try HoursResources.holidayRegistry(
      countries: [holidayCountry], extraFiles: extraHolidayFiles)
    let divisions =
      isReadableFile(HolidayDivisions.bundledPath)
      ? try HolidayDivisions(contentsOf: HolidayDivisions.bundledPath) : nil
    let inferred = place.flatMap { place in
      InferredHolidays.inferred(
        country: givenCountry, region: givenRegion, from: place, knownCountries: Set(registry.countries),
        divisions: divisions)
    }
    let calendar: HolidayCalendar?
    let named: String
    if let inferred {
      calendar = registry.calendar(country: inferred.country, region: givenRegion ?? inferred.region)
      named = givenRegion.map { "\(inferred.country)-\($0)" } ?? inferred.code
      notes.append(inferred.description)
    } else {
      calendar = registry.calendar(country: holidayCountry, region: givenRegion)
      named = country ?? holidayCountry
    }
    if calendar == nil {
      notes.append("no public-holiday data for \(holidayCountry); PH is unknown")
    }
    return ExpressionSetting(
      timeZone: zone, holidays: calendar, notes: notes,
      title: zone.identifier + (calendar == nil && country == nil ? "" : ", public holidays of \(named)"))
  }
}
