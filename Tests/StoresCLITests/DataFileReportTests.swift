import Foundation
import Testing

/// What a newcomer sees on the files they load: a truncated file, the summaries of `validate` and
/// `info`, their help, loader errors, and files not in the All The Places schema (issue 9, items
/// 8, 15, 16 and 17).
@Suite struct DataFileReportTests {
  static let features = (0..<3).map { index in
    #"{"type":"Feature","id":"s\#(index)","properties":{"name":"S\#(index)"},"#
      + #""geometry":{"type":"Point","coordinates":[\#(10 + index),50]}}"#
  }

  /// A collection cut inside its last feature, as a download or a crashed writer leaves it.
  static func truncatedFile() throws -> (path: String, bytes: Int) {
    let whole =
      "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    let text = String(whole.prefix(whole.count - 30))
    return (try StoresProcess.temporaryFile(text), text.utf8.count)
  }

  // MARK: Truncation (item 8)

  @Test func aTruncatedFileIsUnmistakableAndFailsStrictly() throws {
    let (path, bytes) = try Self.truncatedFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let nearest = try StoresProcess.run(["nearest", "--near", "50,10", "--data", path, "--format", "json"])
    #expect(nearest.status == 0)
    let warning = nearest.standardError
    #expect(warning.contains("\(path) is truncated: "), "\(warning)")
    #expect(warning.contains("byte offset \(bytes)"))
    #expect(warning.contains("the last record loaded is id \"s1\""))
    #expect(warning.contains("has 1 data error"))
    let stores = try #require((try nearest.json() as? [String: Any])?["stores"] as? [[String: Any]])
    #expect(stores.count == 2)

    let strict = try StoresProcess.run(["nearest", "--near", "50,10", "--data", path, "--strict"])
    #expect(strict.status == 65)
    #expect(strict.standardError.contains("truncated"))
    let validate = try StoresProcess.run(["validate", path])
    #expect(validate.status == 65)
    #expect(validate.standardOutput.contains("error[truncated]"))

    // A snapshot built from it is whole: the warning names the GeoJSON that was cut.
    let snapshot = path + ".snap"
    defer { try? FileManager.default.removeItem(atPath: snapshot) }
    let build = try StoresProcess.run(["snapshot", "build", path, "-o", snapshot])
    #expect(build.status == 0, "\(build.standardError)")
    let fromSnapshot = try StoresProcess.run(["nearest", "--near", "50,10", "--data", snapshot])
    #expect(fromSnapshot.status == 0)
    #expect(
      fromSnapshot.standardError.contains("\(path) (from which \(snapshot) was built) is truncated: "),
      "\(fromSnapshot.standardError)")
  }

  // MARK: validate --severity (item 16)

  /// Two stores without a time zone (notes) and one with a null geometry (a warning).
  static func notesAndAWarning() throws -> String {
    try StoresProcess.temporaryFile(
      #"{"type":"FeatureCollection","features":["# + features[0] + "," + features[1] + ","
        + #"{"type":"Feature","id":"nowhere","properties":{},"geometry":null}]}"#)
  }

  @Test func validateListsWarningsAndCountsNotes() throws {
    let path = try Self.notesAndAWarning()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(["validate", path])
    #expect(outcome.status == 0, "\(outcome.standardOutput)")
    let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.contains("note[") }.isEmpty)
    #expect(lines.contains { $0.contains("warning[missing-geometry]") })
    #expect(
      lines.contains { $0.contains("0 errors, 1 warning, 2 notes (2 not listed; --severity note lists all)") }
    )
    // The summary groups repeated codes: count, severity, code.
    #expect(lines.contains { $0.split(separator: " ") == ["2", "note", "timezone-inferred"] }, "\(lines)")
    #expect(lines.contains { $0.split(separator: " ") == ["1", "warning", "missing-geometry"] })

    let all = try StoresProcess.run(["validate", path, "--severity", "note"])
    #expect(all.standardOutput.components(separatedBy: "note[timezone-inferred]").count == 3)
    let errorsOnly = try StoresProcess.run(["validate", path, "--severity", "error"])
    #expect(!errorsOnly.standardOutput.contains("warning[missing-geometry]"))
    #expect(errorsOnly.standardOutput.contains("3 not listed"))
    #expect(try StoresProcess.run(["validate", path, "--severity", "loud"]).status == 64)

    let json = try #require(
      try StoresProcess.run(["validate", path, "--format", "json"]).json() as? [String: Any])
    #expect(json["notes"] as? Int == 2)
    #expect(json["severity"] as? String == "warning")
    #expect((json["diagnostics"] as? [[String: Any]])?.count == 1)
    let codes = try #require(json["codes"] as? [[String: Any]])
    #expect(codes.first?["code"] as? String == "missing-geometry")
    #expect(codes.last?["count"] as? Int == 2)
  }

  // MARK: info (items 15 and 16)

  @Test func infoCountsEachSeverityWithItsOwnCodes() throws {
    let path = try Self.notesAndAWarning()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(["info", "--data", path])
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput.contains("1 store without"), "\(outcome.standardOutput)")
    #expect(!outcome.standardOutput.contains("1 stores"))
    #expect(
      outcome.standardOutput.contains(
        "0 errors, 1 warning (missing-geometry 1), 2 notes (timezone-inferred 2)"))
  }

  /// Every member of the JSON of `info` and `validate` is named in their `--help`.
  @Test(arguments: [
    (["info", "--format", "json"], "info"), (["validate", "--format", "json"], "validate"),
  ])
  func helpNamesEveryJSONMember(_ arguments: [String], _ command: String) throws {
    let json = try #require(try StoresProcess.run(arguments).json() as? [String: Any])
    let help = try StoresProcess.run([command, "--help"]).standardOutput
      .replacingOccurrences(of: "\n", with: " ").split(separator: " ").joined(separator: " ")
    for member in json.keys {
      #expect(help.contains(member), "\(command) --help does not name \(member)")
    }
  }

  // MARK: Loader errors name the file once (item 15)

  @Test func loaderErrorsNameThePathOnce() throws {
    let empty = try StoresProcess.temporaryFile("")
    let array = try StoresProcess.temporaryFile("[1]")
    defer {
      try? FileManager.default.removeItem(atPath: empty)
      try? FileManager.default.removeItem(atPath: array)
    }
    for path in [empty, array, "/nonexistent/stores.geojson"] {
      let outcome = try StoresProcess.run(["info", "--data", path])
      #expect([65, 66].contains(outcome.status))
      #expect(outcome.standardError.components(separatedBy: path).count == 2, "\(outcome.standardError)")
    }
    let standardInput = try StoresProcess.run(["info", "--data", "-"], input: "")
    #expect(
      standardInput.standardError == "stores: standard input: empty file (0 bytes): no GeoJSON to read\n")
  }

  // MARK: Files not in the All The Places schema (item 17)

  @Test func ogr2ogrFilesHaveIdsAndAddresses() throws {
    let path = try StoresProcess.temporaryFile(
      #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"osm_id":"440624971","#
        + #""name":"Devil's Food","address":null,"addr_housenumber":"1024","addr_street":"South Gaylord Street"},"#
        + #""geometry":{"type":"Point","coordinates":[-104.96,39.69]}}]}"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run([
      "nearest", "--near", "39.7,-104.99", "--data", path, "--format", "json",
    ])
    let store = try #require(((try outcome.json() as? [String: Any])?["stores"] as? [[String: Any]])?.first)
    #expect(store["id"] as? String == "440624971")
    #expect(store["address"] as? String == "1024 South Gaylord Street")
    let properties = try #require(store["properties"] as? [String: Any])
    #expect(properties["addr_street"] as? String == "South Gaylord Street")
    let validate = try StoresProcess.run(["validate", path, "--severity", "note"])
    #expect(validate.standardOutput.components(separatedBy: "note[property-alias]").count == 3)
    #expect(!validate.standardOutput.contains("generated-id"))
  }

  @Test(.enabled(if: StoresProcess.corpusDirectory != nil, "needs ../shared/corpus beside the repository"))
  func theDunkinFileShowsItsAddresses() throws {
    let file = try #require(StoresProcess.corpusDirectory).appendingPathComponent(
      "atp_dunkin_starbucks_suffolk_ma.geojson"
    ).path
    let outcome = try StoresProcess.run([
      "nearest", "--near", "42.3601,-71.0589", "--data", file, "--format", "json",
    ])
    let stores = try #require((try outcome.json() as? [String: Any])?["stores"] as? [[String: Any]])
    #expect(!stores.isEmpty)
    for store in stores {
      let properties = try #require(store["properties"] as? [String: Any])
      #expect(store["address"] as? String == properties["address"] as? String)
      #expect(store["id"] as? String == properties["id"] as? String)
    }
  }
}
