import Foundation
import OpeningHours
import Testing

/// The canonical form through the command line: `stores hours --expression X --normalize`, and the
/// fix-it that `stores validate` adds to every tolerated or doubtful opening_hours value.
@Suite struct NormalizeCommandTests {
  @Test func normalizePrintsTheCanonicalFormAndNotesTheDeviations() throws {
    let outcome = try StoresProcess.run([
      "hours", "--expression", "mo-fr 9am-5pm; PH closed", "--normalize",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.standardOutput == "Mo-Fr 09:00-17:00; PH off\n")
    #expect(outcome.standardError.contains("note: keyword-case at characters 1-2"))
    #expect(outcome.standardError.contains("am-pm"))
  }

  @Test func hoursOfAToleratedExpressionEndTheNotesWithTheCanonicalForm() throws {
    let outcome = try StoresProcess.run([
      "hours", "--expression", "Mo-Fr 9:00-17:00", "--timezone", "Europe/Berlin", "--at", "2026-11-23T10:00",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.standardOutput.contains("note: single-digit-hour"))
    #expect(outcome.standardOutput.contains("write it as `Mo-Fr 09:00-17:00`\n"))
  }

  @Test func normalizeNeedsNoTimeZoneAndLeavesACanonicalValueAlone() throws {
    let outcome = try StoresProcess.run([
      "hours", "--expression", "Mo-Fr 09:00-18:00; Sa 10:00-14:00", "--normalize",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.standardOutput == "Mo-Fr 09:00-18:00; Sa 10:00-14:00\n")
    #expect(outcome.standardError.isEmpty)
  }

  @Test func normalizeWritesJSON() throws {
    let expression = "Mo–Fr 8:00-18:00"
    let outcome = try StoresProcess.run([
      "hours", "--expression", expression, "--normalize", "--format", "json",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let object = try #require(try outcome.json() as? [String: Any])
    #expect(object["expression"] as? String == expression)
    #expect(object["normalized"] as? String == "Mo-Fr 08:00-18:00")
    #expect(object["changed"] as? Bool == true)
    let warnings = try #require(object["warnings"] as? [[String: Any]])
    // The library's own warnings, as the CLI reports them.
    let expected = try OpeningHours(parsing: expression).warnings
    #expect(warnings.compactMap { $0["code"] as? String } == expected.map(\.code))
    #expect(warnings.compactMap { $0["start"] as? Int } == expected.map(\.range.lowerBound))
  }

  @Test func aValueThatDoesNotParseExits65() throws {
    let outcome = try StoresProcess.run(["hours", "--expression", "Mo-Fr 09:00-", "--normalize"])
    #expect(outcome.status == 65)
    #expect(outcome.standardOutput.isEmpty)
    #expect(outcome.standardError.contains("expected a time"))
  }

  @Test func normalizeNeedsAnExpression() throws {
    let outcome = try StoresProcess.run(["hours", "--batch", "--normalize"], input: "")
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("--normalize needs --expression"))
  }

  func feature(_ id: String, _ hours: String) -> String {
    #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
      + #""properties":{"timezone":"Europe/Berlin","opening_hours":"\#(hours)"}}"#
  }

  @Test func validateSuggestsTheCanonicalFormForEveryToleratedValue() throws {
    let file = try StoresProcess.temporaryFile(
      #"{"type":"FeatureCollection","features":["#
        + [
          feature("a", "mo-fr 9am-5pm"), feature("b", "Mo-Fr 09:00-17:00"),
          feature("c", "Dec 25 +12345678901 days off"),
        ].joined(separator: ",") + "]}")
    defer { try? FileManager.default.removeItem(atPath: file) }
    let text = try StoresProcess.run(["validate", file, "--severity", "note"])
    #expect(text.status == 0, "\(text.standardError)")
    let tolerated = text.standardOutput.split(separator: "\n").filter {
      $0.contains(": note[opening-hours-tolerated]")
    }
    let deviations = try OpeningHours(parsing: "mo-fr 9am-5pm").warnings.count
    #expect(deviations > 1)
    #expect(tolerated.count == deviations)
    #expect(tolerated.allSatisfy { $0.hasSuffix("; write it as `Mo-Fr 09:00-17:00`") })
    // A doubtful value is a warning, listed by default, with what it is read as.
    let doubtful = try StoresProcess.run(["validate", file])
    #expect(doubtful.standardOutput.contains("[large-day-offset]; write it as `Dec 25 +123456789 days off`"))
    // The canonical value gets nothing.
    #expect(!text.standardOutput.contains("id \"b\""))

    let json = try StoresProcess.run(["validate", file, "--severity", "note", "--format", "json"])
    let diagnostics = try #require((try json.json() as? [String: Any])?["diagnostics"] as? [[String: Any]])
    let messages = diagnostics.filter { $0["code"] as? String == "opening-hours-tolerated" }
      .compactMap { $0["message"] as? String }
    #expect(messages.count == deviations)
    #expect(messages.allSatisfy { $0.hasSuffix("; write it as `Mo-Fr 09:00-17:00`") })
  }

  @Test(.enabled(if: StoresProcess.corpusDirectory != nil, "needs ../shared/corpus beside the repository"))
  func everyToleratedValueOfTheCorpusGetsAFix() throws {
    let directory = try #require(StoresProcess.corpusDirectory)
    var tolerated = 0
    for name in try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    where name.hasSuffix(".geojson") && !name.contains("worldwide") {
      let outcome = try StoresProcess.run([
        "validate", directory.appendingPathComponent(name).path, "--severity", "note", "--format", "ndjson",
      ])
      for line in outcome.standardOutput.split(separator: "\n") {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        guard let code = object["code"] as? String,
          code == "opening-hours-tolerated" || code == "opening-hours-doubtful",
          let message = object["message"] as? String
        else { continue }
        tolerated += 1
        // `opening_hours "TEXT" …; write it as `CANONICAL``: the canonical form parses cleanly.
        let fix = try #require(message.range(of: "; write it as `"), "\(name): \(message)")
        let canonical = String(message[fix.upperBound...].dropLast())
        #expect(try OpeningHours(parsing: canonical).warnings.isEmpty, "\(name): \(canonical)")
      }
    }
    print("validate on the corpus: \(tolerated) tolerated opening_hours diagnostics, each with a fix")
  }
}
