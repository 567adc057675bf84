#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Catalog {
  /// Loads a catalog from a GeoJSON file, or from standard input when `path` is `-`.
  ///
  /// Accepts a FeatureCollection, a single Feature, newline-delimited Features and RFC 8142 text
  /// sequences, whatever the file is called, and snapshots (`stores snapshot build`), which are
  /// mapped in without parsing (see `init(snapshotAt:options:)`). Bad records are skipped and reported in `diagnostics`;
  /// see docs/diagnostics.md.
  /// - Parameters:
  ///   - path: A file path, or `-` for standard input.
  ///   - options: `strict` turns any error diagnostic into a thrown `.strictFailure`.
  ///   - progress: Told how far reading and indexing a GeoJSON file have got (a snapshot opens
  ///     at once and tells nothing); for a caller that shows progress.
  /// - Returns: The catalog, with its diagnostics.
  /// - Throws: `CatalogError` with `.inputMissing` when the file cannot be opened or read, `.badData`
  ///   when it is empty or holds no readable GeoJSON, `.strictFailure` in strict mode.
  /// - Complexity: O(n) in the size of the file, plus O(m log m) to index m stores.
  public static func load(
    contentsOf path: String, options: LoadOptions = LoadOptions(), progress: WorkProgress? = nil
  ) throws(CatalogError) -> Catalog {
    if StoreTable.isSnapshot(at: path) { return try Catalog(snapshotAt: path, options: options) }
    var bytes = try FileBytes.read(path, maximumBytes: InputLimits.storeFileBytes, what: "store file")
    // The bytes are this function's alone: their pages are given back as they are read.
    return try Catalog(
      takingGeoJSON: &bytes, source: path, options: options, progress: progress, releasingReadBytes: true)
  }

  /// Builds a catalog from GeoJSON bytes already in memory.
  ///
  /// - Parameters:
  ///   - bytes: The GeoJSON text (UTF-8; a byte-order mark is skipped).
  ///   - source: The name used in messages: a file path, or `-` for standard input.
  ///   - options: `strict` turns any error diagnostic into a thrown `.strictFailure`.
  ///   - progress: Told how far reading and indexing have got; for a caller that shows progress.
  /// - Throws: `CatalogError` with `.badData` when the bytes are empty or hold no readable GeoJSON,
  ///   `.strictFailure` in strict mode when there are errors.
  /// - Complexity: O(n) in the number of bytes, plus O(m log m) to index m stores.
  public init(
    geoJSON bytes: [UInt8], source: String, options: LoadOptions = LoadOptions(),
    progress: WorkProgress? = nil
  ) throws(CatalogError) {
    var bytes = bytes
    try self.init(takingGeoJSON: &bytes, source: source, options: options, progress: progress)
  }

  /// `init(geoJSON:source:options:)` that lets go of `bytes` (left empty) as soon as they are
  /// read: the rows copy what they keep as the features are read, so the file is not in memory
  /// while the hours are compiled and the table is indexed and assembled.
  ///
  /// - Parameter releasingReadBytes: Give the pages of `bytes` back window by window as they are
  ///   read (`GeoJSONReader.read`); only for bytes whose storage no other array shares.
  init(
    takingGeoJSON bytes: inout [UInt8], source: String, options: LoadOptions, progress: WorkProgress? = nil,
    releasingReadBytes: Bool = false
  ) throws(CatalogError) {
    let version = Catalog.version(of: bytes)
    // Taken out of the result at once: a result kept aside would share the columns, and the first
    // row settled would copy them all.
    func read(_ buffer: UnsafeBufferPointer<UInt8>) -> Result<GeoJSONReader.Output, CatalogError> {
      GeoJSONReader.read(buffer, source: source, progress: progress, releasingReadBytes: releasingReadBytes)
    }
    // Mutable access when pages are given back, so that they are this array's own (shared
    // storage would be copied first); read-only otherwise, so that shared storage is not copied.
    var output =
      try releasingReadBytes
      ? bytes.withUnsafeMutableBufferPointer { read(UnsafeBufferPointer($0)) }.get()
      : bytes.withUnsafeBufferPointer { read($0) }.get()
    bytes = []
    if options.strict {
      let errors = output.diagnostics.filter { $0.severity == .error }
      if let first = errors.first {
        throw CatalogError(
          .strictFailure, source: source,
          "\(errors.count) error\(errors.count == 1 ? "" : "s") in strict mode; the first: \(first)",
          diagnostics: GeneratedIDNotes.expanded(output.diagnostics))
      }
    }
    let hours =
      options.evaluatesHours
      ? try HoursResources.bundled(for: output.assembly.hoursInputs, extraHolidayFiles: options.holidayFiles)
      : nil
    do {
      try self.init(
        assembling: &output.assembly, diagnostics: output.diagnostics, source: source, hours: hours,
        progress: progress)
    } catch {
      throw CatalogError(.badData, source: source, error.reason)
    }
    dataVersion = version
  }
}

