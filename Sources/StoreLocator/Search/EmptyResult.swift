import GeoIndex
import OpeningHours

/// Where a search looked, as `nearest`, `stores(within:of:)` and `stores(in:)` were asked: what
/// an explanation of an empty answer needs to repeat the question and look in the same place.
public enum SearchArea: Hashable, Sendable {
  /// The stores nearest to a point, anywhere or within `maximumDistance` of it.
  case nearest(to: Coordinate, within: Distance?)
  /// Every store within `radius` of `center`.
  case circle(center: Coordinate, radius: Distance)
  /// Every store inside a box (which may cross the antimeridian).
  case box(GeoBox)
}

/// Why a query found no store: the sentence that says what was asked, and what the catalog can
/// tell about the cause (no stores at all, a property no store has, no opening hours in reach…).
///
/// The CLI prints `sentence` as its empty answer and each reason on standard error; an HTTP
/// service can return the same sentences.
public struct EmptyResultExplanation: Hashable, Sendable {
  /// One cause the catalog could establish.
  public struct Reason: Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Hashable, Sendable {
      /// The data holds no store records at all.
      case noStores = "no-stores"
      /// The data holds stores, but none has a location, so no search can find one.
      case noLocatedStores = "no-located-stores"
      /// A `--where` condition names a property no store has.
      case unknownProperty = "unknown-property"
      /// A `--where KEY=VALUE` condition names a value no store has for that key.
      case unknownValue = "unknown-value"
      /// An opening-hours condition removed every store in reach, and none of them has usable
      /// opening hours.
      case noOpeningHours = "no-opening-hours"
      /// An opening-hours condition removed every store in reach, and some of them have hours
      /// that are unknown at that time.
      case hoursUnknown = "hours-unknown"
      /// Every store in reach is closed at that time.
      case allClosed = "all-closed"
    }

    public let code: Code
    /// A sentence fragment without a final full stop, such as "no store has the property
    /// 'Drive_Through'; did you mean 'drive_through'?".
    public let message: String
    /// Close keys or values for `unknownProperty` and `unknownValue`, best first.
    public let suggestions: [String]

    public var description: String { message }
  }

  /// "No stores within 2.0 km of 47.6,-122.3 match drive_through=yes.", or for a catalog without
  /// stores, "No stores: empty.geojson has no stores."
  public let sentence: String
  /// The causes found, most basic first; empty when the answer is simply that no store there
  /// meets the conditions.
  public let reasons: [Reason]
}

extension Catalog {
  /// Explains an empty answer to a query: repeats the question in one sentence and says what the
  /// catalog can tell about why nothing came back.
  ///
  /// Call it only when a query returned nothing: it looks at the stores again (all of them, for
  /// the `--where` keys and values, and every store in reach, for the opening hours), which a
  /// search that found stores never needs. On a snapshot that decodes records, so it is kept off
  /// the path of answers that have results.
  /// - Parameters:
  ///   - area: Where the search looked.
  ///   - filter: The conditions on properties the search applied.
  ///   - open: The opening-hours condition the search applied, if any.
  ///   - distanceText: How to write a distance in the sentence (the CLI passes its `--units`);
  ///     kilometres by default.
  /// - Returns: The sentence and the reasons found.
  /// - Complexity: O(n) for the property check when a key or value is missing (it stops at the
  ///   first store that has each otherwise), plus O(log n + m) for the m stores in reach when
  ///   `open` is given.
  public func explainEmptyResult(
    in area: SearchArea, where filter: StoreFilter = .all, open: OpeningRequirement? = nil,
    distanceText: ((Distance) -> String)? = nil, style: ParameterStyle = .commandLine
  ) -> EmptyResultExplanation {
    let sourceName = source == "-" ? "standard input" : source
    guard !stores.isEmpty else {
      return EmptyResultExplanation(
        sentence: "No stores: \(sourceName) has no stores.",
        reasons: [.init(code: .noStores, message: "\(sourceName) has no stores", suggestions: [])])
    }
    guard indexedCount > 0 else {
      let count = stores.count
      let message =
        count == 1
        ? "the one store in \(sourceName) has no location"
        : "none of the \(count) stores in \(sourceName) has a location"
      return EmptyResultExplanation(
        sentence: "No stores: \(message).",
        reasons: [.init(code: .noLocatedStores, message: message, suggestions: [])])
    }
    let reach = reachPhrase(area, distanceText ?? { $0.kilometersText })
    var predicates: [String] = []
    if !filter.isEmpty {
      predicates.append("match " + filter.conditions.map(\.description).joined(separator: " and "))
    }
    if let open { predicates.append("are open " + open.phrase) }
    let sentence =
      "No stores \(reach.sentence)" + (predicates.isEmpty ? "" : " " + predicates.joined(separator: " and "))
      + "."

    var reasons = propertyReasons(for: filter)
    // A property nobody has explains everything; the hours are worth a look only when the
    // conditions on properties can be met.
    if reasons.isEmpty, let open {
      reasons += hoursReasons(in: area, reach: reach.fragment, filter: filter, open: open, style: style)
    }
    return EmptyResultExplanation(sentence: sentence, reasons: reasons)
  }

