import Synchronization

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
///
/// The input is read ahead a window at a time (`Plan.windowBytes`): while the reader turns one
/// window's features into rows, the next is read on the other processors (`Window`), and the one
/// after waits until then. So at most two windows' records are in memory at once, never a large
/// file's all.
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
    /// Into how many stretches a window is cut.
    var stretches: Int
    /// How many bytes are read ahead at once: the records of one window are in memory together
    /// before the reader turns them into rows.
    var windowBytes: Int = .max

    /// Never read ahead.
    static var sequential: Plan { Plan(minimumBytes: .max, minimumStretchBytes: .max, stretches: 1) }

    /// Enough stretches per processor to keep every processor busy to the end of a window, and
    /// windows of 16 MB: about 35,000 records of a chain at a time (two windows while the next is
    /// read beside the reader), not a whole file's.
    static var automatic: Plan {
      let processors = ActiveProcessors.count
      return Plan(
        minimumBytes: processors > 1 ? 1 << 20 : .max, minimumStretchBytes: 1 << 18,
        stretches: processors * 4, windowBytes: 16 << 20)
    }
  }

  /// The clean features read from one stretch.
  ///
  /// A class, so that the threads can fill it in place; each stretch is filled by one thread.
  final class Stretch {
    /// Where the stretch starts: the offset the reader must arrive at to take its features.
    let start: Int
    /// The features, with lines counted from the stretch's start: line 1 is the line `start` is
    /// on, and its columns count from `start`. With each, what its hours read and where its row's
    /// draft lies in `drafts`.
    let features: MoveStack<Feature>
    /// The features' keys and values as their rows take them (`RowDraft`), back to back: one
    /// buffer a stretch, not an allocation a feature for the reader to free.
    var drafts = SnapshotWriter()
    /// The next feature's offset after the last clean one: where the reader goes on.
    var resume: Int

    typealias Feature = (record: FeatureRecord, hours: HoursDraft, draft: Range<Int>, line: Int, column: Int)

    /// - Parameter bytes: The stretch's length, to make room for its features at once rather than
    ///   growing step by step (room that is never used costs address space, not memory).
    init(start: Int, bytes: Int) {
      self.start = start
      self.resume = start
      self.features = MoveStack(capacity: bytes / 256 + 16)
    }
  }

  /// A window's stretches being read: by threads of their own from the start, and by the reader
  /// too once it asks for them (`finish`), each stretch by the first thread to claim it. So the
  /// reader can start the next window and turn this one's features into rows meanwhile, the
  /// other processors reading on beside it.
  final class Window: @unchecked Sendable {
    let layout: Layout
    let coordinatesUnusable: Bool
    /// The offset the window's features start before.
    let windowEnd: Int
    private let stretches: [Stretch]
    private let base: UnsafePointer<UInt8>
    private let end: Int
    private let keepingProperties: Bool
    private let progress: WorkProgress?
    /// The number of the next stretch no thread has claimed.
    private let claimed = Atomic<Int>(0)
    private var threads: ActiveProcessors.Started?

    /// Starts reading the window of features that start from `first` (the first feature, or
    /// what should be one) to before `windowEnd` on every processor but the caller's; `nil` when
    /// it is too short to cut.
    ///
    /// The caller must call `finish()` before the input's bytes go: the threads read them.
    /// - Parameters:
    ///   - keepingProperties: Keep each record's properties (when the reader keeps its records);
    ///     else they are let go on the thread that read them, once its row's draft is written.
    ///   - progress: Told of the bytes each thread reads, as it reads them.
    static func start(
      _ layout: Layout, base: UnsafePointer<UInt8>, first: Int, end: Int, windowEnd: Int,
      coordinatesUnusable: Bool, keepingProperties: Bool = true, plan: Plan, progress: WorkProgress? = nil
    ) -> Window? {
      guard end - first >= plan.minimumBytes else { return nil }
      let starts = stretchStarts(base: base, first: first, end: windowEnd, plan: plan)
      guard starts.count > 1 else { return nil }
      let stretches = starts.indices.map { number in
        Stretch(
          start: starts[number],
          bytes: (number + 1 < starts.count ? starts[number + 1] : windowEnd) - starts[number])
      }
      let window = Window(
        layout: layout, coordinatesUnusable: coordinatesUnusable, windowEnd: windowEnd,
        stretches: stretches, base: base, end: end, keepingProperties: keepingProperties, progress: progress)
      let helpers = min(ActiveProcessors.count, stretches.count) - 1
      window.threads = ActiveProcessors.start(parts: 0..<helpers) { _ in window.readUnclaimed() }
      return window
    }

    private init(
      layout: Layout, coordinatesUnusable: Bool, windowEnd: Int, stretches: [Stretch],
      base: UnsafePointer<UInt8>, end: Int, keepingProperties: Bool, progress: WorkProgress?
    ) {
      self.layout = layout
      self.coordinatesUnusable = coordinatesUnusable
      self.windowEnd = windowEnd
      self.stretches = stretches
      self.base = base
      self.end = end
      self.keepingProperties = keepingProperties
      self.progress = progress
    }

    deinit { threads.take()?.join() }

    /// The window's stretches, every one read: the caller reads those no thread has claimed yet,
    /// then waits for the threads.
    func finish() -> [Stretch] {
      readUnclaimed()
      threads.take()?.join()
      return stretches
    }

    /// Reads stretches, in order, until none is left to claim.
    private func readUnclaimed() {
      while true {
        let number = claimed.wrappingAdd(1, ordering: .relaxed).oldValue
        guard number < stretches.count else { return }
        let limit = number + 1 < stretches.count ? stretches[number + 1].start : windowEnd
        readStretch(
          stretches[number], layout: layout, base: base, limit: limit, end: end,
          coordinatesUnusable: coordinatesUnusable, keepingProperties: keepingProperties, progress: progress)
      }
    }
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

  /// Where a window that follows one ending at `windowEnd` starts: the first line at or after it
  /// that starts with `{` (`nil`: none before `end`).
  static func nextWindowStart(base: UnsafePointer<UInt8>, after windowEnd: Int, end: Int) -> Int? {
    lineStartingWithBrace(base: base, from: windowEnd - 1, end: end)
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

  /// Reads clean features from the stretch's start while they start before `limit`.
  ///
  /// Does what `GeoJSONReader.readFeatureArray` (or `readObjects`) does for a feature without
  /// problems, and stops before the first feature that has any.
  static func readStretch(
    _ stretch: Stretch, layout: Layout, base: UnsafePointer<UInt8>, limit: Int, end: Int,
    coordinatesUnusable: Bool, keepingProperties: Bool = true, progress: WorkProgress? = nil
  ) {
    let start = stretch.start
    var reported = start
    var scanner = JSONScanner(base: base, start: start, end: end)
    var lines = LineCounter(base: base, count: end, firstLineStart: start)
    var diagnostics: [(order: Int, diagnostic: Diagnostic)] = []
    var scratch = JSONBytes(capacity: 256)
    // A record whose properties go once its draft is written needs none but those read as text.
    var drafter = keepingProperties ? nil : FeatureDrafter()
    reading: while scanner.offset < limit {
      if let progress, scanner.offset >= reported + WorkProgress.byteStep {
        progress.advance(by: scanner.offset - reported)
        reported = scanner.offset
      }
      let featureStart = scanner.offset
      let value: JSONValue
      let drafted: Bool
      if let read = drafter?.read(&scanner) {
        value = read
        drafted = true
      } else {
        // Not an ordinary Feature: read again in full, so that what is wrong is found as alone.
        scanner.offset = featureStart
        scanner.resetDepth()
        scanner.duplicateKeys.removeAll()
        scanner.loneSurrogates.removeAll()
        do throws(JSONSyntaxError) {
          value = try scanner.parseValue()
        } catch {
          break
        }
        drafted = false
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
      guard var record, diagnostics.isEmpty || onlyGeneratedID else { break }
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
      // The row's keys and values, and what its hours read, are taken here, on this thread, not by
      // the one that builds the rows; then the properties are let go here too.
      let address = AddressMembers(record.properties)
      let draftStart = stretch.drafts.count
      if drafted {
        drafter!.writeDraft(properties: record.properties, address: address, into: &stretch.drafts)
      } else {
        RowDraft.write(record.properties, address: address, into: &stretch.drafts, scratch: &scratch)
      }
      let hours = HoursDraft(timezone: record.timezone, properties: record.properties, address: address)
      if !keepingProperties { record.properties = JSONObject() }
      stretch.features.append((record, hours, draftStart..<stretch.drafts.count, line, column))
      stretch.resume = scanner.offset
    }
  }
}
