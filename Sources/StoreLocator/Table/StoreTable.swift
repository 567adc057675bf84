import GeoIndex
import OpeningHours
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A catalog's stores as one compact, columnar table (`StoreTableLayout`): fixed-size rows, the
/// properties as key numbers and pre-rendered JSON values, every text once in an arena. The
/// loader builds it in memory; a snapshot is the same table written to disk and mapped back, so
/// every query reads the same bytes the same way whichever it came from.
///
/// Nothing is decoded on open: a `Store` is made from its row only when asked for, answers are
/// rendered from the rows (`StoreRowJSON`), ids are found by binary search over the id order,
/// and schedules are compiled once per schedule group on first use (a table built by the loader
/// starts with all of them compiled).
///
/// `@unchecked Sendable`: the bytes are read-only and live as long as the object; the compiled
/// schedules are set once in atomics (`ScheduleSlots`), everything else mutable is behind a `Mutex`.
final class StoreTable: @unchecked Sendable {
  private typealias Row = StoreTableLayout.Row
  /// The snapshot file mapped, or `nil` for a table the loader built in memory.
  let path: String?
  /// The GeoJSON file the stores came from, for messages.
  let source: String
  let storeCount: Int
  let diagnosticCounts: [Diagnostic.Severity: Int]

  let memory: TableMemory
  let sections: [SnapshotFormat.Section: Range<Int>]
  let checksums: [SnapshotFormat.Section: UInt64]
  let masksInfo: (conditions: [StoreFilter.Condition], hoursWindow: Range<Instant>?)?
  let reasons: [String]
  let holidayFiles: [String]
  let countries: Set<String>

  private let rows: UnsafeRawPointer
  private let members: UnsafeRawPointer
  private let memberTotal: Int
  private let keys: UnsafeRawPointer
  /// How many distinct property keys the stores have.
  let keyCount: Int
  private let shapes: UnsafeRawPointer
  private let shapeCount: Int
  private let shapeKeys: UnsafeRawPointer
  private let shapeKeyTotal: Int
  private let texts: UnsafeRawPointer
  private let textsSize: Int
  private let guesses: UnsafeRawPointer
  private let guessCount: Int
  private let places: UnsafeRawPointer
  private let placeCount: Int
  private let groupLeaders: UnsafeRawPointer
  private let groupCount: Int
  private let idOrder: UnsafeRawPointer
  private let rowChecksums: UnsafeRawPointer
  /// The tree's points (latitude, longitude): a located store's coordinate is only here.
  private let coordinates: UnsafeRawPointer
  private let pointCount: Int
  private let storePositions: UnsafeRawPointer
  /// Which point is each located row's, when not every row is located (`PointRanks`).
  private let pointRanks = ComputedOnce<PointRanks?>()
  /// True when the big columns were not verified on open: each row is then checked against its
  /// digest when it is read (`checkRow(_:)`).
  let checksRows: Bool
  /// Set once `verifyEverything` has checked every row: reads stop checking them one by one (a
  /// service verifies its snapshot beside serving, then answers at full speed).
  let verifiedWhole = Atomic<Bool>(false)
  /// The key numbers of the properties every answer writes beside `properties`.
  private(set) var answerKeys = AnswerKeys()
  private let cache: Mutex<Cache>
  /// Per schedule group, compiled on first use (the loader's table starts with all of them).
  private let schedules: ScheduleSlots
  /// The statuses recent requests found, by group and instant, for the next ones.
  let recentStatuses = RecentStatuses()

  struct Cache {
    var zones: [String: TimeZoneRules?] = [:]
    var holidays: HolidayRegistry?
    /// The countries whose bundled holidays `holidays` holds, read one at a time.
    var holidayCountries: Set<String> = []
    var diagnostics: [Diagnostic]?
  }
  /// Every query with a condition reads these, every filtered or open one those: made once, then
  /// read without a lock.
  private let keyNumbers = ComputedOnce<[String: UInt32]>()
  /// Each service's schedules, made on the first request that names the service.
  let serviceSchedules = Mutex<[String: ServiceSchedules]>([:])
  private let searchMasks = ComputedOnce<SearchMasks?>()
  /// The capacity values read so far, and their rules' selections compiled.
  let capacityTexts = CapacityTexts()
  /// The pickup planner's index of each store's opening-hours notes (`Catalog.pickupHoursNotes`).
  let pickupHoursNotes = ComputedOnce<PickupHoursNotes>()

