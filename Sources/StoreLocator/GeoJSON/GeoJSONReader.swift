import GeoIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads GeoJSON bytes into the rows of a store table (`CatalogAssembly`) and diagnostics: each
/// store is added as soon as its feature is read, so no more than a window of records read ahead
/// (`FeatureReadAhead.Plan.windowBytes`) is ever in memory at once, and the input's pages read
/// past can be given back as the windows go by (`releasingReadBytes`).
///
/// Accepted: a FeatureCollection (foreign members ignored, `timezone` is the default time zone of
/// its stores), a single Feature, several top-level objects one after another (newline-delimited
/// GeoJSON), RFC 8142 text sequences (records that start with 0x1E), and a UTF-8 byte-order mark.
/// A bad feature is reported and skipped; the reader finds the next one and goes on.
/// See docs/diagnostics.md for every diagnostic.
struct GeoJSONReader {
  struct Output {
    var assembly: CatalogAssembly
    var diagnostics: [Diagnostic]

    /// The records as read, when they were kept (`keepingRecords`); else empty.
    var stores: [Store] { assembly.records ?? [] }
  }

  let source: String
  let base: UnsafePointer<UInt8>
  let count: Int
  let readAhead: FeatureReadAhead.Plan
  /// Told how many bytes are read, about every `WorkProgress.byteStep`.
  let progress: WorkProgress?
  /// Whether the pages of the input read past may be given back to the system (`read`'s
  /// `releasingReadBytes`).
  let releasesReadBytes: Bool
  /// The input's pages before this address are given back.
  private var releasedEnd: Int
  private var reportedOffset = 0
  private var scanner: JSONScanner
  private var lines: LineCounter
  /// The stores read so far, as rows.
  private var assembly: CatalogAssembly
  /// Set when the stores' texts no longer fit a table; the reading stops at the next feature.
  private var overflow: StoreTableOverflow?
  /// Where the features read ahead last end: the reader reads ahead again when it gets there.
  private var readAheadEnd = 0
  /// The window after the one read ahead last, being read meanwhile on other threads.
  private var nextWindow: FeatureReadAhead.Window?
  /// What the duplicate checks need of each store, parallel to the rows: taken while the feature is
  /// still in the cache, so the checks need not visit every store's properties again.
  private var storeKeys: [StoreKeys] = []
  /// Diagnostics with the byte offset they belong at, for sorting into input order.
  private var diagnostics: [(order: Int, diagnostic: Diagnostic)] = []
  private var featureIndex = 0
  /// True while reading the features of a collection whose `crs` cannot be read.
  private var coordinatesUnusable = false
  /// Set once a top-level object has been read as a Feature: newline-delimited input.
  private var lastRecordWasFeature = false

  /// Reads `buffer`; `source` names it in messages.
  ///
  /// - Throws: `CatalogError.badData` when the input is empty, is not a JSON object, or holds no
  ///   readable record and at least one error.
  /// - Parameters:
  ///   - readAhead: When to read the features of a large array on several threads; the output
  ///     is the same either way.
  ///   - progress: Told how many of the bytes are read, as the reading goes on.
  ///   - keepingRecords: Keep every record as read too (`Output.stores`): for tests and fuzzers
  ///     that compare them.
  ///   - releasingReadBytes: Give the pages of `buffer` back to the system as the reading passes
  ///     them, window by window, so that a large file and the rows made of it are not in memory
  ///     together (the peak of loading the 1M benchmark file was both). `buffer` must then be the
  ///     caller's own, which it never reads again: what was given back reads as zeros.
  static func read(
    _ buffer: UnsafeBufferPointer<UInt8>, source: String, readAhead: FeatureReadAhead.Plan = .automatic,
    progress: WorkProgress? = nil, keepingRecords: Bool = false, releasingReadBytes: Bool = false
  ) -> Result<Output, CatalogError> {
    guard let base = buffer.baseAddress, buffer.count > 0 else {
      return .failure(
        CatalogError(.badData, source: source, "empty file (0 bytes): no GeoJSON to read"))
    }
    // Compressed, UTF-16, a damaged snapshot: name what it is from the first bytes, once.
    if let kind = InputKind.unreadable(buffer) {
      let snapshotSource =
        kind == .damagedSnapshot || kind == .binary
        ? StoreTable.sourceHint(UnsafeRawBufferPointer(buffer)) : nil
      return .failure(
        CatalogError(
          .badData, source: source,
          kind.message(path: source, snapshotSource: snapshotSource)))
    }
    progress?.begin("reading \(source)", total: buffer.count, unit: .bytes)
    var reader = GeoJSONReader(
      source: source, base: base, count: buffer.count, readAhead: readAhead, progress: progress,
      keepingRecords: keepingRecords, releasingReadBytes: releasingReadBytes)
    do throws(CatalogError) {
      return .success(try reader.read())
    } catch {
      return .failure(error)
    }
  }

  private init(
    source: String, base: UnsafePointer<UInt8>, count: Int, readAhead: FeatureReadAhead.Plan,
    progress: WorkProgress?, keepingRecords: Bool, releasingReadBytes: Bool
  ) {
    self.assembly = CatalogAssembly(inputBytes: count, keepingRecords: keepingRecords)
    self.releasesReadBytes = releasingReadBytes
    self.releasedEnd = Int(bitPattern: base)
    storeKeys.reserveCapacity(count / 128)
    self.source = source
    self.readAhead = readAhead
    self.progress = progress
    self.base = base
    self.count = count
    let bom = count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF ? 3 : 0
    self.scanner = JSONScanner(base: base, start: bom, end: count)
    self.lines = LineCounter(base: base, count: count, firstLineStart: bom)
  }

  // MARK: Top level