  /// How the sentence names the area ("within 2.0 km of 47.6,-122.3") and how a reason does
  /// ("within 2.0 km of 47.6,-122.3", or "in the data" for a search without bounds).
  private func reachPhrase(_ area: SearchArea, _ distanceText: (Distance) -> String) -> (
    sentence: String, fragment: String
  ) {
    switch area {
    case .nearest(let center, nil): return ("near \(center)", "in the data")
    case .nearest(let center, let maximum?):
      let text = "within \(distanceText(maximum)) of \(center)"
      return (text, text)
    case .circle(let center, let radius):
      let text = "within \(distanceText(radius)) of \(center)"
      return (text, text)
    case .box(let box):
      let text = "inside \(box.west),\(box.south),\(box.east),\(box.north)"
      return (text, text)
    }
  }

  // MARK: Properties

  /// The conditions that no store can meet because their key, or their value, is on no store.
  ///
  /// One pass over the stores, stopping as soon as every condition's key and value have been
  /// seen; only a key or value that is really missing costs a full pass (which it needs, to be
  /// sure, and to collect the close keys and values).
  private func propertyReasons(for filter: StoreFilter) -> [EmptyResultExplanation.Reason] {
    // `KEY!=VALUE` never empties a result by naming something absent: it excludes nothing then.
    let checked = filter.conditions.filter {
      if case .notEquals = $0.test { return false }
      return true
    }
    guard !checked.isEmpty else { return [] }
    var keySeen = Array(repeating: false, count: checked.count)
    var valueSeen = Array(repeating: false, count: checked.count)
    for (i, condition) in checked.enumerated() {
      if case .present = condition.test { valueSeen[i] = true }
    }
    var allKeys: [String: Int] = [:]
    var values: [String: [String: Int]] = [:]
    for store in stores {
      if keySeen.allSatisfy({ $0 }) && valueSeen.allSatisfy({ $0 }) { break }
      let missingKey = keySeen.contains(false)
      for (i, condition) in checked.enumerated() where !(keySeen[i] && valueSeen[i]) {
        guard let value = store.properties[condition.key] else { continue }
        keySeen[i] = true
        if !valueSeen[i] {
          if condition.matches(store) {
            valueSeen[i] = true
          } else {
            Self.tally(value, into: &values[condition.key, default: [:]])
          }
        }
      }
      if missingKey {
        for member in store.properties { allKeys[member.key, default: 0] += 1 }
      }
    }
    var reasons: [EmptyResultExplanation.Reason] = []
    for (i, condition) in checked.enumerated() {
      if !keySeen[i] {
        let close = Self.closest(to: condition.key, among: allKeys)
        var message = "no store has the property '\(condition.key)'"
        if !close.isEmpty {
          message += "; did you mean " + close.map { "'\($0)'" }.joined(separator: " or ") + "?"
        }
        reasons.append(.init(code: .unknownProperty, message: message, suggestions: close))
      } else if !valueSeen[i], case .equals(let wanted) = condition.test {
        let seen = values[condition.key] ?? [:]
        let close = Self.closest(to: wanted, among: seen)
        var message = "no store has \(condition)"
        let shown = 8
        let common = seen.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map(\.key)
        if !common.isEmpty {
          message += " (values seen: " + common.prefix(shown).joined(separator: ", ")
          message += common.count > shown ? " and \(common.count - shown) more)" : ")"
        }
        if let best = close.first { message += "; did you mean \(condition.key)=\(best)?" }
        reasons.append(.init(code: .unknownValue, message: message, suggestions: close))
      }
    }
    return reasons
  }

  /// Counts the values of a property as `--where` compares them: scalars, array elements and the
  /// parts of `;` lists. At most a few hundred distinct values are kept: enough for a hint.
  private static func tally(_ value: JSONValue, into counts: inout [String: Int]) {
    let capacity = 500
    func add(_ text: String) {
      guard !text.isEmpty, counts[text] != nil || counts.count < capacity else { return }
      counts[text, default: 0] += 1
    }
    switch value {
    case .array(let elements): for element in elements { element.scalarText.map(add) }
    case .string(let text) where text.contains(";"):
      for part in text.split(separator: ";") { add(String(part).trimmingWhitespaceAndNewlines) }
    default: value.scalarText.map(add)
    }
  }

  /// Up to three of `candidates` that look like `wanted`: the same ignoring case first, then the
  /// fewest edits (at most a third of the length, and at least 2), then the most stores.
  static func closest(to wanted: String, among candidates: [String: Int]) -> [String] {
    let target = Array(wanted.lowercased())
    let allowed = max(2, target.count / 3)
    return candidates.compactMap { candidate, count -> (String, Int, Int)? in
      let distance = EditDistance.between(target, Array(candidate.lowercased()), below: allowed + 1)
      return distance.map { (candidate, $0, count) }
    }
    .sorted { ($0.1, $1.2, $0.0) < ($1.1, $0.2, $1.0) }
    .prefix(3).map(\.0)
  }

  // MARK: Opening hours