  init(
    path: String?, source: String, storeCount: Int, diagnosticCounts: [Diagnostic.Severity: Int],
    memory: TableMemory, sections: [SnapshotFormat.Section: Range<Int>],
    checksums: [SnapshotFormat.Section: UInt64],
    masksInfo: (conditions: [StoreFilter.Condition], hoursWindow: Range<Instant>?)?, reasons: [String],
    holidayFiles: [String], countries: Set<String>, checksRows: Bool
  ) {
    self.checksRows = checksRows
    self.path = path
    self.source = source
    self.storeCount = storeCount
    self.diagnosticCounts = diagnosticCounts
    self.memory = memory
    self.sections = sections
    self.checksums = checksums
    self.masksInfo = masksInfo
    self.reasons = reasons
    self.holidayFiles = holidayFiles
    self.countries = countries
    let base = memory.base
    func start(_ section: SnapshotFormat.Section) -> UnsafeRawPointer { base + sections[section]!.lowerBound }
    func count(_ section: SnapshotFormat.Section, _ size: Int) -> Int { sections[section]!.count / size }
    rows = start(.rows)
    members = start(.members)
    memberTotal = count(.members, StoreTableLayout.memberSize)
    keys = start(.keys)
    keyCount = count(.keys, StoreTableLayout.keySize)
    shapes = start(.shapes)
    shapeCount = count(.shapes, StoreTableLayout.shapeSize)
    shapeKeys = start(.shapeKeys)
    shapeKeyTotal = count(.shapeKeys, 4)
    texts = start(.texts)
    textsSize = sections[.texts]!.count
    guesses = start(.guesses)
    guessCount = count(.guesses, StoreTableLayout.guessSize)
    places = start(.places)
    placeCount = count(.places, StoreTableLayout.placeSize)
    groupLeaders = start(.scheduleGroups)
    groupCount = count(.scheduleGroups, 4)
    idOrder = start(.idOrder)
    rowChecksums = start(.rowChecksums)
    coordinates = start(.coordinates)
    pointCount = count(.coordinates, 16)
    storePositions = start(.storePositions)
    cache = Mutex(Cache())
    schedules = ScheduleSlots(count: sections[.scheduleGroups]!.count / 4)
    for number in 0..<UInt32(keyCount) {
      // Read without `keyBytes`: a forged key is refused after this, not a reason to stop here.
      let offset = word(keys, Int(number) * 8)
      let length = word(keys, Int(number) * 8 + 4)
      guard UInt64(offset) + UInt64(length) <= UInt64(textsSize) else { continue }
      let key = UnsafeRawBufferPointer(start: texts + Int(offset), count: Int(length))
      func named(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { $0.count == key.count && $0.elementsEqual(key) }
      }
      if named("brand") { answerKeys.brand = number }
      if named("opening_hours") { answerKeys.openingHours = number }
      if named("phone") { answerKeys.phone = number }
      if named("website") { answerKeys.website = number }
    }
  }

