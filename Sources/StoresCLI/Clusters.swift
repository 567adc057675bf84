import ArgumentParser
import GeoIndex
import StoreLocator

extension StoresCommand {
  struct Clusters: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Count the stores in a box per cell of a grid: where they are, at a glance.",
      discussion: """
        The box (--bbox W,S,E,N, as for 'within'; west greater than east crosses the antimeridian) \
        is cut into --columns × --rows equal cells in degrees; each cell holding stores is one \
        cluster: how many, their mean position, the box that holds them, and the id when it is one \
        store. A map zoomed out over thousands of stores draws these instead of every store (the \
        service's page does); the same --where and opening conditions as 'within' apply.

        Examples:
          stores clusters --bbox -180,-85,180,85 --columns 8 --rows 4
          stores clusters --bbox 121.4,24.9,121.7,25.2 --open-now --format json
        """)

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp("The box: west,south,east,north in degrees.", valueName: "w,s,e,n"))
    var bbox: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Cells across the box, west to east (1...256; default 16).", valueName: "n"))
    var columns: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Cells down the box, south to north (1...256; default 16).", valueName: "n"))
    var rows: String?

    @OptionGroup var filters: FilterOptions
    @OptionGroup var openOptions: OpenOptions
    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var stateOption: StateOption
    @Option(name: .long, help: "Output format: text or json.")
    var format: DocumentFormat = .text

    /// The options as the library reads them (ClustersRequest, as the service's query string).
    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("bbox", bbox)
      parameters.add("columns", columns)
      parameters.add("rows", rows)
      filters.add(to: &parameters)
      openOptions.add(to: &parameters)
      clock.add(to: &parameters)
      return parameters
    }

    func validate() throws { _ = try parameters.read(ClustersRequest.init) }

    func run() throws {
      let request = try parameters.read(ClustersRequest.init)
      let answer = try stateOption.applied(to: dataOptions.loadCatalog(), data: dataOptions).answer(
        request, now: .now())
      guard format == .text else {
        standardOutput(answer.jsonText)
        return
      }
      let box = request.box
      standardOutput(
        "\(answer.count) store\(answer.count == 1 ? "" : "s") in \(answer.clusters.count) of the "
          + "\(request.columns) × \(request.rows) cells of \(box.west),\(box.south),\(box.east),\(box.north)\n"
      )
      guard !answer.clusters.isEmpty else { return }
      let columns = [
        TextTable.Column("ROW", rightAligned: true), TextTable.Column("COLUMN", rightAligned: true),
        TextTable.Column("STORES", rightAligned: true), TextTable.Column("CENTRE"), TextTable.Column("ID"),
      ]
      let rows = answer.clusters.map { cluster in
        [
          "\(cluster.row)", "\(cluster.column)", "\(cluster.count)",
          "\(Self.degrees(cluster.center.latitude)),\(Self.degrees(cluster.center.longitude))",
          cluster.storeID ?? "",
        ]
      }
      standardOutput(TextTable(columns: columns, rows: rows, lineWidth: Terminal.lineWidth()).rendered)
    }

    /// Degrees to 5 decimals (about a metre); `ResultWriter.decimal` is for distances, never negative.
    static func degrees(_ value: Double) -> Double { (value * 100_000).rounded() / 100_000 }
  }
}
