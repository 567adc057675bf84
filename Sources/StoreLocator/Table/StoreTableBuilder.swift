import GeoIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The columns of a store table, laid out as a snapshot stores them (little-endian, each column
/// one section): what the loader turns records into, once, whether the table then stays in memory
/// or is written to disk.
enum StoreTableLayout {
  /// One fixed-size row a store (`rows` section); `Row` names the offsets:
  ///
  /// | bytes | field |
  /// |---|---|
  /// | 0..<8 | id: offset and length (UInt32 each) of its UTF-8 in the text arena |
  /// | 8..<16 | properties: first member in `members` and shape number (UInt32 each) |
  /// | 16..<28 | feature index, line, column (UInt32 each) |
  /// | 28 | id source (0 feature, 1 ref, 2 property, 3 generated) |
  /// | 29 | flags: 1 has a location, 2 its time zone was inferred, 4 its holiday country was, 8 its holiday region was |
  /// | 30 | hours state: 0 it has a schedule, else 1 + the index of why not in the meta's reasons |
  /// | 31 | reserved, zero |
  /// | 32..<40 | time zone: offset and length of its name (offset `UInt32.max`: none) |
  /// | 40..<44 | entry in `guesses` of the place its zone or holidays were inferred from (`UInt32.max`: none) |
  /// | 44..<48 | schedule group (`UInt32.max`: none): stores of a group share one compiled schedule |
  /// | 48..<56 | `name` as JSON text (a string literal or `null`), pre-escaped for answers |
  /// | 56..<64 | `address` as JSON text, likewise |
  ///
  /// A row holds no coordinate: a located store's is its tree point's, in the `coordinates`
  /// section (point `i` is the `i`th located row, `storePositions`), kept once. Format 5 had a
  /// copy at bytes 16..<32 (16 MB on 1M stores).
  static let rowSize = 64
  /// The byte offsets of a row's fields.
  enum Row {
    static let id = 0
    static let firstMember = 8
    static let shape = 12
    static let featureIndex = 16
    static let line = 20
    static let column = 24
    static let idSource = 28
    static let flags = 29
    static let hoursState = 30
    static let reserved = 31
    static let timeZone = 32
    static let guess = 40
    static let scheduleGroup = 44
    static let name = 48
    static let address = 56
  }
  /// A property value (`members` section): the offset in the arena of the value's unit, its
  /// length as a LEB128 varint (at most 5 bytes, never 0) then its compact JSON text (so an answer
  /// copies it as it is). A unit is interned whole, so equal values are stored once. Its key is
  /// the shape's: a store's members are its values in the order of its shape's keys. Format 5
  /// kept (offset, length) here, 8 bytes (49 MB more on 1M stores).
  static let memberSize = 4
  /// A shape (`shapes` section), the key sequence of the stores that have the same keys in the
  /// same order, stored once: first entry in `shapeKeys` and number of keys (UInt32 each).
  /// A chain's stores share a handful of shapes, so the key numbers a store took 4 bytes each
  /// for are stored once a shape (on 1M generated stores, members fell from 148 to 99 bytes).
  static let shapeSize = 8
  /// A distinct property key (`keys` section): offset and length of its UTF-8.
  static let keySize = 8
  /// A store's nearest place, when its zone or holidays were inferred (`guesses` section): the
  /// place (UInt32, its number in `places`), then the distance to it in metres (Double, at byte
  /// 4, so read unaligned).
  static let guessSize = 12
  /// A place zones or holidays were inferred from (`places` section), stored once however many
  /// stores took theirs from it: zone, place name, country, GeoNames division and holiday region
  /// texts (offset, length each; the region empty when no store took one from it), then the
  /// place's latitude and longitude (Double). A guess was 48 bytes a store with these in it.
  static let placeSize = 56
  /// Row flags (byte `Row.flags`).
  static let locatedFlag: UInt8 = 1
  static let zoneInferredFlag: UInt8 = 2
  static let holidayCountryInferredFlag: UInt8 = 4
  static let holidayRegionInferredFlag: UInt8 = 8
  static let none = UInt32.max
}

/// Why records do not fit a store table.
struct StoreTableOverflow: Error {
  let reason: String
}

/// Builds the columns of a store table from records, interning every text.
struct StoreTableBuilder {
  private var rows: SnapshotWriter
  private var members: SnapshotWriter
  private var guesses = SnapshotWriter()
  private var places = SnapshotWriter()
  private var placeNumbers: [PlaceKey: UInt32] = [:]
  /// The number of the place of a guess without a region, by its number in the zone locator
  /// (`noPlace`: not numbered yet).
  private var placeNumberOfLocatorPlace: [UInt32] = []
  private static let noPlace = UInt32.max
  /// The number of the place of a guess with a region, by its number in the zone locator.
  private var placeNumberOfRegionalPlace: [RegionalPlace: UInt32] = [:]
  private struct RegionalPlace: Hashable {
    let place: Int
    let region: String
  }
  /// What makes a place distinct: everything its entry holds.
  private struct PlaceKey: Hashable {
    let identifier: String
    let placeName: String
    let countryCode: String
    let division: String
    let region: String
    let latitude: UInt64
    let longitude: UInt64
  }
  private var texts: InternedTexts
  /// By bytes: keys that are canonically equivalent but spelled differently are two keys in JSON
  /// (a `String` key would make them one).
  private var keyNumbers: [ExactText: UInt32] = [:]
  private var keyRefs: [TextRef] = []
  private var memberCount = 0
  private var shapeNumbers: [[UInt32]: UInt32] = [:]
  private var shapes = SnapshotWriter()
  private var shapeKeys = SnapshotWriter()
  private var shapeKeyCount = 0
  /// The last key lists rows were added with, each once, the one met last first: at most
  /// `recentShapeLimit`.
  private var recentShapes: [RecentShape] = []
  /// A chain's records mostly have the keys of one of a few records before, as their optional
  /// keys come and go (4 key lists alternate in the benchmark file, and 43% of its rows have other
  /// keys than the row before), so a handful is enough.
  private static let recentShapeLimit = 8

  /// A row's keys as its draft has them, their numbers and its shape: a row whose draft has the
  /// same key bytes takes the numbers without making or hashing a text.
  private struct RecentShape {
    let keys: [UInt8]
    let numbers: [UInt32]
    let shape: UInt32

    func hasKeys(_ other: UnsafeRawBufferPointer) -> Bool {
      keys.count == other.count
        && keys.withUnsafeBytes {
          other.isEmpty || memcmp($0.baseAddress!, other.baseAddress!, other.count) == 0
        }
    }
  }
  /// Each row's id, for the id order.
  private var idRefs: [TextRef] = []
  private var scratch = JSONBytes(capacity: 256)
  /// The values of a store added without a draft (`RowDraft`).
  private var ownDraft = SnapshotWriter()
  private(set) var count = 0

  /// - Parameter expectedCount: The number of rows to come.
  init(expectedCount: Int) {
    rows = SnapshotWriter()
    members = SnapshotWriter()
    rows.reserveCapacity(expectedCount * StoreTableLayout.rowSize)
    idRefs.reserveCapacity(expectedCount)
    texts = InternedTexts(expectedCount: expectedCount * 4)
  }

  /// A builder for the stores of an input of `inputBytes` bytes: room for as many rows, members
  /// and text as such an input can plausibly hold (a store of a chain's file takes a few hundred
  /// bytes; one of fewer than 128 bytes, or a store's text more than its feature's bytes, make the
  /// columns grow). Room is address space: a page is only touched when a row or a text is
  /// written to it. So the columns are never copied to grow, which would hold two copies at the
  /// peak (the arena alone went from 256 to 512 MB on the 1M-store benchmark file).
  init(inputBytes: Int) {
    rows = SnapshotWriter()
    members = SnapshotWriter()
    rows.reserveCapacity(inputBytes / 128 * StoreTableLayout.rowSize)
    members.reserveCapacity(inputBytes / 8 * StoreTableLayout.memberSize)
    idRefs.reserveCapacity(inputBytes / 128)
    // The texts' hash table is written when made: sized for a text every 256 bytes, it grows
    // when there are more.
    texts = InternedTexts(expectedCount: inputBytes / 256, expectedBytes: inputBytes)
  }

  private mutating func text(_ value: String) throws(StoreTableOverflow) -> TextRef {
    guard let ref = texts.intern(value) else { throw Self.full }
    return ref
  }

  /// The unit (`StoreTableLayout.memberSize`: its length, then its JSON text) at the start of
  /// `draft`, interned whole (looked up first unless `key`'s values have turned out to be nearly
  /// all distinct, `KeyStatistics`), and where its text lies in the arena; `draft` is moved past it.
  private mutating func internUnit(of draft: inout UnsafeRawBufferPointer, key: UInt32? = nil)
    throws(StoreTableOverflow) -> (unit: UInt32, text: TextRef)
  {
    let (unit, text) = RowDraft.next(&draft)
    var lookUp = true
    if let key, Int(key) < keyStatistics.count { lookUp = keyStatistics[Int(key)].worthLookingUp }
    let before = texts.bytes.count
    guard let ref = lookUp ? texts.intern(unit) : texts.append(unit) else { throw Self.full }
    if let key, Int(key) < keyStatistics.count {
      keyStatistics[Int(key)].count(isNew: texts.bytes.count > before)
    }
    let prefix = UInt32(unit.count - text.count)
    return (ref.offset, TextRef(offset: ref.offset + prefix, length: UInt32(text.count)))
  }

  /// How often a key's values repeat: after 512 values of which over 90% were new, its values are
  /// stored without looking them up (phone numbers, street addresses, references).
  struct KeyStatistics {
    var seen = 0
    var new = 0
    var worthLookingUp: Bool { seen < 512 || new * 10 < seen * 9 }
    mutating func count(isNew: Bool) {
      seen += 1
      if isNew { new += 1 }
    }
  }
  private var keyStatistics: [KeyStatistics] = []

  private static let full = StoreTableOverflow(
    reason: "the stores' texts take more than 4 GiB once indexed (docs/limits.md); split the file")

  private static func put(_ ref: TextRef, to writer: inout SnapshotWriter) {
    writer.append(ref.offset)
    writer.append(ref.length)
  }

  /// Adds `store` as the next row; what its hours settle (its zone, what was inferred, its
  /// schedule) is written by `settle` once they are compiled, and until then the row says it has
  /// none.
  ///
  /// - Parameter draft: The store's keys and values as `RowDraft.write` wrote them, when a
  ///   reading thread did (its properties are then not read); else they are written here.
  mutating func append(_ store: Store, draft: UnsafeRawBufferPointer? = nil) throws(StoreTableOverflow) {
    guard let draft else {
      var values = SnapshotWriter()
      swap(&values, &ownDraft)
      values.removeAll()
      RowDraft.write(store.properties, into: &values, scratch: &scratch)
      let appended = values.bytes.withUnsafeBytes { values in
        Result { () throws(StoreTableOverflow) in try append(store, values: values) }
      }
      swap(&values, &ownDraft)
      try appended.get()
      return
    }
    try append(store, values: draft)
  }

  /// Adds `store` as the next row, its keys and values read from `draft` (`RowDraft`), not from
  /// its properties (which a reading thread may have let go).
  private mutating func append(_ store: Store, values draft: UnsafeRawBufferPointer)
    throws(StoreTableOverflow)
  {
    var draft = draft
    let (keyCount, keys) = RowDraft.keys(&draft)
    guard memberCount + keyCount < Int(UInt32.max) else { throw Self.full }
    var storeID = store.id
    let appended = storeID.withUTF8 { texts.append(UnsafeRawBufferPointer($0)) }
    guard let id = appended else { throw Self.full }
    idRefs.append(id)
    Self.put(id, to: &rows)
    let recent = try recentShape(keys: keys, count: keyCount)
    let shape = recent.shape
    rows.append(UInt32(memberCount))
    rows.append(shape)
    rows.append(UInt32(clamping: store.position.featureIndex))
    rows.append(UInt32(clamping: store.position.line))
    rows.append(UInt32(clamping: store.position.column))
    rows.append(StoreTableLayout.idSourceCode(store.idSource))
    // Flags, hours state, zone, guess and group: settled later.
    rows.append(UInt8(0))
    rows.append(UInt8(0))
    rows.append(UInt8(0))
    Self.put(.none, to: &rows)
    rows.append(StoreTableLayout.none)
    rows.append(StoreTableLayout.none)
    // The name as a value's unit, so that it is the same bytes as the store's `name` property.
    Self.put(try internUnit(of: &draft).text, to: &rows)
    // The address as text alone; a store's own (most are) is not looked for.
    let (_, address) = RowDraft.next(&draft)
    let isNull = address.count == 4 && address[0] == UInt8(ascii: "n")
    guard let addressRef = isNull ? texts.intern(address) : texts.append(address) else { throw Self.full }
    Self.put(addressRef, to: &rows)
    for key in recent.numbers {
      members.append(try internUnit(of: &draft, key: key).unit)
    }
    memberCount += keyCount
    count += 1
  }

  /// The numbers and shape of a row whose draft has `count` keys, `keys`: those of a recent row
  /// with the same key bytes, compared byte for byte, else found (or numbered) by their texts.
  private mutating func recentShape(keys: UnsafeRawBufferPointer, count: Int) throws(StoreTableOverflow)
    -> RecentShape
  {
    if let index = recentShapes.firstIndex(where: { $0.hasKeys(keys) }) {
      if index != 0 { recentShapes.insert(recentShapes.remove(at: index), at: 0) }
      return recentShapes[0]
    }
    var numbers: [UInt32] = []
    numbers.reserveCapacity(count)
    var rest = keys
    for _ in 0..<count {
      let key = ExactText(String(decoding: RowDraft.nextKey(&rest), as: UTF8.self))
      if let known = keyNumbers[key] {
        numbers.append(known)
      } else {
        let number = UInt32(keyRefs.count)
        keyNumbers[key] = number
        keyRefs.append(try text(key.text))
        keyStatistics.append(KeyStatistics())
        numbers.append(number)
      }
    }
    let shape: UInt32
    if let known = shapeNumbers[numbers] {
      shape = known
    } else {
      guard shapeKeyCount + numbers.count < Int(UInt32.max) else { throw Self.full }
      shape = UInt32(shapeNumbers.count)
      shapeNumbers[numbers] = shape
      shapes.append(UInt32(shapeKeyCount))
      shapes.append(UInt32(numbers.count))
      for key in numbers { shapeKeys.append(key) }
      shapeKeyCount += numbers.count
    }
    let recent = RecentShape(keys: Array(keys), numbers: numbers, shape: shape)
    if recentShapes.count == Self.recentShapeLimit { recentShapes.removeLast() }
    recentShapes.insert(recent, at: 0)
    return recent
  }

  /// The name of a settled time zone in the arena (`TextRef.none` for none), for `settle`: found
  /// once for the many stores that settle alike.
  mutating func zoneText(_ name: String?) throws(StoreTableOverflow) -> TextRef {
    guard let name else { return .none }
    return try text(name)
  }

  /// Writes what the hours of row `row` settled: rows are settled in order, each once.
  /// - Parameters:
  ///   - located: Whether the store has a usable location.
  ///   - hours: What its hours settled, or what they settled for a store that settles alike.
  ///   - nearest: Its nearest place in the zone locator, if it has one: what `hours` inferred is
  ///     this store's from that place, at its own distance (stores that settle alike infer alike
  ///     from places in the same zone, or from the same place when their holidays depend on it).
  ///   - zone: `hours.timezone` in the arena (`zoneText(_:)`).
  ///   - hoursState: 0 when the store has a schedule, else 1 + the index of why not.
  ///   - guessAt: The guess of a place of the zone locator at a distance; asked only for a place
  ///     not numbered yet, so that the texts of a guess are not made a store.
  mutating func settle(
    row: Int, located: Bool, hours: SettledHours, nearest: Neighbor?, zone: TextRef, hoursState: UInt8,
    guessAt: (Neighbor) -> TimeZoneGuess
  ) throws(StoreTableOverflow) {
    let start = row * StoreTableLayout.rowSize
    var flags: UInt8 = located ? StoreTableLayout.locatedFlag : 0
    if hours.inferredTimezone != nil { flags |= StoreTableLayout.zoneInferredFlag }
    if let holidays = hours.inferredHolidays {
      if holidays.countryIsInferred { flags |= StoreTableLayout.holidayCountryInferredFlag }
      if holidays.region != nil { flags |= StoreTableLayout.holidayRegionInferredFlag }
    }
    rows.overwrite(flags, at: start + StoreTableLayout.Row.flags)
    rows.overwrite(hoursState, at: start + StoreTableLayout.Row.hoursState)
    rows.overwrite(zone.offset, at: start + StoreTableLayout.Row.timeZone)
    rows.overwrite(zone.length, at: start + StoreTableLayout.Row.timeZone + 4)
    if let guess = hours.inferredTimezone ?? hours.inferredHolidays?.place {
      rows.overwrite(
        UInt32(guesses.count / StoreTableLayout.guessSize), at: start + StoreTableLayout.Row.guess)
      let region = hours.inferredHolidays?.region ?? ""
      if let nearest {
        guesses.append(try placeNumber(region: region, locatorPlace: nearest.index) { guessAt(nearest) })
        guesses.append(nearest.distance.meters)
      } else {
        guesses.append(try placeNumber(region: region, locatorPlace: hours.guessPlace) { guess })
        guesses.append(guess.distance.meters)
      }
    }
    if let group = hours.group { rows.overwrite(group, at: start + StoreTableLayout.Row.scheduleGroup) }
  }

  /// The number of the entry in `places` of the place with holiday region `region` whose guess
  /// is `guess()`, added when new.
  ///
  /// Places are found by `locatorPlace`, their number in the zone locator, with no text made or
  /// hashed a store (the guess is asked for only when the place is new); a place the locator did
  /// not give is found by its texts.
  private mutating func placeNumber(region: String, locatorPlace: Int?, guess: () -> TimeZoneGuess)
    throws(StoreTableOverflow) -> UInt32
  {
    if let locatorPlace {
      if region.isEmpty {
        if locatorPlace < placeNumberOfLocatorPlace.count,
          placeNumberOfLocatorPlace[locatorPlace] != Self.noPlace
        {
          return placeNumberOfLocatorPlace[locatorPlace]
        }
      } else if let known = placeNumberOfRegionalPlace[RegionalPlace(place: locatorPlace, region: region)] {
        return known
      }
    }
    let guess = guess()
    let key = PlaceKey(
      identifier: guess.identifier, placeName: guess.placeName, countryCode: guess.countryCode,
      division: guess.division, region: region, latitude: guess.placeCoordinate.latitude.bitPattern,
      longitude: guess.placeCoordinate.longitude.bitPattern)
    let place: UInt32
    if let known = placeNumbers[key] {
      place = known
    } else {
      place = UInt32(placeNumbers.count)
      placeNumbers[key] = place
      Self.put(try text(guess.identifier), to: &places)
      Self.put(try text(guess.placeName), to: &places)
      Self.put(try text(guess.countryCode), to: &places)
      Self.put(try text(guess.division), to: &places)
      Self.put(try text(region), to: &places)
      places.append(guess.placeCoordinate.latitude)
      places.append(guess.placeCoordinate.longitude)
    }
    if let locatorPlace {
      if region.isEmpty {
        if locatorPlace >= placeNumberOfLocatorPlace.count {
          placeNumberOfLocatorPlace.append(
            contentsOf: repeatElement(Self.noPlace, count: locatorPlace + 1 - placeNumberOfLocatorPlace.count)
          )
        }
        placeNumberOfLocatorPlace[locatorPlace] = place
      } else {
        placeNumberOfRegionalPlace[RegionalPlace(place: locatorPlace, region: region)] = place
      }
    }
    return place
  }

  /// The id and position in the input of row `row`, for a note about it.
  func identity(at row: Int) -> (id: String, position: SourcePosition) {
    let ref = idRefs[row]
    let id = texts.bytes.withUnsafeBytes { arena in
      String(decoding: arena[Int(ref.offset)..<Int(ref.offset + ref.length)], as: UTF8.self)
    }
    return (id, position(at: row))
  }

  /// Where in the input the feature of row `row` starts.
  func position(at row: Int) -> SourcePosition {
    let start = row * StoreTableLayout.rowSize
    return rows.bytes.withUnsafeBytes { rows in
      InferredZoneNotes.position(
        row: UnsafeRawBufferPointer(rebasing: rows[start..<start + StoreTableLayout.rowSize]))
    }
  }

  /// Whether rows `one` and `other` have ids of the same bytes.
  func idsHaveSameBytes(_ one: Int, _ other: Int) -> Bool {
    let first = idRefs[one]
    let second = idRefs[other]
    guard first.length == second.length else { return false }
    return texts.bytes.withUnsafeBytes { arena in
      first.length == 0
        || memcmp(
          arena.baseAddress! + Int(first.offset), arena.baseAddress! + Int(second.offset), Int(first.length))
          == 0
    }
  }

  /// Whether the id of row `row` is all ASCII.
  func idIsASCII(at row: Int) -> Bool {
    let ref = idRefs[row]
    return texts.bytes.withUnsafeBytes { arena in
      arena[Int(ref.offset)..<Int(ref.offset + ref.length)].allSatisfy { $0 < 0x80 }
    }
  }

  /// The ids of the rows, in row order, joined by newlines: what names data built from records.
  var joinedIDs: [UInt8] {
    var joined: [UInt8] = []
    texts.bytes.withUnsafeBytes { arena in
      for (row, ref) in idRefs.enumerated() {
        if row > 0 { joined.append(UInt8(ascii: "\n")) }
        joined.append(contentsOf: arena[Int(ref.offset)..<Int(ref.offset + ref.length)])
      }
    }
    return joined
  }

  /// The columns as snapshot sections; the builder is used up, so that the sections hold the
  /// only references to the columns and `SnapshotImage.assemble(taking:)` can let each go.
  /// - Parameters:
  ///   - groupLeaders: Per schedule group, the first store of the group.
  ///   - diagnostics: The catalog's diagnostics, in order (`SnapshotFormat.diagnosticsSection`).
  consuming func sections(groupLeaders: [UInt32], diagnostics: [Diagnostic]) -> [(
    SnapshotFormat.Section, [UInt8]
  )] {
    var keys = SnapshotWriter()
    for ref in keyRefs {
      keys.append(ref.offset)
      keys.append(ref.length)
    }
    var order = SnapshotWriter()
    // Sorted by the ids' bytes, then by row: compared in the arena, no string made.
    let sorted: [Int32] = texts.bytes.withUnsafeBytes { arena in
      func id(_ row: Int32) -> UnsafeRawBufferPointer {
        let ref = idRefs[Int(row)]
        return UnsafeRawBufferPointer(rebasing: arena[Int(ref.offset)..<Int(ref.offset + ref.length)])
      }
      return (0..<Int32(count)).sorted { a, b in
        let order = StoreTable.compare(id(a), id(b))
        return order == 0 ? a < b : order < 0
      }
    }
    order.appendRaw(sorted)
    // Each row's digest is its own: they are taken on every core (one at a time they were about
    // 2% of loading 1M stores, on the thread the others wait for).
    let rowCount = count
    var rowDigests = [UInt32](repeating: 0, count: rowCount)
    rows.bytes.withUnsafeBytes { rows in
      members.bytes.withUnsafeBytes { members in
        shapes.bytes.withUnsafeBytes { shapes in
          guesses.bytes.withUnsafeBytes { guesses in
            texts.bytes.withUnsafeBytes { texts in
              rowDigests.withUnsafeMutableBufferPointer { output in
                let columns = RowDigest.Columns(
                  rows: rows, members: members, shapes: shapes, guesses: guesses, texts: texts, output: output
                )
                let parts = min(ActiveProcessors.count, max(1, rowCount / 16_384))
                ActiveProcessors.run(parts: parts) { part in
                  for position in ActiveProcessors.range(part, of: parts, in: rowCount) {
                    let start = position * StoreTableLayout.rowSize
                    let row = UnsafeRawBufferPointer(
                      rebasing: columns.rows[start..<start + StoreTableLayout.rowSize])
                    let digest = RowDigest.digest(
                      row: row, members: columns.members, shapes: columns.shapes, guesses: columns.guesses,
                      texts: columns.texts)
                    columns.output[position] = (digest ?? 0).littleEndian
                  }
                }
              }
            }
          }
        }
      }
    }
    var digests = SnapshotWriter()
    digests.appendRaw(rowDigests)
    var groups = SnapshotWriter()
    groups.appendRaw(groupLeaders)
    let diagnosticsSection = rows.bytes.withUnsafeBytes { rows in
      guesses.bytes.withUnsafeBytes { guesses in
        texts.bytes.withUnsafeBytes { texts in
          places.bytes.withUnsafeBytes { places in
            SnapshotFormat.diagnosticsSection(
              diagnostics, rows: rows, guesses: guesses, places: places, texts: texts)
          }
        }
      }
    }
    return [
      (.rows, rows.bytes), (.rowChecksums, digests.bytes), (.members, members.bytes), (.keys, keys.bytes),
      (.texts, texts.bytes), (.guesses, guesses.bytes), (.scheduleGroups, groups.bytes),
      (.idOrder, order.bytes), (.shapes, shapes.bytes), (.shapeKeys, shapeKeys.bytes),
      (.places, places.bytes),
      // Last: never empty (it has its count), so the image never ends in padding before an empty
      // section, which opening refuses.
      (.diagnostics, diagnosticsSection),
    ]
  }
}

extension StoreTableLayout {
  static func idSourceCode(_ source: StoreIDSource) -> UInt8 {
    switch source {
    case .feature: 0
    case .ref: 1
    case .property: 2
    case .generated: 3
    }
  }

  static func idSource(code: UInt8) -> StoreIDSource? {
    switch code {
    case 0: .feature
    case 1: .ref
    case 2: .property
    case 3: .generated
    default: nil
    }
  }
}

extension StoreTableLayout {
  /// What a row with `flags` inferred from `place` (entry `guess` of the `guesses` column, whose
  /// place's holiday region is `region`): its zone and its holidays, each `nil` when not inferred.
  static func inferred(flags: UInt8, place: (guess: TimeZoneGuess, region: String)?) -> (
    zone: TimeZoneGuess?, holidays: InferredHolidays?
  ) {
    guard let place else { return (nil, nil) }
    let zone = flags & zoneInferredFlag != 0 ? place.guess : nil
    let countryIsInferred = flags & holidayCountryInferredFlag != 0
    let regionIsInferred = flags & holidayRegionInferredFlag != 0
    guard countryIsInferred || regionIsInferred else { return (zone, nil) }
    return (
      zone,
      InferredHolidays(
        country: place.guess.countryCode.uppercased(), region: regionIsInferred ? place.region : nil,
        countryIsInferred: countryIsInferred, place: place.guess)
    )
  }

  /// The guess `index` of the `guesses` column, with its place's holiday region (empty: none),
  /// or `nil` when it or its place lies outside its column, a text outside the arena or not
  /// UTF-8, or the place's coordinate is out of range (the caller reports it).
  static func guess(
    _ index: UInt32, guesses: UnsafeRawBufferPointer, places: UnsafeRawBufferPointer,
    texts: UnsafeRawBufferPointer
  ) -> (guess: TimeZoneGuess, region: String)? {
    func word(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
      UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    func double(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> Double {
      Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
    }
    func text(_ at: Int) -> String? {
      let offset = UInt64(word(places, at))
      let length = UInt64(word(places, at + 4))
      guard offset + length <= UInt64(texts.count) else { return nil }
      return CompactJSONReader.validUTF8(
        UnsafeRawBufferPointer(rebasing: texts[Int(offset)..<Int(offset + length)]))
    }
    let at = UInt64(index) * UInt64(guessSize)
    guard at + UInt64(guessSize) <= UInt64(guesses.count) else { return nil }
    let place = UInt64(word(guesses, Int(at)))
    let distance = double(guesses, Int(at) + 4)
    guard (place + 1) * UInt64(placeSize) <= UInt64(places.count) else { return nil }
    let entry = Int(place) * placeSize
    guard let zone = text(entry), let name = text(entry + 8), let country = text(entry + 16),
      let division = text(entry + 24), let region = text(entry + 32),
      let coordinate = try? Coordinate(
        latitude: double(places, entry + 40), longitude: double(places, entry + 48))
    else { return nil }
    let guess = TimeZoneGuess(
      identifier: zone, placeName: name, countryCode: country, division: division,
      placeCoordinate: coordinate, distance: Distance(meters: distance))
    return (guess, region)
  }
}

extension StoreTableLayout {
  /// The longest length prefix of a property value's unit: a LEB128 varint of a 32-bit length.
  static let maximumLengthPrefix = 5

  /// Where the JSON text of the property value whose unit starts at `offset` of the arena lies
  /// (`memberSize`): its first byte and the end of the unit; `nil` when the length prefix runs
  /// past the arena or past 5 bytes, says 0, or the text runs past the arena (the caller reports
  /// it).
  /// - Parameters:
  ///   - texts: The arena's first byte; `size` its size.
  @inline(__always) static func valueText(at offset: UInt32, texts: UnsafeRawPointer, size: Int) -> Range<
    Int
  >? {
    var at = Int(offset)
    var length = 0
    var shift = 0
    while true {
      guard at < size, shift < 7 * maximumLengthPrefix else { return nil }
      let byte = texts.load(fromByteOffset: at, as: UInt8.self)
      at += 1
      length |= Int(byte & 0x7F) << shift
      if byte & 0x80 == 0 { break }
      shift += 7
    }
    guard length > 0, length <= size - at else { return nil }
    return at..<at + length
  }

  /// `valueText(at:texts:size:)` in the arena `texts`.
  static func valueText(at offset: UInt32, in texts: UnsafeRawBufferPointer) -> Range<Int>? {
    guard let base = texts.baseAddress else { return nil }
    return valueText(at: offset, texts: base, size: texts.count)
  }

  /// The message for a property value whose unit `valueText` refuses.
  static func damagedValueReason(_ index: Int, offset: UInt32, arena: Int) -> String {
    "its property \(index) is out of range (the length prefix or the text of its value at byte \(offset) "
      + "runs past the \(arena)-byte text arena, or the length is 0)"
  }
}

/// A store's keys and values as its row takes them, written where the record is read (on a
/// reading thread, for most records of a large file) so that the one thread that builds the rows
/// only numbers and interns them, and never holds the record's `JSONObject`: the number of keys,
/// each key (a LEB128 length and its UTF-8), then the name's unit, the address line's, and each
/// property value's, in the keys' order; a unit is a LEB128 length and compact JSON text
/// (`StoreTableLayout.memberSize`).
///
/// Writing the values was a third of the builder's time (serializing each value again, composing
/// the address line), all of it on the thread the rows wait for. The keys are in the draft so
/// that the records of a large file are let go on the thread that read them: freeing a reading
/// thread's allocations on the thread that builds the rows takes that thread's `malloc` arena
/// lock, which kept the next window from being read beside the builder (Benchmarks/README.md,
/// "The next window read while the reader takes one").
enum RowDraft {
  /// Writes the keys and values of a store with `properties` into `draft` (`scratch` is for the
  /// texts).
  /// - Parameter address: The address keys of `properties`, when already found.
  static func write(
    _ properties: JSONObject, address: AddressMembers? = nil, into draft: inout SnapshotWriter,
    scratch: inout JSONBytes
  ) {
    draft.appendVarint(properties.count)
    for member in properties { draft.append(member.key) }
    writeNameAndAddress(
      properties, address: address ?? AddressMembers(properties), into: &draft, scratch: &scratch)
    for member in properties { writeUnit(member.value, into: &draft, scratch: &scratch) }
  }

  /// Writes the units of the name and address line of a store with `properties` (the members of
  /// its properties these read, at least) into `draft`.
  static func writeNameAndAddress(
    _ properties: JSONObject, address: AddressMembers, into draft: inout SnapshotWriter,
    scratch: inout JSONBytes
  ) {
    let name = Store.name(in: properties)
    writeUnit(name.map(JSONValue.string) ?? .null, into: &draft, scratch: &scratch)
    var unused: PropertyAliases = []
    let address = Store.address(in: address, aliasesRead: &unused)
    writeUnit(address.map(JSONValue.string) ?? .null, into: &draft, scratch: &scratch)
  }

  /// The keys at the start of `draft`: how many, and their bytes (each a LEB128 length and its
  /// UTF-8, for `nextKey`); `draft` is moved past them, to the name's unit.
  @inline(__always) static func keys(_ draft: inout UnsafeRawBufferPointer) -> (
    count: Int, bytes: UnsafeRawBufferPointer
  ) {
    let count = varint(&draft)
    var rest = draft
    for _ in 0..<count { _ = nextKey(&rest) }
    let bytes = UnsafeRawBufferPointer(rebasing: draft[..<(draft.count - rest.count)])
    draft = rest
    return (count, bytes)
  }

  /// The UTF-8 of the key at the start of `keys`; `keys` is moved past it.
  @inline(__always) static func nextKey(_ keys: inout UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
    let length = varint(&keys)
    let key = UnsafeRawBufferPointer(rebasing: keys[..<length])
    keys = UnsafeRawBufferPointer(rebasing: keys[length...])
    return key
  }

  /// The LEB128 number at the start of `bytes` (written by `write`, so whole); `bytes` is moved
  /// past it.
  @inline(__always) private static func varint(_ bytes: inout UnsafeRawBufferPointer) -> Int {
    var value = 0
    var shift = 0
    var at = 0
    while true {
      let byte = bytes[at]
      at += 1
      value |= Int(byte & 0x7F) << shift
      if byte & 0x80 == 0 { break }
      shift += 7
    }
    bytes = UnsafeRawBufferPointer(rebasing: bytes[at...])
    return value
  }

  /// Writes the unit of `value`: its LEB128 length and compact JSON text.
  static func writeUnit(_ value: JSONValue, into draft: inout SnapshotWriter, scratch: inout JSONBytes) {
    if case .string(var text) = value {
      // Most values are strings with nothing to escape: their unit is their bytes in quotes,
      // written here without going through `scratch`.
      let written = text.withUTF8 { utf8 in
        guard JSONBytes.firstEscaped(in: UnsafeRawBufferPointer(utf8), from: 0) == nil else { return false }
        draft.appendVarint(utf8.count + 2)
        draft.append(UInt8(ascii: "\""))
        draft.append(contentsOf: utf8)
        draft.append(UInt8(ascii: "\""))
        return true
      }
      if written { return }
    }
    scratch.bytes.removeAll(keepingCapacity: true)
    scratch.append(value)
    draft.appendVarint(scratch.bytes.count)
    draft.append(contentsOf: scratch.bytes)
  }

  /// The unit at the start of `draft`, and its text; `draft` is moved past it.
  @inline(__always) static func next(_ draft: inout UnsafeRawBufferPointer) -> (
    unit: UnsafeRawBufferPointer, text: UnsafeRawBufferPointer
  ) {
    let text = StoreTableLayout.valueText(at: 0, texts: draft.baseAddress!, size: draft.count)!
    let unit = UnsafeRawBufferPointer(rebasing: draft[..<text.upperBound])
    let textBytes = UnsafeRawBufferPointer(rebasing: draft[text])
    draft = UnsafeRawBufferPointer(rebasing: draft[text.upperBound...])
    return (unit, textBytes)
  }
}
