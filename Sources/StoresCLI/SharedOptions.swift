import ArgumentParser
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
      "GeoJSON file to read ('-' for standard input).",
      discussion: "Default: $STORES_DATA, else the bundled Data/stores.geojson.",
      valueName: "path"))
  var data: String?

  @Flag(help: "Fail on any data error instead of skipping the bad records.")
  var strict = false

  /// Loads the catalog; reports a failure on standard error and exits 65 or 66.
  ///
  /// When records were skipped, says so in one line on standard error, so a lenient load is never
  /// silent about lost data.
  func loadCatalog() throws -> Catalog {
    let path = DefaultData.path(explicit: data, environment: currentEnvironment())
    do {
      let catalog = try Catalog.load(contentsOf: path, options: LoadOptions(strict: strict))
      let errors = catalog.diagnostics.count { $0.severity == .error }
      if errors > 0 {
        standardError(
          "stores: warning: \(path) has \(errors) data error\(errors == 1 ? "" : "s"); results may be "
            + "incomplete; run 'stores validate \(path)' for the list")
      }
      return catalog
    } catch {
      standardError("stores: \(error.description)")
      for diagnostic in error.diagnostics.filter({ $0.severity == .error }).prefix(20) {
        standardError("  \(diagnostic)")
      }
      throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
    }
  }
}

/// How results are shown.
struct OutputOptions: ParsableArguments {
  @Option(name: .long, help: "Output format: text, json, ndjson, geojson or csv.")
  var format: OutputFormat = .text

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
      valueName: "KEY=VALUE"),
    transform: parsed(StoreFilter.Condition.init(parsing:)))
  var conditions: [StoreFilter.Condition] = []

  var filter: StoreFilter { StoreFilter(conditions) }
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

func standardError(_ line: String) {
  write(line + "\n", toDescriptor: 2)
}

/// Writes `text` to standard output.
func standardOutput(_ text: String) {
  write(text, toDescriptor: 1)
}

/// Writes all of `text`, retrying short writes; the process's streams are plain descriptors here,
/// so output and diagnostics never interleave inside one call.
private func write(_ text: String, toDescriptor descriptor: Int32) {
  var text = text
  text.withUTF8 { bytes in
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written <= 0 {
        if written < 0, errno == EINTR { continue }
        return
      }
      offset += written
    }
  }
}
