import Synchronization

/// The day timelines of a date-dependent schedule, in blocks of 64 days painted on first use and
/// then only read: a lookup is three atomic loads and an index, with no lock and nothing written.
///
/// A service asks every schedule about today from every thread at once. The cache this replaces
/// (`PaintedDays`, eight days behind a `Mutex`) took a lock per question and copied the day's
/// arrays out (139 ns within two days, 750 ns for days spread over a year); a lock, or a reference
/// count written per question on an object every thread shares, is what made throughput fall at 12
/// cores (issue 25).
///
/// A block paints each kind of day once (`RuleEvaluator.DayKey`: days with the same key paint the
/// same timeline) and keeps a day's timeline as an index into its few distinct ones, so a block
/// costs about 64 key computations to build and a few hundred bytes to keep. Blocks are published
/// with one compare-and-exchange and never replaced, so a reader never sees one freed; memory stays
/// bounded by `blockLimit` a schedule. Days outside 1900–2258, days whose timeline depends on the
/// sun (each is its own kind: keeping them would cost a timeline a day), and days asked after
/// the limit are painted on each question, as before any cache.
final class DayTable: @unchecked Sendable {
  // `@unchecked Sendable`: the slots are atomics, allocated once and freed with the object; the
  // blocks they point to are immutable once published.

  static let blockDays = 64
  static let segmentBlocks = 64
  static let segmentCount = 32
  /// 1900-01-01.
  static let firstDay = -25_567
  /// The days covered: 131,072 from 1900-01-01 (up to 2258).
  static let dayCount = blockDays * segmentBlocks * segmentCount
  /// At most this many blocks a schedule (about 22 years of days, tens of kilobytes at most): a
  /// service asked about arbitrary dates must not grow without bound.
  static let blockLimit = 128

  private typealias Slot = Atomic<UnsafeRawPointer?>

  /// `segmentCount` slots, each `nil` or `segmentBlocks` block slots.
  private let segments: UnsafeMutablePointer<Slot>
  /// Blocks built or being built (only written when a block is built).
  private let built = Atomic<Int>(0)

  init() {
    segments = .allocate(capacity: Self.segmentCount)
    for i in 0..<Self.segmentCount { (segments + i).initialize(to: Slot(nil)) }
  }

  deinit {
    for s in 0..<Self.segmentCount {
      guard let raw = segments[s].load(ordering: .acquiring) else { continue }
      let blocks = UnsafeMutablePointer<Slot>(mutating: raw.assumingMemoryBound(to: Slot.self))
      for b in 0..<Self.segmentBlocks {
        if let block = blocks[b].load(ordering: .acquiring) { Unmanaged<Block>.fromOpaque(block).release() }
      }
      blocks.deinitialize(count: Self.segmentBlocks)
      blocks.deallocate()
    }
    segments.deinitialize(count: Self.segmentCount)
    segments.deallocate()
  }

  /// The published block holding `day`, if any; nothing is built or written.
  @inline(__always)
  func block(holding day: Int) -> Unmanaged<Block>? {
    let offset = day &- Self.firstDay
    guard offset >= 0, offset < Self.dayCount else { return nil }
    guard let raw = segments[offset >> 12].load(ordering: .acquiring) else { return nil }
    guard let block = raw.assumingMemoryBound(to: Slot.self)[(offset >> 6) & 63].load(ordering: .acquiring)
    else { return nil }
    return Unmanaged.fromOpaque(block)
  }

  /// The block holding `day`, painted with `evaluator` when missing; `nil` outside the covered
  /// days or past `blockLimit`.
  @inline(__always)
  func block(holding day: Int, evaluator: RuleEvaluator) -> Unmanaged<Block>? {
    if let block = block(holding: day) { return block }
    return publish(day: day, evaluator: evaluator)
  }

