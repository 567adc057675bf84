import ArgumentParser
import StoreLocator

extension StoresCommand {
  struct Validate: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check a store file and list every problem with its position.",
      discussion: """
        Each line reads PATH:LINE:COLUMN: SEVERITY[CODE] feature N id "ID": message. Codes are \
        stable and listed in docs/diagnostics.md. Errors and warnings are listed, notes (how \
        something was read, such as an inferred time zone) only counted: --severity note lists \
        them too, --severity error lists errors alone. A summary line follows, then one line per \
        code: count, severity, code. A message about an opening_hours value read by tolerating \
        a deviation (opening-hours-tolerated, a note) or a doubtful one (opening-hours-doubtful, \
        a warning) ends with "; write it as `…`": the value's canonical form, which parses \
        without warnings and means the same (stores hours --expression X --normalize prints it). \
        A value whose later rule erases a night an earlier one runs past midnight into \
        (opening-hours-spill-erased, a warning: `Mo-Th 05:30-02:30; Fr 05:30-03:30` closes \
        Thursday night at midnight) ends with the value that keeps those nights.

        --format json writes one object: source, records, indexed, errors, warnings, notes \
        (counts of all diagnostics, listed or not), valid, fatal (the message when the file \
        could not be read at all, else null), severity (the least severe listed), codes (an \
        array of {code, severity, count}) and diagnostics (the listed ones, each with code, \
        severity, feature_index, line, column, store_id, message). --format ndjson writes the \
        listed diagnostics alone, one object a line.

        Exits 0 when there are no errors (with --strict: no errors and no warnings), 65 otherwise \
        (a truncated file is an error), 66 when the file is missing.
        """)

    @Argument(help: "The file to check (default: --data, $STORES_DATA, or the bundled data).")
    var path: String?

    @Option(name: .long, help: ArgumentHelp("Same as PATH.", valueName: "path"))
    var data: String?

    @Flag(help: "Stricter than the default: warnings fail validation too (errors always do).")
    var strict = false

    @Option(
      name: .long,
      help: ArgumentHelp(
        "The least severe diagnostics to list: error, warning or note (default: warning; all are counted).",
        valueName: "severity"))
    var severity: Diagnostic.Severity = .warning

    @Option(name: .long, help: "Output format: text, json or ndjson.")
    var format: ReportFormat = .text

    func validate() throws {
      if path != nil, data != nil {
        throw ValidationError("give the file either as PATH or as --data, not both")
      }
      guard [.text, .json, .ndjson].contains(format) else {
        throw ValidationError("validate writes text, json or ndjson, not \(format.rawValue)")
      }
    }

    func run() throws {
      let source = DefaultData.path(explicit: path ?? data, environment: currentEnvironment())
      let catalog: Catalog
      // A large file takes a while to read: a terminal sees how far it got, never the report.
      let terminal = TerminalProgress.onStandardError()
      do {
        catalog = try Catalog.load(contentsOf: source, progress: terminal?.progress)
        terminal?.clear()
      } catch {
        terminal?.clear()
        report(source: source, records: 0, indexed: 0, diagnostics: error.diagnostics, fatal: error.message)
        throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
      }
      report(
        source: source, records: catalog.stores.count, indexed: catalog.indexedCount,
        diagnostics: catalog.diagnostics, fatal: nil)
      if !catalog.isValid(warningsAreErrors: strict) { throw ExitCode.badData }
    }

    func report(source: String, records: Int, indexed: Int, diagnostics: [Diagnostic], fatal: String?) {
      // A fatal error is usually also the last diagnostic; count it once.
      let fatalIsListed = fatal != nil && diagnostics.contains { $0.severity == .error }
      let errors = diagnostics.count { $0.severity == .error } + (fatal == nil || fatalIsListed ? 0 : 1)
      let warnings = diagnostics.count { $0.severity == .warning }
      let notes = diagnostics.count { $0.severity == .note }
      // Severity orders error < warning < note: list those at least as severe as asked.
      let listed = diagnostics.filter { $0.severity <= severity }
      let groups = diagnostics.groupedByCode
      switch format {
      case .json:
        var object = JSONObject()
        object["source"] = .string(source)
        object["records"] = JSONValue(records)
        object["indexed"] = JSONValue(indexed)
        object["errors"] = JSONValue(errors)
        object["warnings"] = JSONValue(warnings)
        object["notes"] = JSONValue(notes)
        object["valid"] = .bool(errors == 0 && !(strict && warnings > 0))
        object["fatal"] = fatal.map(JSONValue.string) ?? .null
        object["severity"] = .string(severity.rawValue)
        object["codes"] = .array(groups.map { .object($0.jsonObject) })
        object["diagnostics"] = .array(listed.map { .object($0.jsonObject) })
        standardOutput(JSONValue.object(object).jsonText + "\n")
      case .ndjson:
        standardOutput(listed.map { JSONValue.object($0.jsonObject).jsonText + "\n" }.joined())
      default:
        var text = ""
        for diagnostic in listed {
          let place = diagnostic.position.map { "\(source):\($0.line):\($0.column)" } ?? source
          var line = "\(place): \(diagnostic.severity.rawValue)[\(diagnostic.code)]"
          if let position = diagnostic.position { line += " feature \(position.featureIndex)" }
          if let id = diagnostic.storeID { line += " id \"\(id)\"" }
          text += line + ": " + diagnostic.message + "\n"
        }
        if let fatal, !fatalIsListed { text += "\(source): error: \(fatal)\n" }
        let unlisted = diagnostics.count - listed.count
        text +=
          "\(source): \(counted(records, "record")), \(indexed) searchable; "
          + "\(counted(errors, "error")), \(counted(warnings, "warning")), \(counted(notes, "note"))"
          + (unlisted > 0 ? " (\(unlisted) not listed; --severity note lists all)" : "")
          + "\n"
        let countWidth = groups.map { String($0.count).count }.max() ?? 0
        for group in groups {
          let count = String(group.count)
          let severity = group.severity.rawValue
          text +=
            "  " + String(repeating: " ", count: countWidth - count.count) + count + "  " + severity
            + String(repeating: " ", count: 9 - severity.count) + group.code.rawValue + "\n"
        }
        standardOutput(text)
      }
    }

    /// `1 error`, `2 errors`.
    private func counted(_ count: Int, _ noun: String) -> String {
      "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
  }
}

extension Diagnostic.Severity: ExpressibleByArgument {}
