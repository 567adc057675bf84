import Foundation
import GeoIndex
import Testing

@testable import StoreLocator

/// The figures docs/places.md gives for names several places have and for the suggestions'
/// ranking, measured on the bundled places. Slow in a debug build (a few minutes), so it runs
/// only when asked:
///
///     STORES_MEASURE_PLACES=1 swift test --disable-xctest --filter PlaceNameMeasurementTests
@Suite(.enabled(if: ProcessInfo.processInfo.environment["STORES_MEASURE_PLACES"] == "1"))
struct PlaceNameMeasurementTests {
  /// Every distinct name of the file typed alone: how many are one place, how many resolve to a
  /// place that outweighs its namesakes, how many stay ambiguous; and the most populous places
  /// typed by their own name alone.
  @Test func namesTypedAlone() throws {
    let index = try PlaceIndex.bundled()
    var names: [String] = []
    var previous: [UInt8] = []
    for entry in index.sorted {
      let key = Array(
        index.keys[Int(index.entryKey[Int(entry)].lowerBound)..<Int(index.entryKey[Int(entry)].upperBound)])
      if key != previous { names.append(String(decoding: key, as: UTF8.self)) }
      previous = key
    }
    var onePlace = 0
    var outweighs = 0
    var ambiguous = 0
    var other = 0
    for name in names {
      do {
        let found = try index.resolve(name)
        if found.alternatives.isEmpty { onePlace += 1 } else { outweighs += 1 }
      } catch {
        if error.kind == .ambiguous { ambiguous += 1 } else { other += 1 }
      }
    }
    print(
      "names: \(names.count); one place's: \(onePlace); several places', resolved: \(outweighs); "
        + "ambiguous: \(ambiguous); other (not read as a name): \(other)")
    let rows = PlaceIndexTests.rows.sorted { $0.population > $1.population }
    for count in [100, 500] {
      var themselves = 0
      var missed: [String] = []
      for row in rows.prefix(count) {
        let found = try? index.resolve(row.name)
        if let found, found.place.population == row.population, found.place.countryCode == row.country {
          themselves += 1
        } else {
          missed.append("\(row.name) (\(row.country)) → \(found.map { $0.place.label } ?? "refused")")
        }
      }
      print("the \(count) most populous places typed alone: \(themselves) are themselves; not: \(missed)")
    }
    #expect(ambiguous > 0 && outweighs > 0)
  }

  /// The starts of the 500 most populous places' names, and names customers type: how many
  /// letters until the place is first, and in the first five.
  @Test func suggestionsForTheStartsOfNames() throws {
    let index = try PlaceIndex.bundled()
    let rows = PlaceIndexTests.rows.sorted { $0.population > $1.population }.prefix(500)
    func letters(_ typed: String, until matches: (PlaceMatch) -> Bool, within limit: Int) -> Int? {
      let key = PlaceNameFolding.folded(typed)
      for length in 1...key.count
      where index.search(String(key.prefix(length)), limit: limit).contains(where: matches) {
        return length
      }
      return nil
    }
    var first: [Int] = []
    var inFive: [Int] = []
    var neverFirst: [String] = []
    var alternateFirst = 0
    var prefixes = 0
    for row in rows {
      let isRow = { (match: PlaceMatch) in
        match.place.population == row.population && match.place.countryCode == row.country
      }
      if let count = letters(row.name, until: isRow, within: 1) {
        first.append(count)
      } else {
        neverFirst.append(row.name)
      }
      if let count = letters(row.name, until: isRow, within: 5) { inFive.append(count) }
      let key = PlaceNameFolding.folded(row.name)
      for length in 1...key.count {
        let prefix = String(key.prefix(length))
        prefixes += 1
        if let top = index.search(prefix, limit: 1).first, top.matchedName != nil,
          PlaceIndexTests.rows.contains(where: { PlaceNameFolding.folded($0.name).hasPrefix(prefix) })
        {
          alternateFirst += 1
        }
      }
    }
    let mean = { (values: [Int]) in Double(values.reduce(0, +)) / Double(max(values.count, 1)) }
    print(
      "500 most populous: letters until first \(String(format: "%.2f", mean(first))) (never first: \(neverFirst.count) \(neverFirst)), "
        + "until in the first five \(String(format: "%.2f", mean(inFive))) (never: \(500 - inFive.count)); "
        + "of \(prefixes) starts, an alternate name first while an own name matches: \(alternateFirst)")
    // Names customers type, and the place each means.
    let typed: [(String, String)] = [
      ("cologne", "Köln"), ("kiev", "Kyiv"), ("peking", "Beijing"), ("bombay", "Mumbai"),
      ("calcutta", "Kolkata"),
      ("madras", "Chennai"), ("saigon", "Ho Chi Minh City"), ("bangalore", "Bengaluru"),
      ("seville", "Sevilla"),
      ("hanover", "Hannover"), ("new york", "New York City"), ("munich", "Munich"), ("zurich", "Zürich"),
      ("london", "London"), ("seattle", "Seattle"), ("paris", "Paris"), ("montreal", "Montréal"),
      ("sao paulo", "São Paulo"), ("rio", "Rio de Janeiro"), ("tokyo", "Tokyo"), ("berlin", "Berlin"),
      ("sydney", "Sydney"), ("toronto", "Toronto"), ("moscow", "Moscow"), ("delhi", "Delhi"),
      ("rome", "Rome"),
      ("dublin", "Dublin"), ("boston", "Boston"), ("los angeles", "Los Angeles"), ("chicago", "Chicago"),
      ("san francisco", "San Francisco"), ("vienna", "Vienna"), ("prague", "Prague"), ("lisbon", "Lisbon"),
      ("copenhagen", "Copenhagen"), ("milan", "Milan"), ("venice", "Venice"), ("quebec", "Québec"),
      ("reykjavik", "Reykjavík"), ("cape town", "Cape Town"), ("auckland", "Auckland"),
      ("singapore", "Singapore"),
      ("hong kong", "Hong Kong"), ("new delhi", "New Delhi"), ("washington", "Washington"),
    ]
    var lines: [String] = []
    var total = 0
    for (text, name) in typed {
      let row = try #require(
        PlaceIndexTests.rows.filter { $0.name == name }.max { $0.population < $1.population })
      let isRow = { (match: PlaceMatch) in
        match.place.population == row.population && match.place.name == name
      }
      let one = letters(text, until: isRow, within: 1)
      let five = letters(text, until: isRow, within: 5)
      total += one ?? (PlaceNameFolding.folded(text).count + 1)
      lines.append("\(text) \(one.map(String.init) ?? "-")/\(five.map(String.init) ?? "-")")
    }
    print(
      "names customers type (letters until first/in the first five): \(lines.joined(separator: ", ")); sum \(total)"
    )
    #expect(!first.isEmpty)
  }
}
