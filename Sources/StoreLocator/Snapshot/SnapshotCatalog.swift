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

  /// One checksum for the whole snapshot: its sections' checksums folded in section order (each
  /// section's checksum covers its bytes, and the record table covers every record's).
  var contentChecksum: UInt64 {
    var words = checksums.sorted { $0.key.rawValue < $1.key.rawValue }.map(\.value)
    return words.withUnsafeMutableBytes { snapshotChecksum(UnsafeRawBufferPointer($0)) }
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
        // Name the GeoJSON to rebuild from when the meta section says it.
        let hint = sourceHint(UnsafeRawBufferPointer(start: file.base, count: file.size))
        throw refusal(path, source: hint, "it is corrupted: \(error.reason)")
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
        let reserved = try table.read(UInt32.self)
        // Offsets and lengths are compared with the file size as UInt64 before they become Ints:
        // a forged 2^63 must be refused, not trap in the conversion.
        let offset = try table.read(UInt64.self)
        let length = try table.read(UInt64.self)
        let checksum = try table.read(UInt64.self)
        guard let section = SnapshotFormat.Section(rawValue: kind) else {
          throw SnapshotDecodingError(reason: "unknown section kind \(kind)")
        }
        guard reserved == 0, sections[section] == nil else {
          throw SnapshotDecodingError(reason: "the \(section.name) section is listed twice or oddly")
        }
        guard offset % 8 == 0, offset >= UInt64(tableEnd), offset <= UInt64(size),
          length <= UInt64(size) - offset
        else {
          throw SnapshotDecodingError(
            reason: "the \(section.name) section (offset \(offset), length \(length)) lies outside the "
              + "\(size)-byte file")
        }
        sections[section] = Int(offset)..<Int(offset + length)
        checksums[section] = checksum
      } catch let error as SnapshotDecodingError {
        throw refusal(path, source: hint, "its section table is corrupted (\(error.reason))")
      }
    }
    if let reason = uncoveredBytesProblem(buffer, tableEnd: tableEnd, sections: Array(sections.values)) {
      throw refusal(path, source: hint, reason)
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
      for _ in 0..<(try meta.readCount(atMost: SearchMasks.conditionCapacity, of: "indexed conditions")) {
        conditions.append(try SnapshotFormat.decodeCondition(&meta))
      }
      var counts: [Diagnostic.Severity: Int] = [:]
      for severity in Diagnostic.Severity.allCases {
        counts[severity] = try meta.readCount(atMost: Int(Int32.max), of: "\(severity) diagnostics")
      }
      var reasons: [String] = []
      for _ in 0..<(try meta.readCount(atMost: 255, of: "reasons for missing hours")) {
        reasons.append(try meta.readString())
      }
      var countries = Set<String>()
      for _ in 0..<(try meta.readCount(atMost: 1_000, of: "countries")) {
        countries.insert(try meta.readString())
      }
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
      // Every record of any size lies inside the records (a pass over 16 bytes a store), so a
      // record read later can fail its checksum but never point outside the file.
      let recordsLength = UInt64(sections[.records]!.count)
      var recordTable = SnapshotReader(base: base, range: sections[.recordTable]!)
      for position in 0..<storeCount {
        let offset = try recordTable.read(UInt64.self)
        let length = UInt64(try recordTable.read(UInt32.self))
        _ = try recordTable.read(UInt32.self)
        guard offset <= recordsLength, length <= recordsLength - offset else {
          throw refusal(
            path, source: sourcePath,
            "its record table is corrupted (record \(position) at offset \(offset), length \(length) "
              + "lies outside the \(recordsLength)-byte records section)")
        }
      }

      let storePositions: [Int32] = Self.array(base, sections[.storePositions]!)
      guard storePositions.allSatisfy({ $0 >= 0 && Int($0) < storeCount }) else {
        throw SnapshotDecodingError(reason: "a tree point refers to a store that is not there")
      }
      var boxesReader = SnapshotReader(base: base, range: sections[.treeBoxes]!)
      let storedDepth = try boxesReader.read(UInt64.self)
      // The tree checks the depth against its points; here only that it is an Int at all.
      guard storedDepth < 64 else {
        throw SnapshotDecodingError(reason: "the tree depth \(storedDepth) is out of range")
      }
      let depth = Int(storedDepth)
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

  /// What is wrong with the bytes no checksum covers, or `nil`: the reserved end of the header
  /// and the padding between sections must be zero, the sections must not overlap, and nothing
  /// may follow the last one. So every byte of a sound snapshot is either checked by a checksum
  /// or known to be zero.
  private static func uncoveredBytesProblem(
    _ buffer: UnsafeRawBufferPointer, tableEnd: Int, sections: [Range<Int>]
  ) -> String? {
    if buffer[32..<SnapshotFormat.headerSize].contains(where: { $0 != 0 }) {
      return "its header's reserved bytes are not zero"
    }
    var end = tableEnd
    // An empty section holds no byte, so it can neither overlap nor hide one (a catalog without
    // located stores writes empty tree sections at the offset where the next section starts).
    for section in sections.filter({ !$0.isEmpty }).sorted(by: { $0.lowerBound < $1.lowerBound }) {
      guard section.lowerBound >= end else { return "its sections overlap at byte \(section.lowerBound)" }
      guard section.lowerBound - end < 8, buffer[end..<section.lowerBound].allSatisfy({ $0 == 0 }) else {
        return "its padding at bytes \(end)..<\(section.lowerBound) is not zero"
      }
      end = section.upperBound
    }
    guard end == buffer.count else { return "it has \(buffer.count - end) bytes after its last section" }
    return nil
  }

  /// The source path in the meta section, when the section table and the meta section are intact
  /// (whatever the magic and version: a damaged file is named by what rebuilds it).
  static func sourceHint(_ buffer: UnsafeRawBufferPointer) -> String? {
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
    guard position >= 0, position < storeCount else {
      throw SnapshotDecodingError(reason: "store \(position) of \(storeCount) is not there")
    }
    let table = sections[.recordTable]!.lowerBound + position * SnapshotFormat.recordTableEntrySize
    let offset = UInt64(littleEndian: mapping.loadUnaligned(fromByteOffset: table, as: UInt64.self))
    let storedLength = UInt64(
      UInt32(littleEndian: mapping.loadUnaligned(fromByteOffset: table + 8, as: UInt32.self)))
    let checksum = UInt32(littleEndian: mapping.loadUnaligned(fromByteOffset: table + 12, as: UInt32.self))
    let records = sections[.records]!
    // Compared as UInt64 first: a forged offset of 2^63 or more must not reach Int(_:).
    guard offset <= UInt64(records.count), storedLength <= UInt64(records.count) - offset else {
      throw SnapshotDecodingError(
        reason: "record \(position) (offset \(offset), length \(storedLength)) lies outside the "
          + "\(records.count)-byte records section")
    }
    let length = Int(storedLength)
    let start = records.lowerBound + Int(offset)
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
      // Only a snapshot over the eager-check size whose record was forged together with its own
      // checksum gets here (`verify` finds it first). There is no honest store to return, and
      // queries cannot fail, so the process ends as any refused input does: a message with the
      // rebuild command on standard error and exit 65, never a trap. `stores-server` checks every
      // record beside serving (`verifySnapshotRecords()`); whichever finds the record first ends
      // the process the same way.
      let refusal = Self.refusal(path, source: source, "it is corrupted: \(error.reason)")
      let program = CommandLine.arguments.first?.split(separator: "/").last.map(String.init) ?? "stores"
      var line = "\(program): \(refusal.description)\n"
      line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
      exit(65)
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
    var decoded: [Diagnostic]
    do throws(SnapshotDecodingError) {
      decoded = try decodeDiagnostics()
    } catch {
      let refusal = Self.refusal(
        path, source: source, "its diagnostics section is corrupted (\(error.reason))")
      decoded = [Diagnostic(Diagnostic.Code("snapshot-corrupted"), .error, at: nil, refusal.message)]
    }
    cache.withLock { $0.diagnostics = decoded }
    return decoded
  }

  /// The diagnostics section, checked and decoded. Every count is bounded by the bytes left
  /// (a diagnostic takes at least one byte), so a forged count ends in an error, not a loop.
  private func decodeDiagnostics() throws(SnapshotDecodingError) -> [Diagnostic] {
    guard isIntact(.diagnostics) else { throw SnapshotDecodingError(reason: "checksum mismatch") }
    var reader = SnapshotReader(base: mapping, range: sections[.diagnostics]!)
    let count = try reader.readCount(atMost: reader.end - reader.offset, of: "diagnostics")
    var decoded: [Diagnostic] = []
    for _ in 0..<count { decoded.append(try SnapshotFormat.decodeDiagnostic(&reader)) }
    return decoded
  }

  // MARK: - Verification

  /// Everything `stores snapshot verify` checks beyond the checks of every open: the checksums of
  /// the sections read later (records, diagnostics, summaries), every record (its checksum, that it
  /// decodes), and every invariant the reader relies on without checking it on each use: the id
  /// order is sorted (binary search), the tree's points are the records' coordinates and its
  /// shape holds them (`KDTree.validateStructure()`), the summaries are the unions of their
  /// subtrees, and each store's hours state names a known reason.
  ///
  /// - Throws: `CatalogError` (`.badData`) naming the first problem, with the rebuild command.
  func verifyEverything(tree: KDTree, storePositions: [Int32]) throws(CatalogError) {
    func refuse(_ reason: String) -> CatalogError { Self.refusal(path, source: source, reason) }
    for section in [SnapshotFormat.Section.records, .diagnostics, .maskPoints, .maskNodes]
    where sections[section] != nil && !isIntact(section) {
      throw refuse("its \(section.name) section is corrupted (checksum mismatch)")
    }
    // Only what the checks below need is kept, not the stores (a million of them is a lot).
    var ids: [[UInt8]] = []
    var coordinates: [Coordinate?] = []
    ids.reserveCapacity(storeCount)
    coordinates.reserveCapacity(storeCount)
    for position in 0..<storeCount {
      do {
        var reader = try recordReader(position)
        let store = try SnapshotFormat.decodeStore(&reader)
        ids.append(Array(store.id.utf8))
        coordinates.append(store.coordinate)
      } catch {
        throw refuse("it is corrupted: \(error.reason)")
      }
    }
    // The id order: a permutation sorted by (id bytes, position), as `position(ofID:)` assumes.
    var previous: (id: [UInt8], position: Int)?
    for rank in 0..<storeCount {
      let position = Int(Int32(bitPattern: uint32(.idOrder, at: 4 * rank)))
      guard position >= 0, position < storeCount else {
        throw refuse("its id order refers to store \(position) of \(storeCount)")
      }
      let id = ids[position]
      if let previous,
        !(previous.id.lexicographicallyPrecedes(id) || (previous.id == id && previous.position < position))
      {
        throw refuse("its id order is not sorted at entry \(rank)")
      }
      previous = (id, position)
    }
    // The tree: its points are the coordinates of the stores it names, one point a located store.
    do throws(KDTreePartsError) { try tree.validateStructure() } catch {
      throw refuse("its tree is inconsistent: \(error.description)")
    }
    let located = coordinates.indices.filter { coordinates[$0] != nil }
    guard storePositions.map(Int.init) == located else {
      throw refuse("its store positions are not the \(located.count) stores that have a coordinate")
    }
    for (point, position) in located.enumerated() where coordinates[position] != tree.coordinates[point] {
      throw refuse("its tree point \(point) is not at the coordinate of store \(position)")
    }
    for position in 0..<storeCount {
      let state = Int(
        mapping.load(fromByteOffset: sections[.scheduleStates]!.lowerBound + position, as: UInt8.self))
      guard state <= reasons.count else {
        throw refuse("its hours state of store \(position) names no known reason")
      }
    }
    if masksInfo != nil {
      guard let masks = searchMasks(for: tree), masks.masks.isConsistent(with: tree) else {
        throw refuse("its subtree summaries are not the unions of their subtrees")
      }
    }
    do { _ = try decodeDiagnostics() } catch {
      throw refuse("its diagnostics section is corrupted (\(error.reason))")
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
