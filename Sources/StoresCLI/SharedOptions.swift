import ArgumentParser
import OpeningHours
import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the stores come from; on every command that reads them.
struct DataOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "GeoJSON file or snapshot to read ('-' for standard input).",
      discussion:
        "Default: $STORES_DATA, else the bundled Data/stores.geojson ($STORES_RESOURCES, when set, "
        + "names a copy of Data/ with the reference data: holidays, time-zone places).",
      valueName: "path"))
  var data: String?

  @Flag(help: "Fail on any data error instead of skipping the bad records.")
  var strict = false

  @Option(
    name: .customLong("holidays"),
    help: ArgumentHelp(
      "Public-holiday file to add to the bundled ones (repeatable; format: Data/holidays/README.md).",
      valueName: "file"))
  var holidayFiles: [String] = []

  var loadOptions: LoadOptions { LoadOptions(strict: strict, holidayFiles: holidayFiles) }

  /// Loads the catalog; reports a failure on standard error and exits 65 or 66.
  ///
  /// When records were skipped, says so in one line on standard error, so a lenient load is never
  /// silent about lost data. A long load shows its progress on standard error when that is a
  /// terminal (`TerminalProgress`).
  func loadCatalog() throws -> Catalog {
    let path = DefaultData.path(explicit: data, environment: currentEnvironment())
    let terminal = TerminalProgress.onStandardError()
    defer { terminal?.clear() }
    do {
      let catalog = try Catalog.load(contentsOf: path, options: loadOptions, progress: terminal?.progress)
      terminal?.clear()
      let errors = catalog.diagnosticCount(.error)
      // A cut-off file loses every store after the cut: say so in its own words, not only as a count.
      if let truncation = catalog.truncation {
        // A snapshot is whole; the GeoJSON it was built from was the cut-off file.
        let cutFile = catalog.isSnapshot ? "\(catalog.source) (from which \(path) was built)" : path
        standardError("stores: warning: \(cutFile) is truncated: \(truncation.message)")
      }
      if errors > 0 {
        standardError(
          "stores: warning: \(path) has \(errors) data error\(errors == 1 ? "" : "s"); results may be "
            + "incomplete; run 'stores validate \(path)' for the list")
      }
      return catalog
    } catch {
      terminal?.clear()
      standardError("stores: \(error.description)")
      let errors = error.diagnostics.filter { $0.severity == .error }
      for diagnostic in errors.prefix(20) {
        standardError("  \(diagnostic)")
      }
      if errors.count > 20 {
        standardError("  … and \(errors.count - 20) more errors; 'stores validate \(path)' lists them all")
      }
      throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
    }
  }
}

/// The clock, so any answer can be reproduced.
struct ClockOptions: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Take this as the current time (ISO 8601 with Z or an offset); default: the system clock.",
      valueName: "time"))
  var now: String?

  func add(to parameters: inout CommandParameters) { parameters.add("now", now) }
}

/// Conditions on opening hours, checked inside the search.
struct OpenOptions: ParsableArguments {
  @Flag(help: "Only stores open now.")
  var openNow = false

  @Option(
    help: ArgumentHelp(
      "Only stores open at this time: ISO 8601 with an offset is one instant; without one "
        + "(2026-12-24T23:30) it is that wall time at each store. A date alone is refused.",
      valueName: "time"))
  var openAt: String?

  @Option(
    help: ArgumentHelp(
      "…and staying open at least this long (90s, 15m, 1h30m, PT15M; a unit is required); implies "
        + "--open-now without --open-at.",
      valueName: "duration"))
  var openFor: String?

  @Flag(help: "Let stores whose hours are unknown pass the opening-hours conditions.")
  var allowUnknown = false

  @OptionGroup var service: ServiceOption

  func add(to parameters: inout CommandParameters) {
    parameters.add("open_now", openNow)
    parameters.add("open_at", openAt)
    parameters.add("open_for", openFor)
    parameters.add("allow_unknown", allowUnknown)
    service.add(to: &parameters)
  }
}

/// The service whose hours answers speak of (OpenStreetMap's `opening_hours:<service>`).
struct ServiceOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Go by the hours of this service (drive_through, kitchen, delivery, takeaway: the data's "
        + "opening_hours:<service>); a store with none uses its own hours when it has <service>=yes, "
        + "does not offer it when <service>=no, else its hours for it are unknown.",
      valueName: "service"))
  var service: String?

  func add(to parameters: inout CommandParameters) { parameters.add("service", service) }
}

/// How stores are written, on the commands that write stores (`info` and the others that write
/// summaries take a format option of their own, naming only what they write).
struct OutputOptions: ParsableArguments {
  @Option(
    name: .long,
    help: ArgumentHelp(
      "Output format: text, json, ndjson, geojson or csv.",
      discussion:
        "Every format carries the same store members (README, JSON output). Text never cuts an id; "
        + "it cuts names and addresses to fit $COLUMNS, else the terminal; when neither is known "
        + "(a file or pipe without $COLUMNS), nothing is cut."))
  var format: OutputFormat = .text
}

/// The store members the machine formats write, on the commands that search (`fields=` of the
/// service).
struct FieldsOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Write only these store members (comma-separated, such as id,name,distance_m,state; id always).",
      discussion:
        "For --format json, ndjson, geojson and csv; members keep the answer's order. Without the "
        + "open-state and ordering members no opening hours are evaluated for the stores listed.",
      valueName: "members"))
  var fields: String?

  func add(to parameters: inout CommandParameters) { parameters.add("fields", fields) }

  /// Refuses `--fields` with the text table, which has columns of its own.
  func check(_ format: OutputFormat) throws {
    if fields != nil, format == .text {
      throw ValidationError(
        "--fields chooses the members of --format json, ndjson, geojson or csv; the text table has its own columns"
      )
    }
  }
}

/// Units of the distances in text output; only on the commands that print distances.
struct UnitOptions: ParsableArguments {
  @Option(name: .long, help: "Distance units in text output: km or mi (JSON is always metres).")
  var units: DisplayUnit = .km
}

/// Conditions on store properties.
struct FilterOptions: ParsableArguments {
  @Option(
    name: .customLong("where"),
    help: ArgumentHelp(
      "Keep stores whose property KEY equals VALUE (repeatable).",
      discussion:
        "KEY=VALUE matches the value, an array element or a part of a ';' list; KEY alone means "
        + "present and not 'no'; KEY!=VALUE excludes.",
      valueName: "KEY=VALUE"))
  var conditions: [String] = []

  func add(to parameters: inout CommandParameters) { parameters.add("where", conditions) }
}

func currentEnvironment() -> [String: String] {
  var environment: [String: String] = [:]
  var pointer = environ
  while let entry = pointer.pointee {
    let text = String(cString: entry)
    if let equals = text.firstIndex(of: "=") {
      environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
    }
    pointer += 1
  }
  return environment
}
