import Synchronization

/// The last stretch a search of a date-dependent schedule found without a change: from an
/// instant up to the change it found, or to its limit. A later search that starts inside the
/// stretch, with the same status there, resumes at the stretch's end instead of walking it again:
/// a batch asks about one value at many instants of a year, and a value that never changes would
/// otherwise walk its century of days once for each of them.
///
/// Shared by every copy of a `Schedule`, like `DayTable`, and read from every thread: a sequence
/// lock, so a reader writes nothing (it retries nothing either: a stretch being written is simply
/// not known), and a writer writes only a stretch that tells more than the known one by at least a
/// day, so a service asking "until when?" at every second does not write it per question. The
/// status is kept as its state and the index of its comment among the schedule's possible ones;
/// a status with another comment is not kept. A stretch is only ever read whole, so a race loses a
/// stretch, never an answer.
final class QuietStretch: Sendable {
  struct Stretch {
    /// The status throughout (state and comment, or the state alone when `sameState`).
    var status: OpeningStatus
    var sameState: Bool
    var start: Instant
    var end: Instant
  }

  /// The comments a status of this schedule can carry (its rules', the "no data" reasons).
  private let comments: [String]
  /// Even when no writer is inside; `kind` is 0 while nothing is known.
  private let sequence = Atomic<UInt64>(0)
  private let kind = Atomic<UInt64>(0)
  private let start = Atomic<Int64>(0)
  private let end = Atomic<Int64>(0)

  init(comments: [String]) {
    var distinct: [String] = []
    for comment in comments where !distinct.contains(comment) { distinct.append(comment) }
    self.comments = distinct
  }

  /// The code of a status and the kind of search, never 0; `nil` for a comment not listed.
  private func code(_ status: OpeningStatus, sameState: Bool) -> UInt64? {
    let state: UInt64 =
      switch status.state {
      case .open: 0
      case .closed: 1
      case .unknown: 2
      }
    var comment: UInt64 = 0
    if let text = status.comment {
      guard let i = comments.firstIndex(of: text) else { return nil }
      comment = UInt64(i + 1)
    }
    return 1 + (sameState ? 1 : 0) + 2 * (state + 3 * comment)
  }

  /// The known stretch, read whole, or `nil` while a writer is inside.
  private func read() -> (kind: UInt64, start: Int64, end: Int64)? {
    let before = sequence.load(ordering: .acquiring)
    guard before & 1 == 0 else { return nil }
    let k = kind.load(ordering: .relaxed)
    let s = start.load(ordering: .relaxed)
    let e = end.load(ordering: .relaxed)
    atomicMemoryFence(ordering: .acquiring)
    guard sequence.load(ordering: .relaxed) == before, k != 0 else { return nil }
    return (k, s, e)
  }

  /// The stretch that holds `instant` for a search of this kind, if one is known.
  func stretch(holding instant: Instant, status: OpeningStatus, sameState: Bool) -> Stretch? {
    guard let code = code(status, sameState: sameState), let known = read(), known.kind == code,
      known.start <= instant.secondsSinceEpoch, instant.secondsSinceEpoch < known.end
    else { return nil }
    return Stretch(
      status: status, sameState: sameState, start: Instant(secondsSinceEpoch: known.start),
      end: Instant(secondsSinceEpoch: known.end))
  }

  func remember(_ stretch: Stretch) {
    guard stretch.start < stretch.end, let code = code(stretch.status, sameState: stretch.sameState) else {
      return
    }
    let newStart = stretch.start.secondsSinceEpoch
    let newEnd = stretch.end.secondsSinceEpoch
    // A stretch of less than a day saves a search little; one the known stretch nearly holds,
    // nothing: neither is worth a write every thread then reads.
    guard newEnd - newStart >= 86_400 else { return }
    if let known = read(), known.kind == code, known.start <= newStart, newEnd < known.end + 86_400 { return }
    let before = sequence.load(ordering: .relaxed)
    guard before & 1 == 0,
      sequence.compareExchange(expected: before, desired: before + 1, ordering: .relaxed).exchanged
    else { return }
    atomicMemoryFence(ordering: .releasing)
    kind.store(code, ordering: .relaxed)
    start.store(newStart, ordering: .relaxed)
    end.store(newEnd, ordering: .relaxed)
    sequence.store(before + 2, ordering: .releasing)
  }
}
