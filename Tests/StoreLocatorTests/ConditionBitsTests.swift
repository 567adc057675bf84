import Testing

@testable import StoreLocator

/// `ConditionBits` reads each store's members once and decides the conditions on a key once a
/// value: every store's bits are, condition by condition, what a row filter of that condition
/// alone answers for the store (the rule before, and what a search that does not use the
/// masks tests).
@Suite struct ConditionBitsTests {
  static func expectBitsMatchTheFilters(_ catalog: Catalog, _ conditions: [StoreFilter.Condition]) {
    let table = catalog.table
    let bits = ConditionBits.ofEveryStore(meeting: conditions, in: table)
    #expect(bits.count == table.storeCount)
    let filters = conditions.map { RowFilter(StoreFilter([$0]), table: table) }
    var mismatches = 0
    for position in 0..<table.storeCount {
      var expected: UInt64 = 0
      for (index, filter) in filters.enumerated() where filter.matches(table, at: position) {
        expected |= 1 << UInt64(index)
      }
      if bits[position] != expected {
        mismatches += 1
        if mismatches <= 5 {
          Issue.record("\(catalog.source), store \(position): \(bits[position]) instead of \(expected)")
        }
      }
    }
    #expect(mismatches == 0, "\(catalog.source)")
  }

  /// Values a condition reads in different ways: lists, spellings of yes, escapes, numbers,
  /// booleans, null, arrays, a key given twice, keys no store has.
  @Test func everyKindOfValueIsDecidedAsTheFilterDecidesIt() throws {
    let values = [
      "\"yes\"", "\"no\"", "\"true\"", "\"false\"", "\"\"", "\"yes;no\"", "\"coffee; donut\"", "\"a\\\"b\"",
      "\"caf\\u00e9\"", "\"café\"", "1", "1.0", "true", "false", "null", "[\"yes\"]", "{\"a\":1}",
    ]
    var features: [String] = []
    for (index, value) in values.enumerated() {
      for other in values.indices where other % 4 == index % 4 {
        features.append(
          """
          {"type": "Feature", "id": "s\(features.count)",
           "geometry": {"type": "Point", "coordinates": [\(index), \(other)]},
           "properties": {"drive_through": \(value), "cuisine": \(values[other]),
                          "kind": \(value), "kind": \(values[other])}}
          """)
      }
      features.append(
        """
        {"type": "Feature", "id": "bare\(index)", "geometry": {"type": "Point", "coordinates": [\(index), 1]},
         "properties": {"name": "no tags"}}
        """)
    }
    let catalog = try load(
      #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",") + "]}")
    var conditions: [StoreFilter.Condition] = []
    for key in ["drive_through", "cuisine", "kind", "missing"] {
      conditions.append(.init(key: key, test: .present))
      for wanted in ["yes", "no", "donut", "coffee", "a\"b", "café", "1", "true", ""] {
        conditions.append(.init(key: key, test: .equals(wanted)))
        if conditions.count % 3 == 0 { conditions.append(.init(key: key, test: .notEquals(wanted))) }
      }
    }
    Self.expectBitsMatchTheFilters(catalog, Array(conditions.prefix(64)))
  }

  /// The corpus files with their suggested conditions and a few of every kind, on every
  /// processor (the larger files are split among threads).
  @Test func corpusStoresMeetWhatTheFiltersSay() throws {
    for catalog in try StoreTableTests.catalogs() {
      var conditions = catalog.suggestedIndexConditions(limit: 48)
      for key in ["brand", "amenity", "drive_through", "opening_hours", "nothing-has-this"] {
        conditions += [.init(key: key, test: .present), .init(key: key, test: .notEquals("yes"))]
      }
      Self.expectBitsMatchTheFilters(catalog, conditions)
    }
  }
}
