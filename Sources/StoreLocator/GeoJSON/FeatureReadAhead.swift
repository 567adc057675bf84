#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reading a large `features` array, or many newline-delimited Features, on several threads.
///
/// The input is cut into stretches at lines that start with `{`. Each stretch is read on its own
/// thread as if a feature started there, and as long as every feature is clean: parsed without a
/// syntax error, with no diagnostic, followed by `,` and another feature (in an array) or by the
/// next record's `{` (newline-delimited). The reader then reads the input as before, one feature at
/// a time, and whenever it arrives at the very offset a stretch started at, it takes that
/// stretch's features instead of reading them again and goes on where the stretch stopped. So the
/// stores, their positions and the diagnostics are those of reading alone: a cut that is not a
/// feature start, or a stretch with a problem, is read (again) in order, and the problem is
/// reported exactly as without threads.
struct FeatureReadAhead {
  /// Where the features are.
  enum Layout: Sendable {
    /// The elements of a `features` array.
    case array
    /// Top-level Feature objects one after another (newline-delimited GeoJSON).
    case records
  }

  /// When to read ahead: arrays shorter than `minimumBytes`, or a single processor, are read alone.
  struct Plan: Sendable {
    var minimumBytes: Int
    var minimumStretchBytes: Int
    var stretches: Int

    /// Never read ahead.
    static var sequential: Plan { Plan(minimumBytes: .max, minimumStretchBytes: .max, stretches: 1) }

    /// Enough stretches per processor to keep every processor busy to the end.
    static var automatic: Plan {
      let processors = ActiveProcessors.count
      return Plan(
        minimumBytes: processors > 1 ? 1 << 20 : .max, minimumStretchBytes: 1 << 18,
        stretches: processors * 4)
    }
  }

  /// The clean features read from one stretch.
  ///
  /// A class, so that the threads can fill it in place; each stretch is filled by one thread.
  final class Stretch {
    /// Where the stretch starts: the offset the reader must arrive at to take its features.
    let start: Int
    /// The features, with lines counted from the stretch's start: line 1 is the line `start` is
    /// on, and its columns count from `start`.
    let features: MoveStack<(record: FeatureRecord, line: Int, column: Int)>
    /// The next feature's offset after the last clean one: where the reader goes on.
    var resume: Int
    /// Line breaks from `start` to the next stretch's start, and `start`'s column: for numbering
    /// the lines of the next stretch without counting them again.
    var lineBreaks = 0
    var column = 1
    /// The stand-ins of the `generated-id` notes of its features, made as they are taken.
    var generatedIDNotes: [(order: Int, diagnostic: Diagnostic)] = []

    /// - Parameter bytes: The stretch's length, to make room for its features at once rather than
    ///   growing step by step (room that is never used costs address space, not memory).
    init(start: Int, bytes: Int) {
      self.start = start
      self.resume = start
      self.features = MoveStack(capacity: bytes / 256 + 16)
    }
  }

  /// What reading ahead gave.
  enum Outcome {
    /// Nothing: the array is too short, or cannot be cut.
    case none
    /// Every stretch ran into the next: all their features, in order, as the reader would make
    /// them from `first` on, and where the reader goes on after them.
    case all(
      stores: [Store], keys: [StoreKeys], generatedIDNotes: [(order: Int, diagnostic: Diagnostic)],
      resume: Int)
    /// Stretches for the reader to take one by one where it arrives at their starts.
    case stretches([Stretch])
  }

