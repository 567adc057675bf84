import ArgumentParser
import StoreLocator

extension StoresCommand {
  struct Snapshot: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Build or check a binary snapshot, which --data maps in without parsing.",
      discussion: """
        A snapshot holds the records, the k-d tree, the per-subtree summaries of opening hours \
        and attributes, and the diagnostics of a store file. Every command takes one as --data \
        (or $STORES_DATA) and starts in milliseconds, whatever the number of stores.

        Opening a snapshot checks its format version, its size and the checksums of its index; \
        a truncated, corrupted or older snapshot is refused with the command that rebuilds it. \
        Records of large snapshots are checked as they are read; 'stores snapshot verify' checks \
        them all.
        """,
      subcommands: [Build.self, Verify.self])
  }
}

extension StoresCommand.Snapshot {
  struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Load a GeoJSON store file and write its snapshot.",
      discussion: """
        Conditions that are often asked for (--where drive_through=yes) are indexed: each gets a \
        bit in the per-subtree summaries, so searches for it skip whole regions. By default the \
        values of properties with few distinct short values are indexed (up to 64); \
        --index-where adds your own, first.

        The snapshot is written to FILE.partial-PID beside FILE, synced to disk, renamed over \
        FILE and the directory synced, so a reader of FILE sees the old snapshot or the new one, \
        never half of one, even after a power loss. A build that is killed leaves its \
        FILE.partial-PID; the next build of FILE removes those of processes that no longer run, \
        and says so. The output must not be the input or a --holidays file, by any name: a \
        path written differently, a symbolic or a hard link to it is refused (exit 64).

        Exits 0 when written, 64 when the output is an input, 65 when the input has errors in \
        --strict mode or cannot be read as GeoJSON, 66 when the input is missing or the output \
        cannot be created, 74 when writing it fails (a full disk, an I/O error).
        """)

    @Argument(help: "The GeoJSON store file ('-' for standard input).")
    var input: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the snapshot.", valueName: "file"))
    var output: String

    @Option(
      name: .customLong("index-where"),
      help: ArgumentHelp("A condition to index, as --where writes it (repeatable).", valueName: "KEY=VALUE"))
    var indexWhere: [String] = []

    @Flag(help: "Index only the --index-where conditions, none chosen from the data.")
    var noSuggestedConditions = false

    @Flag(help: "Fail on any data error instead of skipping the bad records.")
    var strict = false

    @Option(
      name: .customLong("holidays"),
      help: ArgumentHelp("Public-holiday file to add to the bundled ones (repeatable).", valueName: "file"))
    var holidayFiles: [String] = []

    func validate() throws {
      _ = try parsedConditions()
      if let conflict = SnapshotFiles.inputConflict(output: output, input: input, holidayFiles: holidayFiles)
      {
        throw ValidationError(conflict.description)
      }
    }

    private func parsedConditions() throws -> [StoreFilter.Condition] {
      do { return try StoreFilter(parsing: indexWhere).conditions } catch {
        throw ValidationError("--index-where: \(error.description)")
      }
    }

    func run() throws {
      for leftover in SnapshotFiles.removeLeftovers(of: output) {
        standardError(
          "stores: removed a leftover partial snapshot \(leftover.path) (\(leftover.size) bytes) from a build "
            + "that did not finish (process \(leftover.processID))")
      }
      // Reading, indexing and writing a large file take a while: a terminal sees how far they got.
      let terminal = TerminalProgress.onStandardError()
      defer { terminal?.clear() }
      let loaded: Catalog
      do {
        loaded = try Catalog.load(
          contentsOf: input, options: LoadOptions(strict: strict, holidayFiles: holidayFiles),
          progress: terminal?.progress)
      } catch {
        terminal?.clear()
        standardError("stores: \(error.description)")
        for diagnostic in error.diagnostics.filter({ $0.severity == .error }).prefix(20) {
          standardError("  \(diagnostic)")
        }
        throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
      }
      if let truncation = loaded.truncation {
        terminal?.clear()
        standardError("stores: warning: \(input) is truncated: \(truncation.message)")
      }
      guard !loaded.isSnapshot else {
        terminal?.clear()
        standardError("stores: \(input) is already a snapshot; build from the GeoJSON it was made from")
        throw ExitCode.usage
      }
      let catalog = loaded.indexing(
        try parsedConditions(), addingSuggested: !noSuggestedConditions, progress: terminal?.progress)
      do { try catalog.writeSnapshot(to: output, progress: terminal?.progress) } catch {
        terminal?.clear()
        standardError("stores: \(error.description)")
        throw error.kind == .writeFailed ? ExitCode.ioError : ExitCode.inputMissing
      }
      terminal?.clear()
      let errors = catalog.diagnosticCount(.error)
      standardOutput(
        "wrote \(output): \(catalog.stores.count) stores (\(catalog.indexedCount) indexed), "
          + "\(catalog.indexedConditions.count) indexed conditions"
          + (errors > 0
            ? ", \(errors) data error\(errors == 1 ? "" : "s") (see 'stores validate \(input)')" : "")
          + "\n")
    }
  }

  struct Verify: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Check every byte of a snapshot: checksums, id order, tree, summaries and diagnostics.",
      discussion: "Exits 0 when the snapshot is sound, 65 when it is not (with the command that rebuilds it)."
    )

    @Argument(help: "The snapshot file.")
    var path: String

    func run() throws {
      do {
        let catalog = try Catalog(snapshotAt: path)
        try catalog.verifySnapshotRecords()
        standardOutput(
          "\(path): sound; \(catalog.stores.count) stores (\(catalog.indexedCount) indexed) from \(catalog.source)\n"
        )
      } catch {
        standardError("stores: \(error.description)")
        throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
      }
    }
  }
}
