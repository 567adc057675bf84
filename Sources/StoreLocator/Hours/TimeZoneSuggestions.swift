import OpeningHours

/// The zone names most likely meant by one that is not a zone: `Europe/Berlinn`, `europe/berlin`,
/// `Berlin`, `New York`.
public enum TimeZoneSuggestions {
  /// Up to three names from `known`, best first: the same name in other letter case, else zones
  /// whose city (the last part) is `name` (`Berlin`, `New York` → `America/New_York`), else the
  /// names closest by edit distance, ignoring case (within a quarter of the name's length, at
  /// least 2; only those at the smallest distance found).
  /// - Complexity: O(n × m) for n known names of m characters; a few milliseconds for the tz
  ///   database's 600 names.
  public static func closest(to name: String, among known: [String]) -> [String] {
    let folded = fold(name)
    guard !folded.isEmpty else { return [] }
    let sameName = known.filter { fold($0) == folded }
    if !sameName.isEmpty { return Array(sameName.prefix(3)) }
    let sameCity = known.filter { fold(String($0.split(separator: "/").last ?? "")) == folded }
    if !sameCity.isEmpty { return Array(sameCity.prefix(3)) }
    let bound = max(2, folded.count / 4) + 1
    let near = known.compactMap { candidate in
      EditDistance.between(Array(folded), Array(fold(candidate)), below: bound).map { (candidate, $0) }
    }
    let fewest = near.map(\.1).min()
    return near.filter { $0.1 == fewest }.map(\.0).sorted().prefix(3).map { $0 }
  }

  /// A zone name's letters as compared: lowercased, spaces as the database's underscores.
  private static func fold(_ name: String) -> String {
    String(name.lowercased().map { $0 == " " ? "_" : $0 })
  }

  /// The sentence for a zone name that did not load: `error`'s, and the names most likely meant
  /// from the system's tz database (`; did you mean Europe/Berlin?`) when it is not one of them.
  public static func message(for error: TimeZoneRulesError) -> String {
    let known = TimeZoneRules.identifiers()
    guard !known.contains(error.identifier) else { return error.description }
    let closest = closest(to: error.identifier, among: known)
    guard !closest.isEmpty else { return error.description }
    return error.description + "; did you mean " + closest.joined(separator: " or ") + "?"
  }
}
