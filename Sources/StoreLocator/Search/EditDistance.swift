/// The Levenshtein distance, bounded: what the "did you mean" hints rank by (similar store ids,
/// `--where` values, command names).
public enum EditDistance {
  /// The fewest insertions, deletions and substitutions of elements that turn `a` into `b`, or
  /// `nil` when that is `bound` or more.
  ///
  /// Compares elements as given: pass `Array(text.unicodeScalars)` to count scalars, a `String`
  /// or `Array(text)` to count characters, and lowercase both first to ignore case. Two rows of
  /// the table are kept and reused; a row whose every entry reaches `bound` ends the count early.
  /// - Complexity: O(`a.count` × `b.count`), usually much less when `bound` is small.
  public static func between<A: Collection, B: Collection>(
    _ a: A, _ b: B, below bound: Int = .max
  ) -> Int? where A.Element == B.Element, A.Element: Equatable {
    let aCount = a.count
    let bCount = b.count
    // The length difference alone takes that many edits.
    guard bound > 0, abs(aCount - bCount) < bound else { return nil }
    guard aCount > 0, bCount > 0 else { return max(aCount, bCount) }
    // previous[j] is the distance from the first i - 1 elements of `a` to the first j of `b`.
    var previous = Array(0...bCount)
    var current = Array(repeating: 0, count: bCount + 1)
    var i = 0
    for x in a {
      i += 1
      current[0] = i
      var rowMinimum = i
      var j = 0
      for y in b {
        j += 1
        let edits = min(previous[j - 1] + (x == y ? 0 : 1), previous[j] + 1, current[j - 1] + 1)
        current[j] = edits
        rowMinimum = min(rowMinimum, edits)
      }
      // The distance is at least the smallest entry of every row.
      if rowMinimum >= bound { return nil }
      swap(&previous, &current)
    }
    return previous[bCount] < bound ? previous[bCount] : nil
  }

  /// The candidate fewest edits from `word`, fewer than `bound` (the first of equals), or `nil`:
  /// the "did you mean" of a name that is not one of a short list (parameters, members). Bounded,
  /// so a hostile megabyte-long name costs no more than a short one.
  public static func closest(to word: String, among candidates: [String], below bound: Int) -> String? {
    candidates.compactMap { candidate in between(word, candidate, below: bound).map { (candidate, $0) } }
      .min { $0.1 < $1.1 }?.0
  }
}
