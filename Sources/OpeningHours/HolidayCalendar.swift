// API CONTRACT (placeholder body). The holidays helper completes it; public signatures stay.

/// Public holidays of one country, or one region of it (ISO 3166-2), for the years it covers.
public struct HolidayCalendar: Hashable, Sendable {
  /// ISO 3166-1 alpha-2, such as `DE`.
  public let country: String
  /// The region part of ISO 3166-2 (`BY` for `DE-BY`), or `nil` for national holidays only.
  public let region: String?
  /// The years the data covers; outside them, whether a day is a holiday is unknown.
  public let years: ClosedRange<Int>
  /// Holiday names by date.
  let names: [LocalDate: String]

  public init(country: String, region: String?, years: ClosedRange<Int>, holidays: [LocalDate: String]) {
    self.country = country
    self.region = region
    self.years = years
    self.names = holidays
  }

  /// Whether `date` is covered by the data.
  public func covers(_ date: LocalDate) -> Bool { years.contains(date.year) }

  /// The holiday's name when `date` is a public holiday, `nil` when it is not (or not covered).
  public func holiday(on date: LocalDate) -> String? { names[date] }
}