  /// Reads ahead the array whose first feature (or what should be one) is at `first`.
  ///
  /// - Parameters:
  ///   - firstIndex: The feature index the reader gives the feature at `first`.
  ///   - firstPosition: The line and column of `first`.
  ///   - progress: Told of the bytes each thread reads, as it reads them.
  static func read(
    _ layout: Layout, base: UnsafePointer<UInt8>, first: Int, end: Int, coordinatesUnusable: Bool, plan: Plan,
    firstIndex: Int, firstPosition: (line: Int, column: Int), progress: WorkProgress? = nil
  ) -> Outcome {
    guard end - first >= plan.minimumBytes else { return .none }
    let starts = stretchStarts(base: base, first: first, end: end, plan: plan)
    guard starts.count > 1 else { return .none }
    let stretches = starts.indices.map { number in
      Stretch(
        start: starts[number], bytes: (number + 1 < starts.count ? starts[number + 1] : end) - starts[number])
    }
    // The threads share the input, which nobody writes, and the stretches, each filled by one thread.
    let shared = Shared(base: base, stretches: stretches)
    ActiveProcessors.run(parts: stretches.count) { number in
      let limit = number + 1 < shared.stretches.count ? shared.stretches[number + 1].start : end
      readStretch(
        shared.stretches[number], layout: layout, base: shared.base!, limit: limit, end: end,
        coordinatesUnusable: coordinatesUnusable, progress: progress)
    }
    for number in 0..<stretches.count - 1 where stretches[number].resume != stretches[number + 1].start {
      return .stretches(stretches)
    }
    return makeStores(stretches, firstIndex: firstIndex, firstPosition: firstPosition)
  }

  /// The stores of stretches that each end where the next starts, made on several threads straight
  /// into their places.
  private static func makeStores(
    _ stretches: [Stretch], firstIndex: Int, firstPosition: (line: Int, column: Int)
  ) -> Outcome {
    var starts: [(slot: Int, line: Int, column: Int)] = []
    var slot = 0
    var line = firstPosition.line
    var column = firstPosition.column
    for (number, stretch) in stretches.enumerated() {
      starts.append((slot, line, column))
      slot += stretch.features.count
      line += stretch.lineBreaks
      if number + 1 < stretches.count { column = stretches[number + 1].column }
    }
    let total = slot
    let firsts = starts
    // Room for the features after the last stretch (usually one), so that adding them does not
    // copy every store.
    let capacity = total + 64
    var stores: [Store] = []
    let keys = [StoreKeys](unsafeUninitializedCapacity: capacity) { keyBuffer, keyCount in
      stores = [Store](unsafeUninitializedCapacity: capacity) { storeBuffer, storeCount in
        let shared = Shared(base: nil, stretches: stretches, stores: storeBuffer, keys: keyBuffer)
        ActiveProcessors.run(parts: stretches.count) { number in
          var (slot, line, column) = firsts[number]
          let firstColumn = column
          var index = firstIndex + slot
          let stretch = shared.stretches[number]
          stretch.features.consumeAll { feature in
            if feature.line == 1 {
              column = firstColumn + feature.column - 1
            } else {
              column = feature.column
            }
            let position = SourcePosition(
              featureIndex: index, line: line + feature.line - 1, column: column)
            var record = feature.record
            if let note = record.settleGeneratedID(at: position) { stretch.generatedIDNotes.append(note) }
            (shared.keys.baseAddress! + slot).initialize(to: record.keys)
            (shared.stores.baseAddress! + slot).initialize(to: record.store(at: position))
            slot += 1
            index += 1
          }
        }
        storeCount = total
      }
      keyCount = total
    }
    return .all(
      stores: stores, keys: keys, generatedIDNotes: stretches.flatMap(\.generatedIDNotes),
      resume: stretches[stretches.count - 1].resume)
  }

  /// What the threads share: each reads the input and fills or empties its own stretch and places.
  private struct Shared: @unchecked Sendable {
    let base: UnsafePointer<UInt8>?
    let stretches: [Stretch]
    var stores = UnsafeMutableBufferPointer<Store>(start: nil, count: 0)
    var keys = UnsafeMutableBufferPointer<StoreKeys>(start: nil, count: 0)
  }

  /// `first`, then for each further share of the bytes the first line after it that starts with
  /// `{` (after spaces or tabs), in increasing order.
  static func stretchStarts(base: UnsafePointer<UInt8>, first: Int, end: Int, plan: Plan) -> [Int] {
    let length = end - first
    let count = max(1, min(plan.stretches, length / max(1, plan.minimumStretchBytes)))
    var starts = [first]
    for share in 1..<max(count, 1) {
      let target = max(first + length / count * share, starts[starts.count - 1] + 1)
      guard let start = lineStartingWithBrace(base: base, from: target, end: end) else { break }
      starts.append(start)
    }
    return starts
  }

