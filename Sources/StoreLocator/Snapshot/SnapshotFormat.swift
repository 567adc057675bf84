import GeoIndex
import OpeningHours

/// The layout of a snapshot file: a catalog's store table (`StoreTableLayout`), k-d tree, subtree
/// summaries and diagnostics, which a later run maps in and reads in place, without parsing GeoJSON.
/// The loader builds the same image in memory, so a loaded and a mapped catalog are one thing.
///
/// All numbers are little-endian. The file is a 64-byte header, a section table, then the
/// sections, each starting on an 8-byte boundary (32 for the point and node masks,
/// `Section.alignment`) so arrays can be read in place:
///
/// | bytes | header field |
/// |---|---|
/// | 0..<8 | magic `STORESNP` |
/// | 8..<12 | format version (`SnapshotFormat.version`) |
/// | 12..<16 | number of sections |
/// | 16..<24 | size of the whole file, to detect truncation |
/// | 24..<32 | checksum of the header (this field zeroed) and the section table |
/// | 32..<64 | reserved, zero |
///
/// A section-table entry is 32 bytes: kind (UInt32), reserved (UInt32), offset, length and
/// checksum (UInt64 each). Every section's checksum is verified on open except those of the big
/// store columns of a large table, whose rows are checked one at a time as they are read (each has
/// its own digest), so opening a snapshot of a million stores stays fast; `stores snapshot verify`
/// checks them all.
enum SnapshotFormat {
  static let magic: [UInt8] = Array("STORESNP".utf8)
  /// Bump when the layout or the meaning of any section changes: older files are refused with a
  /// message saying how to rebuild them.
  static let version: UInt32 = 7
  static let headerSize = 64
  static let sectionEntrySize = 32
  /// Store columns (rows, members, texts, guesses) up to this size together are verified whole on
  /// open; a larger table checks each row against its digest when it reads it.
  static let verifiedOnOpen = 64 << 20

  enum Section: UInt32, CaseIterable {
    case meta = 1
    case coordinates
    case storePositions
    case treeXs
    case treeYs
    case treeZs
    case treeIDs
    case treeBoxes
    case maskPoints
    case maskNodes
    /// Store positions sorted by the UTF-8 bytes of their ids, then by position.
    case idOrder
    case diagnostics
    /// The store table (`StoreTableLayout`): a fixed-size row a store.
    case rows
    /// Per store, the `RowDigest` of its row and everything the row refers to (UInt32).
    case rowChecksums
    /// Every store's property values: their JSON texts, in the order of the store's shape.
    case members
    /// The distinct property keys.
    case keys
    /// The text arena: every distinct text once.
    case texts
    /// The inferred time zones.
    case guesses
    /// Per schedule group, the first store of the group (UInt32).
    case scheduleGroups
    /// The distinct key sequences of the stores' properties (`StoreTableLayout.shapeSize`).
    case shapes
    /// The key numbers of every shape, one after the other (UInt32).
    case shapeKeys
    /// The places zones were inferred from (`StoreTableLayout.placeSize`).
    case places
    /// Per tree leaf, the digest of its point masks (`SubtreeMasks.leafDigests`, UInt64): the
    /// point masks are read in place, each leaf checked when a search first reads it.
    case maskDigests

    var name: String {
      switch self {
      case .meta: "meta"
      case .coordinates: "coordinates"
      case .storePositions: "store positions"
      case .treeXs, .treeYs, .treeZs: "tree points"
      case .treeIDs: "tree ids"
      case .treeBoxes: "tree boxes"
      case .maskPoints, .maskNodes, .maskDigests: "subtree summaries"
      case .idOrder: "id order"
      case .diagnostics: "diagnostics"
      case .rows: "rows"
      case .rowChecksums: "row checksums"
      case .members: "properties"
      case .keys: "keys"
      case .texts: "texts"
      case .guesses: "time-zone guesses"
      case .scheduleGroups: "schedule groups"
      case .shapes: "shapes"
      case .shapeKeys: "shape keys"
      case .places: "time-zone places"
      }
    }

