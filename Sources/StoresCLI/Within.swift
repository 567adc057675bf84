import ArgumentParser
import GeoIndex
import OpeningHours
import StoreLocator

extension StoresCommand {
  struct Within: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the stores within a radius of a location, or inside a box.",
      discussion: """
        With --near and --radius, stores come nearest first. With --bbox W,S,E,N (west, south, \
        east, north in degrees, as GeoJSON writes a bbox) they come in file order; a box whose \
        west is greater than its east crosses the antimeridian (--bbox 177,-20,-178,-16).

        When nothing matches, the answer repeats the question and standard error says why when \
        the data can tell: no stores in the file, a --where key or value no store has (with the \
        closest ones), no opening hours in reach (add --allow-unknown). A --near whose nearest \
        store is over 100 km away, while the point read as LON,LAT has stores close by, gets a \
        warning naming that reading.

        Examples:
          stores within --near 51.5074,-0.1278 --radius 1km
          stores within --near Vancouver --country CA --radius 2km
          stores within --bbox 177,-20,-178,-16 --format csv
        """)

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp(
        "Centre of the circle: LAT,LON in degrees, or a place name (Seattle; \"Paris, FR\").",
        valueName: "lat,lon|place"))
    var near: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Radius of the circle (500m, 2km, 1.5mi).", valueName: "distance"))
    var radius: String?

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp("A box: west,south,east,north in degrees.", valueName: "w,s,e,n"))
    var bbox: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "List at most this many stores (1...1000); the JSON answer's next_cursor continues.", valueName: "n"))
    var limit: String?

    @Option(help: ArgumentHelp("Continue from the next_cursor of an earlier answer.", valueName: "cursor"))
    var cursor: String?

    @OptionGroup var placeBias: PlaceBiasOptions
    @OptionGroup var filters: FilterOptions
    @OptionGroup var openOptions: OpenOptions
    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var stateOption: StateOption
    @OptionGroup var output: OutputOptions
    @OptionGroup var fieldsOption: FieldsOption
    @OptionGroup var unitOptions: UnitOptions

    /// The options as the library reads them (WithinRequest, as the service's query string).
    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("near", near)
      placeBias.add(to: &parameters)
      parameters.add("radius", radius)
      parameters.add("bbox", bbox)
      filters.add(to: &parameters)
      openOptions.add(to: &parameters)
      parameters.add("limit", limit)
      parameters.add("cursor", cursor)
      clock.add(to: &parameters)
      fieldsOption.add(to: &parameters)
      return parameters
    }

    func validate() throws {
      try fieldsOption.check(output.format)
      _ = try parameters.beforeLoading.read(WithinRequest.init)
    }

    func run() throws {
      let catalog = try stateOption.applied(to: dataOptions.loadCatalog(), data: dataOptions)
      let request = try parameters.with(catalog).read(WithinRequest.init)
      let answer = try catalog.answering { catalog throws(RequestError) in
        try catalog.answer(request, now: .now())
      }
      writeSearchAnswer(answer, format: output.format, units: unitOptions.units)
    }
  }
}
