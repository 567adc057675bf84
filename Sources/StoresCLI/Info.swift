import ArgumentParser
import GeoIndex
import StoreLocator

extension StoresCommand {
  struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Summarise the data: counts, bounds, time zones, brands, hours, diagnostics.")

    @OptionGroup var dataOptions: DataOptions
    @Option(name: .long, help: "Output format: text or json.")
    var format: DocumentFormat = .text

    func run() throws {
      let summary = try dataOptions.loadCatalog().summary
      switch format {
      case .json: standardOutput(JSONValue.object(summary.jsonObject).jsonText + "\n")
      default: standardOutput(text(summary))
      }
    }

    func text(_ summary: CatalogSummary) -> String {
      func top(_ tallies: [CatalogSummary.Tally], _ limit: Int) -> String {
        guard !tallies.isEmpty else { return "none" }
        let shown = tallies.prefix(limit).map { "\($0.value) \($0.count)" }.joined(separator: ", ")
        return tallies.count > limit ? shown + ", … (\(tallies.count - limit) more)" : shown
      }
      let notLocated = summary.recordCount - summary.indexedCount
      var rows: [[String]] = [
        [
          "Data",
          summary.snapshotPath.map {
            "\($0) (snapshot of \(summary.source == "-" ? "standard input" : summary.source))"
          }
            ?? summary.source,
        ],
        [
          "Stores",
          "\(summary.recordCount) (\(summary.indexedCount) searchable, \(notLocated) without location)",
        ],
      ]
      if let bounds = summary.bounds {
        rows.append([
          "Bounds",
          "W \(bounds.west)  S \(bounds.south)  E \(bounds.east)  N \(bounds.north)"
            + (bounds.crossesAntimeridian ? "  (crosses the antimeridian)" : ""),
        ])
      }
      rows.append([
        "Time zones",
        "\(summary.timezones.count): \(top(summary.timezones, 8))"
          + (summary.storesWithoutTimezone > 0 ? "; \(summary.storesWithoutTimezone) stores without" : "")
          + (summary.storesWithInferredTimezone > 0
            ? "; \(summary.storesWithInferredTimezone) inferred from the location" : ""),
      ])
      rows.append([
        "Brands",
        "\(top(summary.brands, 5))"
          + (summary.storesWithoutBrand > 0 ? "; \(summary.storesWithoutBrand) stores without" : ""),
      ])
      rows.append([
        "Hours",
        "\(summary.storesWithOpeningHours) with opening_hours, "
          + "\(summary.recordCount - summary.storesWithOpeningHours) without; "
          + "\(summary.storesWithSchedule) evaluable, \(summary.storesWithInvalidHours) do not parse, "
          + "\(summary.storesWithToleratedHours) parse with warnings (see stores validate)",
      ])
      rows.append([
        "Diagnostics",
        "\(summary.errorCount) errors, \(summary.warningCount) warnings, \(summary.noteCount) notes"
          + (summary.diagnosticCodes.isEmpty ? "" : " (\(top(summary.diagnosticCodes, 6)))"),
      ])
      let columns = [TextTable.Column("", width: 12), TextTable.Column("", width: .max)]
      return String(TextTable(columns: columns, rows: rows).rendered.drop { $0 != "\n" }.dropFirst())
    }
  }
}