    /// The boundary the section starts on: 32 bytes for the point and node masks, read in place
    /// as 32-byte vectors (so none straddles a cache line), 8 for every other section.
    var alignment: Int {
      switch self {
      case .maskPoints, .maskNodes: 32
      default: 8
      }
    }
  }

  // MARK: - Diagnostics

  /// The diagnostics section: a count of entries, then each entry, a kind byte first: 0 a
  /// diagnostic in full (`encode(_:to:)`), 1 a run of the notes of what locations decided (the
  /// first store's position and the number of stores, varints) made again from the rows when
  /// read (`InferredZoneNotes`): for that store and each next store with a guess, its
  /// `timezone-inferred` note if its zone was inferred, then its `holidays-inferred` note if its
  /// holidays were; 2 a run of `generated-id` notes (the first store's position and the number
  /// of stores, varints), one for that store and each store after it, all with generated ids,
  /// made again from their rows (`GeneratedIDNotes`; format 7); 3 a diagnostic in full but for
  /// its message, which is that of an earlier entry 0 (its number among the entries 0, a varint,
  /// after the store id; format 7): a chain whose hours are all written alike has a million notes
  /// with a handful of messages. Runs of a kind go forward: each starts after the last store of
  /// the one before.
  ///
  /// A store's notes go into a run only when the notes made from its row are the same values,
  /// all of them, next to each other, so reading gives back exactly the list written. The
  /// loader writes none of these notes, only their stand-ins (`InferredZoneNotes.placeholder`,
  /// `GeneratedIDNotes.placeholder`): one a note, in row order, always taken into a run.
  /// - Precondition: Stand-ins match the rows with guesses, and the rows with generated ids, in
  ///   order (the loader's own list).
  /// - Parameters:
  ///   - rows: The whole rows column; `guesses` and `places` those columns, `texts` the arena.
  static func diagnosticsSection(
    _ diagnostics: [Diagnostic], rows: UnsafeRawBufferPointer, guesses: UnsafeRawBufferPointer,
    places: UnsafeRawBufferPointer, texts: UnsafeRawBufferPointer
  ) -> [UInt8] {
    let rowCount = rows.count / StoreTableLayout.rowSize
    func row(_ position: Int) -> UnsafeRawBufferPointer {
      let start = position * StoreTableLayout.rowSize
      return UnsafeRawBufferPointer(rebasing: rows[start..<start + StoreTableLayout.rowSize])
    }
    func nextGuess(from position: Int) -> Int? {
      var position = position
      while position < rowCount, !InferredZoneNotes.hasGuess(row: row(position)) { position += 1 }
      return position < rowCount ? position : nil
    }
    var body = SnapshotWriter()
    var entries = 0
    // Rows before `cursor` are taken by runs of location notes, before `generatedCursor` by runs
    // of generated-id notes; the open run, if any, and its kind.
    var cursor = 0
    var generatedCursor = 0
    var run: (kind: UInt8, first: Int, count: Int)?
    // The number, among the entries 0, of the first with each message, by its bytes: two
    // messages that differ only in Unicode normalization are two messages.
    var messageNumbers: [ExactText: Int] = [:]
    var fullEntries = 0
    func closeRun() {
      guard let open = run else { return }
      body.append(open.kind)
      body.appendVarint(open.first)
      body.appendVarint(open.count)
      entries += 1
      run = nil
    }
    func extendRun(kind: UInt8, at position: Int) {
      if let open = run, open.kind == kind, open.first + open.count == position || kind == 1 {
        run!.count += 1
        return
      }
      closeRun()
      run = (kind, position, 1)
    }
    // The row of the stand-in or note of the feature `featureIndex`: the next with a generated id.
    func generatedRow(of featureIndex: Int) -> Int? {
      var position = generatedCursor
      while position < rowCount {
        let candidate = row(position)
        let index = InferredZoneNotes.position(row: candidate).featureIndex
        if index > featureIndex { return nil }
        if index == featureIndex { return GeneratedIDNotes.isGenerated(row: candidate) ? position : nil }
        position += 1
      }
      return nil
    }
    var index = 0
    while index < diagnostics.count {
      let diagnostic = diagnostics[index]
      if diagnostic.code == GeneratedIDNotes.code, let featureIndex = diagnostic.position?.featureIndex,
        let position = generatedRow(of: featureIndex),
        GeneratedIDNotes.isPlaceholder(diagnostic)
          || GeneratedIDNotes.note(row: row(position), texts: texts) == diagnostic
      {
        extendRun(kind: 2, at: position)
        generatedCursor = position + 1
        index += 1
        continue
      }
      // A generated-id stand-in that matches no row (only a caller of
      // `Catalog(stores:diagnostics:)` can make one) goes on, and is kept in full below.
      if InferredZoneNotes.isPlaceholder(diagnostic) {
        // The loader's stand-ins come in row order, one a note: the next row with a guess is theirs.
        guard let position = nextGuess(from: cursor),
          case let count = InferredZoneNotes.noteCount(row: row(position)),
          index + count <= diagnostics.count,
          diagnostics[index..<index + count].allSatisfy({
            InferredZoneNotes.isPlaceholder($0)
              && $0.position == InferredZoneNotes.position(row: row(position))
          })
        else {
          preconditionFailure("a time-zone note's stand-in does not match the next row with a guess")
        }
        extendRun(kind: 1, at: position)
        cursor = position + 1
        index += count
        continue
      }
      if InferredZoneNotes.isInferredNote(diagnostic.code), let position = nextGuess(from: cursor),
        let notes = InferredZoneNotes.notes(
          row: row(position), guesses: guesses, places: places, texts: texts),
        diagnostics[index...].starts(with: notes)
      {
        extendRun(kind: 1, at: position)
        cursor = position + 1
        index += notes.count
        continue
      }
      closeRun()
      if let number = messageNumbers[ExactText(diagnostic.message)] {
        body.append(UInt8(3))
        encode(diagnostic, to: &body, withMessage: false)
        body.appendVarint(number)
      } else {
        body.append(UInt8(0))
        encode(diagnostic, to: &body)
        messageNumbers[ExactText(diagnostic.message)] = fullEntries
        fullEntries += 1
      }
      entries += 1
      index += 1
    }
    closeRun()
    var w = SnapshotWriter()
    w.appendVarint(entries)
    w.append(contentsOf: body.bytes)
    return w.bytes
  }

