import ArgumentParser
import StoreLocator

extension StoresCommand {
  struct Places: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Find populated places by the start of their name: what a search box suggests.",
      discussion: """
        QUERY is the start of a name in any case, with or without accents ("zur" finds Zürich, \
        "münch" Munich by its other name München). The places are GeoNames' places of 5,000 people \
        or more, the same as time zones are inferred from, with their names in other languages \
        (Data/README.md). Results are ranked by population, a whole-name match counting as ten \
        times the people, a place's other names than its own as about a thirtieth, and by \
        distance when --near is given (docs/places.md). Qualifiers after commas narrow the \
        places as --near reads them ("seattle, wa"; the last one by its start: "perth, wes").

        A name can stand wherever a location is asked for when it is one place's, or one place \
        outweighs the others of the name ten times: 'stores nearest --near London' is London, \
        England. "Springfield" names several of like size, so add the division or the country \
        (--near "Springfield, IL"), or --bias LAT,LON near the customer (docs/places.md).

        Examples:
          stores places zurich
          stores places Spring --near 39.8,-89.6 --limit 5
          stores places "perth, wa"
          stores places sea --format json
        """)

    @Argument(help: ArgumentHelp("The start of a place name (at most 100 characters).", valueName: "query"))
    var query: String

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp(
        "Rank nearer places first and give distances: LAT,LON or a place.", valueName: "lat,lon|place"))
    var near: String?

    @Option(parsing: .unconditional, help: "How many places to list (1...50; default 10).")
    var limit: String?

    @Option(name: .long, help: "Output format: text or json.")
    var format: DocumentFormat = .text

    /// The options as the library reads them (PlacesRequest, as the service's query string).
    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("q", query)
      parameters.add("near", near)
      parameters.add("limit", limit)
      return parameters
    }

    func validate() throws { _ = try parameters.read(PlacesRequest.init) }

    func run() throws {
      let request = try parameters.read(PlacesRequest.init)
      let index: PlaceIndex
      do throws(PlaceLookupError) { index = try PlaceIndex.bundled() } catch {
        standardError("stores: \(error.message)")
        throw ExitCode.inputMissing
      }
      let answer = index.answer(request)
      if let note = request.near?.placeNote { standardError("stores: \(note)") }
      standardOutput(format == .text ? answer.text : answer.jsonText)
    }
  }
}
