import Foundation
import Testing

/// `spill-erased` through the `stores` executable (issue 26, item 3): `validate`, `show` and
/// `hours --expression` name the nights a later rule erases and give the value that keeps them.
@Suite struct SpillErasedCommandTests {
  static let value = "Mo-Th 05:30-02:30; Fr 05:30-03:30; Sa 05:30-02:30; Su 06:00-01:30"
  static let fixIt =
    "Mo-Th 05:30-02:30; Fr 00:00-02:30,05:30-03:30; Sa 00:00-03:30,05:30-02:30; Su 00:00-02:30,06:00-01:30"

  /// Store 5485 of the Manila file, as it came (trimmed to the members that matter), and a store
  /// whose `Sa off` closes Friday night on purpose.
  static let file = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","id":"5485","properties":{"ref":"5485","name":"6750 Ayala Avenue","addr:country":"PH",\
    "timezone":"Asia/Manila","opening_hours":"\(value)"},"geometry":{"type":"Point","coordinates":[121.02518,14.55302]}},
    {"type":"Feature","id":"bar","properties":{"name":"Bar","timezone":"Asia/Manila",\
    "opening_hours":"Mo-Fr 18:00-02:00; Sa off"},"geometry":{"type":"Point","coordinates":[121.03,14.56]}}
    ]}
    """

  @Test func validateWarnsWithTheFixIt() throws {
    let path = try StoresProcess.temporaryFile(Self.file)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(["validate", path])
    // A warning, not an error: the file is valid (exit 0), and --strict fails it.
    #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
    let lines = outcome.standardOutput.split(separator: "\n").filter { $0.contains("spill-erased") }
    // One line for the Manila store, none for the bar.
    #expect(lines.count == 2, "\(outcome.standardOutput)")
    let line = try #require(lines.first)
    #expect(line.hasPrefix("\(path):2:1: warning[opening-hours-spill-erased] feature 0 id \"5485\": "))
    #expect(line.contains("Friday 00:00-02:30 (replaced by `Fr 05:30-03:30`)"))
    #expect(line.hasSuffix("; write it as `\(Self.fixIt)`"))
    #expect(lines.last?.contains("1  warning  opening-hours-spill-erased") == true)
    #expect(!outcome.standardOutput.contains("id \"bar\""))
    let strict = try StoresProcess.run(["validate", path, "--strict"])
    #expect(strict.status == 65)

    let json = try StoresProcess.run(["validate", path, "--format", "json"])
    let report = try #require(try json.json() as? [String: Any])
    let diagnostics = try #require(report["diagnostics"] as? [[String: Any]])
    let spill = try #require(diagnostics.first { $0["code"] as? String == "opening-hours-spill-erased" })
    #expect(spill["severity"] as? String == "warning")
    #expect(spill["store_id"] as? String == "5485")
  }

  @Test func showNamesTheWarning() throws {
    let path = try StoresProcess.temporaryFile(Self.file)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(["show", "5485", "--data", path, "--at", "2026-11-26T23:00"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let row = try #require(
      outcome.standardOutput.split(separator: "\n").first { $0.hasPrefix("Hours warning") })
    #expect(row.contains("spill-erased: a later rule replaces the whole of a day"))
    #expect(row.hasSuffix("write it as `\(Self.fixIt)`"))
    // The answer stays the specification's: Thursday night ends at midnight.
    #expect(outcome.standardOutput.contains("open until midnight"))
    let bar = try StoresProcess.run(["show", "bar", "--data", path])
    #expect(!bar.standardOutput.contains("Hours warning"))
  }

  @Test func hoursExpressionWarns() throws {
    let outcome = try StoresProcess.run([
      "hours", "--expression", Self.value, "--timezone", "Asia/Manila", "--at", "2026-11-26T23:00",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.standardOutput.contains("warning: spill-erased at characters 20-33: "))
    #expect(outcome.standardOutput.contains("write it as `\(Self.fixIt)`"))
    let json = try StoresProcess.run([
      "hours", "--expression", Self.value, "--timezone", "Asia/Manila", "--format", "json",
    ])
    let answer = try #require(try json.json() as? [String: Any])
    let warnings = try #require(answer["warnings"] as? [String])
    #expect(warnings.contains { $0.hasPrefix("spill-erased at characters 20-33: ") })
  }
}
