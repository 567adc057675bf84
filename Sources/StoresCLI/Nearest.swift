import ArgumentParser
import GeoIndex
import OpeningHours
import StoreLocator

extension StoresCommand {
  struct Nearest: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List the stores nearest to a location, nearest first.",
      discussion: """
        Distances are great-circle (haversine) metres on a sphere of radius 6,371,008.8 m; the \
        search is exact anywhere on Earth, across the antimeridian and at the poles.

        When nothing matches, the answer repeats the question and standard error says why when \
        the data can tell: no stores in the file, a --where key or value no store has (with the \
        closest ones), no opening hours in reach (add --allow-unknown). A --near whose nearest \
        store is over 100 km away, while the point read as LON,LAT has stores close by, gets a \
        warning naming that reading.

        A --near name several places have is the one ten times the others' population \
        (divided by (1 + distance/100 km)^2 from --bias when given; --country weighs only that \
        country's; the stores' countries last), with the others listed; when none stands out \
        it is refused with them listed (docs/places.md).

        Examples:
          stores nearest --near 47.6062,-122.3321
          stores nearest --near "Seattle"
          stores nearest --near London
          stores nearest --near "Springfield, Illinois, US" -k 3
          stores nearest --near Springfield --bias 39.8,-89.6
          stores nearest --near -33.8688,151.2093 -k 3 --within 2km
          stores nearest --near 40.7128,-74.0060 --where drive_through=yes
          stores nearest --near 25.0330,121.5654 --open-at 2026-12-24T23:30
          stores nearest --near 51.5074,-0.1278 --open-now --open-for 30m
          stores nearest --near 64.1466,-21.9426 --format geojson > nearest.geojson
        """)

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp(
        "Where the customer is: LAT,LON in degrees, or a place name (Seattle; \"Paris, FR\").",
        valueName: "lat,lon|place"))
    var near: String

    @OptionGroup var placeBias: PlaceBiasOptions

    // Unconditional, so '-k -1' reaches the library's check and hears what -k needs.
    @Option(name: .short, parsing: .unconditional, help: "How many stores to list (1...1000; default 5).")
    var k: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Leave out stores farther than this (500m, 2km, 1.5mi).", valueName: "distance"))
    var within: String?

    @OptionGroup var filters: FilterOptions
    @OptionGroup var openOptions: OpenOptions
    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var stateOption: StateOption
    @OptionGroup var output: OutputOptions
    @OptionGroup var fieldsOption: FieldsOption
    @OptionGroup var unitOptions: UnitOptions

    /// The options as the library reads them (NearestRequest, as the service's query string).
    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("near", near)
      placeBias.add(to: &parameters)
      parameters.add("k", k)
      parameters.add("within", within)
      filters.add(to: &parameters)
      openOptions.add(to: &parameters)
      clock.add(to: &parameters)
      fieldsOption.add(to: &parameters)
      return parameters
    }

    func validate() throws {
      try fieldsOption.check(output.format)
      _ = try parameters.beforeLoading.read(NearestRequest.init)
    }

    func run() throws {
      let catalog = try stateOption.applied(to: dataOptions.loadCatalog(), data: dataOptions)
      let request = try parameters.with(catalog).read(NearestRequest.init)
      let answer = catalog.answer(request, now: .now())
      writeSearchAnswer(answer, format: output.format, units: unitOptions.units)
    }
  }
}