extension Catalog {
  /// Opens a snapshot written by `writeSnapshot(to:)`: maps the file, verifies its format version,
  /// size and checksums, and copies out the index; records, schedules and diagnostics are read
  /// from the mapping when asked for.
  ///
  /// Holidays come from the bundled data (and `options.holidayFiles`) at the time of use, so the
  /// snapshot follows updates of Data/holidays. `options.strict` fails when the snapshot's data had
  /// errors; `options.evaluatesHours` is the snapshot's own choice, made when it was built.
  ///
  /// Records are checked whole on open when they take at most 64 MB; in a larger snapshot each
  /// record's checksum is checked when it is read, and a record forged together with its checksum
  /// so that it does not decode ends the process (exit 65, with the rebuild command on standard
  /// error), since queries cannot fail. A long-running reader of snapshots it does not trust (a
  /// service) calls `verifySnapshotRecords()` once after opening, which finds every such record.
  /// - Throws: `CatalogError`: `.inputMissing` when the file cannot be read, `.badData` when it
  ///   is truncated, corrupted or of another format version (the message says how to rebuild it),
  ///   `.strictFailure` in strict mode when the data had errors.
  /// - Complexity: O(n) copies of the index (about 90 bytes a store); no parsing.
  public init(snapshotAt path: String, options: LoadOptions = LoadOptions()) throws(CatalogError) {
    let opened = try StoreTable.map(path, options: options)
    self.init(table: opened.table, tree: opened.tree, storePositions: opened.storePositions)
    if options.strict, let errors = opened.table.diagnosticCounts[.error], errors > 0 {
      let first = diagnostics.first { $0.severity == .error }
      throw CatalogError(
        .strictFailure, source: path,
        "\(errors) error\(errors == 1 ? "" : "s") in strict mode; the first: \(first.map { "\($0)" } ?? "?")",
        diagnostics: diagnostics)
    }
  }

  /// Checks every row of a snapshot catalog against its checksum and every invariant the readers
  /// rely on (opening checks the index and, for large snapshots, leaves rows to be checked as they
  /// are read). Does nothing for a catalog built from GeoJSON.
  ///
  /// - Throws: `CatalogError` (`.badData`) naming the first bad record and how to rebuild.
  public func verifySnapshotRecords() throws(CatalogError) {
    if table.path != nil { try table.verifyEverything(tree: tree, storePositions: storePositions) }
  }

  /// True when this catalog was read from a snapshot.
  public var isSnapshot: Bool {
    table.path != nil
  }
}

/// Reads whole files with POSIX calls.
enum FileBytes {
  /// The bytes of the file at `path`, or of standard input for `-`.
  ///
  /// - Parameters:
  ///   - maximumBytes: The most the input may hold; larger input is refused while reading (a
  ///     device such as /dev/zero or an endless pipe never fills memory).
  ///   - what: What the input is, for the error: "store file", "order".
  /// - Throws: `.inputMissing` when it cannot be opened or read; `.badData` when it is too large.
  static func read(_ path: String, maximumBytes: Int, what: String) throws(CatalogError) -> [UInt8] {
    if path == "-" {
      return try read(descriptor: STDIN_FILENO, source: path, maximumBytes: maximumBytes, what: what)
    }
    let descriptor = try openForReading(path)
    defer { close(descriptor) }
    return try read(descriptor: descriptor, source: path, maximumBytes: maximumBytes, what: what)
  }

