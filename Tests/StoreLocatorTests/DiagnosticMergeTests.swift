import Testing

@testable import StoreLocator

/// `Catalog.merged`: the loader's diagnostics and the per-store ones from compiling hours, in
/// input order, whether the one-pass merge or the sort makes it.
@Suite struct DiagnosticMergeTests {
  /// The order the loader promises, written the slow way: by feature (a diagnostic without a
  /// position carries the feature before it; an added one without a position goes last), the
  /// loader's before the added ones, then as they came.
  static func reference(_ loaded: [Diagnostic], _ added: [Diagnostic]) -> [Diagnostic] {
    var feature = -1
    var keyed: [(key: Int, group: Int, offset: Int, diagnostic: Diagnostic)] = []
    for (offset, diagnostic) in loaded.enumerated() {
      feature = diagnostic.position?.featureIndex ?? feature
      keyed.append((feature, 0, offset, diagnostic))
    }
    for (offset, diagnostic) in added.enumerated() {
      keyed.append((diagnostic.position?.featureIndex ?? Int.max, 1, offset, diagnostic))
    }
    return keyed.sorted { ($0.key, $0.group, $0.offset) < ($1.key, $1.group, $1.offset) }.map(\.diagnostic)
  }

  static func diagnostic(_ feature: Int?, _ label: String) -> Diagnostic {
    Diagnostic(
      Diagnostic.Code("test"), .note,
      at: feature.map { SourcePosition(featureIndex: $0, line: $0 + 1, column: 1) }, storeID: nil, label)
  }

  @Test func mergesInInputOrderSortedOrNot() {
    var generator = SystemRandomNumberGenerator()
    for round in 0..<400 {
      // Half the rounds keep each list in feature order (the merge), half shuffle them (the sort).
      let sortedInput = round % 2 == 0
      func list(_ name: String, count: Int) -> [Diagnostic] {
        var features = (0..<count).map { _ in Int.random(in: 0..<12, using: &generator) }
        if sortedInput { features.sort() }
        return features.enumerated().map { offset, feature in
          Self.diagnostic(Int.random(in: 0..<8, using: &generator) == 0 ? nil : feature, "\(name)\(offset)")
        }
      }
      let loaded = list("loaded", count: Int.random(in: 0..<20, using: &generator))
      let added = list("added", count: Int.random(in: 0..<20, using: &generator))
      #expect(Catalog.merged(loaded, added) == Self.reference(loaded, added))
    }
  }
}
