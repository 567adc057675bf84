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
          stores within --bbox 177,-20,-178,-16 --format csv
        """)

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp("Centre of the circle, in degrees.", valueName: "lat,lon"),
      transform: parsed(Coordinate.init(parsing:)))
    var near: Coordinate?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp("Radius of the circle (500m, 2km, 1.5mi).", valueName: "distance"),
      transform: parsed(Distance.init(parsing:)))
    var radius: Distance?

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp("A box: west,south,east,north in degrees.", valueName: "w,s,e,n"),
      transform: parsed(GeoBox.init(parsing:)))
    var bbox: GeoBox?

    @OptionGroup var filters: FilterOptions
    @OptionGroup var openOptions: OpenOptions
    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var output: OutputOptions
    @OptionGroup var unitOptions: UnitOptions

    func validate() throws {
      switch (near, radius, bbox) {
      case (.some, .some, nil), (nil, nil, .some): return
      case (_, _, .some): throw ValidationError("give either --near with --radius, or --bbox, not both")
      case (.some, nil, nil): throw ValidationError("--near needs --radius (such as --radius 2km)")
      case (nil, .some, nil): throw ValidationError("--radius needs --near LAT,LON")
      case (nil, nil, nil): throw ValidationError("give --near LAT,LON with --radius DIST, or --bbox W,S,E,N")
      }
    }

    func run() throws {
      let catalog = try dataOptions.loadCatalog()
      let open = openOptions.requirement(clock: clock)
      var query = JSONObject()
      let matches: [StoreMatch]
      let area: SearchArea
      if let bbox {
        matches = catalog.stores(in: bbox, where: filters.filter, open: open)
        query["bbox"] = .array([bbox.west, bbox.south, bbox.east, bbox.north].map { JSONValue($0) })
        area = .box(bbox)
      } else if let near, let radius {
        matches = catalog.stores(within: radius, of: near, where: filters.filter, open: open)
        catalog.warnIfSwapped(
          near, nearestDistance: Catalog.nearestDistance(in: matches, where: filters.filter, open: open))
        query["near"] = .object(near.jsonObject)
        query["radius_m"] = JSONValue(radius.meters)
        area = .circle(center: near, radius: radius)
      } else {
        throw ExitCode.usage
      }
      let empty = catalog.reportEmptyAnswer(
        matches, in: area, where: filters.filter, open: open, format: output.format, units: unitOptions.units)
      query["where"] = .array(filters.conditions.map { .string($0.description) })
      openOptions.describe(into: &query, clock: clock)
      standardOutput(
        ResultWriter(format: output.format, units: unitOptions.units).render(
          catalog.withStatus(matches, at: openOptions.time(clock: clock)), query: query, emptyMessage: empty))
    }
  }
}
