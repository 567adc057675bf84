import Synchronization

/// The last stretch a search of a date-dependent schedule found without a change: from an
/// instant up to the change it found, or to its limit. A later search that starts inside the
/// stretch, with the same status there, resumes at the stretch's end instead of walking it again:
/// a batch asks about one value at many instants of a year, and a value that never changes would
/// otherwise walk its century of days once for each of them.
///
/// Shared by every copy of a `Schedule`, like `PaintedDays`; a stretch is only ever stored whole,
/// so a race loses a stretch, never an answer.
final class QuietStretch: Sendable {
  struct Stretch {
    /// The status throughout (state and comment, or the state alone when `sameState`).
    var status: OpeningStatus
    var sameState: Bool
    var start: Instant
    var end: Instant
  }

  private let last = Mutex<Stretch?>(nil)

  /// The stretch that holds `instant` for a search of this kind, if one is known.
  func stretch(holding instant: Instant, status: OpeningStatus, sameState: Bool) -> Stretch? {
    last.withLock { last in
      guard let s = last, s.sameState == sameState, s.status == status, s.start <= instant, instant < s.end
      else { return nil }
      return s
    }
  }

  func remember(_ stretch: Stretch) {
    guard stretch.start < stretch.end else { return }
    last.withLock { $0 = stretch }
  }
}
