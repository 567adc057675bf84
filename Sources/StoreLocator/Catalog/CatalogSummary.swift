import GeoIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stores info` shows: how many records, where they are, in which time zones, of which brands.
public struct CatalogSummary: Hashable, Sendable {
  /// A value and how many stores have it.
  public struct Tally: Hashable, Sendable {
    public let value: String
    public let count: Int

    public init(value: String, count: Int) {
      self.value = value
      self.count = count
    }
  }

  /// A property and the stores that have each of its values.
  public struct Attribute: Hashable, Sendable {
    public let key: String
    public let values: [Tally]

    public init(key: String, values: [Tally]) {
      self.key = key
      self.values = values
    }
  }

  public let source: String
  /// The snapshot the catalog was read from, when it was (`source` is then the GeoJSON file the
  /// snapshot was built from).
  public let snapshotPath: String?
  public let recordCount: Int
  public let indexedCount: Int
  /// The smallest box holding every located store; it crosses the antimeridian (west > east)
  /// when that box is narrower than the one that does not. `nil` when no store has a location.
  public let bounds: GeoBox?
  /// Time zones, most stores first; stores without one count under `nil` in `storesWithoutTimezone`.
  public let timezones: [Tally]
  public let storesWithoutTimezone: Int
  /// Brands, most stores first.
  public let brands: [Tally]
  public let storesWithoutBrand: Int
  public let storesWithOpeningHours: Int
  /// Stores whose hours compiled and can be evaluated.
  public let storesWithSchedule: Int
  /// Stores whose `opening_hours` does not parse (`opening-hours-invalid`).
  public let storesWithInvalidHours: Int
  /// Stores whose `opening_hours` parsed only by tolerating deviations (`opening-hours-tolerated`).
  public let storesWithToleratedHours: Int
  /// Stores whose time zone was inferred from their location.
  public let storesWithInferredTimezone: Int
  /// The services the data gives hours for (`opening_hours:<service>`) and how many stores give
  /// them, most first: what `service=` can name.
  public let services: [Tally]
  /// The properties a `where` condition can usefully pick stores by, such as `drive_through` or
  /// `wheelchair`, by key; their values most stores first. An attribute's values are categories
  /// that stores share: short scalars (each up to 40 bytes), at most 16 of them, and few for the
  /// stores that have the key: d distinct values among m stores with d² ≤ m (2 values need 4
  /// stores, 9 need 81), so each value is shared by d stores on average. That leaves out free
  /// text such as `starbucks:open_status_text` (9 sentences among 50 stores), identifiers and
  /// contact details (a `phone` or `ref` per store) and a key only one store has. A key every
  /// store has with one same value is left out too, and so are the `opening_hours` keys (asked
  /// for with `open_at`, not by their text).
  public let attributes: [Attribute]
  /// Diagnostics per severity.
  public let errorCount: Int
  public let warningCount: Int
  public let noteCount: Int
  /// Diagnostics per code, most frequent first.
  public let diagnosticCodes: [Tally]
  /// Diagnostics per code and severity: errors first, then warnings, then notes.
  public let diagnosticGroups: [Diagnostic.Group]
}

extension Catalog {
  /// Counts, bounds, time zones and brands of the catalog.
  ///
  /// - Complexity: O(n log n).
  public var summary: CatalogSummary {
    var timezones: [String: Int] = [:]
    var brands: [String: Int] = [:]
    var withHours = 0
    var withInferredTimezone = 0
    var longitudes: [Double] = []
    var south = Double.infinity
    var north = -Double.infinity
    // Counted from the rows, by key number: no store is made, no key string per property.
    var attributeValues = [AttributeTally?](repeating: nil, count: table.keyCount)
    let keys = table.answerKeys
    let checksEachRow = !table.rowColumnsAreIntact()
    for position in stores.indices {
      if checksEachRow { table.checkRow(position) }
      if let timezone = table.timeZoneName(at: position) { timezones[timezone, default: 0] += 1 }
      if let brand = table.scalarText(key: keys.brand, at: position) { brands[brand, default: 0] += 1 }
      if table.scalarText(key: keys.openingHours, at: position) != nil { withHours += 1 }
      if table.hasInferredTimezone(at: position) { withInferredTimezone += 1 }
      table.forEachMember(at: position) { key, number, value in
        guard number < attributeValues.count else { return }
        if attributeValues[number] == nil {
          // Hours are asked for with open_at, not by their text.
          attributeValues[number] = AttributeTally(isCounted: !key.starts(with: Self.hoursKeyPrefix))
        }
        attributeValues[number]!.count(value, in: table)
      }
      if let coordinate = table.coordinate(at: position) {
        longitudes.append(coordinate.longitude)
        south = min(south, coordinate.latitude)
        north = max(north, coordinate.latitude)
      }
    }
    var codes: [String: Int] = [:]
    for diagnostic in diagnostics { codes[diagnostic.code.rawValue, default: 0] += 1 }
    func storesReported(_ code: String) -> Int {
      Set(diagnostics.lazy.filter { $0.code.rawValue == code }.compactMap(\.position?.featureIndex)).count
    }
    func tallies(_ counts: [String: Int]) -> [CatalogSummary.Tally] {
      counts.map { CatalogSummary.Tally(value: $0.key, count: $0.value) }
        .sorted { ($1.count, $0.value) < ($0.count, $1.value) }
    }
    let bounds = Catalog.longitudeSpan(of: longitudes).flatMap { span in
      try? GeoBox(west: span.west, south: south, east: span.east, north: north)
    }
    return CatalogSummary(
      source: source,
      snapshotPath: table.path,
      recordCount: stores.count,
      indexedCount: indexedCount,
      bounds: bounds,
      timezones: tallies(timezones),
      storesWithoutTimezone: stores.count - timezones.values.reduce(0, +),
      brands: tallies(brands),
      storesWithoutBrand: stores.count - brands.values.reduce(0, +),
      storesWithOpeningHours: withHours,
      storesWithSchedule: stores.indices.count { scheduleGap(at: $0) == nil },
      storesWithInvalidHours: Set(
        diagnostics.lazy.filter {
          $0.code.rawValue == "opening-hours-invalid" && $0.message.hasPrefix("opening_hours \"")
        }
        .compactMap(\.position?.featureIndex)
      ).count,
      storesWithToleratedHours: storesReported("opening-hours-tolerated"),
      storesWithInferredTimezone: withInferredTimezone,
      services: servicesWithHours.map { CatalogSummary.Tally(value: $0.service, count: $0.stores) },
      attributes: attributeValues.indices.compactMap { number in
        guard let values = attributeValues[number]?.values, Self.isAttribute(values, storeCount: stores.count)
        else { return nil }
        return CatalogSummary.Attribute(key: table.key(number: number), values: tallies(values))
      }.sorted { $0.key < $1.key },
      errorCount: diagnostics.count { $0.severity == .error },
      warningCount: diagnostics.count { $0.severity == .warning },
      noteCount: diagnostics.count { $0.severity == .note },
      diagnosticCodes: tallies(codes),
      diagnosticGroups: diagnostics.groupedByCode
    )
  }

  /// The values of one key as `summary` counts them: each short scalar text, until the
  /// key has a long or structured value or more than `attributeValueLimit` texts, when it is no
  /// attribute and counting stops.
  ///
  /// A value is read from its JSON the first time its bytes are met, then counted by its bytes
  /// (reading each store's values into `String`s and hashing them was a quarter of `stores info`
  /// on a million stores). Texts that are equal as `String`s (spelled with other escapes, or
  /// canonically equivalent) count as one, as a `String`-keyed tally counts them.
  struct AttributeTally {
    /// Whether the key's values are counted at all (no hours key) and still may be an attribute.
    private(set) var isCounted: Bool
    private var texts: [String] = []
    private var counts: [Int] = []
    /// The JSON spellings met so far and the text each reads as, a few at most: a spelling past
    /// `maximumSpellings` is read each time it is met.
    private var spellings: [(json: [UInt8], text: Int)] = []
    static let maximumSpellings = 64

    init(isCounted: Bool) {
      self.isCounted = isCounted
    }

    /// Counts one store's `value`, its JSON in `table`.
    mutating func count(_ value: UnsafeRawBufferPointer, in table: StoreTable) {
      guard isCounted else { return }
      for spelling in spellings where spelling.json.count == value.count {
        let isSame = spelling.json.withUnsafeBytes { known in
          value.count == 0 || memcmp(known.baseAddress!, value.baseAddress!, value.count) == 0
        }
        if isSame {
          counts[spelling.text] += 1
          return
        }
      }
      // A value of more than 6 bytes of JSON a byte of text is over the limit however escaped.
      guard value.count <= 6 * Catalog.attributeValueBytes + 2, let text = table.scalarText(json: value),
        !text.isEmpty, text.utf8.count <= Catalog.attributeValueBytes
      else {
        // A long or structured value: the key is a description, not an attribute.
        return stop()
      }
      let slot = texts.firstIndex(of: text) ?? texts.count
      if slot == texts.count {
        guard texts.count < Catalog.attributeValueLimit else { return stop() }
        texts.append(text)
        counts.append(0)
      }
      counts[slot] += 1
      if spellings.count < Self.maximumSpellings { spellings.append((Array(value), slot)) }
    }

    /// The key is no attribute: nothing more is counted.
    private mutating func stop() {
      isCounted = false
      texts = []
      counts = []
      spellings = []
    }

    /// Each text and how many stores have it, for a key that may still be an attribute; `nil`
    /// for one that is not.
    var values: [String: Int]? {
      guard isCounted else { return nil }
      return Dictionary(uniqueKeysWithValues: zip(texts, counts))
    }
  }

  /// True when a key whose short scalar values are `values` (value → stores) is an attribute a
  /// `where` picks stores by (the rule is `CatalogSummary.attributes`'): its d values are shared
  /// among the m stores that have it, d² ≤ m, and it does not say the same of every store.
  static func isAttribute(_ values: [String: Int], storeCount: Int) -> Bool {
    let distinct = values.count
    let holders = values.values.reduce(0, +)
    guard distinct <= attributeValueLimit, distinct * distinct <= holders, holders >= 2 else { return false }
    return !(distinct == 1 && holders == storeCount)
  }

  /// The most distinct values of an attribute, and the longest (see `CatalogSummary.attributes`).
  static let attributeValueLimit = 16
  /// Keys of opening hours (`opening_hours`, `opening_hours:drive_through`) are no attributes.
  static let hoursKeyPrefix = Array("opening_hours".utf8)
  static let attributeValueBytes = 40

  /// The narrowest longitude interval holding every value: the complement of the widest gap
  /// between neighbouring longitudes, counting the gap across the antimeridian.
  static func longitudeSpan(of longitudes: [Double]) -> (west: Double, east: Double)? {
    let sorted = longitudes.sorted()
    guard let first = sorted.first, let last = sorted.last else { return nil }
    // The gap that wraps over ±180 leaves the plain [first, last] interval.
    var widestGap = first + 360 - last
    var span = (west: first, east: last)
    for (west, east) in zip(sorted, sorted.dropFirst()) where east - west > widestGap {
      widestGap = east - west
      span = (west: east, east: west)
    }
    return span
  }
}
