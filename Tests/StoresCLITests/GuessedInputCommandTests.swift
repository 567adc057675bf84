import Foundation
import Testing

/// Inputs that used to be guessed: a date without a time (read as midnight at each store), a
/// duration without a unit (read as minutes), and a location typed LON,LAT. The first two are
/// refused with what to write instead; the third is answered with a warning naming the swap.
@Suite struct GuessedInputCommandTests {
  let dateAlone = "2026-12-24"
  let fullTimes =
    "2026-12-24 is a date; give a time too, such as 2026-12-24T09:00 (wall time at each store) or 2026-12-24T09:00:00Z"

  /// Every option that takes a time refuses a date alone, with exit 64 and the full times.
  @Test(arguments: [
    ["nearest", "--near", "47.6062,-122.3321", "--open-at", "2026-12-24"],
    ["within", "--near", "47.6062,-122.3321", "--radius", "1km", "--open-at", "2026-12-24"],
    ["nearest", "--near", "47.6062,-122.3321", "--now", "2026-12-24"],
    ["hours", "nw-0001", "--at", "2026-12-24"],
    ["open", "nw-0001", "--at", "2026-12-24"],
    ["pickup", "--near", "51.5074,-0.1278", "--ready-at", "2026-12-24"],
  ])
  func aDateAloneIsRefused(_ arguments: [String]) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 64, "\(outcome.standardOutput)")
    #expect(outcome.standardError.contains(fullTimes), "\(outcome.standardError)")
    #expect(outcome.standardOutput.isEmpty)
  }

  @Test func anOrderWhosePickupTimeIsADateIsRefused() throws {
    let order = try StoresProcess.temporaryFile(
      #"{"id": "o", "customer": {"latitude": 51.5074, "longitude": -0.1278}, "#
        + #""items": [{"name": "Tea", "quantity": 1, "prep_minutes": 2}], "pickup_time": "2026-12-24"}"#,
      suffix: ".json")
    defer { try? FileManager.default.removeItem(atPath: order) }
    let outcome = try StoresProcess.run(["pickup", "--order", order, "--now", "2026-12-24T08:00:00Z"])
    #expect(outcome.status == 65)
    #expect(outcome.standardError.contains("pickup_time"))
    #expect(outcome.standardError.contains(fullTimes), "\(outcome.standardError)")
  }

  @Test func aBatchRequestWhoseTimeIsADateGetsAnError() throws {
    let outcome = try StoresProcess.run(
      ["hours", "--batch"],
      input: #"{"id": 1, "oh": "Mo-Su 09:00-17:00", "tz": "Europe/Berlin", "at": "2026-12-24"}"# + "\n")
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let line = try #require(
      try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
    #expect((line["error"] as? String)?.contains(fullTimes) == true, "\(line)")
    #expect(line["state"] == nil)
  }

  /// Every option that takes a duration refuses a bare number and suggests seconds or minutes.
  @Test(arguments: [
    ["nearest", "--near", "47.6062,-122.3321", "--open-for", "90"],
    ["open", "nw-0001", "--for", "90"],
    ["pickup", "--near", "51.5074,-0.1278", "--ready-in", "90"],
    ["pickup", "--near", "51.5074,-0.1278", "--ready-in", "5m", "--close-buffer", "90"],
  ])
  func aBareNumberIsNotADuration(_ arguments: [String]) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("'90' has no unit; write 90s for seconds or 90m for minutes"))
  }

  @Test func aDurationWithItsUnitIsTakenAsWritten() throws {
    let outcome = try StoresProcess.run([
      "nearest", "--near", "47.6062,-122.3321", "--open-for", "90m", "--now", "2026-11-23T18:00:00Z",
      "--format", "json",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let query = try #require((try outcome.json() as? [String: Any])?["query"] as? [String: Any])
    #expect(query["open_for_s"] as? Int == 5400)
  }

  // MARK: Swapped coordinates

  /// London typed LON,LAT lands in the Indian Ocean; the answer (Mumbai) comes with a warning
  /// naming the LAT,LON reading, for every command that takes --near.
  @Test(arguments: [
    ["nearest", "--near", "-0.1278,51.5074", "-k", "1"],
    ["within", "--near", "-0.1278,51.5074", "--radius", "5000km", "--format", "json"],
    ["pickup", "--near", "-0.1278,51.5074", "--ready-in", "5m", "--now", "2026-11-23T12:00:00Z"],
  ])
  func aLocationTypedLonLatIsNamed(_ arguments: [String]) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(!outcome.standardOutput.isEmpty)
    let warning = try #require(
      outcome.standardError.split(separator: "\n").first {
        $0.hasPrefix("stores: warning: the nearest store is")
      },
      "\(outcome.standardError)")
    #expect(warning.contains(" km from -0.1278,51.5074; did you mean --near 51.5074,-0.1278 (LAT,LON)? "))
    #expect(warning.hasSuffix("stores are within 1 km of it"))
  }

  @Test func aLocationTypedLatLonHasNoWarning() throws {
    let outcome = try StoresProcess.run(["nearest", "--near", "51.5074,-0.1278", "-k", "1"])
    #expect(outcome.status == 0)
    #expect(outcome.standardError.isEmpty, "\(outcome.standardError)")
  }

  /// With a condition the first match need not be the nearest store: here it is 1,500 km away
  /// while an unmatched store stands at the point itself, so the point is no swap, although the
  /// matching store sits at the swapped reading. Without one, the first match is the nearest.
  @Test(arguments: [
    ["nearest", "--near", "10,20", "--where", "brand=b"],
    ["within", "--near", "10,20", "--radius", "2000km", "--where", "brand=b"],
    ["nearest", "--near", "10,20"], ["nearest", "--near", "10,20", "--within", "1km"],
  ])
  func aConditionDoesNotHideTheNearestStore(_ arguments: [String]) throws {
    func store(_ id: String, _ brand: String, latitude: Double, longitude: Double) -> String {
      #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(longitude),\#(latitude)]},"#
        + #""properties":{"brand":"\#(brand)","timezone":"UTC"}}"#
    }
    let path = try StoresProcess.temporaryFile(
      #"{"type":"FeatureCollection","features":["#
        + store("a", "a", latitude: 10, longitude: 20) + ","
        + store("b", "b", latitude: 20, longitude: 10.0001)
        + "]}")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(arguments + ["--data", path])
    #expect(outcome.status == 0)
    #expect(!outcome.standardError.contains("did you mean"), "\(outcome.standardError)")
  }
}