  /// Why the opening-hours condition left nothing: the stores in reach that meet `filter` have no
  /// usable hours, or hours unknown then, or are all closed.
  private func hoursReasons(
    in area: SearchArea, reach: String, filter: StoreFilter, open: OpeningRequirement, style: ParameterStyle
  ) -> [EmptyResultExplanation.Reason] {
    let positions = storePositions(in: area, where: filter)
    guard !positions.isEmpty else { return [] }
    let stores = positions.count == 1 ? "the one store" : "the \(positions.count) stores"
    let matching =
      filter.isEmpty ? "" : " that match " + filter.conditions.map(\.description).joined(separator: " and ")
    var withoutHours: [String: Int] = [:]
    var unknown = 0
    for position in positions {
      guard let schedule = schedule(at: position) else {
        withoutHours[scheduleGap(at: position) ?? "no opening_hours", default: 0] += 1
        continue
      }
      if open.state(of: schedule) == .unknown { unknown += 1 }
    }
    let allowUnknown =
      "add \(style == .commandLine ? "--allow-unknown" : "allow_unknown=true") to include stores whose hours are unknown"
    let missing = withoutHours.values.reduce(0, +)
    if missing == positions.count, !open.allowsUnknown {
      let none = positions.count == 1 ? "the one store" : "none of the \(positions.count) stores"
      var detail = "\(none) \(reach)\(matching) has "
      if withoutHours.keys.elementsEqual(["no opening_hours"]) {
        detail += positions.count == 1 ? "no opening_hours" : "opening_hours"
      } else {
        detail +=
          (positions.count == 1 ? "no usable ones: " : "usable ones: ")
          + withoutHours.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
          .map { "\($0.key) \($0.value)" }.joined(separator: ", ")
      }
      return [
        .init(
          code: .noOpeningHours, message: "no store in reach has opening hours (\(detail)); \(allowUnknown)",
          suggestions: [])
      ]
    }
    if missing + unknown > 0, !open.allowsUnknown {
      return [
        .init(
          code: .hoursUnknown,
          message: "none of \(stores) \(reach)\(matching) is known to be open \(open.phrase): the hours of "
            + "\(missing + unknown) are unknown then; \(allowUnknown)", suggestions: [])
      ]
    }
    return [
      .init(
        code: .allClosed,
        message:
          "\(stores) \(reach)\(matching) \(positions.count == 1 ? "is" : "are all") closed \(open.phrase)",
        suggestions: [])
    ]
  }

  /// The positions in `stores` of the located stores in `area` that meet `filter`, ignoring any
  /// limit on how many a search returns.
  private func storePositions(in area: SearchArea, where filter: StoreFilter) -> [Int] {
    let treeIndices: [Int]
    switch area {
    case .nearest(_, nil): treeIndices = Array(0..<tree.count)
    case .nearest(let center, let maximum?): treeIndices = tree.within(maximum, of: center).map(\.index)
    case .circle(let center, let radius): treeIndices = tree.within(radius, of: center).map(\.index)
    case .box(let box): treeIndices = tree.within(box)
    }
    return treeIndices.lazy.map { Int(self.storePositions[$0]) }
      .filter { filter.isEmpty || table.matches(filter, at: $0) }
  }
}

extension OpeningRequirement {
  /// "at 2026-12-24T09:00:00Z", "at 2026-12-24T09:00 (local time at each store) for 30 min".
  var phrase: String {
    var text = "at \(time)"
    if seconds > 0 {
      let minutes = (seconds + 59) / 60
      text +=
        seconds < 60
        ? " for \(seconds) s"
        : minutes < 60
          ? " for \(minutes) min"
          : " for \(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
    }
    return text
  }
}

extension PickupPlan {
  /// When no store could take an order because every store considered has unknown hours (none,
  /// hours that do not parse, no time zone…) and unknown hours were not allowed: the sentence
  /// that says so and how to include them, as `explainEmptyResult` says it for searches.
  /// `nil` when some store was passed over for being closed (then it is a matter of time).
  static func unknownHoursExplanation(passedOver: [PassedOverStore], allowsUnknownHours: Bool) -> String? {
    guard !allowsUnknownHours else { return nil }
    let closed: Set<PassedOverStore.Reason> = [.closedAtPickup, .closesBeforePickup, .closesTooSoon]
    guard !passedOver.contains(where: { closed.contains($0.reason) }) else { return nil }
    let withoutHours = passedOver.count { $0.reason == .noOpeningHours }
    let unknown = passedOver.count { $0.reason == .hoursUnknown }
    guard withoutHours + unknown > 0 else { return nil }
    // In the pickup result itself, which the command line and the service write alike.
    let allowUnknown = "allow unknown hours (allow_unknown, --allow-unknown) to include those stores"
    let stores = withoutHours == 1 ? "the one store" : "the \(withoutHours) stores"
    if unknown == 0 {
      return "no store can serve the order: no store in reach has opening hours (\(stores) considered "
        + "\(withoutHours == 1 ? "has" : "have") no opening_hours); \(allowUnknown)"
    }
    return "no store can serve the order: the hours of every store in reach are unknown at pickup "
      + "(\(withoutHours) without opening_hours, \(unknown) unknown then); \(allowUnknown)"
  }
}
