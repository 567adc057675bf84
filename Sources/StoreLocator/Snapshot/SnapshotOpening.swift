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

/// Opening a snapshot: the checks every open makes before a `StoreTable` reads the bytes, for a
/// file mapped from disk and for the image the loader builds in memory alike.
extension StoreTable {
  /// Everything `Catalog` takes from an opened table.
  struct Opened {
    var table: StoreTable
    var tree: KDTree
    var storePositions: StorePositions
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
  /// - Parameter verifiedOnOpen: Up to how many bytes of store columns are verified whole on
  ///   open (`SnapshotFormat.verifiedOnOpen`; tests lower it to read rows checked one at a time).
  static func map(
    _ path: String, options: LoadOptions, verifiedOnOpen: Int = SnapshotFormat.verifiedOnOpen
  ) throws(CatalogError) -> Opened {
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
    let file = TableMemory(mapped: UnsafeRawPointer(mapped), size: size)
    do {
      return try checked(path, file: file, options: options, trusted: false, verifiedOnOpen: verifiedOnOpen)
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

  /// Opens the table image the loader just built in memory, through the same checks as a file
  /// (except the checksums of its big columns, computed a moment ago from the same bytes).
  static func opening(image: TableMemory, options: LoadOptions) -> Opened {
    do {
      return try checked(nil, file: image, options: options, trusted: true, verifiedOnOpen: 0)
    } catch {
      // The image was written by `SnapshotImage` a moment ago: failing its own checks is a bug.
      preconditionFailure("the store table built in memory does not open: \(error)")
    }
  }

  /// The checks and copies of `map(_:options:)` and `open(image:options:)`; throws `CatalogError`
  /// or `SnapshotDecodingError`. `path` is `nil` for an image built in memory (`trusted`).
  private static func checked(
    _ path: String?, file: TableMemory, options: LoadOptions, trusted: Bool, verifiedOnOpen: Int
  ) throws -> Opened {
    let path = path ?? "-"
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
      // The meta section opens with the source path in every version so far: name it if it reads.
      throw refusal(
        path, source: sourceHint(buffer),
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
        guard offset >= UInt64(tableEnd), offset <= UInt64(size), length <= UInt64(size) - offset else {
          throw SnapshotDecodingError(
            reason: "the \(section.name) section (offset \(offset), length \(length)) lies outside the "
              + "\(size)-byte file")
        }
        // The masks are read in place as 32-byte vectors: a writer that did not align them wrote
        // another format, whatever its version says.
        guard offset % UInt64(section.alignment) == 0 else {
          throw SnapshotDecodingError(
            reason: "the \(section.name) section starts at byte \(offset), not on a "
              + "\(section.alignment)-byte boundary")
        }
        sections[section] = Int(offset)..<Int(offset + length)
        checksums[section] = checksum
      } catch let error as SnapshotDecodingError {
        throw refusal(path, source: hint, "its section table is corrupted (\(error.reason))")
      }
    }
    if let reason = uncoveredBytesProblem(
      buffer, tableEnd: tableEnd, sections: sections.map { ($0.key, $0.value) })
    {
      throw refusal(path, source: hint, reason)
    }
    let summaries: Set<SnapshotFormat.Section> = [.maskPoints, .maskNodes, .maskDigests]
    for section in SnapshotFormat.Section.allCases where !summaries.contains(section) {
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
      // The big columns are verified whole when they are small enough to do it on every open;
      // a larger table checks each row against its digest as it reads it.
      let big = StoreTable.rowColumns
      let checksRows = !trusted && big.reduce(0, { $0 + sections[$1]!.count }) > verifiedOnOpen
      // Every section checked whole on this open, checksummed at once on every processor; a
      // damaged one is reported where the checks below come to it, as when they were one by one.
      let index: [SnapshotFormat.Section] = [
        .coordinates, .storePositions, .treeXs, .treeYs, .treeZs, .treeIDs, .idOrder, .rowChecksums,
        .treeBoxes,
      ]
      let small: [SnapshotFormat.Section] = [.keys, .scheduleGroups, .shapes, .shapeKeys, .places]
      let intact = intactSections(
        index + small + (trusted || checksRows ? [] : big), sections, checksums, buffer)
      func verified(_ section: SnapshotFormat.Section) throws(CatalogError) {
        guard intact.contains(section) else {
          throw refusal(
            path, source: sourcePath, "its \(section.name) section is corrupted (checksum mismatch)")
        }
      }
      func check(_ section: SnapshotFormat.Section, elements: Int, of size: Int) throws(CatalogError) {
        try verified(section)
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
      try check(.idOrder, elements: storeCount, of: 4)
      try check(.rowChecksums, elements: storeCount, of: 4)
      try verified(.treeBoxes)
      try verified(.keys)
      try verified(.scheduleGroups)
      try verified(.shapes)
      try verified(.shapeKeys)
      try verified(.places)
      func whole(_ section: SnapshotFormat.Section, of size: Int) throws(CatalogError) {
        guard sections[section]!.count % size == 0 else {
          throw refusal(path, source: sourcePath, "its \(section.name) section has the wrong size")
        }
      }
      guard sections[.rows]!.count == storeCount * StoreTableLayout.rowSize else {
        throw refusal(path, source: sourcePath, "its rows section has the wrong size")
      }
      try whole(.members, of: StoreTableLayout.memberSize)
      try whole(.keys, of: StoreTableLayout.keySize)
      try whole(.shapes, of: StoreTableLayout.shapeSize)
      try whole(.shapeKeys, of: 4)
      try whole(.places, of: StoreTableLayout.placeSize)
      try whole(.guesses, of: StoreTableLayout.guessSize)
      try whole(.scheduleGroups, of: 4)
      if !trusted, !checksRows {
        for section in big { try verified(section) }
      }

      let storePositions = StorePositions(Self.buffer(base, sections[.storePositions]!))
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
        // Sizes now; the node masks' and digests' checksums when a query first needs them, and
        // each leaf's point masks against its digest when a search first reads them.
        let nodeCount = layout.boxes.count / 6
        guard sections[.maskPoints]?.count == indexedCount * 32,
          sections[.maskNodes]?.count == nodeCount * 32,
          sections[.maskDigests]?.count == (nodeCount + 1) / 2 * 8
        else { throw SnapshotDecodingError(reason: "the subtree summaries do not fit the tree") }
      }
      let table = StoreTable(
        path: trusted ? nil : path, source: sourcePath, storeCount: storeCount, diagnosticCounts: counts,
        memory: file, sections: sections, checksums: checksums,
        masksInfo: hasMasks ? (conditions, window) : nil, reasons: reasons,
        holidayFiles: options.holidayFiles, countries: countries, checksRows: checksRows)
      // A table verified whole is also checked whole for references out of range, so no answer
      // ever meets one; a larger one bounds-checks each reference as it reads it.
      if !trusted, !checksRows, let problem = table.structuralProblem(checkingDigests: false) {
        throw refusal(path, source: sourcePath, problem)
      }
      if !trusted, !options.holidayFiles.isEmpty {
        // Extra holiday files are the user's: report their errors now, not at the first PH.
        let registry = try HoursResources.holidayRegistry(
          countries: countries, extraFiles: options.holidayFiles)
        table.setHolidays(registry)
      }
      return Opened(table: table, tree: tree, storePositions: storePositions)
    }
  }

  /// What is wrong with the bytes no checksum covers, or `nil`: the reserved end of the header
  /// and the padding between sections must be zero (and shorter than the section's alignment),
  /// the sections must not overlap, and nothing may follow the last one. So every byte of a sound
  /// snapshot is either checked by a checksum or known to be zero.
  private static func uncoveredBytesProblem(
    _ buffer: UnsafeRawBufferPointer, tableEnd: Int, sections: [(SnapshotFormat.Section, Range<Int>)]
  ) -> String? {
    if buffer[32..<SnapshotFormat.headerSize].contains(where: { $0 != 0 }) {
      return "its header's reserved bytes are not zero"
    }
    var end = tableEnd
    // An empty section holds no byte, so it can neither overlap nor hide one (a catalog without
    // located stores writes empty tree sections at the offset where the next section starts).
    let ordered = sections.filter { !$0.1.isEmpty }.sorted { $0.1.lowerBound < $1.1.lowerBound }
    for (kind, section) in ordered {
      guard section.lowerBound >= end else { return "its sections overlap at byte \(section.lowerBound)" }
      guard section.lowerBound - end < kind.alignment,
        buffer[end..<section.lowerBound].allSatisfy({ $0 == 0 })
      else {
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

  /// The big columns a row's digest covers beside the small ones checked on every open: checked
  /// whole on open when they are small enough, else each row as it is read.
  static let rowColumns: [SnapshotFormat.Section] = [.rows, .members, .texts, .guesses]

  /// Whether every row can be read without checking each alone: the table checks no row as it
  /// reads it, or was verified whole, or `rowColumns` match their checksums (computed on every
  /// processor at each call). A reader of every row (`Catalog.summary`) asks first: 300 MB
  /// checksummed whole on a million stores cost a fifth of what a digest a row did in
  /// `stores info`. Damaged, the rows are checked one by one, so the first damaged one is named.
  func rowColumnsAreIntact() -> Bool {
    guard checksRows, !verifiedWhole.load(ordering: .relaxed) else { return true }
    let buffer = UnsafeRawBufferPointer(start: memory.base, count: memory.size)
    return Self.intactSections(Self.rowColumns, sections, checksums, buffer).count == Self.rowColumns.count
  }

  /// Which of `wanted` match their checksums (sections all found in the table before), computed
  /// on every processor, largest sections first, each on the thread with the fewest bytes so
  /// far: the 56 MB checked on every open of a 1M-store snapshot were a sixth of a process that
  /// answers one query (Benchmarks/README.md, "A snapshot opened on both cores").
  static func intactSections(
    _ wanted: [SnapshotFormat.Section], _ sections: [SnapshotFormat.Section: Range<Int>],
    _ checksums: [SnapshotFormat.Section: UInt64], _ buffer: UnsafeRawBufferPointer
  ) -> Set<SnapshotFormat.Section> {
    let shares = ActiveProcessors.shares(ofSizes: wanted.map { sections[$0]!.count })
    let file = MappedBytes(bytes: buffer)
    let intact = Mutex(Set<SnapshotFormat.Section>())
    ActiveProcessors.run(parts: shares.count) { part in
      let found = shares[part].map { wanted[$0] }.filter { section in
        snapshotChecksum(UnsafeRawBufferPointer(rebasing: file.bytes[sections[section]!]))
          == checksums[section]
      }
      intact.withLock { $0.formUnion(found) }
    }
    return intact.withLock { $0 }
  }

  /// A snapshot's bytes, read by several threads at once and written by none.
  private struct MappedBytes: @unchecked Sendable {
    let bytes: UnsafeRawBufferPointer
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
    CatalogError(
      .badData, source: path,
      "not a usable snapshot: \(reason); \(SnapshotFiles.rebuildAdvice(path: path, source: source))")
  }

  /// A section read in place as `T`s (sections start on 8-byte boundaries of a page-aligned map,
  /// the masks on 32-byte ones).
  private static func buffer<T>(_ base: UnsafeRawPointer, _ range: Range<Int>) -> UnsafeBufferPointer<T> {
    UnsafeBufferPointer(
      start: (base + range.lowerBound).assumingMemoryBound(to: T.self),
      count: range.count / MemoryLayout<T>.stride)
  }

}
