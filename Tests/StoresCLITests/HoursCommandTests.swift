import Foundation
import GeoIndex
import OpeningHours
import StoreLocator
import Testing

/// Opening hours through the `stores` executable: filters inside the search, `hours`, `open`,
/// `--batch`, all at fixed instants so the answers do not depend on the clock.
@Suite struct HoursCommandTests {
  let data = StoresProcess.bundledData

  /// `--open-at` keeps exactly the stores a brute-force check of every store's schedule keeps, in
  /// distance order, for an instant and for a wall time at each store.
  @Test(arguments: [
    ("25.0330,121.5654", "2026-12-24T23:30"),  // Taipei, Christmas Eve late
    ("51.5074,-0.1278", "2026-12-25T12:00:00Z"),  // London, a public holiday
    ("-33.8688,151.2093", "2026-04-05T02:30"),  // Sydney, the night DST ends
    ("40.7128,-74.0060", "2026-03-08T02:30"),  // New York, a wall time that does not exist
  ])
  func openAtEqualsBruteForce(_ near: String, _ time: String) throws {
    let catalog = try Catalog.load(contentsOf: data)
    let center = try Coordinate(parsing: near)
    let query = try TimeQuery(parsing: time)
    let expected = catalog.stores.enumerated()
      .filter { _, store in
        guard let schedule = catalog.schedule(for: store) else { return false }
        return schedule.isOpen(at: query.instant(in: schedule.timeZone))
      }
      .compactMap { position, store in
        store.coordinate.map { (position, store.id, center.distance(to: $0).meters) }
      }
      .sorted { ($0.2, $0.0) < ($1.2, $1.0) }
      .prefix(7)
      .map(\.1)
    let outcome = try StoresProcess.run([
      "nearest", "--near", near, "-k", "7", "--open-at", time, "--format", "json",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let stores = try #require((try outcome.json() as? [String: Any])?["stores"] as? [[String: Any]])
    #expect(stores.compactMap { $0["id"] as? String } == Array(expected))
    #expect(stores.allSatisfy { $0["state"] as? String == "open" })
  }

  @Test func textShowsWhenStoresOpenAndClose() throws {
    let outcome = try StoresProcess.run([
      "nearest", "--near", "25.0330,121.5654", "-k", "5", "--now", "2026-11-22T07:45:00+08:00",
    ])
    #expect(outcome.standardOutput.contains("OPEN"))
    #expect(
      outcome.standardOutput.contains("closed, opens 09:00") || outcome.standardOutput.contains("open until"))
  }

  /// `--near` takes a place name as every command does: Munich's zone and Bavaria's holidays
  /// (Epiphany closes the store), the place used said first; a name several places have is
  /// refused with them listed.
  @Test func expressionNearTakesAPlaceName() throws {
    let munich = try StoresProcess.run([
      "hours", "--expression", "Mo-Su 10:00-18:00; PH off", "--near", "münchen", "--at", "2027-01-06T12:00",
      "--days", "1",
    ])
    #expect(munich.status == 0, "\(munich.standardError)")
    #expect(
      munich.standardOutput.hasPrefix("Europe/Berlin, public holidays of DE-BY\n"), "\(munich.standardOutput)"
    )
    #expect(munich.standardOutput.contains("Wed 2027-01-06  closed"), "\(munich.standardOutput)")
    #expect(
      munich.standardError.hasPrefix("stores: note: near: Munich, Bayern, DE (48.1374,11.5755; population "),
      "\(munich.standardError)")
    let springfield = try StoresProcess.run([
      "hours", "--expression", "Mo-Su 10:00-18:00", "--near", "Springfield",
    ])
    #expect(springfield.status == 64)
    #expect(
      springfield.standardError.contains("Error: --near: 'Springfield' names "),
      "\(springfield.standardError)")
    #expect(springfield.standardError.contains("Springfield, Missouri, US (population 170,188)"))
    // Berlin, 170 times Berlín in El Salvador, is Berlin.
    let berlin = try StoresProcess.run([
      "hours", "--expression", "Mo-Su 10:00-18:00", "--near", "Berlin", "--at", "2026-12-28T12:00", "--days",
      "1",
    ])
    #expect(berlin.status == 0, "\(berlin.standardError)")
    #expect(
      berlin.standardOutput.hasPrefix("Europe/Berlin, public holidays of DE-BE\n"), "\(berlin.standardOutput)"
    )
    let nowhere = try StoresProcess.run(["hours", "--expression", "Mo-Su 10:00-18:00", "--near", "91,0"])
    #expect(nowhere.status == 64)
    #expect(nowhere.standardError.contains("Error: --near: "), "\(nowhere.standardError)")
  }

  /// `--near` without `--timezone` or `--country`: the zone and holidays of the nearest place,
  /// said on standard error. Berlin's 28 December 2026 is no holiday (open, not unknown); its
  /// 8 March 2027 is Women's Day, a holiday of the region inferred (closed).
  @Test func expressionNearInfersZoneAndHolidays() throws {
    func run(_ at: String, _ extra: [String] = []) throws -> StoresProcess.Outcome {
      try StoresProcess.run(
        [
          "hours", "--expression", "Mo-Su 10:00-18:00; PH off", "--near", "52.52,13.405", "--at", at,
          "--days", "1",
        ]
          + extra)
    }
    let open = try run("2026-12-28T12:00")
    #expect(open.status == 0, "\(open.standardError)")
    #expect(
      open.standardOutput.hasPrefix("Europe/Berlin, public holidays of DE-BE\n"), "\(open.standardOutput)")
    #expect(open.standardOutput.contains("open until 18:00"))
    #expect(open.standardError.contains("stores: note: time zone Europe/Berlin, inferred from "))
    #expect(open.standardError.contains("stores: note: public holidays of DE-BE, inferred from "))
    let holiday = try run("2027-03-08T12:00")
    #expect(holiday.standardOutput.contains("closed, opens Tue 10:00"), "\(holiday.standardOutput)")
    // A country given keeps it: France has no holiday on 8 March.
    let given = try run("2027-03-08T12:00", ["--country", "FR", "--timezone", "Europe/Paris"])
    #expect(
      given.standardOutput.hasPrefix("Europe/Paris, public holidays of FR\n"), "\(given.standardOutput)")
    #expect(given.standardOutput.contains("open until 18:00"))
    #expect(given.standardError.isEmpty, "\(given.standardError)")
    // Neither a zone nor a place: refused, naming both.
    let neither = try StoresProcess.run(["hours", "--expression", "Mo-Su 10:00-18:00"])
    #expect(neither.status == 64)
    #expect(
      neither.standardError.contains(
        "--expression needs --timezone (such as Europe/Berlin) or --near LAT,LON"))
  }

  /// A store file without `addr:country`: `show` names the holidays inferred and the place,
  /// `validate` lists the note, the same from a snapshot of it as from the GeoJSON.
  @Test func showAndValidateNameInferredHolidays() throws {
    let path = try StoresProcess.temporaryFile(
      #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"b","properties":{"opening_hours":"Mo-Su 10:00-18:00; PH off"},"geometry":{"type":"Point","coordinates":[13.405,52.52]}}]}"#
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let show = try StoresProcess.run(["show", "b", "--data", path, "--now", "2027-03-08T12:00:00+01:00"])
    #expect(show.status == 0, "\(show.standardError)")
    let lines = show.standardOutput.split(separator: "\n").map(String.init)
    let holidays = try #require(lines.first { $0.hasPrefix("Holidays") }, "\(show.standardOutput)")
    #expect(holidays.contains("DE-BE (inferred from ") && holidays.hasSuffix(" km away)"))
    #expect(lines.contains { $0.hasPrefix("Status") && $0.contains("closed") })
    let snapshot = path + ".snap"
    defer { try? FileManager.default.removeItem(atPath: snapshot) }
    #expect(try StoresProcess.run(["snapshot", "build", path, "-o", snapshot]).status == 0)
    let fromGeoJSON = try StoresProcess.run(["validate", path, "--severity", "note"])
    let fromSnapshot = try StoresProcess.run(["validate", snapshot, "--severity", "note"])
    #expect(
      fromGeoJSON.standardOutput.contains(
        #"note[holidays-inferred] feature 0 id "b": no "addr:country": public holidays of DE-BE, inferred from "#
      ))
    #expect(
      fromSnapshot.standardOutput.replacingOccurrences(of: snapshot, with: path) == fromGeoJSON.standardOutput
    )
  }

  @Test func openExitsZeroOneTwo() throws {
    // nw-1486: "Tu-Su 09:00-17:00; Mo off; PH off" in Asia/Taipei.
    let open = try StoresProcess.run(["open", "nw-1486", "--at", "2026-11-24T10:00"])
    #expect(open.status == 0, "\(open.standardOutput)")
    #expect(open.standardOutput.contains("open until 17:00"))
    let closed = try StoresProcess.run(["open", "nw-1486", "--at", "2026-11-23T10:00"])
    #expect(closed.status == 1)
    #expect(closed.standardOutput.contains("closed, opens Tue 09:00"))
    let tooShort = try StoresProcess.run(["open", "nw-1486", "--at", "2026-11-24T16:50", "--for", "15m"])
    #expect(tooShort.status == 1)
    let path = try StoresProcess.temporaryFile(
      #"{"type":"Feature","id":"x","properties":{"opening_hours":"\"by appointment\"","timezone":"Europe/Berlin"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let unknown = try StoresProcess.run(["open", "x", "--data", path, "--at", "2026-11-24T10:00"])
    #expect(unknown.status == 2, "\(unknown.standardOutput)")
    #expect(try StoresProcess.run(["open", "nope"]).status == 66)
  }

  @Test func hoursListsTheDaysAhead() throws {
    let outcome = try StoresProcess.run(["hours", "nw-1486", "--at", "2026-11-22T07:45", "--days", "3"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let text = outcome.standardOutput
    #expect(text.contains("Sun 2026-11-22  09:00–17:00"))
    #expect(text.contains("Mon 2026-11-23  closed"))
    #expect(text.contains("Tue 2026-11-24  09:00–17:00"))
  }

  @Test func hoursOfAnExpressionUsesTheCountrysHolidays() throws {
    let outcome = try StoresProcess.run([
      "hours", "--expression", "Mo-Fr 09:00-18:00; PH off", "--timezone", "Europe/Berlin", "--country", "DE",
      "--at", "2026-12-24T10:00", "--days", "3", "--format", "json",
    ])
    let object = try #require(try outcome.json() as? [String: Any])
    #expect(object["state"] as? String == "open")
    #expect(object["next_change"] as? String == "2026-12-24T18:00:00+01:00")
    let days = try #require(object["days"] as? [[String: Any]])
    #expect(days.compactMap { $0["date"] as? String } == ["2026-12-24", "2026-12-25", "2026-12-26"])
    let spans = days.map { ($0["spans"] as? [[String: Any]]) ?? [] }
    // Christmas Eve is an ordinary Thursday; the 25th and 26th are public holidays in Germany.
    #expect(spans[0].count == 1)
    #expect(spans[0].first?["start"] as? String == "2026-12-24T09:00:00")
    #expect(spans[0].first?["end"] as? String == "2026-12-24T18:00:00")
    #expect(spans[1].isEmpty && spans[2].isEmpty)
  }

  /// A place open around the clock is open on every listed day, not only the first.
  @Test func spansPastMidnightShowOnEveryDayTheyCover() throws {
    let outcome = try StoresProcess.run([
      "hours", "--expression", "24/7", "--timezone", "Asia/Tokyo", "--at", "2026-11-22T10:00", "--days", "3",
    ])
    #expect(outcome.standardOutput.contains("Sun 2026-11-22  all day"))
    #expect(outcome.standardOutput.contains("Mon 2026-11-23  all day"))
    #expect(outcome.standardOutput.contains("Tue 2026-11-24  all day"))
    let night = try StoresProcess.run([
      "hours", "--expression", "Fr,Sa 20:00-03:00", "--timezone", "Asia/Tokyo", "--at", "2026-11-27T10:00",
      "--days", "3",
    ])
    #expect(night.standardOutput.contains("Fri 2026-11-27  20:00–03:00 (+1d)"))
    #expect(night.standardOutput.contains("Sat 2026-11-28  …–03:00, 20:00–03:00 (+1d)"))
    #expect(night.standardOutput.contains("Sun 2026-11-29  …–03:00"))
  }

  /// The state text follows the state, not comments: a comment that changes at noon does not
  /// end "open until".
  @Test func openUntilIgnoresCommentChangesAndForCanBeUnknown() throws {
    let path = try StoresProcess.temporaryFile(
      #"{"type":"FeatureCollection","features":[{"type":"Feature","id":"m","properties":{"opening_hours":"Mo-Su 08:00-12:00 \"morning\", 12:00-18:00 \"afternoon\"","timezone":"Europe/Berlin"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}},{"type":"Feature","id":"e","properties":{"opening_hours":"Mo-Su 08:00-18:00+","timezone":"Europe/Berlin"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}]}"#
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let morning = try StoresProcess.run(["open", "m", "--data", path, "--at", "2026-11-24T10:00"])
    #expect(morning.standardOutput.contains("open until 18:00"))
    // Open now, but the hours after 18:00 are unknown: "open for 2 hours" is unknown, exit 2.
    let openEnd = try StoresProcess.run([
      "open", "e", "--data", path, "--at", "2026-11-24T17:00", "--for", "2h",
    ])
    #expect(openEnd.status == 2, "\(openEnd.standardOutput)")
    let closes = try StoresProcess.run([
      "open", "m", "--data", path, "--at", "2026-11-24T17:00", "--for", "2h",
    ])
    #expect(closes.status == 1)
    #expect(closes.standardOutput.contains("closes before 2 h are up"))
  }

  @Test func hugeDurationsAreRefusedNotHung() throws {
    #expect(try StoresProcess.run(["open", "nw-1486", "--for", "P9999999999999999999D"]).status == 64)
    #expect(try StoresProcess.run(["nearest", "--near", "1,2", "--open-for", "367d"]).status == 64)
    let buffer = try StoresProcess.run([
      "pickup", "--near", "51.5,-0.12", "--ready-in", "5m", "--close-buffer", "300d",
    ])
    #expect(buffer.status == 64)
    #expect(buffer.standardError.contains("at most a day"))
  }

  @Test func badExpressionPointsAtTheCharacter() throws {
    let outcome = try StoresProcess.run([
      "hours", "--expression", "Mo-Fr 09:00-xx", "--timezone", "Europe/Berlin",
    ])
    #expect(outcome.status == 65)
    #expect(outcome.standardError.contains("at character"))
    #expect(outcome.standardError.contains("^"))
    #expect(
      try StoresProcess.run(["hours", "--expression", "24/7", "--timezone", "Asia/Beijing"]).status == 64)
  }

  @Test func batchAnswersEachLine() throws {
    let input = """
      {"id": 1, "oh": "Mo-Fr 09:00-18:00; PH off", "tz": "Europe/Berlin", "country": "DE", "at": "2026-03-29T00:59:00Z", "ops": ["state", "next_change"]}
      {"id": "b", "oh": "24/7", "tz": "Asia/Tokyo", "at": "2026-11-22T00:00:00Z"}
      {"id": 3, "oh": "Mo-Fr 09:00-18:00", "tz": "Europe/Berlin", "at": "2026-03-29T01:00"}
      not json
      {"id": 5, "oh": "2000-3000/42", "tz": "UTC", "at": "2021-02-09T21:00:00Z", "ops": ["next_change"]}
      {"id": 6, "oh": "2000-3000", "tz": "UTC", "at": "2021-02-09T21:00:00Z", "ops": ["next_change"]}

      """
    let outcome = try StoresProcess.run(["hours", "--batch"], input: input)
    #expect(outcome.status == 0)
    let lines = outcome.standardOutput.split(separator: "\n").map {
      try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
    #expect(lines.count == 6)
    #expect(lines[0]?["state"] as? String == "closed")
    #expect(lines[0]?["next_change"] as? String == "2026-03-30T09:00:00+02:00")
    #expect(lines[1]?["id"] as? String == "b")
    #expect(lines[1]?["state"] as? String == "open")
    #expect(lines[1]?["next_change"] is NSNull)
    #expect((lines[2]?["error"] as? String)?.contains("offset") == true)
    #expect(lines[3]?["error"] != nil)
    // `next_change` looks a century ahead: 2042 is found, 3001 is beyond (null, not an error).
    #expect(lines[4]?["next_change"] as? String == "2042-01-01T00:00:00+00:00")
    #expect(lines[5]?["next_change"] is NSNull)
    #expect(lines[5]?["error"] == nil)
  }

  /// A user's holiday file makes `PH` match a company day; without holiday data for a country,
  /// `PH` makes the answer unknown (with a warning), never silently "not a holiday".
  @Test func holidayFilesAddDaysAndMissingDataIsUnknown() throws {
    let stores = try StoresProcess.temporaryFile(
      """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","id":"de","properties":{"opening_hours":"Mo-Fr 09:00-18:00; PH off","timezone":"Europe/Berlin","addr:country":"DE"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}},
      {"type":"Feature","id":"xx","properties":{"opening_hours":"Mo-Fr 09:00-18:00; PH off","timezone":"Europe/Berlin","addr:country":"XX"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}
      ]}
      """)
    defer { try? FileManager.default.removeItem(atPath: stores) }
    let holidays = try StoresProcess.temporaryFile(
      #"{"country":"DE","years":[2026,2026],"national":{"2026-11-24":"Company day"}}"#, suffix: ".json")
    defer { try? FileManager.default.removeItem(atPath: holidays) }
    let tuesday = "2026-11-24T10:00"
    #expect(try StoresProcess.run(["open", "de", "--data", stores, "--at", tuesday]).status == 0)
    let withFile = try StoresProcess.run([
      "open", "de", "--data", stores, "--at", tuesday, "--holidays", holidays,
    ])
    #expect(withFile.status == 1, "\(withFile.standardOutput)")
    let unknown = try StoresProcess.run(["open", "xx", "--data", stores, "--at", tuesday])
    #expect(unknown.status == 2, "\(unknown.standardOutput)")
    let validate = try StoresProcess.run(["validate", stores])
    #expect(validate.standardOutput.contains("no-holiday-data"))
    #expect(validate.standardOutput.contains("id \"xx\""))
    let missing = try StoresProcess.run(["open", "de", "--data", stores, "--holidays", "/nonexistent.json"])
    #expect(missing.status == 66)
  }
}
