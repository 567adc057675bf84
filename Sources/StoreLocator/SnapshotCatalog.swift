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

/// A snapshot file mapped into memory, answering for a `Catalog` what is not copied out on open:
/// records (decoded one at a time), id lookups, opening-hours schedules (compiled on first use,
/// once per distinct expression, zone and holiday region) and diagnostics (decoded on first use).
///
/// `@unchecked Sendable`: the mapping is read-only and lives as long as the object; everything
/// mutable is behind a `Mutex`.
final class SnapshotCatalog: @unchecked Sendable {
  let path: String
  /// The GeoJSON file the snapshot was built from, for messages.
  let source: String
  let storeCount: Int
  let diagnosticCounts: [Diagnostic.Severity: Int]

  private let file: MappedFile
  private var mapping: UnsafeRawPointer { file.base }
  private let sections: [SnapshotFormat.Section: Range<Int>]
  private let checksums: [SnapshotFormat.Section: UInt64]
  private let masksInfo: (conditions: [StoreFilter.Condition], hoursWindow: Range<Instant>?)?
  private let reasons: [String]
  private let holidayFiles: [String]
  private let countries: Set<String>
  private let cache = Mutex(Cache())

  private struct Cache {
    var schedules: [ScheduleKey: Schedule?] = [:]
    /// Per store position, so a search that tests a store again decodes nothing.
    var schedulesByPosition: [Int: Schedule?] = [:]
    var zones: [String: TimeZoneRules?] = [:]
    var holidays: HolidayRegistry?
    var diagnostics: [Diagnostic]?
    /// `.some(nil)` once loading them found none.
    var searchMasks: SearchMasks??
  }

  /// Everything `Catalog` copies out of the file on open.
  struct Opened {
    var catalog: SnapshotCatalog
    var tree: KDTree
    var storePositions: [Int32]
  }

  private init(
    path: String, source: String, storeCount: Int, diagnosticCounts: [Diagnostic.Severity: Int],
    file: MappedFile, sections: [SnapshotFormat.Section: Range<Int>],
    checksums: [SnapshotFormat.Section: UInt64],
    masksInfo: (conditions: [StoreFilter.Condition], hoursWindow: Range<Instant>?)?, reasons: [String],
    holidayFiles: [String], countries: Set<String>
  ) {
    self.checksums = checksums
    self.masksInfo = masksInfo
    self.path = path
    self.source = source
    self.storeCount = storeCount
    self.diagnosticCounts = diagnosticCounts
    self.file = file
    self.sections = sections
    self.reasons = reasons
    self.holidayFiles = holidayFiles
    self.countries = countries
  }

  /// True when the file at `path` starts like a snapshot (its first bytes are the magic).
  static func isSnapshot(at path: String) -> Bool {
    guard path != "-" else { return false }
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    var magic = [UInt8](repeating: 0, count: SnapshotFormat.magic.count)
    let count = magic.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    return count == magic.count && magic == SnapshotFormat.magic
  }

  // MARK: - Opening

