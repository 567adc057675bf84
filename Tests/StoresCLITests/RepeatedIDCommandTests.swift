import Foundation
import Testing

/// Stores that share an id, end to end: results follow each record, and the commands that take
/// an id refuse one that names several stores, listing them.
@Suite struct RepeatedIDCommandTests {
  static let features = """
    {"type": "FeatureCollection", "features": [
    {"type": "Feature", "id": "x", "geometry": {"type": "Point", "coordinates": [13.405, 52.52]},
     "properties": {"name": "Berlin Mitte", "opening_hours": "Mo-Fr 09:00-17:00", "timezone": "Europe/Berlin"}},
    {"type": "Feature", "id": "x", "geometry": {"type": "Point", "coordinates": [-74.0, 40.7]},
     "properties": {"name": "New York Downtown", "opening_hours": "Mo-Su 06:00-07:00", "timezone": "America/New_York"}}
    ]}
    """
  /// The same stores with the id in `ref` only.
  static let refFeatures = features.replacingOccurrences(of: "\"id\": \"x\", ", with: "")
    .replacingOccurrences(of: "\"name\":", with: "\"ref\": \"x\", \"name\":")
  /// Mon 2026-11-23: 16:00 in Berlin (open), 10:00 in New York (closed).
  static let monday = "2026-11-23T15:00:00Z"

  /// The GeoJSON file, and a snapshot built from it by `stores snapshot build`.
  static func dataFiles(_ text: String) throws -> [String] {
    let geojson = try StoresProcess.temporaryFile(text)
    let snapshot = geojson + ".snap"
    let built = try StoresProcess.run(["snapshot", "build", geojson, "-o", snapshot])
    #expect(built.status == 0, "\(built.standardError)")
    return [geojson, snapshot]
  }

  static func remove(_ paths: [String]) {
    for path in paths { try? FileManager.default.removeItem(atPath: path) }
  }

  @Test(arguments: [features, refFeatures])
  func nearestGivesEachStoreItsOwnStatus(text: String) throws {
    let paths = try Self.dataFiles(text)
    defer { Self.remove(paths) }
    for path in paths {
      let outcome = try StoresProcess.run([
        "nearest", "--near", "40.7,-74.0", "--data", path, "--now", Self.monday, "--format", "json",
      ])
      #expect(outcome.status == 0, "\(outcome.standardError)")
      let document = try #require(try outcome.json() as? [String: Any])
      let stores = try #require(document["stores"] as? [[String: Any]])
      #expect(stores.map { $0["name"] as? String } == ["New York Downtown", "Berlin Mitte"])
      #expect(stores.first?["state"] as? String == "closed", "\(path)")
      #expect(stores.first?["status_text"] as? String == "closed, opens Tue 06:00", "\(path)")
      #expect(stores.last?["status_text"] as? String == "open until 17:00", "\(path)")
    }
  }

  @Test func pickupDoesNotAssignTheClosedStore() throws {
    let paths = try Self.dataFiles(Self.features)
    defer { Self.remove(paths) }
    for path in paths {
      let outcome = try StoresProcess.run([
        "pickup", "--near", "40.7,-74.0", "--ready-in", "5m", "--data", path, "--now", Self.monday,
        "--format", "json",
      ])
      #expect(outcome.status == 3, "\(path): \(outcome.standardOutput)")
      let plan = try #require(try outcome.json() as? [String: Any])
      let passed = try #require(plan["passed_over"] as? [[String: Any]])
      #expect(passed.first?["code"] as? String == "closed-at-pickup")
    }
  }

  @Test(arguments: [
    ["show", "x"], ["hours", "x"], ["open", "x"],
    ["pickup", "--near", "40.7,-74.0", "--ready-in", "5m", "--store", "x"],
  ])
  func anIDThatNamesSeveralStoresListsThem(arguments: [String]) throws {
    let paths = try Self.dataFiles(Self.features)
    defer { Self.remove(paths) }
    for path in paths {
      let outcome = try StoresProcess.run(arguments + ["--data", path])
      #expect(outcome.status == 64, "\(arguments) \(path): \(outcome.standardError)")
      #expect(outcome.standardOutput.isEmpty)
      let message = outcome.standardError
      #expect(message.contains("the id 'x' names 2 stores"), "\(message)")
      #expect(
        message.contains("line 2:1") && message.contains("feature 0") && message.contains("Berlin Mitte"))
      #expect(message.contains("line 4:1") && message.contains("New York Downtown"))
      #expect(message.contains("40.7,-74.0"))
    }
  }
}