  /// Reads a diagnostics section (`diagnosticsSection`). Every count is bounded by the bytes left
  /// or the stores left, so a forged count ends in an error, not a loop.
  /// - Parameters:
  ///   - storeCount: The number of rows.
  ///   - hasGuess: Whether the row at a position has a guess.
  ///   - note: The notes made from the row at a position (`InferredZoneNotes.notes`); `nil` to
  ///     leave those notes out (their runs are still read and checked).
  ///   - generatedIDNote: The `generated-id` note made from the row at a position
  ///     (`GeneratedIDNotes.note`); it throws when the row's id is not generated.
  static func decodeDiagnostics(
    _ reader: inout SnapshotReader, storeCount: Int, hasGuess: (Int) -> Bool,
    note: ((Int) throws(SnapshotDecodingError) -> [Diagnostic])?,
    generatedIDNote: (Int) throws(SnapshotDecodingError) -> Diagnostic
  ) throws(SnapshotDecodingError) -> [Diagnostic] {
    let count = try reader.readCount(atMost: reader.end - reader.offset, of: "diagnostics")
    var decoded: [Diagnostic] = []
    var cursor = 0
    var generatedCursor = 0
    // The messages of the entries 0, in order: entries 3 share them (one string, not a copy each).
    var messages: [String] = []
    for _ in 0..<count {
      switch try reader.read(UInt8.self) {
      case 0:
        let diagnostic = try decodeDiagnostic(&reader)
        messages.append(diagnostic.message)
        decoded.append(diagnostic)
      case 3:
        let diagnostic = try decodeDiagnostic(&reader, withMessage: false)
        let number = try reader.readVarint()
        guard number < messages.count else {
          throw SnapshotDecodingError(reason: "a diagnostic refers to message \(number) of \(messages.count)")
        }
        decoded.append(
          Diagnostic(
            diagnostic.code, diagnostic.severity, at: diagnostic.position, storeID: diagnostic.storeID,
            messages[number]))
      case 2:
        let first = try reader.readVarint()
        guard first >= generatedCursor, first < storeCount else {
          throw SnapshotDecodingError(reason: "a run of generated-id notes starts at store \(first)")
        }
        let notes = try reader.readCount(atMost: storeCount - first, of: "generated-id notes")
        for position in first..<first + notes { decoded.append(try generatedIDNote(position)) }
        generatedCursor = first + notes
      case 1:
        let first = try reader.readVarint()
        guard first >= cursor, first < storeCount, hasGuess(first) else {
          throw SnapshotDecodingError(reason: "a run of time-zone notes starts at store \(first)")
        }
        let notes = try reader.readCount(atMost: storeCount - first, of: "time-zone notes")
        var position = first
        for _ in 0..<notes {
          while position < storeCount, !hasGuess(position) { position += 1 }
          guard position < storeCount else {
            throw SnapshotDecodingError(reason: "a run of time-zone notes runs past the last store")
          }
          if let note { decoded.append(contentsOf: try note(position)) }
          position += 1
        }
        cursor = position
      case let kind: throw SnapshotDecodingError(reason: "unknown diagnostic entry \(kind)")
      }
    }
    return decoded
  }