  /// The offset of the `{` that starts the first line after `offset` whose first byte other than
  /// spaces, tabs or a carriage return is `{`.
  private static func lineStartingWithBrace(base: UnsafePointer<UInt8>, from offset: Int, end: Int) -> Int? {
    var position = offset
    while position < end {
      guard let found = memchr(base + position, 0x0A, end - position) else { return nil }
      var cursor = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base + 1
      while cursor < end, base[cursor] == 0x20 || base[cursor] == 0x09 || base[cursor] == 0x0D { cursor += 1 }
      if cursor < end, base[cursor] == UInt8(ascii: "{") { return cursor }
      position = cursor
    }
    return nil
  }

  /// Reads clean features from the stretch's start while they start before `limit`, and counts
  /// the line breaks up to `limit`.
  ///
  /// Does what `GeoJSONReader.readFeatureArray` (or `readObjects`) does for a feature without
  /// problems, and stops before the first feature that has any.
  static func readStretch(
    _ stretch: Stretch, layout: Layout, base: UnsafePointer<UInt8>, limit: Int, end: Int,
    coordinatesUnusable: Bool, progress: WorkProgress? = nil
  ) {
    let start = stretch.start
    var reported = start
    var scanner = JSONScanner(base: base, start: start, end: end)
    var lines = LineCounter(base: base, count: end, firstLineStart: start)
    var diagnostics: [(order: Int, diagnostic: Diagnostic)] = []
    reading: while scanner.offset < limit {
      if let progress, scanner.offset >= reported + WorkProgress.byteStep {
        progress.advance(by: scanner.offset - reported)
        reported = scanner.offset
      }
      let featureStart = scanner.offset
      let value: JSONValue
      do throws(JSONSyntaxError) {
        value = try scanner.parseValue()
      } catch {
        break
      }
      guard scanner.duplicateKeys.isEmpty, scanner.loneSurrogates.isEmpty else { break }
      // A top-level object is a plain record only when it is a Feature without the members that
      // the reader applies to a collection's stores (its own `crs` and `timezone`, `features`).
      if layout == .records {
        guard case .object(let object) = value, object["type"] == .string("Feature"),
          object["features"] == nil,
          object["crs"] == nil, object["timezone"] == nil
        else { break }
      }
      // The index and position only go into diagnostics and generated ids: a feature with a
      // diagnostic is not clean, and the reader reads it again in order; one whose only note is
      // its generated id's is, and gets its id and note when taken, where its index is known.
      let record = GeoJSONReader.readFeature(
        value, start: featureStart, index: 0, position: SourcePosition(featureIndex: 0, line: 0, column: 0),
        coordinatesUnusable: coordinatesUnusable, textWarnings: GeoJSONReader.FeatureTextWarnings(),
        diagnostics: &diagnostics)
      let onlyGeneratedID =
        diagnostics.count == 1 && GeneratedIDNotes.isPlaceholder(diagnostics[0].diagnostic)
      guard let record, diagnostics.isEmpty || onlyGeneratedID else { break }
      diagnostics.removeAll(keepingCapacity: true)
      scanner.skipWhitespace()
      switch layout {
      case .array:
        guard !scanner.isAtEnd, scanner.current == UInt8(ascii: ",") else { break reading }
        scanner.offset += 1
        scanner.skipWhitespace()
        guard !scanner.isAtEnd, scanner.current != UInt8(ascii: "]") else { break reading }
      case .records:
        // The input may end after a record; anything but another object is the reader's to report.
        guard scanner.isAtEnd || scanner.current == UInt8(ascii: "{") else { break reading }
      }
      let (line, column) = lines.position(of: featureStart)
      stretch.features.append((record, line, column))
      stretch.resume = scanner.offset
    }
    stretch.lineBreaks = lines.position(of: limit).line - 1
    var lineStart = start
    while lineStart > 0, base[lineStart - 1] != 0x0A { lineStart -= 1 }
    stretch.column = start - lineStart + 1
  }
}
