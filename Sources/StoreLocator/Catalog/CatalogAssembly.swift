/// A catalog being put together from records: each record becomes a row as it arrives and can
/// then be let go; what its opening hours need is kept aside in a few small columns
/// (`HoursInputs`) until the hours are compiled, and then each row is settled with what they
/// decided (its zone, what was inferred, its schedule).
///
/// So the records are never all in memory at once, whether they come from the loader or from
/// `Catalog(stores:)`.
struct CatalogAssembly {
  private(set) var builder: StoreTableBuilder
  private(set) var hoursInputs: HoursInputs
  /// Why stores have no schedule: a short list, referred to by index per store.
  private(set) var reasons: [String] = []
  private var reasonIndex: [String: Int] = [:]
  /// The holiday countries (upper case) of the stores that have hours.
  private(set) var countries = Set<String>()

  var count: Int { hoursInputs.count }

  init(expectedCount: Int = 0) {
    builder = StoreTableBuilder(expectedCount: expectedCount)
    hoursInputs = HoursInputs(expectedCount: expectedCount)
  }

  /// Adds `store` as the next row.
  mutating func append(_ store: Store) throws(StoreTableOverflow) {
    try builder.append(store)
    hoursInputs.append(store)
  }

  /// Forgets the location of the store at `position` (its collection's coordinates cannot be used).
  mutating func removeCoordinate(at position: Int) { hoursInputs.removeCoordinate(at: position) }

  /// Gives the store at `position` its collection's time zone when it has none of its own.
  mutating func setTimezoneIfNone(_ name: String, at position: Int) {
    hoursInputs.setTimezoneIfNone(name, at: position)
  }

  /// The id and position in the input of the store at `position`, for a note about it.
  func identity(at position: Int) -> (id: String, position: SourcePosition) { builder.identity(at: position) }

  /// Writes into the row of the store at `position` (`store`, as its hours see it) what its
  /// compiled hours settled; stores are settled in order, each once.
  mutating func settle(_ position: Int, _ store: HoursSubject, _ hours: SettledHours) throws(StoreTableOverflow) {
    if store.openingHours != nil, let country = store.holidayCountry(inferred: hours.inferredHolidays),
      country.count == 2
    {
      countries.insert(country.uppercased())
    }
    var state: UInt8 = 0
    if let reason = hours.gap {
      if reasonIndex[reason] == nil {
        reasonIndex[reason] = reasons.count
        reasons.append(reason)
      }
      state = UInt8(1 + min(reasonIndex[reason]!, 254))
    }
    try builder.settle(row: position, located: store.coordinate != nil, hours: hours, hoursState: state)
  }

  /// The rows' builder, taken out when every row is settled: what was kept for the hours is let
  /// go, and the assembly is empty.
  mutating func finish() -> StoreTableBuilder {
    var taken = StoreTableBuilder(expectedCount: 0)
    swap(&taken, &builder)
    hoursInputs = HoursInputs()
    return taken
  }

  /// Settles every row of a catalog whose hours are not evaluated: each keeps the zone its data
  /// names, and none has a schedule.
  mutating func settleWithoutHours() throws(StoreTableOverflow) {
    for position in 0..<count {
      let store = hoursInputs[position]
      try settle(
        position, store, SettledHours(timezone: store.timezone, gap: "opening hours are not evaluated"))
    }
  }
}
