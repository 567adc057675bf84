import OpeningHours
import Testing

@testable import StoreLocator

/// Stores whose hours read the same texts, and whose nearest places (when they need one) are in
/// the same zone, settle alike: the loader compiles the first and gives the others its result
/// with their own place, distance and notes (`Catalog.compileSchedules`). What it writes must be
/// what compiling each store alone writes, byte for byte.
struct SettlingAlikeTests {
  /// The generated stores of `InferredZoneNoteTests` (zones given, unknown and inferred; hours
  /// that parse, are tolerated or do not parse; holidays inferred; stores without a location),
  /// then stores whose results must not be shared too widely: hours that name holidays in
  /// Germany's regions under one zone, sun times at several latitudes, and services' hours and
  /// capacities that do not read.
  static func collection(seed: UInt64) -> String {
    let generated = InferredZoneNoteTests.collection(count: 2_000, seed: seed)
    let places = [
      (13.405, 52.52), (11.575, 48.137), (9.993, 53.551), (6.96, 50.94), (13.74, 51.05), (11.58, 48.14),
      (8.68, 50.11), (13.39, 52.51),
    ]
    var features: [String] = []
    for (index, place) in places.enumerated() {
      let geometry = #"{"type":"Point","coordinates":[\#(place.0),\#(place.1)]}"#
      let variants = [
        #""opening_hours":"Mo-Su 10:00-18:00; PH off""#,
        #""opening_hours":"Mo-Su 10:00-18:00; PH off","addr:country":"DE""#,
        #""opening_hours":"Mo-Su 10:00-18:00; PH off","timezone":"Europe/Berlin""#,
        #""opening_hours":"sunrise-sunset","timezone":"Europe/Berlin""#,
        #""opening_hours":"sunrise-sunset""#,
        #""opening_hours":"Mo-Fr 08:00-20:00","opening_hours:drive_through":"Mo-Fr 06:00-22:00""#,
        #""opening_hours":"Mo-Fr 08:00-20:00","opening_hours:drive_through":"not hours""#,
        #""opening_hours":"Mo-Fr 08:00-20:00","pickup:capacity":"lots""#,
        #""opening_hours":"Mo-Fr 08:00-20:00; SH 09:00-12:00","addr:country":"DE","addr:state":"BY""#,
      ]
      for (variant, properties) in variants.enumerated() {
        features.append(
          #"{"type":"Feature","id":"de-\#(index)-\#(variant)","geometry":\#(geometry),"properties":{\#(properties)}}"#
        )
      }
    }
    return generated.replacingOccurrences(
      of: "]}\n", with: ",\n" + features.joined(separator: ",\n") + "]}\n")
  }

  /// The table's sections, the diagnostics and the open hours of `text`'s stores.
  static func compiled(_ text: String, sharingAlike: Bool, window: Range<Instant>) throws -> (
    sections: [(SnapshotFormat.Section, [UInt8])], diagnostics: [Diagnostic], openHours: [HoursOfWeek],
    groups: Int
  ) {
    var output = try Array(text.utf8).withUnsafeBufferPointer { buffer in
      try GeoJSONReader.read(buffer, source: "alike.geojson").get()
    }
    let resources = try HoursResources.bundled(for: output.assembly.hoursInputs)
    var diagnostics = output.diagnostics
    let compiled = try Catalog.compileSchedules(
      into: &output.assembly, with: resources, openHoursWindow: window, diagnostics: &diagnostics,
      sharingAlike: sharingAlike)
    let sections = output.assembly.finish().sections(
      groupLeaders: compiled.groupLeaders, diagnostics: diagnostics)
    return (sections, diagnostics, compiled.openHours, compiled.groupSchedules.count)
  }

  @Test(arguments: [7 as UInt64, 8])
  func storesSettledAlikeAreWrittenAsIfEachWereCompiledAlone(seed: UInt64) throws {
    let text = Self.collection(seed: seed)
    // 2026-12-02T10:00:00Z.
    let window = SearchMasks.hoursWindow(around: Instant(secondsSinceEpoch: 1_796_205_600))
    let shared = try Self.compiled(text, sharingAlike: true, window: window)
    let alone = try Self.compiled(text, sharingAlike: false, window: window)
    #expect(shared.diagnostics == alone.diagnostics)
    #expect(shared.openHours == alone.openHours)
    #expect(shared.groups == alone.groups)
    #expect(shared.sections.map(\.0) == alone.sections.map(\.0))
    for (one, other) in zip(shared.sections, alone.sections) {
      let same = one.1 == other.1
      #expect(same, "section \(one.0) differs")
    }
    // The collection has what the sharing must tell apart.
    let codes = Set(shared.diagnostics.map(\.code.rawValue))
    for code in [
      "timezone-inferred", "holidays-inferred", "unknown-timezone", "capacity-invalid",
      "opening-hours-invalid",
      "opening-hours-tolerated",
    ] {
      #expect(codes.contains(code), "\(code)")
    }
  }
}

extension SettlingAlikeTests {
  /// `HoursResources.bundled` asks its questions of one store of each kind: the kinds must be
  /// every distinct combination of what the questions read, each once, in the order first met.
  @Test(arguments: [7 as UInt64, 8])
  func theKindsOfStoresAreEachDistinctOneOnce(seed: UInt64) throws {
    let output = try Array(Self.collection(seed: seed).utf8).withUnsafeBufferPointer { buffer in
      try GeoJSONReader.read(buffer, source: "alike.geojson").get()
    }
    let inputs = output.assembly.hoursInputs
    func kind(_ store: HoursSubject) -> [String?] {
      [
        store.timezone, store.openingHours, store.country, store.region,
        store.coordinate == nil ? nil : "located",
      ]
    }
    var firstMet: [[String?]] = []
    for position in 0..<inputs.count where !firstMet.contains(kind(inputs[position])) {
      firstMet.append(kind(inputs[position]))
    }
    let subjects = inputs.distinctSubjects()
    #expect(subjects.map(kind) == firstMet)
    #expect(subjects.allSatisfy { $0.serviceMembers.isEmpty })
    // Fewer kinds than stores, or nothing is being checked.
    #expect(firstMet.count > 10 && firstMet.count < inputs.count / 2)
  }
}
