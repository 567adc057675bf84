import Foundation
import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// Public holidays where the data does not say: a store without `addr:country` gets the country
/// of the nearest populated place, and a store without `addr:state` the region of the place's
/// division (where it maps to one of the holiday data), with a `holidays-inferred` note.
@Suite struct HolidayInferenceTests {
  static let berlin = "[13.405,52.52]"
  static let munich = "[11.575,48.137]"
  /// Paris: no German place among the eight nearest.
  static let paris = "[2.3522,48.8566]"
  static let hours = "Mo-Su 10:00-18:00; PH off"

  static func feature(_ id: String, _ coordinates: String, _ properties: String = "") -> String {
    #"{"type":"Feature","id":"\#(id)","properties":{"opening_hours":"\#(hours)","timezone":"Europe/Berlin"\#(properties)},"geometry":{"type":"Point","coordinates":\#(coordinates)}}"#
  }

  static func catalog(_ features: [String]) throws -> Catalog {
    let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",\n") + "]}\n"
    return try Catalog(geoJSON: Array(text.utf8), source: "holidays.geojson")
  }

  /// The store's state at a wall time in its zone.
  static func state(_ catalog: Catalog, _ id: String, _ wallTime: String) throws -> OpeningState {
    let store = try #require(catalog.store(withID: id))
    return catalog.status(of: store, at: try TimeQuery(parsing: wallTime)).status.state
  }

  @Test func aBerlinStoreWithoutCountryAnswersHolidaysByItsLocation() throws {
    let catalog = try Self.catalog([Self.feature("berlin", Self.berlin)])
    let store = try #require(catalog.store(withID: "berlin"))
    #expect(store.country == nil)
    #expect(store.holidayCountry == "DE")
    #expect(store.inferredHolidays?.code == "DE-BE")
    #expect(store.inferredHolidays?.countryIsInferred == true)
    // 28 December 2026 is a Monday and no holiday: open, no longer unknown.
    #expect(try Self.state(catalog, "berlin", "2026-12-28T12:00") == .open)
    #expect(try Self.state(catalog, "berlin", "2026-12-25T12:00") == .closed)
    // International Women's Day is a holiday in Berlin only (the region, inferred).
    #expect(try Self.state(catalog, "berlin", "2027-03-08T12:00") == .closed)
    let notes = catalog.diagnostics.filter { $0.code.rawValue == "holidays-inferred" }
    #expect(notes.count == 1)
    let note = try #require(notes.first)
    #expect(note.severity == .note)
    #expect(note.storeID == "berlin")
    #expect(note.message.hasPrefix(#"no "addr:country": public holidays of DE-BE, inferred from "#))
    #expect(note.message.contains(" (DE), ") && note.message.hasSuffix(" km away"))
    // No warning that PH has no holiday data.
    #expect(!catalog.diagnostics.contains { $0.code.rawValue == "opening-hours-no-holiday-data" })
  }

  @Test func aStoreWithItsOwnCountryKeepsIt() throws {
    // In Berlin, but the data says France: French holidays, nothing inferred.
    let catalog = try Self.catalog([Self.feature("fr", Self.berlin, #","addr:country":"FR""#)])
    let store = try #require(catalog.store(withID: "fr"))
    #expect(store.inferredHolidays == nil)
    #expect(store.holidayCountry == "FR")
    #expect(try Self.state(catalog, "fr", "2026-07-14T12:00") == .closed)  // Bastille Day
    #expect(try Self.state(catalog, "fr", "2026-10-03T12:00") == .open)  // German Unity Day
    #expect(!catalog.diagnostics.contains { $0.code.rawValue == "holidays-inferred" })
  }

  @Test func aBavarianPlaceGivesBavariasHolidays() throws {
    let catalog = try Self.catalog([
      Self.feature("munich", Self.munich, #","addr:country":"DE""#),
      Self.feature("berlin", Self.berlin, #","addr:country":"DE""#),
      Self.feature("munich-be", Self.munich, #","addr:country":"DE","addr:state":"BE""#),
    ])
    let munich = try #require(catalog.store(withID: "munich"))
    #expect(munich.inferredHolidays?.code == "DE-BY")
    #expect(munich.inferredHolidays?.countryIsInferred == false)
    #expect(munich.holidayCountry == "DE")
    // Epiphany, 6 January, is a holiday in Bavaria, not in Berlin.
    #expect(try Self.state(catalog, "munich", "2027-01-06T12:00") == .closed)
    #expect(try Self.state(catalog, "berlin", "2027-01-06T12:00") == .open)
    // A region of its own is kept.
    let given = try #require(catalog.store(withID: "munich-be"))
    #expect(given.inferredHolidays == nil)
    #expect(try Self.state(catalog, "munich-be", "2027-01-06T12:00") == .open)
    let note = try #require(catalog.diagnostics.first { $0.code.rawValue == "holidays-inferred" })
    #expect(note.storeID == "munich")
    #expect(note.message.hasPrefix(#"no "addr:state": public holidays of DE-BY, inferred from "#))
  }

  @Test func noRegionFromAPlaceAcrossTheBorder() throws {
    let catalog = try Self.catalog([
      // Says Germany, stands in Paris: no German place near, so no German region either.
      Self.feature("de-in-paris", Self.paris, #","addr:country":"DE""#),
      // No country: the nearest place's, France, named in the note.
      Self.feature("paris", Self.paris),
    ])
    let away = try #require(catalog.store(withID: "de-in-paris"))
    #expect(away.inferredHolidays == nil)
    #expect(away.holidayCountry == "DE")
    #expect(away.holidayRegion == nil)
    let paris = try #require(catalog.store(withID: "paris"))
    #expect(paris.inferredHolidays?.code == "FR")
    let note = try #require(
      catalog.diagnostics.first { $0.storeID == "paris" && $0.code.rawValue == "holidays-inferred" })
    #expect(note.message.contains(" (FR), "))
    #expect(try Self.state(catalog, "paris", "2026-07-14T12:00") == .closed)
  }

  @Test func hoursWithoutHolidaysInferNothing() throws {
    let text =
      #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"plain","properties":{"opening_hours":"Mo-Su 10:00-18:00","timezone":"Europe/Berlin"},"geometry":{"type":"Point","coordinates":[13.405,52.52]}}]}"#
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "plain.geojson")
    #expect(catalog.stores.first?.inferredHolidays == nil)
    #expect(catalog.diagnostics.isEmpty)
  }

  /// A snapshot answers and reports exactly as the GeoJSON it was built from: the same stores
  /// (inferred zone and holidays included), the same diagnostics in the same order, the same
  /// states; the holiday notes are made from the rows, not stored.
  @Test func aSnapshotAnswersAsTheGeoJSON() throws {
    let loaded = try Self.catalog([
      Self.feature("berlin", Self.berlin),
      #"{"type":"Feature","id":"nozone","properties":{"opening_hours":"Mo-Su 10:00-18:00; PH off"},"geometry":{"type":"Point","coordinates":[11.575,48.137]}}"#,
      Self.feature("munich", Self.munich, #","addr:country":"DE""#),
      Self.feature("fr", Self.berlin, #","addr:country":"FR""#),
      Self.feature("paris", Self.paris),
    ])
    let reopened = try SnapshotTests.reopened(loaded)
    #expect(reopened.diagnostics == loaded.diagnostics)
    #expect(loaded.diagnostics.filter { $0.code.rawValue == "holidays-inferred" }.count == 4)
    for store in loaded.stores {
      let other = try #require(reopened.store(withID: store.id))
      #expect(other == store)
      // Holidays of both countries, of one (German Unity Day, Victory in Europe Day in France)
      // and of a region: the snapshot reads each country's holidays when a store first needs them.
      for time in [
        "2026-12-25T12:00", "2026-12-28T12:00", "2027-01-06T12:00", "2027-03-08T12:00", "2026-10-03T12:00",
        "2027-05-08T12:00",
      ] {
        #expect(
          try Self.state(reopened, store.id, time) == Self.state(loaded, store.id, time),
          "\(store.id) \(time)")
      }
    }
    let nozone = try #require(reopened.store(withID: "nozone"))
    #expect(nozone.inferredTimezone?.identifier == "Europe/Berlin")
    #expect(nozone.inferredHolidays?.code == "DE-BY")
    // Both notes of "nozone", zone then holidays, next to each other.
    let codes = reopened.diagnostics.filter { $0.storeID == "nozone" }.map(\.code.rawValue)
    #expect(codes == ["timezone-inferred", "holidays-inferred"])
    // None of the notes is stored as text: all are made from the rows.
    let table = reopened.table
    var reader = SnapshotReader(base: table.memory.base, range: table.sections[.diagnostics]!)
    let entries = try reader.readVarint()
    for _ in 0..<entries {
      if try reader.read(UInt8.self) == 0 {
        let stored = try SnapshotFormat.decodeDiagnostic(&reader)
        #expect(!InferredZoneNotes.isInferredNote(stored.code), "\(stored)")
      } else {
        _ = try reader.readVarint()
        _ = try reader.readVarint()
      }
    }
    // The snapshot's holiday files include the inferred countries (France, Germany).
    #expect(table.countries.isSuperset(of: ["DE", "FR"]))
  }

  /// Each bundled holiday file holds the holidays of the country it is named for, and only
  /// those: what a snapshot reading one country's file when a store first needs it relies on.
  @Test func eachBundledHolidayFileIsItsCountry() throws {
    let files = try FileManager.default.contentsOfDirectory(atPath: HoursResources.bundledHolidayDirectory)
      .filter { $0.hasSuffix(".json") }
    #expect(files.count > 50)
    for file in files {
      let country = String(file.dropLast(5))
      var registry = HolidayRegistry()
      try HoursResources.addBundledHolidays(of: country, to: &registry)
      #expect(registry.countries == [country], "\(file)")
    }
  }

  @Test func theDivisionTableMapsGeoNamesCodes() throws {
    let divisions = try HolidayDivisions(contentsOf: HolidayDivisions.bundledPath)
    #expect(divisions.region(country: "DE", division: "02") == "BY")
    #expect(divisions.region(country: "DE", division: "16") == "BE")
    #expect(divisions.region(country: "US", division: "CO") == "CO")
    #expect(divisions.region(country: "CA", division: "08") == "ON")
    #expect(divisions.region(country: "AU", division: "02") == "NSW")
    #expect(divisions.region(country: "GB", division: "ENG") == "ENG")
    #expect(divisions.region(country: "IN", division: "21") == "OD")
    // Regions that equal the national holidays are not inferred; France's mainland regions are
    // not holiday regions.
    #expect(!divisions.hasRegions(country: "NO"))
    #expect(divisions.region(country: "FR", division: "11") == nil)
    #expect(throws: CatalogError.self) { try HolidayDivisions(text: "DE\t02\n", source: "bad.tsv") }
  }

  @Test func expressionSettingInfersFromNear() throws {
    let near = try Coordinate(latitude: 52.52, longitude: 13.405)
    let inferred = try #require(try ExpressionSetting.settle(timeZone: nil, country: nil, near: near))
    #expect(inferred.timeZone.identifier == "Europe/Berlin")
    #expect(inferred.holidays?.country == "DE")
    #expect(inferred.holidays?.region == "BE")
    #expect(inferred.title == "Europe/Berlin, public holidays of DE-BE")
    #expect(inferred.notes.count == 2)
    #expect(inferred.notes[0].hasPrefix("time zone Europe/Berlin, inferred from "))
    #expect(inferred.notes[1].hasPrefix("public holidays of DE-BE, inferred from "))
    // Given ones are kept: a country elsewhere gets no region from a German place.
    let zone = try TimeZoneRules(identifier: "Europe/Paris")
    let given = try #require(try ExpressionSetting.settle(timeZone: zone, country: "FR", near: near))
    #expect(given.timeZone.identifier == "Europe/Paris")
    #expect(given.holidays?.country == "FR")
    #expect(given.holidays?.region == nil)
    #expect(given.notes.isEmpty)
    #expect(try ExpressionSetting.settle(timeZone: nil, country: nil, near: nil) == nil)
  }

  /// A pickup at a store without zone and country: closed on Berlin's Women's Day (the inferred
  /// region), assigned the day after; the zone notice says "inferred" once.
  @Test func pickupUsesTheInferredHolidays() throws {
    let text =
      #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"b","properties":{"opening_hours":"Mo-Su 10:00-18:00; PH off"},"geometry":{"type":"Point","coordinates":[13.405,52.52]}}]}"#
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "pickup.geojson")
    let customer = try Coordinate(latitude: 52.521, longitude: 13.405)
    func plan(_ time: String) throws -> PickupPlan {
      guard case .instant(let instant) = try TimeQuery(parsing: time) else {
        throw CatalogError(.badData, source: "", time)
      }
      return try catalog.planPickup(
        PickupRequest(customer: customer, orderedAt: instant, ready: .after(seconds: 600)))
    }
    #expect(try plan("2027-03-08T12:00:00+01:00").status != .assigned)
    let open = try plan("2027-03-09T12:00:00+01:00")
    #expect(open.status == .assigned)
    let notice = try #require(open.warnings.first { $0.code == .timezoneInferred })
    #expect(notice.message.hasPrefix("no timezone in the data: Europe/Berlin, inferred from "))
    #expect(notice.message.components(separatedBy: "inferred").count == 2, "\(notice.message)")
  }

  @Test func aQuickLookFindsHolidayRules() {
    #expect(HoursResources.mayNameHolidays("Mo-Fr 09:00-18:00; PH off"))
    #expect(HoursResources.mayNameHolidays("SH Mo-Fr 10:00-12:00"))
    #expect(HoursResources.mayNameHolidays("ph off"))
    #expect(!HoursResources.mayNameHolidays("Mo-Fr 09:00-18:00; Sa 10:00-14:00"))
  }
}
