/// The diagnostics a pickup's `hours-warnings` notice repeats: each store's opening-hours
/// warnings (tolerated syntax, doubtful rules, missing holiday data), found by the store's feature
/// with a binary search.
///
/// The planner used to scan every diagnostic for each assigned store: on the 1M-store benchmark,
/// whose million stores each carry a `timezone-inferred` note, that scan was 60% of a pickup's
/// time. The index is made once per table, on the first assignment, and read without a lock.
struct PickupHoursNotes: Sendable {
  /// The feature index of each note, ascending.
  private let features: [Int]
  /// The notes, in the order of `features`, and in input order within one feature.
  private let notes: [Diagnostic]

  /// The notes among `diagnostics`: an `opening-hours-*` code other than `opening-hours-invalid`
  /// (the store's hours are unknown then, which the plan says otherwise), with a position.
  init(_ diagnostics: [Diagnostic]) {
    var selected: [(feature: Int, offset: Int)] = []
    for (offset, diagnostic) in diagnostics.enumerated() {
      let code = diagnostic.code.rawValue
      guard let position = diagnostic.position, code.hasPrefix("opening-hours-"),
        code != "opening-hours-invalid"
      else { continue }
      selected.append((position.featureIndex, offset))
    }
    // Diagnostics are in input order already; sorting keeps any that are not findable all the same.
    selected.sort { ($0.feature, $0.offset) < ($1.feature, $1.offset) }
    features = selected.map(\.feature)
    notes = selected.map { diagnostics[$0.offset] }
  }

  /// The messages of the notes about the store `id` whose feature is `feature`, in input order.
  func messages(of id: String, feature: Int) -> [String] {
    var low = 0
    var high = features.count
    while low < high {
      let middle = (low + high) / 2
      if features[middle] < feature { low = middle + 1 } else { high = middle }
    }
    var messages: [String] = []
    while low < features.count, features[low] == feature {
      if notes[low].storeID == id { messages.append(notes[low].message) }
      low += 1
    }
    return messages
  }
}

extension Catalog {
  /// The opening-hours notes of every store, indexed by feature, made on first use.
  var pickupHoursNotes: PickupHoursNotes {
    table.pickupHoursNotes.value { PickupHoursNotes(table.diagnosticsWithoutInferredZoneNotes) }
  }
}
