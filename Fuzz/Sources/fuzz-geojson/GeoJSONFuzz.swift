import FuzzSupport
import GeoIndex
@_spi(Fuzzing) import StoreLocator

/// The GeoJSON reader on any bytes, three ways that must agree:
/// 1. read alone, one feature after another;
/// 2. read ahead on threads, cut into 2…9 stretches however short the input (the automatic plan
///    only reads ahead above 1 MB): the same stores, positions and diagnostics, or the same error;
/// 3. indexed, written as a snapshot, mapped back and verified: the same stores, store by store,
///    and the same diagnostics;
/// 4. as the loader reads, records let go once their rows are drafted, alone and read ahead (the
///    drafts then written from the input's bytes): the same catalog either way.
@main enum GeoJSONFuzz {
  /// Holidays and time-zone places, loaded once: compiling hours is part of what a snapshot keeps.
  nonisolated(unsafe) static var resources: HoursResources?
  static let scratch = ScratchFile("geojson.snap")

  static func main() {
    // Every bundled country's holidays, the places for inferring zones and holidays, and the
    // divisions for inferring regions, whatever the input names (`HoursResources.bundled(for:)`
    // would pick them per input, reading files each time).
    do {
      resources = HoursResources(
        holidays: try HoursResources.holidayRegistry(countries: nil),
        timeZoneLocator: try TimeZoneLocator(contentsOf: TimeZoneLocator.bundledPath),
        holidayDivisions: try HolidayDivisions(contentsOf: HolidayDivisions.bundledPath))
    } catch {
      fatalError("cannot load the bundled holidays or zone places: \(error)")
    }
    runFuzzer { data, count in
      GeoJSONFuzz.check(Array(fuzzInput(data, count)))
      return 0
    }
  }

  static func check(_ bytes: [UInt8]) {
    let source = "fuzz.geojson"
    let alone = FuzzingHooks.readGeoJSON(bytes, source: source, readAheadStretches: nil)
    // A stretch count from the input, so that different inputs cut differently but a crash replays.
    let stretches = 2 + (bytes.first.map { Int($0) } ?? 0) % 8
    let ahead = FuzzingHooks.readGeoJSON(bytes, source: source, readAheadStretches: stretches)
    expectSame(ahead, alone, "read ahead")
    if case .success(let expected) = alone {
      roundTrip(expected.stores, expected.diagnostics, source: source)
    }
    // As the loader reads: the records let go once their rows are drafted, from the input's bytes
    // when read ahead. The catalog of those rows is that of the rows drafted alone.
    let rows = FuzzingHooks.readGeoJSONRows(bytes, source: source, readAheadStretches: nil)
    let drafted = FuzzingHooks.readGeoJSONRows(bytes, source: source, readAheadStretches: stretches)
    expectSame(drafted, rows, "drafted")
  }

  /// Checks that a reading `found` (named `how`) gives the stores, diagnostics or error of reading
  /// alone, `expected`.
  static func expectSame(
    _ found: Result<(stores: [Store], diagnostics: [Diagnostic]), CatalogError>,
    _ expected: Result<(stores: [Store], diagnostics: [Diagnostic]), CatalogError>, _ how: String
  ) {
    switch (expected, found) {
    case (.success(let expected), .success(let found)):
      fuzzCheck(
        found.stores == expected.stores,
        "\(how): stores \(firstDifference(found.stores, expected.stores) ?? "")")
      fuzzCheck(
        found.diagnostics == expected.diagnostics,
        "\(how): diagnostics \(firstDifference(found.diagnostics, expected.diagnostics) ?? "")")
    case (.failure(let expected), .failure(let found)):
      fuzzCheck(found == expected, "\(how): error \(found), read alone: \(expected)")
    case (let expected, let found):
      fuzzCheck(false, "read alone: \(expected); \(how): \(found)")
    }
  }

  /// Indexes the stores, writes the snapshot, opens it and compares.
  static func roundTrip(_ stores: [Store], _ diagnostics: [Diagnostic], source: String) {
    let catalog = Catalog(stores: stores, diagnostics: diagnostics, source: source, hours: resources)
    let bytes = catalog.snapshotBytes()
    bytes.withUnsafeBytes { scratch.write($0) }
    let reopened: Catalog
    do {
      reopened = try Catalog(snapshotAt: scratch.path)
      try reopened.verifySnapshotRecords()
    } catch {
      fuzzCheck(false, "a snapshot just written does not open: \(error)")
      return
    }
    fuzzCheck(
      reopened.stores.count == catalog.stores.count,
      "snapshot: \(reopened.stores.count) stores, expected \(catalog.stores.count)")
    for (found, expected) in zip(reopened.stores, catalog.stores) {
      fuzzCheck(found == expected, "snapshot: store \(found), expected \(expected)")
    }
    fuzzCheck(
      reopened.diagnostics == catalog.diagnostics,
      "snapshot: diagnostics \(firstDifference(reopened.diagnostics, catalog.diagnostics) ?? "")")
    fuzzCheck(reopened.indexedCount == catalog.indexedCount, "snapshot: indexed count")
    // The same nearest stores from both indexes (the first located store's neighbourhood).
    if let center = catalog.stores.lazy.compactMap(\.coordinate).first {
      let expected = catalog.nearest(5, to: center).map(\.store.id)
      let found = reopened.nearest(5, to: center).map(\.store.id)
      fuzzCheck(found == expected, "snapshot: nearest \(found), expected \(expected)")
    }
  }
}
