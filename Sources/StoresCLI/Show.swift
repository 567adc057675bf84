import ArgumentParser
import GeoIndex
import OpeningHours
import StoreLocator

extension StoresCommand {
  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show one store: where it is, whether it is open, its week of hours, and every property.",
      discussion: """
        The open state is for --at (default: now), as in 'stores nearest'; text output lists the \
        seven days from that day as 'stores hours ID' does. JSON, NDJSON, GeoJSON and CSV write \
        the store with the same members as 'stores nearest'.

        Exits 66 when no store has that id (with the most similar ids), 64 when several stores \
        share it (they are listed).
        """)

    @Argument(help: "The store's id (the Feature id, else its ref).")
    var id: String

    @Option(
      help: ArgumentHelp(
        "The time to give the open state for (ISO 8601; without an offset it is the store's wall "
          + "time); default: now.",
        valueName: "time"))
    var at: String?

    @OptionGroup var serviceOption: ServiceOption
    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var stateOption: StateOption
    @OptionGroup var output: OutputOptions

    /// The options as the library reads them (StoreRequest, as the service's path and query).
    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("id", id)
      parameters.add("at", at)
      serviceOption.add(to: &parameters)
      clock.add(to: &parameters)
      return parameters
    }

    func validate() throws { _ = try parameters.read(StoreRequest.init) }

    func run() throws {
      let request = try parameters.read(StoreRequest.init)
      let catalog = try stateOption.applied(to: dataOptions.loadCatalog(), data: dataOptions)
      let answer = try catalog.answering { catalog throws(RequestError) in
        try catalog.answer(request, now: .now())
      }
      switch output.format {
      case .text:
        standardOutput(
          details(of: answer.store, status: answer.status, schedule: answer.schedule, source: catalog.source))
      case .json, .ndjson: standardOutput(answer.jsonText)
      case .geojson: standardOutput(answer.geoJSONText)
      case .csv: standardOutput(StoreMatch.csvText([answer.match]))
      }
    }

    /// The store for people: its members, its state at the time asked, the week ahead as
    /// `stores hours` lists it, then every property as it came.
    func details(of store: Store, status: StoreStatus, schedule: Schedule?, source: String) -> String {
      let rows: [[String]] = [
        ["Name", store.name ?? "(no name)"],
        ["ID", store.id + (store.idSource == .feature ? "" : " (from \(store.idSource.rawValue))")],
        ["Brand", store.brand ?? ""],
        ["Address", store.address ?? ""],
        ["Location", store.coordinate.map(\.description) ?? "none (not searchable)"],
        [
          "Time zone", (store.timezone ?? "unknown") + (store.inferredTimezone.map { " (\($0.note))" } ?? ""),
        ],
        // Only when inferred: the data's own country and region are among the properties.
        ["Holidays", store.inferredHolidays.map { "\($0.code) (\($0.place.note))" } ?? ""],
        ["Hours", store.openingHours ?? "unknown"],
        // What the hours say that their author likely did not mean (`spill-erased`), with the fix.
        [
          "Hours warning",
          (schedule?.warnings ?? []).filter(\.isDoubtful).map { "\($0.code): \($0.message)" }.joined(
            separator: " "),
        ],
        [
          "Status",
          (schedule.map { StoresCommand.Hours.moment(status.instant, in: $0.timeZone) + ": " } ?? "")
            + status.summary,
        ],
        ["Phone", store.phone ?? ""],
        ["Website", store.website ?? ""],
        [
          "Source",
          "\(source), line \(store.position.line):\(store.position.column) (feature \(store.position.featureIndex))",
        ],
      ].filter { !$0[1].isEmpty }
      var text = Self.untitledTable(rows)
      if let schedule {
        // The week exactly as `stores hours ID` lists it.
        text += "\nWeek\n"
        for day in StoresCommand.Hours.days(of: schedule, from: status.instant, count: 7) {
          text += "  " + StoresCommand.Hours.line(day)
        }
      }
      text += "\nProperties\n"
      text += Self.untitledTable(
        store.properties.map { ["  " + $0.key, $0.value.scalarText ?? $0.value.jsonText] })
      return text
    }

    /// Rows of label and value, labels cut at 40 characters so one long property key cannot push
    /// every value off the screen.
    static func untitledTable(_ rows: [[String]]) -> String {
      let columns = [TextTable.Column("", width: 40), TextTable.Column("")]
      // The table's header row is empty here; drop it.
      return String(TextTable(columns: columns, rows: rows).rendered.drop { $0 != "\n" }.dropFirst())
    }
  }
}
