import Foundation
import GeoIndex
import OpeningHours
import StoreLocator
import Testing

/// The `stores` executable end to end: every command and format on the bundled data, and the
/// mistakes people make.
@Suite struct CommandLineTests {
  let data = StoresProcess.bundledData

  // MARK: nearest

  @Test func nearestPrintsATableForPeople() throws {
    let now = "2026-11-23T09:00:00+11:00"
    let outcome = try StoresProcess.run(["nearest", "--near", "-33.8688,151.2093", "-k", "3", "--now", now])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 4)
    #expect(lines[0].hasPrefix("#  DISTANCE  ID"))
    // The three nearest, in order, with their distances, as the library ranks them.
    let catalog = try Catalog.load(contentsOf: data)
    let expected = catalog.nearest(3, to: try Coordinate(parsing: "-33.8688,151.2093"))
    for (line, match) in zip(lines.dropFirst(), expected) {
      #expect(line.contains(match.store.id))
      #expect(line.contains("\(Int(match.distance!.meters.rounded())) m"))
      #expect(line.hasSuffix(catalog.status(of: match.store, at: try TimeQuery(parsing: now)).summary))
    }
  }

  /// The JSON answer equals a brute-force haversine ranking of every store, anywhere on Earth.
  @Test(arguments: [
    "-33.8688,151.2093",  // Sydney
    "-18.1416,178.4419",  // Suva, near the antimeridian
    "-16.8,-179.95",  // east of the antimeridian
    "69.6492,18.9553",  // Tromsø
    "89.99,0",  // the North Pole
    "-90,0",  // the South Pole
    "-23.5505,-46.6333",  // São Paulo
    "0,0",
  ])
  func nearestJSONEqualsBruteForce(_ near: String) throws {
    let catalog = try Catalog.load(contentsOf: data)
    let center = try Coordinate(parsing: near)
    let expected = catalog.stores.enumerated()
      .compactMap { position, store in
        store.coordinate.map { (position, store.id, center.distance(to: $0).meters) }
      }
      .sorted { ($0.2, $0.0) < ($1.2, $1.0) }
      .prefix(10)

    let outcome = try StoresProcess.run(["nearest", "--near", near, "-k", "10", "--format", "json"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let document = try #require(try outcome.json() as? [String: Any])
    let stores = try #require(document["stores"] as? [[String: Any]])
    #expect(stores.compactMap { $0["id"] as? String } == expected.map(\.1))
    for (store, reference) in zip(stores, expected) {
      let distance = try #require(store["distance_m"] as? Double)
      #expect(abs(distance - reference.2) < 0.001)
    }
    #expect(document["count"] as? Int == 10)
    let query = try #require(document["query"] as? [String: Any])
    #expect(query["k"] as? Int == 10)
  }

  @Test func nearestJSONStoreHasTheDocumentedMembers() throws {
    let outcome = try StoresProcess.run([
      "nearest", "--near", "35.6895,139.6917", "-k", "1", "--format", "json",
    ])
    let document = try #require(try outcome.json() as? [String: Any])
    let store = try #require((document["stores"] as? [[String: Any]])?.first)
    for member in [
      "id", "name", "brand", "address", "latitude", "longitude", "distance_m", "timezone", "opening_hours",
      "phone", "website", "properties",
    ] {
      #expect(store[member] != nil, "missing \(member)")
    }
    #expect(store["timezone"] as? String == "Asia/Tokyo")
    #expect(store["properties"] is [String: Any])
  }

  @Test func whereFiltersInsideTheSearch() throws {
    let outcome = try StoresProcess.run([
      "nearest", "--near", "47.6062,-122.3321", "-k", "5", "--where", "drive_through=yes", "--format", "json",
    ])
    let document = try #require(try outcome.json() as? [String: Any])
    let stores = try #require(document["stores"] as? [[String: Any]])
    #expect(stores.count == 5)
    for store in stores {
      let properties = try #require(store["properties"] as? [String: Any])
      #expect(properties["drive_through"] as? String == "yes")
    }
  }

  @Test func withinLimitCanLeaveNothing() throws {
    let outcome = try StoresProcess.run(["nearest", "--near", "0,0", "--within", "1km"])
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput.hasPrefix("No stores within"))
  }

  @Test func ndjsonWritesAStoreALine() throws {
    let outcome = try StoresProcess.run([
      "nearest", "--near", "51.5074,-0.1278", "-k", "4", "--format", "ndjson",
    ])
    let lines = outcome.standardOutput.split(separator: "\n")
    #expect(lines.count == 4)
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
      #expect(object?["distance_m"] is Double)
    }
  }

  @Test func geojsonIsAFeatureCollectionWithDistances() throws {
    let outcome = try StoresProcess.run([
      "nearest", "--near", "52.52,13.405", "-k", "3", "--format", "geojson",
    ])
    let document = try #require(try outcome.json() as? [String: Any])
    #expect(document["type"] as? String == "FeatureCollection")
    let features = try #require(document["features"] as? [[String: Any]])
    #expect(features.count == 3)
    for feature in features {
      let geometry = try #require(feature["geometry"] as? [String: Any])
      let coordinates = try #require(geometry["coordinates"] as? [Double])
      #expect(abs(coordinates[0] - 13.405) < 1, "longitude first")
      #expect((feature["properties"] as? [String: Any])?["distance_m"] is Double)
    }
  }

  @Test func csvHasAHeaderAndQuotedFields() throws {
    let outcome = try StoresProcess.run([
      "nearest", "--near", "40.7128,-74.0060", "-k", "2", "--format", "csv",
    ])
    let lines = outcome.standardOutput.components(separatedBy: "\r\n").filter { !$0.isEmpty }
    #expect(lines.count == 3)
    #expect(lines[0].hasPrefix("id,name,brand,address,latitude,longitude,distance_m"))
  }

  @Test func milesInTextOutput() throws {
    let outcome = try StoresProcess.run(["nearest", "--near", "40.7128,-74.0060", "-k", "1", "--units", "mi"])
    #expect(outcome.standardOutput.contains(" mi"))
  }

  // MARK: within

  @Test func withinRadiusIsSortedAndBounded() throws {
    let outcome = try StoresProcess.run([
      "within", "--near", "64.1466,-21.9426", "--radius", "3km", "--format", "json",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let stores = try #require((try outcome.json() as? [String: Any])?["stores"] as? [[String: Any]])
    let distances = stores.compactMap { $0["distance_m"] as? Double }
    #expect(!distances.isEmpty)
    #expect(distances == distances.sorted())
    #expect(distances.allSatisfy { $0 <= 3000 })
  }

  @Test func withinBoxAcrossTheAntimeridian() throws {
    let box = try GeoBox(west: 177, south: -20, east: -178, north: -15)
    let expected = try Catalog.load(contentsOf: data).stores.filter {
      $0.coordinate.map(box.contains) ?? false
    }
    #expect(expected.contains { $0.coordinate!.longitude > 177 })
    #expect(expected.contains { $0.coordinate!.longitude < -178 })
    let outcome = try StoresProcess.run(["within", "--bbox", "177,-20,-178,-15", "--format", "json"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let stores = try #require((try outcome.json() as? [String: Any])?["stores"] as? [[String: Any]])
    #expect(stores.compactMap { $0["id"] as? String } == expected.map(\.id))
  }

  @Test func withinNeedsAShape() throws {
    let outcome = try StoresProcess.run(["within", "--near", "1,2"])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("--radius"))
  }

  // MARK: show, info

  @Test func showPrintsOneStore() throws {
    let first = try #require(try Catalog.load(contentsOf: data).stores.first)
    let text = try StoresProcess.run(["show", first.id])
    #expect(text.status == 0)
    #expect(text.standardOutput.contains(first.name ?? "?"))
    #expect(text.standardOutput.contains("opening_hours"))
    let json = try StoresProcess.run(["show", first.id, "--format", "json"])
    let object = try #require(try json.json() as? [String: Any])
    #expect(object["id"] as? String == first.id)
  }

  @Test func showUnknownIDExits66() throws {
    let outcome = try StoresProcess.run(["show", "no-such-store"])
    #expect(outcome.status == 66)
    #expect(outcome.standardError.contains("no store with id 'no-such-store'"))
  }

  @Test func infoSummarises() throws {
    let outcome = try StoresProcess.run(["info", "--format", "json"])
    let summary = try #require(try outcome.json() as? [String: Any])
    let records = try #require(summary["records"] as? Int)
    #expect(records > 1000)
    #expect((summary["timezones"] as? [String: Any])?.count ?? 0 >= 10)
    let text = try StoresProcess.run(["info"])
    #expect(text.standardOutput.contains("Time zones"))
    #expect(text.standardOutput.contains("crosses the antimeridian"))
  }

  // MARK: validate and bad input

  @Test func validateBundledDataIsClean() throws {
    let outcome = try StoresProcess.run(["validate"])
    #expect(outcome.status == 0, "\(outcome.standardOutput)")
    #expect(outcome.standardOutput.contains("0 errors"))
  }

  @Test func validateReportsPositionsAndExits65() throws {
    let path = try StoresProcess.temporaryFile(
      """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","id":"good","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}},
      {"type":"Feature","id":"swapped","properties":{},"geometry":{"type":"Point","coordinates":[39.7,-465.3]}}
      ]}
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(["validate", path])
    #expect(outcome.status == 65)
    #expect(outcome.standardOutput.contains("\(path):3:"))
    #expect(outcome.standardOutput.contains("swapped"))
    let json = try StoresProcess.run(["validate", path, "--format", "json"])
    let report = try #require(try json.json() as? [String: Any])
    #expect(report["records"] as? Int == 2)
    #expect(report["valid"] as? Bool == false)

    // Lenient commands still answer from the good record, and say what was left out.
    let nearest = try StoresProcess.run(["nearest", "--near", "2,1", "--data", path, "--format", "json"])
    #expect(nearest.status == 0)
    #expect(nearest.standardError.contains("1 data error"))
    let strict = try StoresProcess.run(["nearest", "--near", "2,1", "--data", path, "--strict"])
    #expect(strict.status == 65)
  }

  @Test func missingFileExits66() throws {
    let outcome = try StoresProcess.run(["nearest", "--near", "1,2", "--data", "/nonexistent/stores.geojson"])
    #expect(outcome.status == 66)
    #expect(outcome.standardError.contains("/nonexistent/stores.geojson"))
  }

  @Test func emptyFileExits65() throws {
    let path = try StoresProcess.temporaryFile("")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(["info", "--data", path])
    #expect(outcome.status == 65)
    #expect(outcome.standardError.contains("empty"))
  }

  @Test(arguments: ["91,0", "abc", "1", "1,2,3", "-33.8688;151.2093"])
  func badNearExits64(_ near: String) throws {
    let outcome = try StoresProcess.run(["nearest", "--near", near])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("--near"))
  }

  @Test func hugeAndNegativeDistancesAreHandled() throws {
    let huge = try StoresProcess.run(["nearest", "--near", "20,10", "--within", "1e300", "--where", "nope"])
    #expect(huge.status == 0, "\(huge.standardError)")
    #expect(huge.standardOutput.hasPrefix("No stores within"))
    let infinite = try StoresProcess.run(["nearest", "--near", "20,10", "--within", "1e308mi"])
    #expect(infinite.status == 64)
    let negative = try StoresProcess.run(["nearest", "--near", "20,10", "--within", "-5km"])
    #expect(negative.status == 64)
    #expect(negative.standardError.contains("not a distance"))
  }

  @Test func formatsACommandCannotWriteAreUsageErrors() throws {
    #expect(try StoresProcess.run(["info", "--format", "csv"]).status == 64)
    #expect(try StoresProcess.run(["validate", "--format", "geojson"]).status == 64)
    #expect(try StoresProcess.run(["show", ""]).status == 64)
  }

  @Test func badDistanceAndFilterExit64() throws {
    #expect(try StoresProcess.run(["nearest", "--near", "1,2", "--within", "2 parsecs"]).status == 64)
    #expect(try StoresProcess.run(["nearest", "--near", "1,2", "--where", "=yes"]).status == 64)
    #expect(try StoresProcess.run(["nearest", "--near", "1,2", "-k", "0"]).status == 64)
  }

  @Test func readsStandardInputAndTheEnvironment() throws {
    let feature =
      #"{"type":"Feature","id":"only","properties":{"name":"Only"},"geometry":{"type":"Point","coordinates":[151.2,-33.9]}}"#
    let fromInput = try StoresProcess.run(
      ["nearest", "--near", "-33.9,151.2", "--data", "-", "--format", "ndjson"], input: feature + "\n")
    #expect(fromInput.status == 0, "\(fromInput.standardError)")
    #expect(fromInput.standardOutput.contains("\"id\":\"only\""))
    let path = try StoresProcess.temporaryFile(feature)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let fromEnvironment = try StoresProcess.run(
      ["nearest", "--near", "-33.9,151.2", "--format", "ndjson"], environment: ["STORES_DATA": path])
    #expect(fromEnvironment.standardOutput.contains("\"id\":\"only\""))
  }

  // MARK: the real-world corpus

  @Test func nearestOnTheWorldwideDirectoryEqualsBruteForce() throws {
    guard let corpus = StoresProcess.corpusDirectory else {
      print("skipped: ../shared/corpus is absent, so the corpus checks of the CLI do not run")
      return
    }
    let path = corpus.appendingPathComponent("starbucks_worldwide_2017.geojson").path
    let catalog = try Catalog.load(contentsOf: path)
    for near in ["47.6,-122.3", "-36.85,174.76", "64.13,-21.9", "1.29,103.85"] {
      let center = try Coordinate(parsing: near)
      let expected = catalog.stores.enumerated()
        .compactMap { position, store in
          store.coordinate.map { (position, store.id, center.distance(to: $0).meters) }
        }
        .sorted { ($0.2, $0.0) < ($1.2, $1.0) }
        .prefix(30)
        .map(\.1)
      let outcome = try StoresProcess.run([
        "nearest", "--near", near, "-k", "30", "--data", path, "--format", "json",
      ])
      let stores = try #require((try outcome.json() as? [String: Any])?["stores"] as? [[String: Any]])
      #expect(stores.compactMap { $0["id"] as? String } == Array(expected), "at \(near)")
    }
  }
}