  /// Maps the snapshot at `path` and checks it: magic, version, size, header and section checksums.
  ///
  /// - Throws: `CatalogError`: `.inputMissing` when the file cannot be read, `.badData` when it is
  ///   truncated, corrupted or of another format version, with the command that rebuilds it.
  static func map(_ path: String, options: LoadOptions) throws(CatalogError) -> Opened {
    let descriptor = try FileBytes.openForReading(path)
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw CatalogError(
        .inputMissing, source: path, "cannot read: \(String(cString: strerror(errno)))")
    }
    let size = Int(status.st_size)
    guard size >= SnapshotFormat.headerSize else {
      throw refusal(path, source: nil, "it is truncated: \(size) bytes, less than a snapshot header")
    }
    guard let mapped = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), mapped != MAP_FAILED else {
      throw CatalogError(
        .inputMissing, source: path, "cannot map: \(String(cString: strerror(errno)))")
    }
    let file = MappedFile(base: UnsafeRawPointer(mapped), size: size)
    do {
      return try checked(path, file: file, options: options)
    } catch {
      switch error {
      case let error as CatalogError: throw error
      case let error as SnapshotDecodingError:
        throw refusal(path, source: nil, "it is corrupted: \(error.reason)")
      default: throw CatalogError(.badData, source: path, "\(error)")
      }
    }
  }

  /// The checks and copies of `map(_:options:)`; throws `CatalogError` or `SnapshotDecodingError`.
  private static func checked(_ path: String, file: MappedFile, options: LoadOptions) throws -> Opened {
    let base = file.base
    let size = file.size
    let buffer = UnsafeRawBufferPointer(start: base, count: size)
    guard Array(buffer[0..<8]) == SnapshotFormat.magic else {
      throw refusal(path, source: nil, "it does not start with the snapshot magic STORESNP")
    }
    var header = SnapshotReader(buffer, from: 8)
    let version: UInt32
    let sectionCount: Int
    let declaredSize: UInt64
    let declaredChecksum: UInt64
    do {
      version = try header.read(UInt32.self)
      sectionCount = Int(try header.read(UInt32.self))
      declaredSize = try header.read(UInt64.self)
      declaredChecksum = try header.read(UInt64.self)
    } catch {
      throw refusal(path, source: nil, "its header is unreadable (\(error.reason))")
    }
    guard version == SnapshotFormat.version else {
      let age = version < SnapshotFormat.version ? "an older" : "a newer"
      throw refusal(
        path, source: nil,
        "it was written in \(age) snapshot format (version \(version)); this stores reads version "
          + "\(SnapshotFormat.version)")
    }
    // Past the version check the layout is known: name the input in the messages when the meta
    // section is intact, even in a truncated file.
    let hint = sourceHint(buffer)
    guard declaredSize == UInt64(size) else {
      let what =
        UInt64(size) < declaredSize
        ? "it is truncated: \(size) of \(declaredSize) bytes"
        : "it has \(UInt64(size) - declaredSize) bytes too many"
      throw refusal(path, source: hint, what)
    }
    let tableEnd = SnapshotFormat.headerSize + sectionCount * SnapshotFormat.sectionEntrySize
    guard sectionCount <= 64, tableEnd <= size else {
      throw refusal(path, source: hint, "its section table is corrupted")
    }
    var headerBytes = Array(buffer[0..<tableEnd])
    for i in 24..<32 { headerBytes[i] = 0 }
    guard headerBytes.withUnsafeBytes({ snapshotChecksum($0) }) == declaredChecksum else {
      throw refusal(path, source: hint, "its header is corrupted (checksum mismatch)")
    }

    var sections: [SnapshotFormat.Section: Range<Int>] = [:]
    var checksums: [SnapshotFormat.Section: UInt64] = [:]
    var table = SnapshotReader(buffer, from: SnapshotFormat.headerSize)
    for _ in 0..<sectionCount {
      do {
        let kind = try table.read(UInt32.self)
        _ = try table.read(UInt32.self)
        let offset = Int(try table.read(UInt64.self))
        let length = Int(try table.read(UInt64.self))
        let checksum = try table.read(UInt64.self)
        guard let section = SnapshotFormat.Section(rawValue: kind), offset % 8 == 0, offset >= tableEnd,
          length >= 0, offset <= size - length
        else { throw SnapshotDecodingError(reason: "section \(kind) is out of bounds") }
        sections[section] = offset..<offset + length
        checksums[section] = checksum
      } catch let error as SnapshotDecodingError {
        throw refusal(path, source: hint, "its section table is corrupted (\(error.reason))")
      }
    }
    for section in SnapshotFormat.Section.allCases where section != .maskPoints && section != .maskNodes {
      guard sections[section] != nil else {
        throw refusal(path, source: hint, "its \(section.name) section is missing")
      }
    }
    // Meta first: its source names the file to rebuild from in every later message.
    try verify(.meta, sections, checksums, buffer, path: path, source: nil)
    do {
      var meta = SnapshotReader(base: base, range: sections[.meta]!)
      let sourcePath = try meta.readString()
      let storeCount = try meta.readVarint()
      let indexedCount = try meta.readVarint()
      var window: Range<Instant>?
      if try meta.read(UInt8.self) == 1 {
        let lower = Instant(secondsSinceEpoch: try meta.read(Int64.self))
        let upper = Instant(secondsSinceEpoch: try meta.read(Int64.self))
        guard lower <= upper else { throw SnapshotDecodingError(reason: "the hours window is reversed") }
        window = lower..<upper
      }
      let hasMasks = try meta.read(UInt8.self) == 1
      var conditions: [StoreFilter.Condition] = []
      for _ in 0..<min(try meta.readVarint(), SearchMasks.conditionCapacity) {
        conditions.append(try SnapshotFormat.decodeCondition(&meta))
      }
      var counts: [Diagnostic.Severity: Int] = [:]
      for severity in Diagnostic.Severity.allCases { counts[severity] = try meta.readVarint() }
      var reasons: [String] = []
      for _ in 0..<min(try meta.readVarint(), 255) { reasons.append(try meta.readString()) }
      var countries = Set<String>()
      for _ in 0..<min(try meta.readVarint(), 1_000) { countries.insert(try meta.readString()) }
      func check(_ section: SnapshotFormat.Section, elements: Int, of size: Int) throws(CatalogError) {
        try verify(section, sections, checksums, buffer, path: path, source: sourcePath)
        guard sections[section]!.count == elements * size else {
          throw refusal(path, source: sourcePath, "its \(section.name) section has the wrong size")
        }
      }
      guard storeCount >= 0, indexedCount >= 0, indexedCount <= storeCount, storeCount < Int(Int32.max) else {
        throw SnapshotDecodingError(reason: "the store counts are inconsistent")
      }
      try check(.coordinates, elements: indexedCount, of: 16)
      try check(.storePositions, elements: indexedCount, of: 4)
      try check(.treeXs, elements: indexedCount, of: 8)
      try check(.treeYs, elements: indexedCount, of: 8)
      try check(.treeZs, elements: indexedCount, of: 8)
      try check(.treeIDs, elements: indexedCount, of: 4)
      try check(.recordTable, elements: storeCount, of: SnapshotFormat.recordTableEntrySize)
      try check(.idOrder, elements: storeCount, of: 4)
      try check(.scheduleStates, elements: storeCount, of: 1)
      try verify(.treeBoxes, sections, checksums, buffer, path: path, source: sourcePath)
      if sections[.records]!.count <= SnapshotFormat.recordsVerifiedOnOpen {
        try verify(.records, sections, checksums, buffer, path: path, source: sourcePath)
      }

      let storePositions: [Int32] = Self.array(base, sections[.storePositions]!)
      guard storePositions.allSatisfy({ $0 >= 0 && Int($0) < storeCount }) else {
        throw SnapshotDecodingError(reason: "a tree point refers to a store that is not there")
      }
      var boxesReader = SnapshotReader(base: base, range: sections[.treeBoxes]!)
      let depth = Int(try boxesReader.read(UInt64.self))
      let boxesRange = sections[.treeBoxes]!.lowerBound + 8..<sections[.treeBoxes]!.upperBound
      // The tree reads its arrays in place: nothing is copied, the mapping stays while it lives.
      let layout = KDTreeLayout(
        depth: depth, coordinates: Self.buffer(base, sections[.coordinates]!),
        xs: Self.buffer(base, sections[.treeXs]!),
        ys: Self.buffer(base, sections[.treeYs]!), zs: Self.buffer(base, sections[.treeZs]!),
        ids: Self.buffer(base, sections[.treeIDs]!), boxes: Self.buffer(base, boxesRange))
      let tree: KDTree
      do { tree = try KDTree(borrowing: layout, owner: file) } catch {
        throw SnapshotDecodingError(reason: error.description)
      }
      if hasMasks {
        // Sizes now; checksums and contents when a query first needs them.
        let nodeCount = layout.boxes.count / 6
        guard sections[.maskPoints]?.count == indexedCount * 32, sections[.maskNodes]?.count == nodeCount * 32
        else { throw SnapshotDecodingError(reason: "the subtree summaries do not fit the tree") }
      }
      let catalog = SnapshotCatalog(
        path: path, source: sourcePath, storeCount: storeCount, diagnosticCounts: counts, file: file,
        sections: sections, checksums: checksums,
        masksInfo: hasMasks ? (conditions, window) : nil, reasons: reasons,
        holidayFiles: options.holidayFiles,
        countries: countries)
      if !options.holidayFiles.isEmpty {
        // Extra holiday files are the user's: report their errors now, not at the first PH.
        let registry = try HoursResources.holidayRegistry(
          countries: countries, extraFiles: options.holidayFiles)
        catalog.cache.withLock { $0.holidays = registry }
      }
      return Opened(catalog: catalog, tree: tree, storePositions: storePositions)
    }
  }

  /// The source path in the meta section, when the section table and the meta section are intact.
  private static func sourceHint(_ buffer: UnsafeRawBufferPointer) -> String? {
    var table = SnapshotReader(buffer, from: 12)
    guard let count = try? table.read(UInt32.self), count <= 64 else { return nil }
    table.offset = SnapshotFormat.headerSize
    for _ in 0..<count {
      guard let kind = try? table.read(UInt32.self), (try? table.read(UInt32.self)) != nil,
        let offset = try? table.read(UInt64.self), let length = try? table.read(UInt64.self),
        let checksum = try? table.read(UInt64.self)
      else { return nil }
      guard kind == SnapshotFormat.Section.meta.rawValue else { continue }
      guard offset <= UInt64(buffer.count), length <= UInt64(buffer.count) - offset else { return nil }
      let range = Int(offset)..<Int(offset + length)
      guard snapshotChecksum(UnsafeRawBufferPointer(rebasing: buffer[range])) == checksum else { return nil }
      var meta = SnapshotReader(buffer, from: range.lowerBound)
      return try? meta.readString()
    }
    return nil
  }

  /// Checks one section's checksum (sections were all found in the table before), or throws
  /// the refusal.
  private static func verify(
    _ section: SnapshotFormat.Section, _ sections: [SnapshotFormat.Section: Range<Int>],
    _ checksums: [SnapshotFormat.Section: UInt64], _ buffer: UnsafeRawBufferPointer, path: String,
    source: String?
  ) throws(CatalogError) {
    guard let range = sections[section], let expected = checksums[section],
      snapshotChecksum(UnsafeRawBufferPointer(rebasing: buffer[range])) == expected
    else {
      throw refusal(path, source: source, "its \(section.name) section is corrupted (checksum mismatch)")
    }
  }

  /// The error for a snapshot that cannot be used, with the command that makes a good one.
  static func refusal(_ path: String, source: String?, _ reason: String) -> CatalogError {
    let input = source.flatMap { $0.isEmpty || $0 == "-" ? nil : $0 } ?? "STORES.geojson"
    return CatalogError(
      .badData, source: path,
      "not a usable snapshot: \(reason); rebuild it with 'stores snapshot build \(input) -o \(path)'")
  }

  private static func array<T: BitwiseCopyable>(_ base: UnsafeRawPointer, _ range: Range<Int>) -> [T] {
    let count = range.count / MemoryLayout<T>.stride
    return [T](unsafeUninitializedCapacity: count) { buffer, initialized in
      UnsafeMutableRawBufferPointer(buffer).copyMemory(
        from: UnsafeRawBufferPointer(start: base + range.lowerBound, count: count * MemoryLayout<T>.stride))
      initialized = count
    }
  }

  /// A section read in place as `T`s (sections start on 8-byte boundaries of a page-aligned map).
  private static func buffer<T>(_ base: UnsafeRawPointer, _ range: Range<Int>) -> UnsafeBufferPointer<T> {
    UnsafeBufferPointer(
      start: (base + range.lowerBound).assumingMemoryBound(to: T.self),
      count: range.count / MemoryLayout<T>.stride)
  }

  // MARK: - Records

  private func uint32(_ section: SnapshotFormat.Section, at byte: Int) -> UInt32 {
    UInt32(
      littleEndian: mapping.loadUnaligned(
        fromByteOffset: sections[section]!.lowerBound + byte, as: UInt32.self))
  }

  /// The bytes of record `position`, checked against its checksum.
  private func recordReader(_ position: Int) throws(SnapshotDecodingError) -> SnapshotReader {
    let table = sections[.recordTable]!.lowerBound + position * SnapshotFormat.recordTableEntrySize
    let offset = Int(UInt64(littleEndian: mapping.loadUnaligned(fromByteOffset: table, as: UInt64.self)))
    let length = Int(UInt32(littleEndian: mapping.loadUnaligned(fromByteOffset: table + 8, as: UInt32.self)))
    let checksum = UInt32(littleEndian: mapping.loadUnaligned(fromByteOffset: table + 12, as: UInt32.self))
    let records = sections[.records]!
    guard offset <= records.count, length <= records.count - offset else {
      throw SnapshotDecodingError(reason: "record \(position) lies outside the records")
    }
    let start = records.lowerBound + offset
    let bytes = UnsafeRawBufferPointer(start: mapping + start, count: length)
    guard UInt32(truncatingIfNeeded: snapshotChecksum(bytes)) == checksum else {
      throw SnapshotDecodingError(reason: "record \(position) fails its checksum")
    }
    return SnapshotReader(base: mapping, range: start..<start + length)
  }

  /// The store at `position`.
  ///
  /// A record that fails its checksum stops the process with the rebuild message: the bytes of a
  /// snapshot changed after it was opened and verified (records of large snapshots are verified as
  /// they are read), and no answer built on them can be trusted.
  func store(at position: Int) -> Store {
    do {
      var reader = try recordReader(position)
      var store = try SnapshotFormat.decodeStore(&reader)
      store.catalogIndex = position
      return store
    } catch {
      fatalError(Self.refusal(path, source: source, "it is corrupted: \(error.reason)").message)
    }
  }

  /// The first store position whose id is `id`: a binary search over the id order.
  func position(ofID id: String) -> Int? {
    idOrderIndex(ofFirst: id).map { Int(Int32(bitPattern: uint32(.idOrder, at: 4 * $0))) }
  }

  /// The index in the id order of the first store whose id is `id`, or `nil`.
  private func idOrderIndex(ofFirst id: String) -> Int? {
    let wanted = Array(id.utf8)
    var low = 0
    var high = storeCount
    while low < high {
      let middle = (low + high) / 2
      let position = Int(Int32(bitPattern: uint32(.idOrder, at: 4 * middle)))
      guard position >= 0, position < storeCount, let found = try? idBytes(at: position) else { return nil }
      if found.lexicographicallyPrecedes(wanted) { low = middle + 1 } else { high = middle }
    }
    guard low < storeCount else { return nil }
    let position = Int(Int32(bitPattern: uint32(.idOrder, at: 4 * low)))
    return (try? idBytes(at: position)) == wanted ? low : nil
  }

  /// The positions of every store whose id is `id`, in input order: the ids are sorted by their
  /// bytes and then by position, so they follow the first one.
  func positions(ofID id: String) -> [Int] {
    guard var index = idOrderIndex(ofFirst: id) else { return [] }
    let wanted = Array(id.utf8)
    var positions: [Int] = []
    while index < storeCount {
      let position = Int(Int32(bitPattern: uint32(.idOrder, at: 4 * index)))
      guard position >= 0, position < storeCount, (try? idBytes(at: position)) == wanted else { break }
      positions.append(position)
      index += 1
    }
    return positions
  }

  /// The id of the store at `position`, decoding nothing else.
  func id(at position: Int) -> String? {
    guard var reader = try? recordReader(position) else { return nil }
    return try? SnapshotFormat.decodeID(&reader)
  }

  private func idBytes(at position: Int) throws(SnapshotDecodingError) -> [UInt8] {
    var reader = try recordReader(position)
    return Array(try SnapshotFormat.decodeID(&reader).utf8)
  }

  // MARK: - Hours

  /// Why the store at `position` has no schedule, or `nil` when it has one.
  func scheduleGap(at position: Int) -> String? {
    let state = Int(
      mapping.load(fromByteOffset: sections[.scheduleStates]!.lowerBound + position, as: UInt8.self))
    guard state > 0 else { return nil }
    return state - 1 < reasons.count ? reasons[state - 1] : "opening hours are not evaluated"
  }

  /// The schedule of the store at `position`, compiled on first use as the catalog compiled it
  /// when the snapshot was built (the same expression, zone, holiday calendar and location).
  func schedule(at position: Int) -> Schedule? {
    guard scheduleGap(at: position) == nil else { return nil }
    if let cached = cache.withLock({ $0.schedulesByPosition[position] }) { return cached }
    let schedule = compileSchedule(at: position)
    cache.withLock { $0.schedulesByPosition[position] = .some(schedule) }
    return schedule
  }

  private func compileSchedule(at position: Int) -> Schedule? {
    let store = store(at: position)
    guard let text = store.openingHours, let zoneName = store.timezone,
      let hours = try? OpeningHours(parsing: text), let zone = timeZone(named: zoneName)
    else { return nil }
    let usesHolidays = hours.usesPublicHolidays || hours.usesSchoolHolidays
    let calendar = usesHolidays ? holidayCalendar(for: store) : nil
    let key = ScheduleKey(text: text, hours: hours, zone: zoneName, calendar: calendar)
    if let key, let cached = cache.withLock({ $0.schedules[key] }) { return cached }
    let schedule = Schedule(
      hours, timeZone: zone, holidays: calendar, latitude: store.coordinate?.latitude,
      longitude: store.coordinate?.longitude)
    if let key { cache.withLock { $0.schedules[key] = .some(schedule) } }
    return schedule
  }

  func timeZone(named name: String) -> TimeZoneRules? {
    if let cached = cache.withLock({ $0.zones[name] }) { return cached }
    let rules = try? TimeZoneRules(identifier: name)
    cache.withLock { $0.zones[name] = .some(rules) }
    return rules
  }

  private func holidayCalendar(for store: Store) -> HolidayCalendar? {
    let registry = cache.withLock { cache in
      if cache.holidays == nil {
        cache.holidays =
          (try? HoursResources.holidayRegistry(countries: countries, extraFiles: holidayFiles))
          ?? HolidayRegistry()
      }
      return cache.holidays!
    }
    return HoursResources(holidays: registry).holidayCalendar(for: store)
  }

  // MARK: - Read on first use

  /// Whether a section read after opening still matches its checksum.
  private func isIntact(_ section: SnapshotFormat.Section) -> Bool {
    guard let range = sections[section], let expected = checksums[section] else { return false }
    return snapshotChecksum(UnsafeRawBufferPointer(start: mapping + range.lowerBound, count: range.count))
      == expected
  }

  /// The subtree summaries, read on the first query that can use them. Damaged summaries are
  /// not used: searches then test every candidate, which is slower and still exact.
  func searchMasks(for tree: KDTree) -> SearchMasks? {
    guard let masksInfo else { return nil }
    return cache.withLock { cache in
      if let loaded = cache.searchMasks { return loaded }
      guard isIntact(.maskPoints), isIntact(.maskNodes) else {
        cache.searchMasks = .some(nil)
        return nil
      }
      // Copied, not read in place: a mask is a 32-byte vector, and sections are only 8-aligned.
      let parts = SubtreeMaskParts(
        points: Self.array(mapping, sections[.maskPoints]!), nodes: Self.array(mapping, sections[.maskNodes]!)
      )
      let masks = (try? SubtreeMasks(for: tree, parts: parts)).map {
        SearchMasks(masks: $0, conditions: masksInfo.conditions, hoursWindow: masksInfo.hoursWindow)
      }
      cache.searchMasks = .some(masks)
      return masks
    }
  }

  /// The diagnostics, decoded on first use. Damaged ones are replaced by one error that says so
  /// and how to rebuild.
  var diagnostics: [Diagnostic] {
    if let cached = cache.withLock({ $0.diagnostics }) { return cached }
    var decoded: [Diagnostic] = []
    do throws(SnapshotDecodingError) {
      guard isIntact(.diagnostics) else { throw SnapshotDecodingError(reason: "checksum mismatch") }
      var reader = SnapshotReader(base: mapping, range: sections[.diagnostics]!)
      let count = try reader.readVarint()
      for _ in 0..<max(0, count) { decoded.append(try SnapshotFormat.decodeDiagnostic(&reader)) }
    } catch {
      let refusal = Self.refusal(
        path, source: source, "its diagnostics section is corrupted (\(error.reason))")
      decoded = [Diagnostic(Diagnostic.Code("snapshot-corrupted"), .error, at: nil, refusal.message)]
    }
    cache.withLock { $0.diagnostics = decoded }
    return decoded
  }

  // MARK: - Verification

  /// Checks every record against its checksum and decodes it, and the sections read on first use:
  /// what `stores snapshot verify` does beyond the checks of every open.
  func verifyAllRecords() throws(CatalogError) {
    for section in [SnapshotFormat.Section.records, .diagnostics, .maskPoints, .maskNodes]
    where sections[section] != nil && !isIntact(section) {
      throw Self.refusal(path, source: source, "its \(section.name) section is corrupted (checksum mismatch)")
    }
    for position in 0..<storeCount {
      do {
        var reader = try recordReader(position)
        _ = try SnapshotFormat.decodeStore(&reader)
      } catch {
        throw Self.refusal(path, source: source, "it is corrupted: \(error.reason)")
      }
    }
  }
}

/// A read-only file mapping, unmapped when the last user (the catalog, its tree) lets go.
final class MappedFile: @unchecked Sendable {
  let base: UnsafeRawPointer
  let size: Int

  init(base: UnsafeRawPointer, size: Int) {
    self.base = base
    self.size = size
  }

  deinit { munmap(UnsafeMutableRawPointer(mutating: base), size) }
}
