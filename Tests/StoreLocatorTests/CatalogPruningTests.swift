import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// Filtered searches that skip subtrees by their summaries (opening hours, indexed conditions)
/// answer exactly what a scan of every store answers.
@Suite struct CatalogPruningTests {
  static let catalog: Catalog = try! Catalog.load(contentsOf: DefaultData.bundledPath)
  static let indexed = catalog.indexing(catalog.suggestedIndexConditions())

  static let filters: [StoreFilter] = [
    .all, try! StoreFilter(parsing: ["drive_through=yes"]), try! StoreFilter(parsing: ["delivery=yes"]),
    try! StoreFilter(parsing: ["drive_through=yes", "wheelchair=yes"]),
    try! StoreFilter(parsing: ["drive_through!=yes"]), try! StoreFilter(parsing: ["outdoor_seating"]),
  ]

  /// Instants from now on, 11 hours and 13 minutes apart, so nights, days and weekdays come up.
  static let instants: [Instant] = (0..<14).map { Instant.now() + Int64($0) * (11 * 3_600 + 13 * 60) }

  /// Every store that meets the conditions, by (distance, position): the scan the index must match.
  static func scan(
    _ catalog: Catalog, from center: Coordinate, _ filter: StoreFilter, _ open: OpeningRequirement?
  ) -> [String] {
    var found: [(meters: Double, position: Int, id: String)] = []
    for (position, store) in catalog.stores.enumerated() {
      guard let coordinate = store.coordinate, filter.matches(store) else { continue }
      if let open, !open.isMet(by: catalog.schedule(for: store)) { continue }
      found.append((center.distance(to: coordinate).meters, position, store.id))
    }
    return found.sorted { ($0.meters, $0.position) < ($1.meters, $1.position) }.map(\.id)
  }

  @Test func indexedConditionsAreChosenFromTheData() {
    let conditions = Self.indexed.indexedConditions.map(\.description)
    #expect(conditions.contains("drive_through=yes"))
    #expect(conditions.contains("delivery=yes"))
    #expect(!conditions.contains { $0.hasPrefix("name=") || $0.hasPrefix("ref=") })
    #expect(Self.catalog.indexedConditions.isEmpty)
  }

  @Test(arguments: [false, true])
  func nearestOpenAndFilteredMatchesAScan(indexed: Bool) throws {
    let catalog = indexed ? Self.indexed : Self.catalog
    let centers = catalog.stores.compactMap(\.coordinate).enumerated().filter { $0.offset % 97 == 0 }.map(
      \.element)
    for (i, instant) in Self.instants.enumerated() {
      let center = centers[i % centers.count]
      for (f, filter) in Self.filters.enumerated() {
        let open = OpeningRequirement(
          time: .instant(instant), seconds: i % 3 == 0 ? 1_800 : 0, allowsUnknown: f % 2 == 1)
        let expected = Self.scan(catalog, from: center, filter, open)
        let found = catalog.nearest(10, to: center, where: filter, open: open).map(\.store.id)
        #expect(found == Array(expected.prefix(10)), "instant \(instant) filter \(filter.conditions)")
        let radius = Distance.kilometers(30)
        let within = catalog.stores(within: radius, of: center, where: filter, open: open).map(\.store.id)
        let expectedWithin = expected.filter {
          center.distance(to: catalog.store(withID: $0)!.coordinate!) <= radius
        }
        #expect(within == expectedWithin, "instant \(instant) filter \(filter.conditions)")
      }
    }
  }

  /// Wall times, and instants beyond the summaries' window, are answered without the hour bits,
  /// and still exactly.
  @Test func wallTimesAndFarInstantsMatchAScan() throws {
    let center = try Coordinate(latitude: 47.61, longitude: -122.33)
    let filter = try StoreFilter(parsing: ["drive_through=yes"])
    for time in [
      TimeQuery.wallTime(LocalDateTime(date: LocalDate(year: 2026, month: 12, day: 1)!, hour: 7, minute: 30)),
      .instant(Instant.now() + 3 * 365 * 86_400), .instant(Instant.now() - 400 * 86_400),
    ] {
      let open = OpeningRequirement(time: time)
      let expected = Self.scan(Self.indexed, from: center, filter, open)
      #expect(
        Self.indexed.nearest(10, to: center, where: filter, open: open).map(\.store.id)
          == Array(expected.prefix(10)))
    }
  }

  /// A query requires the bit of its UTC hour and of each indexed condition; the rest of the
  /// filter is left for the per-store test.
  @Test func requirementsUseTheHourAndConditionBits() throws {
    let masks = try #require(Self.indexed.searchMasks)
    let filter = try StoreFilter(parsing: ["drive_through=yes", "no_such_key=1"])
    let open = OpeningRequirement(time: .instant(Instant.now()))
    let (requirement, unindexed) = masks.requirement(for: filter, open: open)
    #expect(unindexed.conditions.map(\.description) == ["no_such_key=1"])
    let required = try #require(requirement?.required)
    let hour = HoursOfWeek.utcHour(of: Instant.now())
    #expect((required[hour >> 6] >> UInt64(hour & 63)) & 1 == 1)
    let bit = SearchMasks.firstConditionBit + masks.conditions.firstIndex(of: filter.conditions[0])!
    #expect((required[bit >> 6] >> UInt64(bit & 63)) & 1 == 1)
  }
}