  /// One checksum for the whole table: its sections' checksums folded in section order.
  var contentChecksum: UInt64 {
    var words = checksums.sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value)
    return words.withUnsafeMutableBytes { snapshotChecksum(UnsafeRawBufferPointer($0)) }
  }

  // MARK: - Rows

  /// Checks the row of `position` against its digest when the table was opened without verifying
  /// its big columns; ends the process when it does not match.
  @inline(__always) func checkRow(_ position: Int) {
    guard checksRows, !verifiedWhole.load(ordering: .relaxed) else { return }
    guard position >= 0, position < storeCount else {
      corrupted("store \(position) of \(storeCount) is not there")
    }
    guard rowIsIntact(position) else { corrupted("store \(position) fails its checksum") }
  }

  /// Whether the row of `position` and everything it refers to still match its digest.
  func rowIsIntact(_ position: Int) -> Bool { rowDigest(position) == word(rowChecksums, 4 * position) }

  func rowDigest(_ position: Int) -> UInt32? {
    let base = memory.base
    func column(_ section: SnapshotFormat.Section) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(start: base + sections[section]!.lowerBound, count: sections[section]!.count)
    }
    return RowDigest.digest(
      row: UnsafeRawBufferPointer(
        start: rows + position * StoreTableLayout.rowSize, count: StoreTableLayout.rowSize),
      members: column(.members), shapes: column(.shapes), guesses: column(.guesses), texts: column(.texts))
  }

  @inline(__always) private func word(_ base: UnsafeRawPointer, _ byte: Int) -> UInt32 {
    UInt32(littleEndian: base.loadUnaligned(fromByteOffset: byte, as: UInt32.self))
  }

  @inline(__always) private func rowWord(_ position: Int, _ byte: Int) -> UInt32 {
    word(rows, position * StoreTableLayout.rowSize + byte)
  }

  @inline(__always) private func rowByte(_ position: Int, _ byte: Int) -> UInt8 {
    rows.load(fromByteOffset: position * StoreTableLayout.rowSize + byte, as: UInt8.self)
  }

  /// The coordinate of tree point `point`, or `nil` when it is out of range.
  @inline(__always) private func pointCoordinate(_ point: Int) -> Coordinate? {
    func double(_ byte: Int) -> Double {
      Double(
        bitPattern: UInt64(littleEndian: coordinates.loadUnaligned(fromByteOffset: byte, as: UInt64.self)))
    }
    return try? Coordinate(latitude: double(16 * point), longitude: double(16 * point + 8))
  }

  /// The store position of tree point `point` (`storePositions` section).
  @inline(__always) private func storePosition(ofPoint point: Int) -> Int {
    Int(Int32(bitPattern: word(storePositions, 4 * point)))
  }

  /// The tree point of the located store at `position`: its rank among the located rows. When
  /// every store is located (the usual case) that is its position; else it is read from
  /// `PointRanks`, made from the `storePositions` section on first use (12 bytes a 64 stores).
  @inline(__always) private func point(of position: Int) -> Int {
    if pointCount == storeCount { return position }
    let ranks = pointRanks.value {
      PointRanks(positions: column(.storePositions), storeCount: storeCount)
    }
    guard let ranks else { corrupted("its store positions are not in increasing order") }
    guard let point = ranks.point(of: position) else {
      corrupted("store \(position) has a location but no point in the coordinates section")
    }
    return point
  }

  /// The arena bytes at (`offset`, `length`): checked to lie inside it, since a large snapshot's
  /// sections are verified beside serving rather than before.
  @inline(__always) private func textBytes(_ offset: UInt32, _ length: UInt32) -> UnsafeRawBufferPointer {
    guard UInt64(offset) + UInt64(length) <= UInt64(textsSize) else {
      corrupted("a text at \(offset) (\(length) bytes) lies outside the \(textsSize)-byte text arena")
    }
    return UnsafeRawBufferPointer(start: texts + Int(offset), count: Int(length))
  }

  @inline(__always) private func textBytes(row position: Int, at byte: Int) -> UnsafeRawBufferPointer {
    textBytes(rowWord(position, byte), rowWord(position, byte + 4))
  }

  private func string(_ bytes: UnsafeRawBufferPointer) -> String {
    guard let text = CompactJSONReader.validUTF8(bytes) else {
      corrupted("a text is not UTF-8")
    }
    return text
  }

  /// The UTF-8 of the id of the store at `position`.
  func idBytes(at position: Int) -> UnsafeRawBufferPointer { textBytes(row: position, at: Row.id) }

  /// The id of the store at `position`.
  func id(at position: Int) -> String { string(idBytes(at: position)) }

  /// The location of the store at `position`, or `nil`.
  func coordinate(at position: Int) -> Coordinate? {
    guard rowByte(position, Row.flags) & StoreTableLayout.locatedFlag != 0 else { return nil }
    let point = point(of: position)
    guard point < pointCount else {
      corrupted("store \(position) names tree point \(point) of \(pointCount)")
    }
    guard let coordinate = pointCoordinate(point) else {
      corrupted("store \(position)'s coordinate is out of range")
    }
    return coordinate
  }

  /// The time-zone name of the store at `position` (given or inferred).
  func timeZoneName(at position: Int) -> String? {
    timeZoneNameBytes(at: position).map(string)
  }

  /// `timeZoneName(at:)` as the UTF-8 bytes in the arena, for an answer to copy.
  func timeZoneNameBytes(at position: Int) -> UnsafeRawBufferPointer? {
    guard rowWord(position, Row.timeZone) != StoreTableLayout.none else { return nil }
    return textBytes(row: position, at: Row.timeZone)
  }

  /// The pre-rendered JSON of `name` (0) or `address` (1) of the store at `position`.
  func displayJSON(_ field: Int, at position: Int) -> UnsafeRawBufferPointer {
    textBytes(row: position, at: field == 0 ? Row.name : Row.address)
  }

  /// Where the store's properties are: its first value in the `members` column, its first key
  /// in the `shapeKeys` column, and how many there are.
  @inline(__always) private func memberSpan(_ position: Int) -> (values: Int, keys: Int, count: Int) {
    let first = Int(rowWord(position, Row.firstMember))
    let shape = Int(rowWord(position, Row.shape))
    guard shape < shapeCount else { corrupted("store \(position) names shape \(shape) of \(shapeCount)") }
    let keys = Int(word(shapes, shape * StoreTableLayout.shapeSize))
    let count = Int(word(shapes, shape * StoreTableLayout.shapeSize + 4))
    guard first <= memberTotal, count <= memberTotal - first else {
      corrupted("store \(position)'s properties lie outside the members column")
    }
    guard keys <= shapeKeyTotal, count <= shapeKeyTotal - keys else {
      corrupted("shape \(shape)'s keys lie outside the shape keys column")
    }
    return (first, keys, count)
  }

  /// The key number of entry `index` of the `shapeKeys` column.
  @inline(__always) private func shapeKey(_ index: Int) -> UInt32 { word(shapeKeys, 4 * index) }

  /// The JSON text of value `member` of the `members` column: the text of its unit in the arena
  /// (`StoreTableLayout.memberSize`), checked to lie inside it.
  @inline(__always) private func memberValue(_ member: Int) -> UnsafeRawBufferPointer {
    let offset = word(members, member * StoreTableLayout.memberSize)
    guard let text = StoreTableLayout.valueText(at: offset, texts: texts, size: textsSize) else {
      corrupted(StoreTableLayout.damagedValueReason(member, offset: offset, arena: textsSize))
    }
    return UnsafeRawBufferPointer(start: texts + text.lowerBound, count: text.count)
  }

  private func keyBytes(_ key: UInt32) -> UnsafeRawBufferPointer {
    guard Int(key) < keyCount else { corrupted("a property names key \(key) of \(keyCount)") }
    return textBytes(word(keys, Int(key) * 8), word(keys, Int(key) * 8 + 4))
  }

  /// The number of `key` in this table, or `nil` when no store has it.
  func keyNumber(of key: String) -> UInt32? {
    keyNumbers.value {
      var numbers: [String: UInt32] = [:]
      numbers.reserveCapacity(keyCount)
      for number in 0..<keyCount {
        numbers[string(keyBytes(UInt32(number)))] = UInt32(number)
      }
      return numbers
    }[key]
  }

  /// The JSON text of the property with key number `key` of the store at `position`.
  func valueJSON(key: UInt32, at position: Int) -> UnsafeRawBufferPointer? {
    // Keys first: only the member found is bounds-checked and made a buffer.
    let span = memberSpan(position)
    for index in 0..<span.count where shapeKey(span.keys + index) == key {
      return memberValue(span.values + index)
    }
    return nil
  }

  /// The property `key` of the store at `position`, parsed from its JSON text.
  func value(_ key: String, at position: Int) -> JSONValue? {
    guard let number = keyNumber(of: key), let text = valueJSON(key: number, at: position) else { return nil }
    return parse(text)
  }

  private func parse(_ text: UnsafeRawBufferPointer) -> JSONValue {
    guard let value = CompactJSONReader.value(of: text) else { corrupted("a property value is not JSON") }
    return value
  }

  /// Calls `body` with the key's UTF-8 and the value's JSON text of every property of the store
  /// at `position`, in the order they came.
  func forEachMember(at position: Int, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer) -> Void) {
    let span = memberSpan(position)
    for index in 0..<span.count {
      body(keyBytes(shapeKey(span.keys + index)), memberValue(span.values + index))
    }
  }

  /// Like `forEachMember(at:_:)`, with each key's number too.
  func forEachMember(
    at position: Int, _ body: (UnsafeRawBufferPointer, Int, UnsafeRawBufferPointer) -> Void
  ) {
    let span = memberSpan(position)
    for index in 0..<span.count {
      let key = shapeKey(span.keys + index)
      body(keyBytes(key), Int(key), memberValue(span.values + index))
    }
  }

  /// Calls `body` with the number of each key of the store at `position`, its member (for
  /// `valueJSON(member:)`) and the offset of its value's unit in the arena, in the order they
  /// came; neither a key nor a value is read. A unit is interned whole, so equal offsets are equal
  /// values (equal values written differently have different offsets).
  func forEachValueUnit(at position: Int, _ body: (_ key: Int, _ member: Int, _ unit: UInt32) -> Void) {
    let span = memberSpan(position)
    for index in 0..<span.count {
      let member = span.values + index
      body(Int(shapeKey(span.keys + index)), member, word(members, member * StoreTableLayout.memberSize))
    }
  }

  /// The JSON text of the value of `member` (`forEachValueUnit(at:_:)`), checked to lie inside
  /// the arena.
  func valueJSON(member: Int) -> UnsafeRawBufferPointer { memberValue(member) }

  /// The key with number `number`.
  func key(number: Int) -> String { string(keyBytes(UInt32(number))) }

  /// A property as `Store.subscript(property:)` reads it (strings, numbers as written, booleans),
  /// from the JSON text of its value; `nil` for null, arrays and objects.
  func scalarText(json value: UnsafeRawBufferPointer) -> String? {
    guard let first = value.first else { return nil }
    switch first {
    case UInt8(ascii: "\""), UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "-"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      return parse(value).scalarText
    default: return nil
    }
  }

  /// The property with key number `key` as `scalarText(json:)` reads it.
  func scalarText(key: UInt32?, at position: Int) -> String? {
    key.flatMap { valueJSON(key: $0, at: position) }.flatMap { scalarText(json: $0) }
  }

  /// Whether the store's time zone was inferred from its location.
  func hasInferredTimezone(at position: Int) -> Bool {
    rowByte(position, Row.flags) & StoreTableLayout.zoneInferredFlag != 0
  }

  func matches(_ filter: StoreFilter, at position: Int) -> Bool {
    checkRow(position)
    return RowFilter(filter, table: self).matches(self, at: position)
  }

  /// The store at `position`, made from its row.
  func store(at position: Int) -> Store {
    guard position >= 0, position < storeCount else {
      corrupted("store \(position) of \(storeCount) is not there")
    }
    checkRow(position)
    var properties: [JSONObject.Member] = []
    let span = memberSpan(position)
    properties.reserveCapacity(span.count)
    for index in 0..<span.count {
      properties.append(
        JSONObject.Member(
          key: string(keyBytes(shapeKey(span.keys + index))), value: parse(memberValue(span.values + index))))
    }
    guard let idSource = StoreTableLayout.idSource(code: rowByte(position, Row.idSource)) else {
      corrupted("store \(position) has an unknown id source")
    }
    var store = Store(
      id: id(at: position), idSource: idSource, coordinate: coordinate(at: position),
      properties: JSONObject(properties), timezone: timeZoneName(at: position),
      position: SourcePosition(
        featureIndex: Int(rowWord(position, Row.featureIndex)), line: Int(rowWord(position, Row.line)),
        column: Int(rowWord(position, Row.column))))
    (store.inferredTimezone, store.inferredHolidays) = StoreTableLayout.inferred(
      flags: rowByte(position, Row.flags), place: guess(at: position))
    store.catalogIndex = position
    return store
  }

  private func guess(at position: Int) -> (guess: TimeZoneGuess, region: String)? {
    let index = rowWord(position, Row.guess)
    guard index != StoreTableLayout.none else { return nil }
    guard Int(index) < guessCount else { corrupted("store \(position) names time-zone guess \(index)") }
    guard
      let guess = StoreTableLayout.guess(
        index, guesses: column(.guesses), places: column(.places), texts: column(.texts))
    else { corrupted("time-zone guess \(index) names a place out of range") }
    return guess
  }

  /// The bytes of `section`.
  private func column(_ section: SnapshotFormat.Section) -> UnsafeRawBufferPointer {
    UnsafeRawBufferPointer(
      start: memory.base + sections[section]!.lowerBound, count: sections[section]!.count)
  }

  // MARK: - Ids

  @inline(__always) private func idOrderEntry(_ rank: Int) -> Int {
    let position = Int(Int32(bitPattern: word(idOrder, 4 * rank)))
    guard position >= 0, position < storeCount else { corrupted("the id order names store \(position)") }
    return position
  }

  /// The first store position whose id is `id`: a binary search over the id order.
  func position(ofID id: String) -> Int? {
    idOrderIndex(ofFirst: id).map(idOrderEntry)
  }

  private func idOrderIndex(ofFirst id: String) -> Int? {
    var id = id
    return id.withUTF8 { wanted -> Int? in
      let wanted = UnsafeRawBufferPointer(wanted)
      var low = 0
      var high = storeCount
      while low < high {
        let middle = (low + high) / 2
        if Self.compare(idBytes(at: idOrderEntry(middle)), wanted) < 0 {
          low = middle + 1
        } else {
          high = middle
        }
      }
      guard low < storeCount, Self.compare(idBytes(at: idOrderEntry(low)), wanted) == 0 else { return nil }
      return low
    }
  }

  /// Byte order of two UTF-8 texts, as the id order is sorted.
  static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
    let common = min(a.count, b.count)
    if common > 0 {
      let result = memcmp(a.baseAddress!, b.baseAddress!, common)
      if result != 0 { return Int(result) }
    }
    return a.count - b.count
  }

  /// The positions of every store whose id is `id`, in input order.
  func positions(ofID id: String) -> [Int] {
    guard var rank = idOrderIndex(ofFirst: id) else { return [] }
    let first = idOrderEntry(rank)
    var positions = [first]
    rank += 1
    while rank < storeCount {
      let position = idOrderEntry(rank)
      guard Self.compare(idBytes(at: position), idBytes(at: first)) == 0 else { break }
      positions.append(position)
      rank += 1
    }
    return positions
  }

  // MARK: - Hours

  /// Why the store at `position` has no schedule, or `nil` when it has one.
  func scheduleGap(at position: Int) -> String? {
    let state = Int(rowByte(position, Row.hoursState))
    guard state > 0 else { return nil }
    return state - 1 < reasons.count ? reasons[state - 1] : "opening hours are not evaluated"
  }

  /// The schedule of the store at `position`: its group's, compiled on first use as the loader
  /// compiled it (the same expression, zone, holiday calendar and location).
  func schedule(at position: Int) -> Schedule? {
    checkRow(position)
    guard rowByte(position, Row.hoursState) == 0 else { return nil }
    let group = Int(rowWord(position, Row.scheduleGroup))
    guard group < groupCount else { return nil }
    if let compiled = schedules.schedule(ofGroup: group) { return compiled }
    let leader = Int(word(groupLeaders, 4 * group))
    guard leader < storeCount else { corrupted("schedule group \(group) names store \(leader)") }
    return schedules.set(compileSchedule(of: store(at: leader)), ofGroup: group)
  }

  /// The schedule group of the store at `position` (the stores sharing its compiled schedule), or
  /// `nil` when it has no schedule.
  func scheduleGroup(at position: Int) -> Int? {
    checkRow(position)
    guard rowByte(position, Row.hoursState) == 0 else { return nil }
    let group = Int(rowWord(position, Row.scheduleGroup))
    return group < groupCount ? group : nil
  }

  /// Gives the table the schedules the loader compiled, one a group.
  func prefill(schedules: [Schedule?], zones: [String: TimeZoneRules]) {
    for (group, schedule) in schedules.enumerated() where group < self.schedules.count {
      self.schedules.set(schedule, ofGroup: group)
    }
    cache.withLock { cache in
      for (name, rules) in zones { cache.zones[name] = .some(rules) }
    }
  }

  private func compileSchedule(of store: Store) -> Schedule? {
    store.openingHours.flatMap { compileSchedule(of: store, text: $0) }
  }

  /// The schedule of `text` at `store`: its zone, holiday calendar and location, as the loader
  /// compiles the store's own hours (a service's hours, hours with the store's state applied).
  func compileSchedule(of store: Store, text: String) -> Schedule? {
    guard let zoneName = store.timezone, let hours = try? OpeningHours(parsing: text),
      let zone = timeZone(named: zoneName)
    else { return nil }
    let usesHolidays = hours.usesPublicHolidays || hours.usesSchoolHolidays
    return Schedule(
      hours, timeZone: zone, holidays: usesHolidays ? holidayCalendar(for: store) : nil,
      latitude: store.coordinate?.latitude, longitude: store.coordinate?.longitude)
  }

  func timeZone(named name: String) -> TimeZoneRules? {
    if let cached = cache.withLock({ $0.zones[name] }) { return cached }
    let rules = try? TimeZoneRules(identifier: name)
    cache.withLock { $0.zones[name] = .some(rules) }
    return rules
  }

  func setHolidays(_ registry: HolidayRegistry) { cache.withLock { $0.holidays = registry } }

  /// The public holidays of `store`'s country and region, `nil` when there is no data for it.
  ///
  /// With the bundled data alone, a country's holidays are read the first time one of its stores
  /// needs them: a chain in many countries read them all for the first answer that named PH,
  /// about 4 ms of a process that answers one query on the 1M-store snapshot (12 countries).
  /// With the user's holiday files, which may change any country, they are all read at once.
  private func holidayCalendar(for store: Store) -> HolidayCalendar? {
    let registry = cache.withLock { cache in
      if !holidayFiles.isEmpty {
        if cache.holidays == nil {
          cache.holidays =
            (try? HoursResources.holidayRegistry(countries: countries, extraFiles: holidayFiles))
            ?? HolidayRegistry()
        }
      } else if let country = store.holidayCountry?.uppercased(), countries.contains(country),
        cache.holidayCountries.insert(country).inserted
      {
        // Added in place, not to a copy of what was read before. A damaged bundled file leaves
        // its country without holidays (its PH rules unknown).
        if cache.holidays == nil { cache.holidays = HolidayRegistry() }
        try? HoursResources.addBundledHolidays(of: country, to: &cache.holidays!)
      }
      return cache.holidays ?? HolidayRegistry()
    }
    return HoursResources(holidays: registry).holidayCalendar(for: store)
  }

  // MARK: - Read on first use

  /// Whether a section read after opening still matches its checksum.
  func isIntact(_ section: SnapshotFormat.Section) -> Bool {
    guard let range = sections[section], let expected = checksums[section] else { return false }
    return snapshotChecksum(UnsafeRawBufferPointer(start: memory.base + range.lowerBound, count: range.count))
      == expected
  }

  /// The subtree summaries, read in place on the first query that can use them: the node masks
  /// and the leaves' digests (2.3 MB on 1M stores) are checked whole then, damaged they are not
  /// used (searches then test every candidate, which is slower and still exact); the point masks
  /// (32 MB) are neither copied nor checksummed whole, but each leaf's are checked against its
  /// digest when a search first reads them, and a damaged leaf ends the process as a damaged row
  /// does (`corrupted(_:)`). A table built in memory a moment ago is read as it is.
  func searchMasks(for tree: KDTree) -> SearchMasks? {
    guard let masksInfo else { return nil }
    return searchMasks.value { () -> SearchMasks? in
      readMasks(for: tree).map {
        SearchMasks(masks: $0, conditions: masksInfo.conditions, hoursWindow: masksInfo.hoursWindow)
      }
    }
  }

  private func readMasks(for tree: KDTree) -> SubtreeMasks? {
    let trusted = path == nil
    guard trusted || (isIntact(.maskNodes) && isIntact(.maskDigests)) else { return nil }
    guard let points = sections[.maskPoints], let nodes = sections[.maskNodes],
      let digests = sections[.maskDigests]
    else { return nil }
    let bytes = memory.bytes
    let layout = SubtreeMaskLayout(
      points: UnsafeRawBufferPointer(rebasing: bytes[points]),
      nodes: UnsafeRawBufferPointer(rebasing: bytes[nodes]),
      leafDigests: UnsafeRawBufferPointer(rebasing: bytes[digests]))
    // Not `self`: the masks live in the table's cache, and would keep it alive for ever.
    let name = path ?? "-"
    let source = source
    let damaged: @Sendable (Int) -> Never = { leaf in
      StoreTable.corrupted(
        path: name, source: source, "its subtree summaries of tree leaf \(leaf) fail their digest")
    }
    return try? SubtreeMasks(
      for: tree, borrowing: layout, owner: memory, onDamagedLeaf: trusted ? nil : damaged)
  }

  /// The diagnostics, decoded on first use. Damaged ones are replaced by one error that says so
  /// and how to rebuild.
  var diagnostics: [Diagnostic] {
    if let cached = cache.withLock({ $0.diagnostics }) { return cached }
    var decoded: [Diagnostic]
    do throws(SnapshotDecodingError) {
      decoded = try decodeDiagnostics()
    } catch {
      let refusal = Self.refusal(
        path ?? "-", source: source, "its diagnostics section is corrupted (\(error.reason))")
      decoded = [Diagnostic(Diagnostic.Code("snapshot-corrupted"), .error, at: nil, refusal.message)]
    }
    cache.withLock { $0.diagnostics = decoded }
    return decoded
  }

  /// The diagnostics but the `timezone-inferred` and `holidays-inferred` notes, for a reader that
  /// wants other codes: a snapshot makes those notes again from its rows, a million of them for
  /// the 1M-store benchmark (3 s), which `diagnostics` would do. Damaged, none.
  var diagnosticsWithoutInferredZoneNotes: [Diagnostic] {
    if let cached = cache.withLock({ $0.diagnostics }) {
      return cached.filter { !InferredZoneNotes.isInferredNote($0.code) }
    }
    return (try? decodeDiagnostics(includingInferredZoneNotes: false)) ?? []
  }

  /// The diagnostics section, checked and decoded, its `timezone-inferred` notes made again from
  /// the rows (`InferredZoneNotes`), each row checked against its digest first when the table
  /// checks rows as it reads them.
  func decodeDiagnostics(includingInferredZoneNotes: Bool = true) throws(SnapshotDecodingError)
    -> [Diagnostic]
  {
    guard isIntact(.diagnostics) else { throw SnapshotDecodingError(reason: "checksum mismatch") }
    var reader = SnapshotReader(base: memory.base, range: sections[.diagnostics]!)
    let guessColumn = column(.guesses)
    let placeColumn = column(.places)
    let textColumn = column(.texts)
    func row(_ position: Int) -> UnsafeRawBufferPointer {
      UnsafeRawBufferPointer(
        start: rows + position * StoreTableLayout.rowSize, count: StoreTableLayout.rowSize)
    }
    // The notes read the rows, the guesses and the arena (the places are verified on open):
    // checked whole once, at a few GB/s, rather than a digest a row for a million rows (2 s).
    // Damaged, each note's row is checked against its digest, so the damage is named.
    var checking: Bool?
    func mustCheckRows() -> Bool {
      if let checking { return checking }
      let whole = !checksRows || verifiedWhole.load(ordering: .relaxed)
      checking = !whole && !(isIntact(.rows) && isIntact(.guesses) && isIntact(.texts))
      return checking!
    }
    return try SnapshotFormat.decodeDiagnostics(
      &reader, storeCount: storeCount, hasGuess: { InferredZoneNotes.hasGuess(row: row($0)) },
      note: !includingInferredZoneNotes
        ? nil
        : { position throws(SnapshotDecodingError) in
          guard !mustCheckRows() || self.rowIsIntact(position) else {
            throw SnapshotDecodingError(reason: "store \(position) fails its checksum")
          }
          guard
            let notes = InferredZoneNotes.notes(
              row: row(position), guesses: guessColumn, places: placeColumn, texts: textColumn)
          else { throw SnapshotDecodingError(reason: "store \(position)'s time-zone guess is out of range") }
          return notes
        },
      generatedIDNote: { position throws(SnapshotDecodingError) in
        guard !mustCheckRows() || self.rowIsIntact(position) else {
          throw SnapshotDecodingError(reason: "store \(position) fails its checksum")
        }
        guard let note = GeneratedIDNotes.note(row: row(position), texts: textColumn) else {
          throw SnapshotDecodingError(reason: "store \(position) has a generated-id note but no generated id")
        }
        return note
      })
  }

  // MARK: - Damage found while answering

  /// Ends the process: bytes of a snapshot that no check before caught (a large snapshot's
  /// sections are verified beside serving, `verifyEverything`) are out of range, and no answer
  /// built on them can be trusted. Queries cannot fail, so the process ends as any refused input
  /// does: a message with the rebuild command on standard error and exit 65, never a trap.
  func corrupted(_ reason: String) -> Never {
    Self.corrupted(path: path ?? "-", source: source, reason)
  }

  /// `corrupted(_:)` for the snapshot at `path` built from `source`, without the table.
  static func corrupted(path: String, source: String, _ reason: String) -> Never {
    let refusal = Self.refusal(path, source: source, "it is corrupted: \(reason)")
    let program = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "stores"
    var line = "\(program): \(refusal.description)\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    exit(65)
  }

  // MARK: - Verification

  /// Everything `stores snapshot verify` checks beyond the checks of every open: the checksums of
  /// the sections read later, that every row's texts, properties, guesses and groups lie inside
  /// their columns and decode, that the id order is sorted (binary search), that the tree's points
  /// are the rows' coordinates and its shape holds them (`KDTree.validateStructure()`), that the
  /// summaries are the unions of their subtrees, and that each hours state names a known reason.
  ///
  /// - Throws: `CatalogError` (`.badData`) naming the first problem, with the rebuild command.
  func verifyEverything(tree: KDTree, storePositions: StorePositions) throws(CatalogError) {
    func refuse(_ reason: String) -> CatalogError { Self.refusal(path ?? "-", source: source, reason) }
    for section in SnapshotFormat.Section.allCases where sections[section] != nil && !isIntact(section) {
      throw refuse("its \(section.name) section is corrupted (checksum mismatch)")
    }
    if let problem = structuralProblem(checkingDigests: true) { throw refuse(problem) }
    // Every value parses (the checks above keep this from leaving the arena).
    for index in 0..<memberTotal {
      let offset = word(members, index * StoreTableLayout.memberSize)
      guard let text = StoreTableLayout.valueText(at: offset, texts: texts, size: textsSize) else {
        throw refuse(StoreTableLayout.damagedValueReason(index, offset: offset, arena: textsSize))
      }
      let value = UnsafeRawBufferPointer(start: texts + text.lowerBound, count: text.count)
      guard CompactJSONReader.value(of: value) != nil else {
        throw refuse("its property \(index) is not JSON")
      }
    }
    // The id order: a permutation sorted by (id bytes, position), as `position(ofID:)` assumes.
    var seen = [Bool](repeating: false, count: storeCount)
    var previous: Int?
    for rank in 0..<storeCount {
      let position = Int(Int32(bitPattern: word(idOrder, 4 * rank)))
      guard position >= 0, position < storeCount, !seen[position] else {
        throw refuse("its id order refers to store \(position) of \(storeCount)")
      }
      seen[position] = true
      if let previous {
        let order = Self.compare(idBytes(at: previous), idBytes(at: position))
        guard order < 0 || (order == 0 && previous < position) else {
          throw refuse("its id order is not sorted at entry \(rank)")
        }
      }
      previous = position
    }
    // The tree: its points are the coordinates of the stores it names, one point a located store.
    do throws(KDTreePartsError) { try tree.validateStructure() } catch {
      throw refuse("its tree is inconsistent: \(error.description)")
    }
    let located = (0..<storeCount).filter { rowByte($0, Row.flags) & StoreTableLayout.locatedFlag != 0 }
    guard storePositions.map(Int.init) == located else {
      throw refuse("its store positions are not the \(located.count) stores that have a coordinate")
    }
    // A store's coordinate is its point's (`coordinate(at:)`): each must be one.
    for point in 0..<pointCount where pointCoordinate(point) == nil {
      throw refuse("its tree point \(point) has a coordinate out of range")
    }
    for (point, position) in located.enumerated() where coordinate(at: position) != tree.coordinates[point] {
      throw refuse("its tree point \(point) is not at the coordinate of store \(position)")
    }
    if masksInfo != nil {
      guard let masks = searchMasks(for: tree), masks.masks.isConsistent(with: tree) else {
        throw refuse("its subtree summaries are not the unions of their subtrees")
      }
      // Also lets searches stop checking each leaf they read.
      if let leaf = masks.masks.firstDamagedLeaf() {
        throw refuse("its subtree summaries of tree leaf \(leaf) do not match their digest")
      }
    }
    do { _ = try decodeDiagnostics() } catch {
      throw refuse("its diagnostics section is corrupted (\(error.reason))")
    }
    verifiedWhole.store(true, ordering: .relaxed)
  }

  /// The first reference of the table that points outside its column, or a field out of range,
  /// in words; `nil` when every row, property, key, guess and group is sound. Checked on every
  /// open of a table verified whole (so answers never meet such a row), and by `verifyEverything`.
  /// - Parameter checkingDigests: Also compare each row with its digest.
  func structuralProblem(checkingDigests: Bool) -> String? {
    let text = UInt64(textsSize)
    func inArena(_ offset: UInt32, _ length: UInt32) -> Bool { UInt64(offset) + UInt64(length) <= text }
    for position in 0..<storeCount {
      let row = { (byte: Int) in self.rowWord(position, byte) }
      guard inArena(row(Row.id), row(Row.id + 4)), inArena(row(Row.name), row(Row.name + 4)),
        inArena(row(Row.address), row(Row.address + 4)),
        row(Row.timeZone) == StoreTableLayout.none || inArena(row(Row.timeZone), row(Row.timeZone + 4))
      else { return ("its row \(position) refers to text outside the arena") }
      guard Int(row(Row.shape)) < shapeCount else {
        return "its row \(position) names a shape that is not there"
      }
      let first = UInt64(row(Row.firstMember))
      guard
        first + UInt64(word(shapes, Int(row(Row.shape)) * StoreTableLayout.shapeSize + 4))
          <= UInt64(memberTotal)
      else { return ("its row \(position) refers to properties outside the members column") }
      guard row(Row.guess) == StoreTableLayout.none || Int(row(Row.guess)) < guessCount else {
        return "its row \(position) names a time-zone guess that is not there"
      }
      guard row(Row.scheduleGroup) == StoreTableLayout.none || Int(row(Row.scheduleGroup)) < groupCount else {
        return "its row \(position) names a schedule group that is not there"
      }
      guard Int(rowByte(position, Row.hoursState)) <= reasons.count else {
        return "its hours state of store \(position) names no known reason"
      }
      // A row names a guess exactly when something was inferred from it.
      let flags = rowByte(position, Row.flags)
      guard StoreTableLayout.idSource(code: rowByte(position, Row.idSource)) != nil, flags & ~15 == 0,
        (flags & 14 != 0) == (row(Row.guess) != StoreTableLayout.none), rowByte(position, Row.reserved) == 0
      else { return "its row \(position) has a field out of range" }
      if checkingDigests, rowDigest(position) != word(rowChecksums, 4 * position) {
        return "its row \(position) fails its checksum"
      }
      if row(Row.timeZone) != StoreTableLayout.none,
        CompactJSONReader.validUTF8(textBytes(row: position, at: Row.timeZone)) == nil
      {
        return "its row \(position) has a time zone that is not UTF-8"
      }
      guard CompactJSONReader.validUTF8(idBytes(at: position)) != nil else {
        return ("its row \(position) has an id that is not UTF-8")
      }
      // Answers copy the name and address texts as they are: each must be a string or null.
      for field in [Row.name, Row.address] {
        switch CompactJSONReader.value(of: textBytes(row: position, at: field)) {
        case .string?, .null?: break
        default: return "its row \(position) has a name or address that is not JSON text"
        }
      }
    }
    // A located row's coordinate is its point's, the point its rank among the located rows
    // (`coordinate(at:)`): the located rows must be the store positions, in order, and each point
    // a coordinate.
    var point = 0
    for position in 0..<storeCount where rowByte(position, Row.flags) & StoreTableLayout.locatedFlag != 0 {
      guard point < pointCount, storePosition(ofPoint: point) == position else {
        return "its row \(position) has a location but is not the store of tree point \(point)"
      }
      point += 1
    }
    guard point == pointCount else {
      return "its store positions are not the \(point) stores that have a coordinate"
    }
    for point in 0..<pointCount where pointCoordinate(point) == nil {
      return "its tree point \(point) has a coordinate out of range"
    }
    for index in 0..<memberTotal {
      let offset = word(members, index * StoreTableLayout.memberSize)
      guard let text = StoreTableLayout.valueText(at: offset, texts: texts, size: textsSize) else {
        return StoreTableLayout.damagedValueReason(index, offset: offset, arena: textsSize)
      }
      // Making a store parses every value, and answers copy them: each must be one JSON value,
      // and its text UTF-8.
      let value = UnsafeRawBufferPointer(start: texts + text.lowerBound, count: text.count)
      guard CompactJSONReader.value(of: value) != nil else { return "its property \(index) is not JSON" }
    }
    for shape in 0..<shapeCount {
      let first = UInt64(word(shapes, shape * StoreTableLayout.shapeSize))
      let count = UInt64(word(shapes, shape * StoreTableLayout.shapeSize + 4))
      guard first + count <= UInt64(shapeKeyTotal) else {
        return "its shape \(shape) lies outside the shape keys"
      }
    }
    for index in 0..<shapeKeyTotal where Int(shapeKey(index)) >= keyCount {
      return "its shape key \(index) names key \(shapeKey(index)) of \(keyCount)"
    }
    for key in 0..<keyCount {
      guard inArena(word(keys, key * 8), word(keys, key * 8 + 4)) else {
        return "its key \(key) lies outside the arena"
      }
      guard CompactJSONReader.validUTF8(keyBytes(UInt32(key))) != nil else {
        return "its key \(key) is not UTF-8"
      }
    }
    for guess in 0..<guessCount {
      let place = word(guesses, guess * StoreTableLayout.guessSize)
      guard Int(place) < placeCount else {
        return "its time-zone guess \(guess) names a place that is not there"
      }
    }
    for place in 0..<placeCount {
      let byte = place * StoreTableLayout.placeSize
      guard (0..<5).allSatisfy({ inArena(word(places, byte + 8 * $0), word(places, byte + 8 * $0 + 4)) })
      else { return ("its time-zone place \(place) lies outside the arena") }
      // Everything `store(at:)` reads of a guess's place: its texts and its coordinate.
      for field in 0..<5 {
        let text = textBytes(word(places, byte + 8 * field), word(places, byte + 8 * field + 4))
        guard CompactJSONReader.validUTF8(text) != nil else {
          return "its time-zone place \(place) has a text that is not UTF-8"
        }
      }
      func number(_ at: Int) -> Double {
        Double(
          bitPattern: UInt64(littleEndian: places.loadUnaligned(fromByteOffset: byte + at, as: UInt64.self)))
      }
      guard (try? Coordinate(latitude: number(40), longitude: number(48))) != nil else {
        return "its time-zone place \(place) has a coordinate out of range"
      }
    }
    for group in 0..<groupCount where Int(word(groupLeaders, 4 * group)) >= storeCount {
      return ("its schedule group \(group) names a store that is not there")
    }
    for rank in 0..<storeCount {
      let position = Int32(bitPattern: word(idOrder, 4 * rank))
      guard position >= 0, Int(position) < storeCount else {
        return "its id order refers to store \(position) of \(storeCount)"
      }
    }
    return nil
  }
}
