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
    #expect(outcome.standardError.contains("unknown option '--units'"), "\(outcome.standardError)")
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
    (
      ["find", "--near", "1,2"], "unknown command 'find' (commands: nearest, within, clusters, places, show,"
    ),
  ])
  func anUnknownCommandIsNamed(_ arguments: [String], _ message: String) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    #expect(!outcome.standardError.lowercased().contains("unknown option"))
  }

  /// A mistyped option is named, with the option meant, before anything it leaves missing or
  /// invalid, on every command; the usage shown is the command's own (issue 26 §5).
  @Test(arguments: [
    (["nearest", "--nera", "47.6,-122.3"], "'--nera'; did you mean '--near'?", "stores nearest"),
    (
      ["within", "--near", "47.6,-122.3", "--radus", "2km"], "'--radus'; did you mean '--radius'?",
      "stores within"
    ),
    (["clusters", "--bbx", "1,2,3,4"], "'--bbx'; did you mean '--bbox'?", "stores clusters"),
    (["show", "nw-0001", "--att", "2026-11-22T07:45"], "'--att'; did you mean '--at'?", "stores show"),
    (
      ["hours", "--expresion", "Mo-Fr 09:00-17:00", "--timezone", "Europe/Berlin"],
      "'--expresion'; did you mean '--expression'?", "stores hours"
    ),
    (["open", "nw-0001", "--fro", "1h"], "'--fro'; did you mean '--for'?", "stores open"),
    (
      ["pickup", "--near", "51.5,-0.12", "--redy-in", "5m"], "'--redy-in'; did you mean '--ready-in'?",
      "stores pickup"
    ),
    (["info", "--formt", "json"], "'--formt'; did you mean '--format'?", "stores info"),
    (["validate", "--severty", "note"], "'--severty'; did you mean '--severity'?", "stores validate"),
    (
      ["snapshot", "build", "in.geojson", "--ouptut", "out.snap"], "'--ouptut'; did you mean '--output'?",
      "stores snapshot build"
    ),
    (["snapshot", "verify", "--dat", "x.snap"], "unknown option '--dat'", "stores snapshot verify"),
    // Options after values that start with '-' (a negative latitude) are still read as options.
    (["nearest", "--near", "-33.8688,151.2093", "-x"], "unknown option '-x'", "stores nearest"),
    (
      ["within", "--where=drive_through=yes", "--radius=-5km", "--nera=1,2"],
      "'--nera'; did you mean '--near'?", "stores within"
    ),
  ])
  func anUnknownOptionIsNamedFirst(_ arguments: [String], _ message: String, _ command: String) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 64)
    let lines = outcome.standardError.split(separator: "\n")
    #expect(lines.first?.hasPrefix("Error: unknown option ") == true, "\(outcome.standardError)")
    #expect(lines.first?.contains(message) == true, "\(outcome.standardError)")
    #expect(lines.dropFirst().first?.hasPrefix("Usage: \(command) ") == true, "\(outcome.standardError)")
    #expect(lines.last == "  See '\(command) --help' for more information.")
    #expect(!outcome.standardError.contains("Missing expected argument"))
  }

  /// A number and its unit written apart say how to write them, not "Unexpected argument 'km'"
  /// (issue 34 §4).
  @Test(arguments: [
    (["within", "--near", "47.6,-122.3", "--radius", "2", "km"], "'--radius 2km'"),
    (["nearest", "--near", "47.6,-122.3", "--within", "2", "km"], "'--within 2km'"),
    (["pickup", "--near", "47.6,-122.3", "--ready-in", "15", "min"], "'--ready-in 15min'"),
    (["nearest", "--near", "47.6,-122.3", "--open-for", "1.5", "h"], "'--open-for 1.5h'"),
  ])
  func aNumberAndItsUnitApartAreJoined(_ arguments: [String], _ written: String) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 64)
    #expect(
      outcome.standardError.contains("write the number and its unit together, \(written)"),
      "\(outcome.standardError)")
    #expect(!outcome.standardError.contains("Unexpected argument"), "\(outcome.standardError)")
  }

  /// Values that look like options are values, and a command line without unknown options keeps
  /// the error it had.
  @Test(arguments: [
    (["nearest", "--near", "-33.8688,151.2093", "-k", "-1"], "-k must be 1...1000 (got -1)"),
    (["within", "--near", "-33.8688,-151.2093", "--radius", "-5km"], "--radius"),
    (["nearest", "--where", "drive_through=yes"], "Missing expected argument '--near <lat,lon|place>'"),
    (["hours", "--expression", "Mo-Fr 09:00-17:00"], "--expression needs --timezone"),
  ])
  func knownOptionsKeepTheirErrors(_ arguments: [String], _ message: String) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains(message), "\(outcome.standardError)")
    #expect(!outcome.standardError.lowercased().contains("unknown option"), "\(outcome.standardError)")
  }

  /// An error found while a command runs shows that command's usage, not the list of commands
  /// (a bad --timezone in `hours` printed the usage of `stores` itself), and a zone name that is
  /// not one says which zones were meant (issue 26 §5).
  @Test(arguments: [
    ("Europe/Berlinn", "did you mean Europe/Berlin?"),
    ("europe/paris", "did you mean Europe/Paris?"),
    ("New York", "did you mean America/New_York?"),
    ("Berlin", "did you mean Europe/Berlin?"),
    ("Nowhere/Atall", "no such zone"),
  ])
  func aBadTimezoneShowsTheHoursUsage(_ zone: String, _ message: String) throws {
    let outcome = try StoresProcess.run([
      "hours", "--expression", "Mo-Fr 09:00-17:00", "--timezone", zone, "--at", "2026-11-23T10:00:00Z",
    ])
    #expect(outcome.status == 64)
    let lines = outcome.standardError.split(separator: "\n")
    #expect(
      lines.first?.hasPrefix("Error: --timezone: unknown time zone '\(zone)'") == true,
      "\(outcome.standardError)")
    #expect(lines.first?.contains(message) == true, "\(outcome.standardError)")
    #expect(lines.dropFirst().first?.hasPrefix("Usage: stores hours ") == true, "\(outcome.standardError)")
    #expect(!outcome.standardError.contains("SUBCOMMANDS"))
    #expect(!outcome.standardError.contains("<subcommand>"))
    #expect(outcome.standardOutput.isEmpty)
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