  @inline(never)
  private func publish(day: Int, evaluator: RuleEvaluator) -> Unmanaged<Block>? {
    let offset = day &- Self.firstDay
    guard offset >= 0, offset < Self.dayCount else { return nil }
    var segment = segments[offset >> 12].load(ordering: .acquiring)
    if segment == nil {
      let fresh = UnsafeMutablePointer<Slot>.allocate(capacity: Self.segmentBlocks)
      for b in 0..<Self.segmentBlocks { (fresh + b).initialize(to: Slot(nil)) }
      let (exchanged, original) = segments[offset >> 12].compareExchange(
        expected: nil, desired: UnsafeRawPointer(fresh), ordering: .acquiringAndReleasing)
      if exchanged {
        segment = UnsafeRawPointer(fresh)
      } else {
        fresh.deinitialize(count: Self.segmentBlocks)
        fresh.deallocate()
        segment = original
      }
    }
    let slots = segment.unsafelyUnwrapped.assumingMemoryBound(to: Slot.self)
    let slot = (offset >> 6) & 63
    // Read first, so that past the limit nothing shared is written per question.
    guard built.load(ordering: .relaxed) < Self.blockLimit else {
      return slots[slot].load(ordering: .acquiring).map { Unmanaged.fromOpaque($0) }
    }
    built.add(1, ordering: .relaxed)
    let block = Block(firstDay: Self.firstDay + (offset & ~63), evaluator: evaluator)
    let raw = UnsafeRawPointer(Unmanaged.passRetained(block).toOpaque())
    // Two threads may paint the same block; the first one published is kept.
    let (exchanged, original) = slots[slot].compareExchange(
      expected: nil, desired: raw, ordering: .acquiringAndReleasing)
    if exchanged { return Unmanaged.fromOpaque(raw) }
    Unmanaged<Block>.fromOpaque(raw).release()
    return Unmanaged.fromOpaque(original.unsafelyUnwrapped)
  }

  /// Sixty-four consecutive days: per day, the index of its timeline among the block's distinct
  /// ones, which are flattened for `isOpen`. Immutable.
  final class Block: @unchecked Sendable {
    /// A day painted on each question (its timeline depends on the sun).
    static let unpainted = UInt16.max

    let firstDay: Int
    /// Per day, its timeline, or `unpainted`.
    private let kinds: UnsafeMutablePointer<UInt16>
    /// `bounds[k]..<bounds[k + 1]` are timeline `k`'s entries in `starts` and `open`.
    private let bounds: UnsafeMutablePointer<Int32>
    private let starts: UnsafeMutablePointer<Int32>
    private let open: UnsafeMutablePointer<Bool>
    let timelines: [DaySegments]

    init(firstDay: Int, evaluator: RuleEvaluator) {
      self.firstDay = firstDay
      // A day whose timeline depends on the sun has no key and differs from every other day.
      let usesSun = evaluator.fixedSpans.contains { $0 == nil }
      var kinds = [UInt16](repeating: Self.unpainted, count: DayTable.blockDays)
      var timelines: [DaySegments] = []
      var byKey: [RuleEvaluator.DayKey: UInt16] = [:]
      var byTimeline: [DaySegments: UInt16] = [:]
      for d in 0..<DayTable.blockDays {
        let day = firstDay + d
        let key = evaluator.dayKey(day)
        if let key, let kind = byKey[key] {
          kinds[d] = kind
          continue
        }
        if key == nil, usesSun { continue }
        let segments = evaluator.segments(day: day)
        let kind: UInt16
        if let known = byTimeline[segments] {
          kind = known
        } else {
          kind = UInt16(timelines.count)
          timelines.append(segments)
          byTimeline[segments] = kind
        }
        if let key { byKey[key] = kind }
        kinds[d] = kind
      }
      self.timelines = timelines
      let entries = timelines.reduce(0) { $0 + $1.starts.count }
      self.kinds = .allocate(capacity: DayTable.blockDays)
      self.kinds.initialize(from: kinds, count: DayTable.blockDays)
      bounds = .allocate(capacity: timelines.count + 1)
      starts = .allocate(capacity: max(1, entries))
      open = .allocate(capacity: max(1, entries))
      var entry = 0
      for (k, timeline) in timelines.enumerated() {
        bounds[k] = Int32(entry)
        for (i, start) in timeline.starts.enumerated() {
          starts[entry] = start
          open[entry] = timeline.statuses[i].state == .open
          entry += 1
        }
      }
      bounds[timelines.count] = Int32(entry)
    }

    deinit {
      kinds.deallocate()
      bounds.deallocate()
      starts.deallocate()
      open.deallocate()
    }

    /// Day `day`'s timeline, or `nil` when it is painted on each question.
    @inline(__always)
    func kind(of day: Int) -> Int? {
      let kind = kinds[day - firstDay]
      return kind == Self.unpainted ? nil : Int(kind)
    }

    /// Whether timeline `kind` is open at `second` into its day.
    @inline(__always)
    func isOpen(kind: Int, second: Int) -> Bool {
      var i = Int(bounds[kind])
      let end = Int(bounds[kind + 1])
      while i + 1 < end, Int(starts[i + 1]) <= second { i += 1 }
      return open[i]
    }
  }
}
