import Foundation
import Testing

/// What `--help` offers is what each command does; mistakes get the sentence that fixes them
/// (issue 9, item 15).
@Suite struct HelpContractTests {
  @Test(arguments: [
    ("info", ["text", "json"]),
    ("hours", ["text", "json"]),
    ("open", ["text", "json"]),
    ("pickup", ["text", "json"]),
    ("validate", ["text", "json", "ndjson"]),
    ("nearest", ["text", "json", "ndjson", "geojson", "csv"]),
    ("show", ["text", "json", "ndjson", "geojson", "csv"]),
  ])
  func helpListsOnlyTheFormatsACommandWrites(_ command: String, _ formats: [String]) throws {
    let help = try StoresProcess.run([command, "--help"])
    #expect(help.status == 0)
    let format = try #require(help.standardOutput.range(of: "--format <format>", options: .backwards))
    // The option's help runs to the next option.
    let after = help.standardOutput[format.upperBound...]
    let option = String(after[..<(after.range(of: "\n  -")?.lowerBound ?? after.endIndex)])
    for name in ["text", "json", "ndjson", "geojson", "csv"] {
      #expect(option.contains(name) == formats.contains(name), "\(command): \(option)")
    }
    for name in ["ndjson", "geojson", "csv"] where !formats.contains(name) {
      let refused = try StoresProcess.run([command, "--format", name])
      #expect(refused.status == 64, "\(command) --format \(name)")
      #expect(refused.standardError.contains("'\(name)' is invalid"), "\(refused.standardError)")
    }
  }

  @Test(arguments: ["info", "show nw-0001", "hours nw-0001", "open nw-0001", "validate"])
  func unitsAreOfferedOnlyWhereDistancesPrint(_ command: String) throws {
    let arguments = command.split(separator: " ").map(String.init)
    let help = try StoresProcess.run([arguments[0], "--help"])
    #expect(!help.standardOutput.contains("--units"))
    let outcome = try StoresProcess.run(arguments + ["--units", "mi"])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("Unknown option '--units'"))
  }

  @Test(arguments: ["nearest", "within"])
  func unitsAreOfferedWhereDistancesPrint(_ command: String) throws {
    #expect(try StoresProcess.run([command, "--help"]).standardOutput.contains("--units <units>"))
  }

  @Test(arguments: ["-1", "0", "-100", "1001"])
  func kOutOfRangeSaysWhatKNeeds(_ k: String) throws {
    let outcome = try StoresProcess.run(["nearest", "--near", "1,2", "-k", k])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("-k must be 1...1000 (got \(k))"), "\(outcome.standardError)")
  }

  @Test func negativeDaysSayTheRange() throws {
    let outcome = try StoresProcess.run(["hours", "nw-0001", "--days", "-1"])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("--days must be 1...366 (got -1)"), "\(outcome.standardError)")
  }

  @Test(arguments: [
    (["near", "--near", "51.5,-0.12"], "unknown command 'near'; did you mean 'nearest'?"),
    (["nearst", "--near", "51.5,-0.12"], "unknown command 'nearst'; did you mean 'nearest'?"),
    (["withn", "--bbox", "1,2,3,4"], "unknown command 'withn'; did you mean 'within'?"),
    (["snapshot", "bild", "x.geojson"], "unknown command 'snapshot bild'; did you mean 'snapshot build'?"),
    (["find", "--near", "1,2"], "unknown command 'find' (commands: nearest, within, clusters, show,"),
  ])
  func anUnknownCommandIsNamed(_ arguments: [String], _ message: String) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    #expect(!outcome.standardError.contains("Unknown option"))
  }

  /// The overview and discussion read as wrapped sentences: a run of spaces inside a line is a
  /// lost `\` continuation in the source.
  @Test(arguments: [
    ["info"], ["nearest"], ["within"], ["clusters"], ["places"], ["show"], ["hours"], ["open"], ["pickup"],
    ["validate"],
    ["snapshot"], ["snapshot", "build"], ["snapshot", "verify"],
  ])
  func helpTextHasNoRunsOfSpaces(_ command: [String]) throws {
    let help = try StoresProcess.run(command + ["--help"]).standardOutput
    let discussion = help[..<(help.range(of: "USAGE:")?.lowerBound ?? help.endIndex)]
    for line in discussion.split(separator: "\n") {
      let text = line.drop { $0 == " " }
      #expect(!text.contains("  "), "\(command) --help: \(line)")
    }
  }

  /// Text output is cut to $COLUMNS wherever it goes, a pipe too; the help says so.
  @Test func formatHelpSaysWhenTextIsCut() throws {
    let help = try StoresProcess.run(["nearest", "--help"]).standardOutput
      .split(whereSeparator: \.isWhitespace).joined(separator: " ")
    #expect(
      help.contains("it cuts names and addresses to fit $COLUMNS, else the terminal; when neither is known"))
    #expect(help.contains("(a file or pipe without $COLUMNS), nothing is cut."))
  }

  @Test func helpAndVersionStillWork() throws {
    #expect(try StoresProcess.run(["help", "nearest"]).standardOutput.contains("--near"))
    #expect(try StoresProcess.run(["--version"]).status == 0)
    #expect(try StoresProcess.run(["snapshot", "--help"]).status == 0)
  }
}