  private mutating func read() throws(CatalogError) -> Output {
    scanner.skipWhitespace()
    guard !scanner.isAtEnd else {
      let hasByteOrderMark = count >= 3 && base[0] == 0xEF && base[1] == 0xBB && base[2] == 0xBF
      let whitespace = hasByteOrderMark ? count - 3 : count
      let bytes = whitespace == 1 ? "1 byte" : "\(whitespace) bytes"
      let what =
        !hasByteOrderMark
        ? "\(bytes) of whitespace only"
        : whitespace == 0 ? "only a byte-order mark" : "a byte-order mark and \(bytes) of whitespace"
      throw CatalogError(.badData, source: source, "empty file (\(what)): no GeoJSON to read")
    }
    switch scanner.current {
    case 0x1E:
      readTextSequence()
    case UInt8(ascii: "{"):
      readObjects()
    case UInt8(ascii: "["):
      throw CatalogError(
        .badData, source: source,
        "a JSON array at \(lineColumn(scanner.offset)), not GeoJSON: "
          + "expected a FeatureCollection or Feature object ('{')")
    default:
      throw CatalogError(
        .badData, source: source,
        "not GeoJSON: expected '{' at \(lineColumn(scanner.offset)), found "
          + JSONScanner.describe(byte: scanner.current))
    }
    progress?.advance(to: count)
    if let overflow { throw CatalogError(.badData, source: source, overflow.reason) }
    checkDuplicates()
    // Notes of the whole file come first, before those of its features.
    for note in PropertyAliases.notes(counting: storeKeys.lazy.map(\.aliases)) {
      diagnostics.append((0, note))
    }
    // Nearly always in order already (a file without ids lists a note a feature): sorted only
    // when not, as sorting a million entries and their offsets costs seconds and 100 MB.
    let inOrder = zip(diagnostics, diagnostics.dropFirst()).allSatisfy { $0.order <= $1.order }
    let sorted =
      inOrder
      ? diagnostics.map(\.diagnostic)
      : diagnostics.enumerated()
        .sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }
        .map(\.element.diagnostic)
    diagnostics = []
    if assembly.count == 0, let firstError = sorted.first(where: { $0.severity == .error }) {
      throw CatalogError(
        .badData, source: source,
        "no readable GeoJSON record: \(firstError.message)",
        diagnostics: sorted)
    }
    return Output(assembly: assembly, diagnostics: sorted)
  }

  /// One or more top-level objects: a FeatureCollection, a Feature, or newline-delimited Features.
  private mutating func readObjects() {
    defer { dropNextWindow() }
    var stretches: [FeatureReadAhead.Stretch] = []
    var nextStretch = 0
    while true {
      scanner.skipWhitespace()
      guard !scanner.isAtEnd, overflow == nil else { return }
      reportProgress()
      // Newline-delimited Features: once the first record has turned out to be a Feature (not a
      // collection, whose features are read ahead as an array), read the rest ahead, a window at
      // a time.
      if lastRecordWasFeature, scanner.offset >= readAheadEnd {
        readAhead(.records, into: &stretches)
        nextStretch = 0
        continue
      }
      let start = scanner.offset
      if nextStretch < stretches.count, takeStretch(at: start, from: stretches, next: &nextStretch) {
        continue
      }
      guard scanner.current == UInt8(ascii: "{") else {
        report(
          "invalid-json", .error, order: start, at: nil,
          "expected '{' starting a GeoJSON object at \(lineColumn(start)), found "
            + "\(JSONScanner.describe(byte: scanner.current)); the text up to the next line that starts with '{' is skipped"
        )
        guard let next = nextLineStartingWithBrace(after: start) else { return }
        scanner.offset = next
        continue
      }
      switch readTopLevelObject() {
      case .complete: continue
      case .endedEarly: return
      case .failed(let resumeFrom):
        guard let next = nextLineStartingWithBrace(after: resumeFrom) else { return }
        scanner.offset = next
      }
    }
  }

  /// RFC 8142: every record starts with 0x1E and holds one GeoJSON object.
  private mutating func readTextSequence() {
    var recordStart = scanner.offset
    while recordStart < count {
      reportProgress()
      // recordStart is at a 0x1E.
      let contentStart = recordStart + 1
      var recordEnd = contentStart
      while recordEnd < count, base[recordEnd] != 0x1E { recordEnd += 1 }
      scanner.offset = contentStart
      scanner.end = recordEnd
      scanner.skipWhitespace()
      if !scanner.isAtEnd {
        if scanner.current == UInt8(ascii: "{") {
          if case .complete = readTopLevelObject() {
            scanner.skipWhitespace()
            if !scanner.isAtEnd {
              report(
                "invalid-json", .error, order: scanner.offset, at: nil,
                "unexpected \(JSONScanner.describe(byte: scanner.current)) at \(lineColumn(scanner.offset)) after the "
                  + "record's object; a text-sequence record holds one JSON value")
            }
          }
        } else {
          let (line, column) = lines.position(of: contentStart)
          report(
            "invalid-json", .error, order: contentStart,
            at: SourcePosition(featureIndex: featureIndex, line: line, column: column),
            "expected '{' starting a GeoJSON object at \(lineColumn(scanner.offset)), found "
              + "\(JSONScanner.describe(byte: scanner.current)); the record is skipped")
          featureIndex += 1
        }
      }
      recordStart = recordEnd
    }
    scanner.end = count
  }

  private enum TopLevelOutcome {
    case complete
    /// The input (or record) ended inside the object; already reported.
    case endedEarly
    /// A syntax error, already reported; resume at the first line starting with '{' after this offset.
    case failed(resumeFrom: Int)
  }

  /// Reads the top-level object at the scanner (a `{`), streaming the features of a `features` array.
  ///
  /// A syntax error in a collection's own members before `features` (its header) is reported once,
  /// without a feature index, and the features are still read from its `"features": [`.
  private mutating func readTopLevelObject() -> TopLevelOutcome {
    let start = scanner.offset
    let firstStore = assembly.count
    let index = featureIndex
    var members: [JSONObject.Member] = []
    var featuresRead = false
    var featuresSeen = false
    // The positions of the collection's members by key, once there are too many to search.
    var memberPositions: [ExactText: Int] = [:]
    var arrayComplete = true
    coordinatesUnusable = false
    scanner.offset += 1
    scanner.skipWhitespace()
    var closed = false
    if !scanner.isAtEnd, scanner.current == UInt8(ascii: "}") {
      scanner.offset += 1
      closed = true
    }
    /// Set when the header was broken and the features array has just been read after it: the
    /// next thing is the ',' or '}' after that member.
    var resumeAfterFeatures = false
    reading: while !closed {
      do throws(JSONSyntaxError) {
        while true {
          let key: String
          if resumeAfterFeatures {
            resumeAfterFeatures = false
            key = "features"
          } else {
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw scanner.endOfInput(expecting: "a member name") }
            guard scanner.current == UInt8(ascii: "\"") else {
              throw scanner.unexpected(
                expecting: members.isEmpty && !featuresSeen
                  ? "a member name (a string in double quotes) or '}'"
                  : "a member name after ','")
            }
            key = try scanner.parseString()
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else {
              throw scanner.endOfInput(expecting: "':' after member name \"\(key)\"")
            }
            guard scanner.current == UInt8(ascii: ":") else {
              throw scanner.unexpected(expecting: "':' after member name \"\(key)\"")
            }
            scanner.offset += 1
            scanner.skipWhitespace()
            if key == "features", !scanner.isAtEnd, scanner.current == UInt8(ascii: "[") {
              if featuresSeen {
                // JSON readers that keep the last of repeated members would see only this array;
                // the stores of both are loaded, so nothing is lost, and the file is flagged.
                report(
                  "duplicate-key", .warning, order: scanner.offset, at: nil,
                  "the FeatureCollection has a second \"features\" member at \(lineColumn(scanner.offset)); "
                    + "the features of both are loaded (other readers may keep only the last)")
              }
              featuresSeen = true
              arrayComplete = readCollectionFeatures(members: members)
              featuresRead = true
              guard arrayComplete else { break reading }
            } else {
              // The collection's own members get the same bounds as any object the scanner reads:
              // a cap on their number, and a hashed repeat check once there are many.
              guard members.count < JSONScanner.maximumMembers else {
                throw JSONSyntaxError(
                  offset: scanner.offset, expected: nil,
                  problem: "the top-level object has more than \(JSONScanner.maximumMembers) members "
                    + "(the limit for any JSON object here)", hint: nil, isEndOfInput: false)
              }
              let value = try scanner.parseValue()
              let existing: Int?
              if members.count < JSONScanner.linearKeySearchLimit {
                existing = members.firstIndex { $0.key.hasSameBytes(as: key) }
              } else {
                if memberPositions.isEmpty {
                  for (position, member) in members.enumerated() {
                    memberPositions[ExactText(member.key)] = position
                  }
                }
                existing = memberPositions[ExactText(key)]
                if existing == nil { memberPositions[ExactText(key)] = members.count }
              }
              if let existing {
                members[existing].value = value
                report(
                  "duplicate-key", .warning, order: start, at: nil,
                  "the top-level object has the member \"\(key)\" twice; the last value is kept")
              } else {
                members.append(JSONObject.Member(key: key, value: value))
              }
            }
          }
          scanner.skipWhitespace()
          guard !scanner.isAtEnd else {
            throw scanner.endOfInput(expecting: "',' or '}' after member \"\(key)\"")
          }
          let separator = scanner.current
          scanner.offset += 1
          if separator == UInt8(ascii: ",") { continue }
          if separator == UInt8(ascii: "}") { break reading }
          scanner.offset -= 1
          throw scanner.unexpected(expecting: "',' or '}' after member \"\(key)\"")
        }
      } catch {
        scanner.resetDepth()
        if featuresRead {
          // The features are in; the collection's tail is broken.
          reportCollectionTextWarnings()
          finishCollection(members: members, firstStore: firstStore, start: start)
          if error.isEndOfInput {
            report(
              "truncated", .error, order: error.offset, at: nil,
              truncation(
                "after the \"features\" array", expected: error.expected,
                Self.loaded(assembly.count - firstStore, "")))
            return .endedEarly
          }
          report(
            "invalid-json", .error, order: error.offset, at: nil,
            describe(error) + "; " + Self.loaded(assembly.count - firstStore, ""))
          return .failed(resumeFrom: error.offset)
        }
        if !error.isEndOfInput, let array = featuresArrayStart(after: error.offset, members: members) {
          // A broken collection header: one error for the header (not a feature), then the features.
          report(
            "invalid-json", .error, order: error.offset, at: nil,
            "in the FeatureCollection's header: " + describe(error)
              + "; the collection's header is skipped up to its \"features\" array at \(lineColumn(array)), "
              + "whose features are read")
          scanner.offset = array
          featuresSeen = true
          arrayComplete = readCollectionFeatures(members: members)
          featuresRead = true
          guard arrayComplete else { break reading }
          resumeAfterFeatures = true
          continue reading
        }
        scanner.duplicateKeys.removeAll()
        scanner.loneSurrogates.removeAll()
        // Nothing usable: count the object as one record that could not be read.
        let (line, column) = lines.position(of: start)
        featureIndex = max(featureIndex, index + 1)
        let position = SourcePosition(featureIndex: index, line: line, column: column)
        if error.isEndOfInput {
          report(
            "truncated", .error, order: start, at: position,
            truncation("inside this record", expected: error.expected, "the record is skipped"))
          return .endedEarly
        }
        report(
          "invalid-json", .error, order: start, at: position, describe(error) + "; the record is skipped")
        return .failed(resumeFrom: start)
      }
    }

    let object = JSONObject(members)
    if featuresSeen {
      reportCollectionTextWarnings()
      if let type = object["type"], type != .string("FeatureCollection") {
        report(
          "invalid-type", .warning, order: start, at: nil,
          "the top-level \"type\" is \(type.jsonText), expected \"FeatureCollection\"; "
            + "read as a FeatureCollection because it has a \"features\" array")
      }
      finishCollection(members: members, firstStore: firstStore, start: start)
      return arrayComplete ? .complete : .endedEarly
    }
    switch object["type"] {
    case .string("FeatureCollection"):
      reportCollectionTextWarnings()
      if let features = object["features"] {
        report(
          "invalid-geojson", .error, order: start, at: nil,
          "the FeatureCollection's \"features\" is \(Self.kind(of: features)), expected an array of Features")
      } else {
        report(
          "invalid-geojson", .warning, order: start, at: nil,
          "the FeatureCollection has no \"features\" member; it holds no stores")
      }
      finishCollection(members: members, firstStore: firstStore, start: start)
    default:
      // A Feature (or something that should be one): one record.
      lastRecordWasFeature = true
      featureIndex = index + 1
      if let crs = object["crs"] { coordinatesUnusable = !Self.isLongitudeLatitude(crs) }
      addFeature(.object(object), start: start, index: index)
      finishCollection(members: members, firstStore: firstStore, start: start)
    }
    return .complete
  }

  /// Reads the `features` array at the scanner (a `[`) of a collection whose members before it are
  /// `members`: their warnings and `crs` apply first. Returns `readFeatureArray()`'s answer.
  private mutating func readCollectionFeatures(members: [JSONObject.Member]) -> Bool {
    reportCollectionTextWarnings()
    // The members before `features` (type, crs, timezone) usually come first: use them now.
    if let crs = members.first(where: { $0.key == "crs" })?.value, !Self.isLongitudeLatitude(crs) {
      coordinatesUnusable = true
    }
    return readFeatureArray()
  }

  /// Reports the duplicate keys and lone surrogates the scanner met in a collection's own members
  /// (its header or tail, not a feature) at the collection: no feature index, no store id.
  private mutating func reportCollectionTextWarnings() {
    for (offset, key) in scanner.duplicateKeys {
      report(
        "duplicate-key", .warning, order: offset, at: nil,
        "the member \"\(key)\" appears twice in one object of the FeatureCollection's own members (again at "
          + "\(lineColumn(offset))); the last value is kept")
    }
    for offset in scanner.loneSurrogates {
      report(
        "invalid-escape", .warning, order: offset, at: nil,
        "the \\u escape at \(lineColumn(offset)), in the FeatureCollection's own members, is half of a UTF-16 "
          + "surrogate pair; it was replaced by U+FFFD")
    }
    scanner.duplicateKeys.removeAll(keepingCapacity: true)
    scanner.loneSurrogates.removeAll(keepingCapacity: true)
  }

  /// The offset of the `[` of a `"features": [` after a syntax error at `offset` in a top-level
  /// object's members, when the object can be a FeatureCollection: `nil` when the members read so
  /// far make it a Feature or a geometry, or when no such text comes before the next line that starts
  /// with `{` (in newline-delimited input that is the next record).
  private func featuresArrayStart(after offset: Int, members: [JSONObject.Member]) -> Int? {
    let object = JSONObject(members)
    if case .string(let type)? = object["type"],
      type == "Feature" || GeoJSONGeometryType(rawValue: type) != nil
    {
      return nil
    }
    if object["geometry"] != nil || object["properties"] != nil { return nil }
    let limit = nextLineStartingWithBrace(after: offset) ?? scanner.end
    let name = Array("\"features\"".utf8)
    var position = offset
    while position + name.count <= limit {
      defer { position += 1 }
      guard base[position] == UInt8(ascii: "\""), position == 0 || base[position - 1] != UInt8(ascii: "\\")
      else {
        continue
      }
      guard (0..<name.count).allSatisfy({ base[position + $0] == name[$0] }) else { continue }
      var cursor = position + name.count
      func skipSpace() {
        while cursor < limit, [0x20, 0x09, 0x0A, 0x0D].contains(base[cursor]) { cursor += 1 }
      }
      skipSpace()
      guard cursor < limit, base[cursor] == UInt8(ascii: ":") else { continue }
      cursor += 1
      skipSpace()
      guard cursor < limit, base[cursor] == UInt8(ascii: "[") else { continue }
      return cursor
    }
    return nil
  }

  /// Applies a collection's `crs` and `timezone` to the stores read from it.
  private mutating func finishCollection(members: [JSONObject.Member], firstStore: Int, start: Int) {
    let object = JSONObject(members)
    let storeRange = firstStore..<assembly.count
    if let crs = object["crs"] {
      let name = Self.crsName(crs)
      if Self.isLongitudeLatitude(crs) {
        report(
          "legacy-crs", .note, order: start, at: nil,
          "the legacy \"crs\" member names \(name ?? "a CRS"), which is WGS 84 longitude/latitude as RFC 7946 "
            + "requires; RFC 7946 removed \"crs\", so the member can be deleted")
      } else {
        report(
          "unsupported-crs", .error, order: start, at: nil,
          "the legacy \"crs\" member names \(name.map { "\"\($0)\"" } ?? crs.jsonText), not WGS 84 "
            + "longitude/latitude; the coordinates would be projected values, so the \(storeRange.count) stores "
            + "are kept out of the index: reproject the file (ogr2ogr -t_srs EPSG:4326 out.geojson in.geojson)"
        )
        for position in storeRange { assembly.removeCoordinate(at: position) }
      }
    }
    coordinatesUnusable = false
    switch object["timezone"] {
    case nil, .null: break
    case .string(let timezone):
      for position in storeRange { assembly.setTimezoneIfNone(timezone, at: position) }
    case let other?:
      report(
        "invalid-timezone", .warning, order: start, at: nil,
        "the collection's \"timezone\" is \(Self.kind(of: other)), expected an IANA time-zone name such as "
          + "\"Europe/Berlin\"; it is ignored")
    }
  }

  // MARK: The features array

  /// Reads the `features` array at the scanner (a `[`), one feature at a time, skipping bad ones.
  ///
  /// - Returns: `true` when the array was closed; `false` when the input ended first (reported).
  private mutating func readFeatureArray() -> Bool {
    defer { dropNextWindow() }
    scanner.offset += 1
    scanner.skipWhitespace()
    if !scanner.isAtEnd, scanner.current == UInt8(ascii: "]") {
      scanner.offset += 1
      return true
    }
    let firstStore = assembly.count
    var stretches: [FeatureReadAhead.Stretch] = []
    var nextStretch = 0
    readAheadEnd = scanner.offset
    while true {
      scanner.skipWhitespace()
      guard !scanner.isAtEnd else {
        reportTruncation(firstStore: firstStore, "a feature or ']'")
        return false
      }
      reportProgress()
      if scanner.offset >= readAheadEnd {
        readAhead(.array, into: &stretches)
        nextStretch = 0
        continue
      }
      guard overflow == nil else { return false }
      let start = scanner.offset
      if nextStretch < stretches.count, takeStretch(at: start, from: stretches, next: &nextStretch) {
        continue
      }
      let index = featureIndex
      featureIndex += 1
      do throws(JSONSyntaxError) {
        let value = try scanner.parseValue()
        addFeature(value, start: start, index: index)
      } catch {
        scanner.resetDepth()
        scanner.duplicateKeys.removeAll()
        scanner.loneSurrogates.removeAll()
        let (line, column) = lines.position(of: start)
        let position = SourcePosition(featureIndex: index, line: line, column: column)
        if error.isEndOfInput {
          report(
            "truncated", .error, order: start, at: position,
            truncation(
              "inside this feature", expected: error.expected,
              Self.loaded(assembly.count - firstStore, "before it")))
          return false
        }
        report(
          "invalid-json", .error, order: start, at: position, describe(error) + "; the feature is skipped")
        if let after = endOfElement(from: start) {
          scanner.offset = after
        } else if let next = nextFeatureStart(from: error.offset) {
          scanner.offset = next
          continue
        } else {
          report(
            "invalid-json", .error, order: error.offset, at: nil,
            "no further feature could be found after \(lineColumn(error.offset)); the rest of the file is skipped"
          )
          return false
        }
      }
      scanner.skipWhitespace()
      guard !scanner.isAtEnd else {
        reportTruncation(firstStore: firstStore, "',' or ']' after feature \(index)")
        return false
      }
      switch scanner.current {
      case UInt8(ascii: ","):
        scanner.offset += 1
        scanner.skipWhitespace()
        if !scanner.isAtEnd, scanner.current == UInt8(ascii: "]") {
          report(
            "invalid-json", .error, order: scanner.offset, at: nil,
            "expected a feature after ',' at \(lineColumn(scanner.offset)), found ']' (JSON allows no trailing "
              + "comma); nothing was lost")
          scanner.offset += 1
          return true
        }
      case UInt8(ascii: "]"):
        scanner.offset += 1
        return true
      case UInt8(ascii: "{"):
        report(
          "invalid-json", .error, order: scanner.offset, at: nil,
          "expected ',' or ']' after feature \(index) at \(lineColumn(scanner.offset)), found '{'; "
            + "read as if the comma were there")
      default:
        let here = scanner.offset
        report(
          "invalid-json", .error, order: here, at: nil,
          "expected ',' or ']' after feature \(index) at \(lineColumn(here)), found "
            + JSONScanner.describe(byte: scanner.current))
        guard let next = nextFeatureStart(from: here + 1) else { return false }
        scanner.offset = next
      }
    }
  }

  /// Tells `progress` how far the reader has got, when it has read another `WorkProgress.byteStep`.
  private mutating func reportProgress() {
    guard let progress, scanner.offset >= reportedOffset + WorkProgress.byteStep else { return }
    reportedOffset = scanner.offset
    progress.advance(to: scanner.offset)
  }

  /// Reads ahead the features of the next window of the input (`FeatureReadAhead.Plan`) from the
  /// scanner's offset on, when there are enough, for the reader to take stretch by stretch as it
  /// arrives at their starts; sets where to read ahead again.
  ///
  /// The window after it is started at once, on the other processors, so that it is read while
  /// the reader turns this one's features into rows (`nextWindow`).
  private mutating func readAhead(
    _ layout: FeatureReadAhead.Layout, into stretches: inout [FeatureReadAhead.Stretch]
  ) {
    stretches = []
    // Pages are given back last: the window started ahead may have started before the scanner
    // (the reader then reads past its first stretches, and drops them), and its threads read
    // until it is finished; the next window starts at or after this one's end.
    defer { if releasesReadBytes { releaseBytes(before: scanner.offset) } }
    var window = nextWindow.take()
    // Started for where this reader now is: the same features, read the same way. (Its first
    // stretch need not start at the scanner: the reader reads up to it, or past it, in order.)
    if let started = window,
      started.layout != layout || started.coordinatesUnusable != coordinatesUnusable
        || started.windowEnd <= scanner.offset
    {
      _ = started.finish()
      window = nil
    }
    let windowEnd = window?.windowEnd ?? self.windowEnd(from: scanner.offset)
    window =
      window
      ?? FeatureReadAhead.Window.start(
        layout, base: base, first: scanner.offset, end: scanner.end, windowEnd: windowEnd,
        coordinatesUnusable: coordinatesUnusable, keepingProperties: assembly.records != nil, plan: readAhead,
        progress: progress)
    guard let window else {
      // Too short to read ahead, now and after; or a window that could not be cut (a feature
      // longer than it): the next one may be.
      let tooShort = scanner.end - scanner.offset < readAhead.minimumBytes
      readAheadEnd = tooShort || windowEnd == scanner.end ? .max : windowEnd
      return
    }
    stretches = window.finish()
    readAheadEnd = windowEnd
    if windowEnd < scanner.end, scanner.end - windowEnd >= readAhead.minimumBytes,
      let next = FeatureReadAhead.nextWindowStart(base: base, after: windowEnd, end: scanner.end)
    {
      nextWindow = FeatureReadAhead.Window.start(
        layout, base: base, first: next, end: scanner.end, windowEnd: self.windowEnd(from: next),
        coordinatesUnusable: coordinatesUnusable, keepingProperties: assembly.records != nil, plan: readAhead,
        progress: progress)
    }
  }

  /// Waits for the window started ahead, if any, and lets it go: before the reader leaves the
  /// features it was started for (its threads read the input's bytes).
  private mutating func dropNextWindow() {
    _ = nextWindow.take()?.finish()
  }

  /// Gives the input's whole pages before `offset` back to the system. The reader never reads
  /// bytes before the window it is in: the features before it are rows, their positions are
  /// known, and line numbers are counted on from a mark at `offset`.
  private mutating func releaseBytes(before offset: Int) {
    #if os(Linux)
      lines.mark(at: offset)
      let page = Int(sysconf(Int32(_SC_PAGESIZE)))
      let start = (releasedEnd + page - 1) / page * page
      let end = (Int(bitPattern: base) + offset) / page * page
      guard end > start, let address = UnsafeMutableRawPointer(bitPattern: start) else { return }
      // Anonymous memory given back reads as zeros if touched again; nothing here touches it.
      if madvise(address, end - start, MADV_DONTNEED) == 0 { releasedEnd = end }
    #endif
  }

  /// Where a window read ahead from `first` ends.
  private func windowEnd(from first: Int) -> Int {
    scanner.end - first > readAhead.windowBytes ? first + readAhead.windowBytes : scanner.end
  }

  /// Adds `store` as the next row (`draft`: its keys and values, when a reading thread wrote them).
  private mutating func add(_ store: Store, draft: UnsafeRawBufferPointer? = nil, hours: HoursDraft? = nil) {
    do throws(StoreTableOverflow) {
      try assembly.append(store, draft: draft, hours: hours)
    } catch {
      overflow = overflow ?? error
    }
  }

  /// Takes the features read ahead from the stretch that starts at `start`, if there is one and it
  /// has any, and moves the scanner to where they end; stretches before `start` are dropped.
  private mutating func takeStretch(
    at start: Int, from stretches: [FeatureReadAhead.Stretch], next: inout Int
  ) -> Bool {
    while next < stretches.count, stretches[next].start < start {
      stretches[next].features.removeAll()
      next += 1
    }
    guard next < stretches.count, stretches[next].start == start, stretches[next].features.count > 0 else {
      return false
    }
    let stretch = stretches[next]
    next += 1
    scanner.offset = stretch.resume
    // The stretch counted lines from its start; its first line goes on from the reader's column.
    let (line, column) = lines.position(of: start)
    stretch.drafts.bytes.withUnsafeBytes { drafts in
      stretch.features.consumeAll { feature in
        let position =
          feature.line == 1
          ? SourcePosition(featureIndex: featureIndex, line: line, column: column + feature.column - 1)
          : SourcePosition(featureIndex: featureIndex, line: line + feature.line - 1, column: feature.column)
        featureIndex += 1
        var record = feature.record
        if let note = record.settleGeneratedID(at: position) { diagnostics.append(note) }
        storeKeys.append(record.keys)
        add(
          record.store(at: position), draft: UnsafeRawBufferPointer(rebasing: drafts[feature.draft]),
          hours: feature.hours)
      }
    }
    return true
  }

  private mutating func reportTruncation(firstStore: Int, _ expected: String) {
    report(
      "truncated", .error, order: count, at: nil,
      truncation(
        "inside the \"features\" array", expected: expected, Self.loaded(assembly.count - firstStore, "")))
  }

  /// The sentence of a `truncated` error: where the input ends (byte offset and line:column), inside
  /// what, what was expected there, what was loaded, and the last record loaded before the cut, so
  /// that a file cut off while being written or copied is unmistakable.
  private mutating func truncation(_ place: String, expected: String?, _ outcome: String) -> String {
    let end = scanner.end
    // In a text sequence the scanner ends at the next record's 0x1E: that record is what was cut.
    let input = end < count ? "the text-sequence record" : "the file"
    var text = "\(input) ends early at byte offset \(end) (\(lineColumn(end))), \(place)"
    if let expected { text += " (expected \(expected))" }
    text += ": it was probably cut off while being written or copied; " + outcome
    if assembly.count > 0 {
      let last = assembly.identity(at: assembly.count - 1)
      text += "; the last record loaded is id \"\(MessageText.shortened(last.id))\" at \(last.position)"
    } else {
      text += "; no record before the cut could be loaded"
    }
    return text
  }

  /// The offset just after the value starting at `start`, found by matching brackets outside
  /// strings; `nil` when the input ends first or a bracket closes the wrong kind of opener (a
  /// missing brace), so bracket matching cannot be trusted.
  private func endOfElement(from start: Int) -> Int? {
    var openers: [UInt8] = []
    var position = start
    var inString = false
    while position < scanner.end {
      let byte = base[position]
      if inString {
        if byte == UInt8(ascii: "\\") {
          position += 2
          continue
        }
        if byte == UInt8(ascii: "\"") { inString = false }
      } else {
        switch byte {
        case UInt8(ascii: "\""): inString = true
        case UInt8(ascii: "{"), UInt8(ascii: "["): openers.append(byte)
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          guard let opener = openers.popLast() else { return position }  // the array's own ']'
          guard opener == (byte == UInt8(ascii: "}") ? UInt8(ascii: "{") : UInt8(ascii: "[")) else {
            return nil
          }
          if openers.isEmpty { return position + 1 }
        case UInt8(ascii: ","):
          if openers.isEmpty { return position }
        default: break
        }
      }
      position += 1
    }
    return nil
  }

  /// The first `{` at or after `offset` that starts `{"type": "Feature"` (whitespace allowed).
  ///
  /// Used after a syntax error at `offset`; the broken feature started before it, so this always
  /// moves forward.
  private func nextFeatureStart(from offset: Int) -> Int? {
    var position = offset
    let pattern = Array("\"type\"".utf8)
    let value = Array("\"Feature\"".utf8)
    while position < scanner.end {
      guard base[position] == UInt8(ascii: "{") else {
        position += 1
        continue
      }
      var cursor = position + 1
      func skipSpace() {
        while cursor < scanner.end, [0x20, 0x09, 0x0A, 0x0D].contains(base[cursor]) { cursor += 1 }
      }
      func match(_ bytes: [UInt8]) -> Bool {
        guard cursor + bytes.count <= scanner.end else { return false }
        for (index, byte) in bytes.enumerated() where base[cursor + index] != byte { return false }
        cursor += bytes.count
        return true
      }
      skipSpace()
      if match(pattern) {
        skipSpace()
        if cursor < scanner.end, base[cursor] == UInt8(ascii: ":") {
          cursor += 1
          skipSpace()
          if match(value) { return position }
        }
      }
      position += 1
    }
    return nil
  }

  /// The first line start after `offset` whose first byte is `{` (or a record separator).
  private func nextLineStartingWithBrace(after offset: Int) -> Int? {
    var position = offset
    while position < scanner.end {
      if base[position] == 0x0A, position + 1 < scanner.end,
        base[position + 1] == UInt8(ascii: "{") || base[position + 1] == 0x1E
      {
        return position + 1
      }
      position += 1
    }
    return nil
  }

  // MARK: One feature

  /// Turns one parsed feature into a store (or reports why it cannot be one).
  private mutating func addFeature(_ value: JSONValue, start: Int, index: Int) {
    let (line, column) = lines.position(of: start)
    let position = SourcePosition(featureIndex: index, line: line, column: column)
    var textWarnings = FeatureTextWarnings()
    for (offset, key) in scanner.duplicateKeys {
      textWarnings.duplicateKeys.append((key, lineColumn(offset)))
    }
    for offset in scanner.loneSurrogates {
      textWarnings.loneSurrogates.append(lineColumn(offset))
    }
    scanner.duplicateKeys.removeAll(keepingCapacity: true)
    scanner.loneSurrogates.removeAll(keepingCapacity: true)
    let feature = Self.readFeature(
      value, start: start, index: index, position: position, coordinatesUnusable: coordinatesUnusable,
      textWarnings: textWarnings, diagnostics: &diagnostics)
    if let feature {
      storeKeys.append(feature.keys)
      add(feature.store(at: position))
    }
  }

  /// Where the scanner met duplicate keys and lone surrogates in a feature, as `line L:C` text.
  struct FeatureTextWarnings {
    var duplicateKeys: [(key: String, place: String)] = []
    var loneSurrogates: [String] = []
  }

  /// The store one parsed feature makes, with what the duplicate checks need of it; `nil` when the
  /// record is skipped. Appends the feature's diagnostics, in the order they are reported.
  ///
  /// Reads nothing but its arguments, so the features of a large file can be read on several threads.
  static func readFeature(
    _ value: JSONValue, start: Int, index: Int, position: SourcePosition, coordinatesUnusable: Bool,
    textWarnings: FeatureTextWarnings, diagnostics: inout [(order: Int, diagnostic: Diagnostic)]
  ) -> FeatureRecord? {
    func report(
      _ code: String, _ severity: Diagnostic.Severity, order: Int, at position: SourcePosition?,
      storeID: String? = nil, _ message: String
    ) {
      diagnostics.append(
        (order, Diagnostic(Diagnostic.Code(code), severity, at: position, storeID: storeID, message)))
    }
    guard case .object(let object) = value else {
      report(
        "invalid-feature", .error, order: start, at: position,
        "expected a Feature object, found \(Self.kind(of: value)); the entry is skipped")
      return nil
    }
    var isBareGeometry = false
    switch object["type"] {
    case .string("Feature"): break
    case .string(let type) where GeoJSONGeometryType(rawValue: type) != nil:
      isBareGeometry = true
    case .string(let type):
      let expected =
        type.lowercased() == "feature"
        ? "\"type\" is \"\(type)\", but GeoJSON names are case-sensitive: expected \"Feature\""
        : "\"type\" is \"\(type)\", expected \"Feature\""
      report("invalid-type", .error, order: start, at: position, expected + "; the record is skipped")
      return nil
    case nil:
      report(
        "invalid-type", .error, order: start, at: position,
        "the object has no \"type\" member; a GeoJSON Feature needs \"type\": \"Feature\"; the record is skipped"
      )
      return nil
    case let other?:
      report(
        "invalid-type", .error, order: start, at: position,
        "\"type\" is \(Self.kind(of: other)), expected the string \"Feature\"; the record is skipped")
      return nil
    }

    // Properties.
    var properties = JSONObject()
    if !isBareGeometry {
      switch object["properties"] {
      case .object(let found): properties = found
      case nil, .null: break
      case let other?:
        report(
          "invalid-properties", .warning, order: start, at: position,
          "\"properties\" is \(Self.kind(of: other)), expected an object or null; it is ignored")
      }
    }

    // Id: the Feature's id, else ref, else an id property, else generated.
    var id: String?
    var idSource = StoreIDSource.feature
    if !isBareGeometry {
      switch object["id"] {
      case .string(let text) where !text.isEmpty: id = text
      case .number(let literal): id = literal
      case nil, .null, .string: break
      case let other?:
        report(
          "invalid-id", .warning, order: start, at: position,
          "the Feature's \"id\" is \(Self.kind(of: other)); GeoJSON ids are strings or numbers, so it is ignored"
        )
      }
    }
    if id == nil, let ref = properties["ref"]?.scalarText, !ref.isEmpty {
      id = ref
      idSource = .ref
    }
    // Older All The Places exports keep their id in the properties, Overpass exports as "@id",
    // ogr2ogr's OpenStreetMap layers as "osm_id". Looked up only when there is no id and no ref.
    var aliases: PropertyAliases = []
    if id == nil {
      for (key, alias) in [("id", PropertyAliases.idProperty), ("@id", .atIDProperty), ("osm_id", .osmID)] {
        guard let propertyID = properties[key]?.scalarText, !propertyID.isEmpty else { continue }
        id = propertyID
        idSource = .property
        aliases.insert(alias)
        break
      }
    }
    aliases.formUnion(PropertyAliases.addressAliases(in: properties))
    let storeID: String
    if let id {
      storeID = id
    } else {
      storeID = GeneratedIDNotes.storeID(featureIndex: index)
      idSource = .generated
      if isBareGeometry {
        report(
          "bare-geometry", .warning, order: start, at: position, storeID: storeID,
          "a bare \(object["type"]?.stringValue ?? "") geometry, not a Feature: read as one store without "
            + "properties, called \"\(storeID)\"; wrap it in a Feature with an \"id\" and \"properties\"")
      } else {
        // A stand-in: the note is made from the row when the diagnostics are read.
        diagnostics.append((start, GeneratedIDNotes.placeholder(at: position)))
      }
    }

    // Time zone.
    var timezone: String?
    switch properties["timezone"] {
    case nil, .null: break
    case .string(let name): timezone = name
    case let other?:
      report(
        "invalid-timezone", .warning, order: start, at: position, storeID: storeID,
        "the \"timezone\" property is \(Self.kind(of: other)), expected an IANA time-zone name such as "
          + "\"Europe/Berlin\"; it is ignored")
    }

    // Warnings from reading the JSON text.
    for (key, place) in textWarnings.duplicateKeys {
      report(
        "duplicate-key", .warning, order: start, at: position, storeID: storeID,
        "the member \"\(key)\" appears twice in one object (again at \(place)); the last value is kept")
    }
    for place in textWarnings.loneSurrogates {
      report(
        "invalid-escape", .warning, order: start, at: position, storeID: storeID,
        "the \\u escape at \(place) is half of a UTF-16 surrogate pair; it was replaced by U+FFFD")
    }

    // Location.
    var coordinate: Coordinate?
    var context = FeatureContext(position: position, storeID: storeID, order: start)
    if coordinatesUnusable {
      coordinate = nil
    } else if isBareGeometry {
      coordinate = Self.locate(geometry: object, context: &context)
    } else {
      switch object["geometry"] {
      case nil:
        report(
          "missing-geometry", .warning, order: start, at: position, storeID: storeID,
          "the feature has no \"geometry\" member; the store is kept but cannot be found by location")
      case .null:
        report(
          "missing-geometry", .warning, order: start, at: position, storeID: storeID,
          "the geometry is null; the store is kept but cannot be found by location")
      case .object(let geometry):
        coordinate = Self.locate(geometry: geometry, context: &context)
      case let other?:
        report(
          "invalid-geometry", .error, order: start, at: position, storeID: storeID,
          "\"geometry\" is \(Self.kind(of: other)), expected a geometry object or null; the store is kept out of "
            + "the index")
      }
    }
    diagnostics.append(contentsOf: context.diagnostics)

    return FeatureRecord(
      id: storeID, idSource: idSource, coordinate: coordinate, properties: properties, timezone: timezone,
      keys: StoreKeys(offset: start, id: storeID, ref: properties["ref"]?.scalarText, aliases: aliases))
  }

  // MARK: Duplicates

  /// Reports ids used by more than one store, and refs shared by stores with different ids, at the
  /// later store.
  private mutating func checkDuplicates() {
    // Open addressing over precomputed hashes: no store's properties are read again, and a probe
    // touches one table slot rather than a dictionary's separate hash, key and value storage.
    let count = assembly.count
    var ids = FirstOccurrences(count: count)
    // Ids are told apart byte by byte; this second table only finds ids that look the same to a
    // person (canonically equivalent Unicode) but are written with other bytes.
    var lookalikeIDs = FirstOccurrences(count: count)
    var refs = FirstOccurrences(count: count)
    for position in 0..<count {
      let keys = storeKeys[position]
      if let first = ids.first(
        position, hash: keys.idHash, where: { assembly.idsHaveSameBytes($0, position) })
      {
        let store = assembly.identity(at: position)
        let other = assembly.identity(at: first)
        report(
          "duplicate-id", .error, order: keys.offset, at: store.position, storeID: store.id,
          "the id \"\(MessageText.shortened(store.id))\" is also the id of \(other.position); ids must be unique "
            + "— answers follow each store's own record, and a command given this id lists the stores instead of "
            + "picking one")
      } else if !assembly.idIsASCII(at: position) {
        let store = assembly.identity(at: position)
        if let first = lookalikeIDs.first(
          position, hash: store.id.hashValue, where: { assembly.identity(at: $0).id == store.id })
        {
          let other = assembly.identity(at: first)
          report(
            "duplicate-id-normalization", .warning, order: keys.offset, at: store.position, storeID: store.id,
            "the id \"\(store.id)\" looks the same as the id of \(other.position) but is written with other "
              + "bytes (another Unicode normalization); ids are compared byte by byte, so these are two stores"
          )
        }
      }
      guard let ref = keys.ref else { continue }
      if let first = refs.first(
        position, hash: keys.refHash, where: { storeKeys[$0].ref!.hasSameBytes(as: ref) })
      {
        guard !assembly.idsHaveSameBytes(first, position) else { continue }
        let store = assembly.identity(at: position)
        let other = assembly.identity(at: first)
        report(
          "duplicate-ref", .warning, order: keys.offset, at: store.position, storeID: store.id,
          "the ref \"\(MessageText.shortened(ref))\" is also the ref of \(other.position) (id "
            + "\"\(MessageText.shortened(other.id))\"); the same store may be "
            + "listed twice")
      }
    }
  }

  // MARK: Helpers

  mutating func report(
    _ code: String, _ severity: Diagnostic.Severity, order: Int, at position: SourcePosition?,
    storeID: String? = nil, _ message: String
  ) {
    diagnostics.append(
      (order, Diagnostic(Diagnostic.Code(code), severity, at: position, storeID: storeID, message)))
  }

  /// `line 3:17`.
  private mutating func lineColumn(_ offset: Int) -> String {
    let (line, column) = lines.position(of: offset)
    return "line \(line):\(column)"
  }

  /// "expected ',' or '}' after member "name" at line 3:17, found 'N'".
  private mutating func describe(_ error: JSONSyntaxError) -> String {
    let place = lineColumn(error.offset)
    var text: String
    if error.isEndOfInput {
      text = "expected \(error.expected ?? "more") at \(place), found the end of the input"
    } else if let problem = error.problem {
      text = "\(problem) at \(place)"
    } else {
      let found =
        error.offset < count ? JSONScanner.describe(byte: base[error.offset]) : "the end of the input"
      text = "expected \(error.expected ?? "a value") at \(place), found \(found)"
    }
    if let hint = error.hint { text += " " + hint }
    return text
  }

  /// "the 1 complete feature before it was loaded", "the 3 complete features were loaded".
  private static func loaded(_ count: Int, _ qualifier: String) -> String {
    let middle = qualifier.isEmpty ? " " : " \(qualifier) "
    return count == 1
      ? "the 1 complete feature\(middle)was loaded" : "the \(count) complete features\(middle)were loaded"
  }

  static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool(let flag): flag ? "true" : "false"
    case .number(let literal): "the number \(literal)"
    case .string(let text): "the string \"\(text)\""
    case .array: "an array"
    case .object: "an object"
    }
  }

  private static func crsName(_ crs: JSONValue) -> String? {
    guard case .object(let object) = crs, case .object(let properties)? = object["properties"] else {
      return nil
    }
    return properties["name"]?.stringValue
  }

  /// True for a legacy `crs` that names WGS 84 longitude/latitude (CRS84, EPSG:4326) or is null.
  static func isLongitudeLatitude(_ crs: JSONValue) -> Bool {
    if crs == .null { return true }
    guard let name = crsName(crs)?.lowercased() else { return false }
    let accepted = [
      "urn:ogc:def:crs:ogc:1.3:crs84", "urn:ogc:def:crs:ogc::crs84", "crs84", "ogc:crs84",
      "http://www.opengis.net/def/crs/ogc/1.3/crs84", "epsg:4326", "urn:ogc:def:crs:epsg::4326",
      "urn:ogc:def:crs:epsg:6.6:4326", "http://www.opengis.net/def/crs/epsg/0/4326",
    ]
    return accepted.contains(name)
  }
}