  /// - Parameter withMessage: Whether to write the message (entries 3 refer to an earlier one's).
  static func encode(_ diagnostic: Diagnostic, to writer: inout SnapshotWriter, withMessage: Bool = true) {
    writer.append(diagnostic.code.rawValue)
    writer.append(UInt8(Diagnostic.Severity.allCases.firstIndex(of: diagnostic.severity)!))
    writer.append(UInt8(diagnostic.position == nil ? 0 : 1))
    if let position = diagnostic.position {
      writer.appendVarint(position.featureIndex)
      writer.appendVarint(position.line)
      writer.appendVarint(position.column)
    }
    writer.append(optional: diagnostic.storeID)
    if withMessage { writer.append(diagnostic.message) }
  }

  /// - Parameter withMessage: False to read no message (an entry 3's comes after), leaving it empty.
  static func decodeDiagnostic(_ reader: inout SnapshotReader, withMessage: Bool = true)
    throws(SnapshotDecodingError) -> Diagnostic
  {
    let code = try reader.readString()
    let severityIndex = Int(try reader.read(UInt8.self))
    guard severityIndex < Diagnostic.Severity.allCases.count else {
      throw SnapshotDecodingError(reason: "unknown severity \(severityIndex)")
    }
    var position: SourcePosition?
    if try reader.read(UInt8.self) == 1 {
      position = SourcePosition(
        featureIndex: try reader.readVarint(), line: try reader.readVarint(), column: try reader.readVarint())
    }
    let storeID = try reader.readOptionalString()
    let message = withMessage ? try reader.readString() : ""
    return Diagnostic(
      Diagnostic.Code(code), Diagnostic.Severity.allCases[severityIndex], at: position, storeID: storeID,
      message)
  }

  // MARK: - Conditions

  static func encode(_ condition: StoreFilter.Condition, to writer: inout SnapshotWriter) {
    writer.append(condition.key)
    switch condition.test {
    case .present: writer.append(UInt8(0))
    case .equals(let value):
      writer.append(UInt8(1))
      writer.append(value)
    case .notEquals(let value):
      writer.append(UInt8(2))
      writer.append(value)
    }
  }

  static func decodeCondition(_ reader: inout SnapshotReader) throws(SnapshotDecodingError)
    -> StoreFilter.Condition
  {
    let key = try reader.readString()
    switch try reader.read(UInt8.self) {
    case 0: return StoreFilter.Condition(key: key, test: .present)
    case 1: return StoreFilter.Condition(key: key, test: .equals(try reader.readString()))
    case 2: return StoreFilter.Condition(key: key, test: .notEquals(try reader.readString()))
    case let tag: throw SnapshotDecodingError(reason: "unknown condition test \(tag)")
    }
  }
}
