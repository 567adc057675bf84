import GeoIndex

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
  /// Every record as added, when asked to keep them (tests and fuzzers compare them); else `nil`.
  private(set) var records: [Store]?

  var count: Int { hoursInputs.count }

  /// - Parameters:
  ///   - expectedCount: How many stores are expected (the columns grow past it).
  ///   - keepingRecords: Keep every record as added too (`records`).
  init(expectedCount: Int = 0, keepingRecords: Bool = false) {
    builder = StoreTableBuilder(expectedCount: expectedCount)
    hoursInputs = HoursInputs(expectedCount: expectedCount)
    records = keepingRecords ? [] : nil
  }

  /// An assembly for the stores of an input of `inputBytes` bytes, with room for as many as it
  /// can plausibly hold (`StoreTableBuilder.init(inputBytes:)`): room is address space, touched
  /// only as rows are written, so no column is copied to grow.
  init(inputBytes: Int, keepingRecords: Bool = false) {
    builder = StoreTableBuilder(inputBytes: inputBytes)
    hoursInputs = HoursInputs(expectedCount: inputBytes / 128)
    records = keepingRecords ? [] : nil
  }

  /// Adds `store` as the next row.
  /// - Parameters:
  ///   - draft: Its keys and values as a reading thread wrote them (`RowDraft`), if one did; its
  ///     properties are then not read (the thread may have let them go).
  ///   - hours: What its hours read, as a reading thread took them, if one did.
  mutating func append(_ store: Store, draft: UnsafeRawBufferPointer? = nil, hours: HoursDraft? = nil)
    throws(StoreTableOverflow)
  {
    try builder.append(store, draft: draft)
    if let hours {
      hoursInputs.append(hours, coordinate: store.coordinate)
    } else {
      hoursInputs.append(store)
    }
    records?.append(store)
  }

  /// Forgets the location of the store at `position` (its collection's coordinates cannot be used).
  mutating func removeCoordinate(at position: Int) {
    hoursInputs.removeCoordinate(at: position)
    if let record = records?[position], record.coordinate != nil {
      records?[position] = record.with(coordinate: nil, timezone: record.timezone)
    }
  }

  /// Gives the store at `position` its collection's time zone when it has none of its own.
  mutating func setTimezoneIfNone(_ name: String, at position: Int) {
    hoursInputs.setTimezoneIfNone(name, at: position)
    if let record = records?[position], record.timezone == nil {
      records?[position] = record.with(coordinate: record.coordinate, timezone: name)
    }
  }

  /// The id and position in the input of the store at `position`, for a note about it.
  func identity(at position: Int) -> (id: String, position: SourcePosition) { builder.identity(at: position) }

  /// Where in the input the feature of the store at `position` starts: for a stand-in note, which
  /// needs no id.
  func sourcePosition(at position: Int) -> SourcePosition { builder.position(at: position) }

  /// Whether the stores at `one` and `other` have ids of the same bytes.
  func idsHaveSameBytes(_ one: Int, _ other: Int) -> Bool { builder.idsHaveSameBytes(one, other) }

  /// Whether the id of the store at `position` is all ASCII (then no other spelling looks the same).
  func idIsASCII(at position: Int) -> Bool { builder.idIsASCII(at: position) }

  /// What the row of a store whose hours settled as `hours` takes that is the same for every
  /// store that settles alike: its hours state (0: it has a schedule, else 1 + the index of why
  /// not) and its zone's name in the arena. Made once for such stores (`settle(_:located:_:_:)`),
  /// it also counts the store's holiday country.
  mutating func rowSettling(of store: HoursSubject, _ hours: SettledHours) throws(StoreTableOverflow)
    -> RowSettling
  {
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
    return RowSettling(hoursState: state, zone: try builder.zoneText(hours.timezone))
  }

  /// What the rows of stores that settle alike share (`rowSettling(of:_:)`).
  struct RowSettling {
    let hoursState: UInt8
    let zone: TextRef
  }

  /// Writes into the row of the store at `position` what its compiled hours settled (`hours`,
  /// and `shared`, made by `rowSettling(of:_:)`, both made for a store that settled alike), with
  /// what was inferred taken from the store's own nearest place (`nearest`; `guessAt` makes the
  /// guess of a place when its texts are needed); stores are settled in order, each once.
  mutating func settle(
    _ position: Int, located: Bool, _ hours: SettledHours, _ shared: RowSettling, nearest: Neighbor? = nil,
    guessAt: (Neighbor) -> TimeZoneGuess = { _ in preconditionFailure("no zone locator") }
  ) throws(StoreTableOverflow) {
    try builder.settle(
      row: position, located: located, hours: hours, nearest: nearest, zone: shared.zone,
      hoursState: shared.hoursState, guessAt: guessAt)
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
      let hours = SettledHours(timezone: store.timezone, gap: "opening hours are not evaluated")
      try settle(position, located: store.coordinate != nil, hours, try rowSettling(of: store, hours))
    }
  }
}