  /// A descriptor of the file at `path`, or the error every loader reports for it.
  static func openForReading(_ path: String) throws(CatalogError) -> Int32 {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      let reason = code == ENOENT ? "no such file" : "cannot open: \(String(cString: strerror(code)))"
      throw CatalogError(.inputMissing, source: path, reason)
    }
    return descriptor
  }

  /// Refuses a device other than a terminal (/dev/zero, /dev/urandom): it never ends and never
  /// holds a file. A terminal does (standard input typed or pasted); pipes and sockets are read up
  /// to their limit.
  static func refuseDevice(_ descriptor: Int32, source: String, what: String) throws(CatalogError) {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return }
    let kind = status.st_mode & S_IFMT
    if kind == S_IFCHR || kind == S_IFBLK, isatty(descriptor) == 0 {
      throw CatalogError(.badData, source: source, "a device, not a file: no \(what) to read")
    }
  }

  /// Everything left to read from `descriptor` (a file, a pipe or a terminal), until end of file,
  /// refusing more than `maximumBytes`.
  static func read(descriptor: Int32, source: String, maximumBytes: Int, what: String) throws(CatalogError)
    -> [UInt8]
  {
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw CatalogError(
        .inputMissing, source: source, "cannot read: \(String(cString: strerror(errno)))")
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      throw CatalogError(.inputMissing, source: source, "a directory, not a file: no \(what) to read")
    }
    let isRegular = (status.st_mode & S_IFMT) == S_IFREG
    try refuseDevice(descriptor, source: source, what: what)
    func tooLarge() -> CatalogError {
      CatalogError(
        .badData, source: source,
        "larger than \(InputLimits.describe(bytes: maximumBytes)), the limit for \(what)s (docs/limits.md)")
    }
    if isRegular, status.st_size > maximumBytes { throw tooLarge() }
    // A regular file is read into one buffer of its size (plus one byte to see the end); anything
    // else in growing chunks, never past the limit (plus one byte to tell "at" from "over").
    var capacity = isRegular ? max(Int(status.st_size) + 1, 4096) : min(1 << 16, maximumBytes + 1)
    var bytes: [UInt8] = []
    if isRegular, let parted = readInParts(descriptor, count: Int(status.st_size)) {
      // Then on from its end as any file is: what it grew by, and the end seen.
      bytes = parted
      capacity = 4096
    }
    var failure: Int32 = 0
    while true {
      var reachedEnd = false
      let before = bytes.count
      let next = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
        var filled = 0
        while filled < buffer.count {
          let got = systemRead(descriptor, buffer.baseAddress! + filled, buffer.count - filled)
          if got > 0 {
            filled += got
          } else if got == 0 {
            reachedEnd = true
            break
          } else if errno == EINTR {
            continue
          } else {
            failure = errno
            break
          }
        }
        initialized = filled
      }
      if failure != 0 {
        throw CatalogError(
          .inputMissing, source: source, "cannot read: \(String(cString: strerror(failure)))")
      }
      if before == 0 {
        bytes = next
      } else {
        bytes.append(contentsOf: next)
      }
      if bytes.count > maximumBytes { throw tooLarge() }
      if reachedEnd { return bytes }
      capacity = min(max(capacity, bytes.count), maximumBytes + 1 - bytes.count)
    }
  }
}

extension FileBytes {
  /// The files read in parts: from 32 MB, where a part a processor saves time.
  static let partedReadBytes = 32 << 20

  /// The next `count` bytes of the regular file at `descriptor`, read in parts at once on the
  /// processors (copying a 450 MB file out of the page cache took 0.4 s of one core, 0.2 s of
  /// two), its offset moved past them; `nil`, the offset unchanged, when the file is small, its
  /// offset cannot be told, or a part cannot be read whole (a file cut meanwhile), so that the
  /// caller reads it one part after another as any input.
  static func readInParts(_ descriptor: Int32, count: Int) -> [UInt8]? {
    let parts = min(ActiveProcessors.count, count / (partedReadBytes / 2))
    let start = lseek(descriptor, 0, SEEK_CUR)
    guard count >= partedReadBytes, parts > 1, start >= 0 else { return nil }
    var isWhole = true
    let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
      let shared = SharedSlots(slots: buffer)
      let wholeParts = SharedSlots(slots: UnsafeMutableBufferPointer<UInt8>.allocate(capacity: parts))
      defer { wholeParts.slots.deallocate() }
      ActiveProcessors.run(parts: parts) { part in
        let range = ActiveProcessors.range(part, of: parts, in: count)
        var at = range.lowerBound
        let end = range.upperBound
        while at < end {
          let got = pread(descriptor, shared.slots.baseAddress! + at, end - at, off_t(start) + off_t(at))
          if got > 0 {
            at += got
          } else if got < 0, errno == EINTR {
            continue
          } else {
            break
          }
        }
        wholeParts.slots[part] = at == end ? 1 : 0
      }
      isWhole = !wholeParts.slots.contains(0)
      initialized = isWhole ? count : 0
    }
    guard isWhole, lseek(descriptor, start + off_t(count), SEEK_SET) >= 0 else { return nil }
    return bytes
  }
}

@inline(__always)
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
