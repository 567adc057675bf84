import Foundation
import Testing

/// An empty answer says what was asked and why it is empty: no stores in the data, a property or
/// value no store has, no opening hours in reach.
@Suite struct EmptyAnswerCommandTests {
  let seattle = "47.6062,-122.3321"

  /// Writes a FeatureCollection of `features` and returns its path.
  static func collection(_ features: [String]) throws -> String {
    try StoresProcess.temporaryFile(
      #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}")
  }

  /// A Berlin store without opening hours, `north` degrees north of 52.52,13.40.
  static func storeWithoutHours(_ id: String, north: Double) -> String {
    #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[13.40,\#(52.52 + north)]},"#
      + #""properties":{"name":"Store \#(id)","timezone":"Europe/Berlin"}}"#
  }

  @Test func anEmptyCollectionSaysTheFileHasNoStores() throws {
    let path = try Self.collection([])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = try StoresProcess.run(["nearest", "--near", seattle, "--data", path])
    #expect(text.status == 0)
    #expect(text.standardOutput == "No stores: \(path) has no stores.\n")
    let json = try StoresProcess.run([
      "within", "--near", seattle, "--radius", "2km", "--data", path, "--format", "json",
    ])
    #expect(json.standardError.contains("stores: \(path) has no stores"), "\(json.standardError)")
  }

  @Test(arguments: [
    (
      ["nearest", "--within", "100m", "--where", "drive_through=yes"],
      "No stores within 100 m of 47.6062,-122.3321 match drive_through=yes."
    ),
    (["within", "--radius", "100m"], "No stores within 100 m of 47.6062,-122.3321."),
    (
      ["nearest", "--within", "100m", "--open-at", "2026-11-23T12:00:00Z"],
      "No stores within 100 m of 47.6062,-122.3321 are open at 2026-11-23T12:00:00Z."
    ),
  ])
  func theEmptySentenceRepeatsTheQuestion(_ arguments: [String], _ sentence: String) throws {
    let outcome = try StoresProcess.run(
      Array(arguments.prefix(1)) + ["--near", seattle] + arguments.dropFirst())
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.standardOutput == sentence + "\n")
  }

  @Test func aKeyNoStoreHasIsNamedOnStandardError() throws {
    let outcome = try StoresProcess.run(["nearest", "--near", seattle, "--where", "Drive_Through=YES"])
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput == "No stores near 47.6062,-122.3321 match Drive_Through=YES.\n")
    #expect(
      outcome.standardError.contains(
        "stores: no store has the property 'Drive_Through'; did you mean 'drive_through'?"),
      "\(outcome.standardError)")
  }

  @Test func aValueNoStoreHasListsTheValuesSeen() throws {
    let outcome = try StoresProcess.run([
      "nearest", "--near", seattle, "--where", "drive_through=YES", "--format", "json",
    ])
    #expect(outcome.status == 0)
    let document = try #require(try outcome.json() as? [String: Any])
    #expect(document["count"] as? Int == 0)
    #expect(
      outcome.standardError.contains("stores: no store has drive_through=YES (values seen: "),
      "\(outcome.standardError)")
    #expect(outcome.standardError.contains("did you mean drive_through=yes?"))
  }

  @Test func openNowOnStoresWithoutHoursPointsAtAllowUnknown() throws {
    let path = try Self.collection([
      Self.storeWithoutHours("a", north: 0.001), Self.storeWithoutHours("b", north: 0.002),
    ])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run([
      "nearest", "--near", "52.52,13.40", "--open-now", "--now", "2026-11-23T12:00:00Z", "--data", path,
    ])
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput == "No stores near 52.52,13.4 are open at 2026-11-23T12:00:00Z.\n")
    #expect(
      outcome.standardError.contains(
        "stores: no store in reach has opening hours (none of the 2 stores in the data has opening_hours); "
          + "add --allow-unknown to include stores whose hours are unknown"), "\(outcome.standardError)")
    // And with it, they come back, their hours unknown.
    let allowed = try StoresProcess.run([
      "nearest", "--near", "52.52,13.40", "--open-now", "--allow-unknown", "--now", "2026-11-23T12:00:00Z",
      "--data", path,
    ])
    #expect(allowed.standardOutput.contains("hours unknown"))
  }

  @Test func pickupOnStoresWithoutHoursPointsAtAllowUnknown() throws {
    let path = try Self.collection([Self.storeWithoutHours("a", north: 0.001)])
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run([
      "pickup", "--near", "52.52,13.40", "--ready-in", "5m", "--now", "2026-11-23T12:00:00Z", "--data", path,
    ])
    #expect(outcome.status == 3)
    #expect(
      outcome.standardOutput.contains("no store in reach has opening hours"), "\(outcome.standardOutput)")
    #expect(outcome.standardOutput.contains("--allow-unknown) to include those stores"))
    #expect(!outcome.standardOutput.contains("within 14 days"))
  }

  @Test(.enabled(if: StoresProcess.corpusDirectory != nil, "needs ../shared/corpus next to the repository"))
  func openNowOnTheWorldwideDirectorySaysItHasNoHours() throws {
    let path = try #require(StoresProcess.corpusDirectory).appendingPathComponent(
      "starbucks_worldwide_2017.geojson"
    ).path
    let outcome = try StoresProcess.run([
      "nearest", "--near", "47.6,-122.3", "--within", "2km", "--open-now", "--data", path,
    ])
    #expect(outcome.status == 0)
    #expect(
      outcome.standardError.contains("no store in reach has opening hours (none of the"),
      "\(outcome.standardError)")
    #expect(outcome.standardError.contains("add --allow-unknown"))
  }
}
