import ArgumentParser
import GeoIndex
import StoreLocator

extension StoresCommand {
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show one store: where it is, its hours, and every property it came with.",
      discussion:
        "Exits 66 when no store has that id (with the most similar ids), 64 when several stores share "
        + "it (they are listed).")

    @Argument(help: "The store's id (the Feature id, else its ref).")
    var id: String

    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var output: OutputOptions

    func validate() throws {
      guard !id.isEmpty else { throw ValidationError("the store id is empty") }
    }

    func run() throws {
      let catalog = try dataOptions.loadCatalog()
      let store = try catalog.uniqueStore(withID: id)
      let match = StoreMatch(store: store, distance: nil)
      switch output.format {
      case .text: standardOutput(details(of: store, source: catalog.source))
      case .json: standardOutput(JSONValue.object(match.jsonObject).jsonText + "\n")
      case .ndjson: standardOutput(JSONValue.object(match.jsonObject).jsonText + "\n")
      case .geojson: standardOutput(ResultWriter.featureCollection([match.geoJSONFeature], query: nil))
      case .csv: standardOutput(ResultWriter(format: .csv, units: output.units).csv([match]))
      }
    }

    func details(of store: Store, source: String) -> String {
      var rows: [[String]] = [
        ["Name", store.name ?? "(no name)"],
        ["ID", store.id + (store.idSource == .feature ? "" : " (from \(store.idSource.rawValue))")],
        ["Brand", store.brand ?? ""],
        ["Address", store.address ?? ""],
        ["Location", store.coordinate.map(\.description) ?? "none (not searchable)"],
        ["Time zone", store.timezone ?? "unknown"],
        ["Hours", store.openingHours ?? "unknown"],
        ["Phone", store.phone ?? ""],
        ["Website", store.website ?? ""],
        [
          "Source",
          "\(source), line \(store.position.line):\(store.position.column) (feature \(store.position.featureIndex))",
        ],
      ].filter { !$0[1].isEmpty }
      rows.append(["", ""])
      rows.append(["Properties", ""])
      for member in store.properties {
        rows.append(["  " + member.key, member.value.scalarText ?? member.value.jsonText])
      }
      let columns = [TextTable.Column("", width: 40), TextTable.Column("", width: .max)]
      // The table's header row is empty here; drop it.
      return String(TextTable(columns: columns, rows: rows).rendered.drop { $0 != "\n" }.dropFirst())
    }
  }
}