/// A store as read from its feature, before it has its position.
struct FeatureRecord {
  var id: String
  var idSource: StoreIDSource
  var coordinate: Coordinate?
  var properties: JSONObject
  var timezone: String?
  var keys: StoreKeys

  /// Gives a record read ahead (every feature read as feature 0) the id its real `position`
  /// makes, when its id is generated, and returns the stand-in of its `generated-id` note, with
  /// the order the reader sorts it by; `nil` when its id is its own.
  mutating func settleGeneratedID(at position: SourcePosition) -> (order: Int, diagnostic: Diagnostic)? {
    guard idSource == .generated else { return nil }
    id = GeneratedIDNotes.storeID(featureIndex: position.featureIndex)
    keys = StoreKeys(offset: keys.offset, id: id, ref: keys.ref, aliases: keys.aliases)
    return (keys.offset, GeneratedIDNotes.placeholder(at: position))
  }

  /// The store, its parts moved rather than copied.
  consuming func store(at position: SourcePosition) -> Store {
    Store(
      id: id, idSource: idSource, coordinate: coordinate, properties: properties, timezone: timezone,
      position: position)
  }
}

/// What the duplicate checks need of one store.
struct StoreKeys {
  /// Where the store's feature starts, for ordering its diagnostics.
  var offset: Int
  var idHash: Int
  /// The `ref` property as text, `nil` when absent or empty.
  var ref: String?
  var refHash: Int
  /// The property aliases the store was read through, for the loader's one note per alias.
  var aliases: PropertyAliases

