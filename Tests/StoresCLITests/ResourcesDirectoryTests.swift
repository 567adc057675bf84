import Foundation
import Testing

/// `STORES_RESOURCES`: a binary installed away from its checkout reads the reference data (and
/// the default stores) from a copy of `Data/`, and refuses to evaluate `PH` rules without the
/// holiday data rather than answering "unknown" in silence.
@Suite struct ResourcesDirectoryTests {
  let data = StoresProcess.repositoryRoot.appendingPathComponent("Data")

  /// A new directory holding the named parts of `Data/`, and `stores` as a store file.
  func resources(copying parts: [String], stores: [[String: Any]]? = nil) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-resources-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for part in parts {
      try FileManager.default.copyItem(
        at: data.appendingPathComponent(part), to: directory.appendingPathComponent(part))
    }
    if let stores {
      let collection: [String: Any] = ["type": "FeatureCollection", "features": stores]
      try JSONSerialization.data(withJSONObject: collection).write(
        to: directory.appendingPathComponent("stores.geojson"))
    }
    return directory
  }

  /// The first `count` stores of the bundled file.
  func bundledStores(_ count: Int) throws -> [[String: Any]] {
    let document = try JSONSerialization.jsonObject(
      with: Data(contentsOf: data.appendingPathComponent("stores.geojson")))
    let features = try #require((document as? [String: Any])?["features"] as? [[String: Any]])
    return Array(features.prefix(count))
  }

  @Test func theDefaultStoresAndTheHolidaysComeFromTheDirectory() throws {
    let directory = try resources(copying: ["holidays", "timezones"], stores: try bundledStores(3))
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try StoresProcess.run(
      ["info", "--format", "json"], environment: ["STORES_RESOURCES": directory.path, "STORES_DATA": ""])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let summary = try #require(try outcome.json() as? [String: Any])
    #expect(summary["records"] as? Int == 3)
    #expect(summary["source"] as? String == directory.path + "/stores.geojson")

    // The holidays are read from there too: Christmas Day is a public holiday in Germany.
    let hours = try StoresProcess.run(
      [
        "hours", "--expression", "Mo-Su 09:00-17:00; PH off", "--timezone", "Europe/Berlin", "--country",
        "DE",
        "--at", "2026-12-25T10:00", "--format", "json",
      ], environment: ["STORES_RESOURCES": directory.path])
    #expect(hours.status == 0, "\(hours.standardError)")
    #expect(hours.standardOutput.contains("\"state\":\"closed\""), "\(hours.standardOutput)")
  }

  @Test func withoutTheHolidayDataPublicHolidaysAreRefusedNotUnknown() throws {
    let directory = try resources(copying: ["timezones"], stores: try bundledStores(3))
    defer { try? FileManager.default.removeItem(at: directory) }
    let environment = ["STORES_RESOURCES": directory.path, "STORES_DATA": ""]
    let nearest = try StoresProcess.run(["nearest", "--near", "40.7,-73.9"], environment: environment)
    #expect(nearest.status == 66)
    #expect(
      nearest.standardError.contains(
        "stores: \(directory.path)/holidays: no such directory: the public-holiday data is missing; "
          + "set STORES_RESOURCES to a copy of the repository's Data/ directory"), "\(nearest.standardError)")
    let hours = try StoresProcess.run(
      ["hours", "--expression", "PH off", "--timezone", "Europe/Berlin", "--country", "DE"],
      environment: environment)
    #expect(hours.status == 66)
    #expect(hours.standardError.contains("\(directory.path)/holidays: no such directory"))
  }

  @Test func anEmptyDirectoryHasNoDefaultStores() throws {
    let directory = try resources(copying: [])
    defer { try? FileManager.default.removeItem(at: directory) }
    let outcome = try StoresProcess.run(
      ["nearest", "--near", "40.7,-73.9"],
      environment: ["STORES_RESOURCES": directory.path, "STORES_DATA": ""])
    #expect(outcome.status == 66)
    #expect(outcome.standardError.contains("\(directory.path)/stores.geojson: no such file"))
  }
}
