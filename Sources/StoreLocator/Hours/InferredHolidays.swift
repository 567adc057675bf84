/// The public holidays a store's location gives it when its data does not say: the country (no
/// `addr:country`) and the region (no `addr:state`) of the nearest populated place, the same
/// place its time zone is inferred from.
///
/// Never across a border the place lookup cannot see: the place is the nearest one (preferring
/// the store's own country when it has one), and the note names it, as zone notes do. A store
/// with its own country keeps it; its region is inferred only from a place in that country.
public struct InferredHolidays: Hashable, Sendable {
  /// The country whose public holidays `PH` means for a store whose data names `given`
  /// (`addr:country`): the one `inferred` when its country was, else `given`.
  static func country(given: String?, inferred: InferredHolidays?) -> String? {
    if let inferred, inferred.countryIsInferred { return inferred.country }
    return given
  }

  /// The region of a store's holidays: `given` (`addr:state`), else the one `inferred`.
  static func region(given: String?, inferred: InferredHolidays?) -> String? { given ?? inferred?.region }

  /// The country whose holidays apply: the place's (ISO 3166-1 alpha-2, upper case), which is
  /// the store's own when only the region was inferred.
  public let country: String
  /// The region inferred from the place's division (the holiday data's code, `BY`), or `nil`.
  public let region: String?
  /// True when the country was inferred (the store has no `addr:country`); false when only the
  /// region was (it has a country, but no `addr:state`).
  public let countryIsInferred: Bool
  /// The place the holidays were taken from, and how far it is.
  public let place: TimeZoneGuess

  public init(country: String, region: String?, countryIsInferred: Bool, place: TimeZoneGuess) {
    self.country = country
    self.region = region
    self.countryIsInferred = countryIsInferred
    self.place = place
  }

  /// `DE-BY`, or `US` without a region.
  public var code: String { region.map { "\(country)-\($0)" } ?? country }

  /// `public holidays of DE-BE, inferred from Mitte (DE), 0.4 km away`.
  public var description: String { "public holidays of \(code), \(place.note)" }

  /// What the store's data lacked and what was used instead, for a note:
  /// `no "addr:country": public holidays of DE-BE, inferred from Mitte (DE), 0.4 km away`.
  public var note: String {
    (countryIsInferred ? "no \"addr:country\": " : "no \"addr:state\": ") + description
  }

  /// What `store` (its `addr:country` and `addr:state`, read as `HoursResources.holidayCalendar`
  /// reads them) gets from `place`, or `nil` when nothing: it has both, or the place gives nothing
  /// it lacks (no holiday data for the place's country, the place in another country than the
  /// store's own, a division that maps to no region).
  ///
  /// - Parameters:
  ///   - knownCountries: The countries with holiday data (upper case); a country without any is
  ///     not inferred, since it would change no answer.
  ///   - divisions: Which holiday region a place's division lies in.
  static func inferred(
    country: String?, region: String?, from place: TimeZoneGuess, knownCountries: Set<String>,
    divisions: HolidayDivisions?
  ) -> InferredHolidays? {
    let placeCountry = place.countryCode.uppercased()
    guard knownCountries.contains(placeCountry) else { return nil }
    let placeRegion = divisions?.region(country: placeCountry, division: place.division)
    guard let own = country.flatMap(Self.countryCode) else {
      // No country of its own: the place's, and its region unless the store names one.
      return InferredHolidays(
        country: placeCountry, region: region == nil ? placeRegion : nil, countryIsInferred: true,
        place: place)
    }
    guard region == nil, own == placeCountry, let placeRegion else { return nil }
    return InferredHolidays(country: own, region: placeRegion, countryIsInferred: false, place: place)
  }

  /// The same holidays, taken from `place` (a place alike in country and division).
  func taking(_ place: TimeZoneGuess) -> InferredHolidays {
    InferredHolidays(country: country, region: region, countryIsInferred: countryIsInferred, place: place)
  }

  /// `de` → `DE`; `nil` unless two ASCII letters (what counts as a country of the store's own).
  static func countryCode(_ text: String) -> String? {
    TimeZoneLocator.countryKey(text) == nil ? nil : text.uppercased()
  }
}
