import ArgumentParser
import GeoIndex
import StoreLocator

extension StoresCommand {
  struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Summarise the data: counts, bounds, time zones, brands, hours, attributes, diagnostics.",
      discussion: """
        --format json writes one object: source, snapshot (its path, or null), records, indexed, \
        bounds ([W, S, E, N] or null), timezones and brands (name → count), \
        stores_without_timezone, stores_without_brand, stores_with_opening_hours, \
        stores_with_schedule, stores_with_invalid_hours, stores_with_tolerated_hours, \
        stores_with_inferred_timezone, services (the services the data gives \
        opening_hours:<service> for: an array of {service, stores}, most first; what --service \
        can name), attributes (the properties a --where can pick stores by: \
        an array of {key, values: value → count}, by key), errors, \
        warnings, notes, diagnostic_codes (code → count) and diagnostic_groups (an array of {code, severity, count}, errors first). \
        'stores validate' lists the diagnostics themselves.

        Attributes are the properties whose values are categories that stores share: every \
        value a short scalar (at most 40 bytes), at most 16 values, and for d values among the m \
        stores that have the key, d × d ≤ m (2 values need 4 stores, 9 need 81). Free text (a \
        status sentence), a value per store (phone, ref), a key one store has, a key every store \
        has with one same value, and the opening_hours keys are left out.
        """)

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

    /// `1 store`, `2 stores`.
    private func stores(_ count: Int) -> String { "\(count) store\(count == 1 ? "" : "s")" }

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
          + (summary.storesWithoutTimezone > 0 ? "; \(stores(summary.storesWithoutTimezone)) without" : "")
          + (summary.storesWithInferredTimezone > 0
            ? "; \(summary.storesWithInferredTimezone) inferred from the location" : ""),
      ])
      rows.append([
        "Brands",
        "\(top(summary.brands, 5))"
          + (summary.storesWithoutBrand > 0 ? "; \(stores(summary.storesWithoutBrand)) without" : ""),
      ])
      rows.append([
        "Hours",
        "\(summary.storesWithOpeningHours) with opening_hours, "
          + "\(summary.recordCount - summary.storesWithOpeningHours) without; "
          + "\(summary.storesWithSchedule) evaluable, \(summary.storesWithInvalidHours) do not parse, "
          + "\(summary.storesWithToleratedHours) parse with warnings (see stores validate)",
      ])
      if !summary.services.isEmpty {
        rows.append(["Services", "hours for " + top(summary.services, 8) + " (ask with --service)"])
      }
      if !summary.attributes.isEmpty {
        rows.append([
          "Attributes",
          summary.attributes.map { "\($0.key) (\(top($0.values, 4)))" }.joined(separator: "; "),
        ])
      }
      // Each severity with its own codes, so a warning is never read as one of the notes.
      let severities = [
        (Diagnostic.Severity.error, summary.errorCount), (.warning, summary.warningCount),
        (.note, summary.noteCount),
      ]
      rows.append([
        "Diagnostics",
        severities.map { severity, count in
          let codes = summary.diagnosticGroups.filter { $0.severity == severity }
            .map { CatalogSummary.Tally(value: $0.code.rawValue, count: $0.count) }
          return "\(count) \(severity.rawValue)\(count == 1 ? "" : "s")"
            + (codes.isEmpty ? "" : " (\(top(codes, 6)))")
        }.joined(separator: ", "),
      ])
      let columns = [TextTable.Column("", width: 12), TextTable.Column("", width: .max)]
      return String(TextTable(columns: columns, rows: rows).rendered.drop { $0 != "\n" }.dropFirst())
    }
  }
}