  init(offset: Int, id: String, ref: String?, aliases: PropertyAliases = []) {
    self.offset = offset
    self.aliases = aliases
    self.idHash = ExactText(id).hashValue
    self.ref = ref?.isEmpty == false ? ref : nil
    self.refHash = self.ref.map { ExactText($0).hashValue } ?? 0
  }
}

/// The first of equal keys, by hash: a set of positions in open addressing.
///
/// Keys are compared by the caller, with whichever equality the hash agrees with: bytes
/// (`ExactText`) for ids and refs, canonical equivalence (`String`) to find look-alikes.
struct FirstOccurrences {
  /// Each slot: the hash's upper half in the upper 32 bits, the position plus one in the lower (0
  /// is an empty slot).
  private var slots: [UInt64]
  private let mask: Int

  init(count: Int) {
    var capacity = 16
    while capacity < count * 2 { capacity *= 2 }
    slots = Array(repeating: 0, count: capacity)
    mask = capacity - 1
  }

  /// The position of the first key equal to the one at `position` (`isEqual` tells), or `nil` after
  /// recording `position` as the first of its key.
  mutating func first(_ position: Int, hash: Int, where isEqual: (Int) -> Bool) -> Int? {
    let tag = UInt64(UInt(bitPattern: hash)) & 0xFFFF_FFFF_0000_0000
    var slot = hash & mask
    while true {
      let entry = slots[slot]
      if entry == 0 {
        slots[slot] = tag | UInt64(position + 1)
        return nil
      }
      if entry & 0xFFFF_FFFF_0000_0000 == tag {
        let other = Int(entry & 0xFFFF_FFFF) - 1
        if isEqual(other) { return other }
      }
      slot = (slot + 1) & mask
    }
  }
}

extension Store {
  /// A copy with another location and time zone.
  func with(coordinate: Coordinate?, timezone: String?) -> Store {
    Store(
      id: id, idSource: idSource, coordinate: coordinate, properties: properties, timezone: timezone,
      position: position)
  }
}
