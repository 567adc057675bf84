import ArgumentParser
import OpeningHours
import StoreLocator
import StoresState

extension StoresCommand {
  struct Slots: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "List a store's pickup slots on a day, with what each holds.",
      discussion: """
        Each slot of the day (its length from the store's capacity, else 15 minutes) with its \
        limit (orders_per_slot), the orders held and confirmed in it, the places free, and whether \
        the store is open then (for --service). Counts come from the state's storage (--state, \
        default the file beside the data), as GET /v1/stores/{id}/slots gives them.

        Examples:
          stores slots nw-0001
          stores slots nw-0001 --date 2026-12-24 --service drive_through --format json
        """)

    @Argument(help: "The store's id.") var id: String
    @Option(help: ArgumentHelp("The day, in the store's zone (default: today there).", valueName: "date"))
    var date: String?
    @OptionGroup var serviceOption: ServiceOption
    @OptionGroup var clock: ClockOptions
    @OptionGroup var stateStorage: StateStorageOption
    @OptionGroup var dataOptions: DataOptions
    @Option(help: "text or json.") var format: StateFormat = .text

    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("date", date)
      serviceOption.add(to: &parameters)
      clock.add(to: &parameters)
      return parameters
    }

    func validate() throws {
      _ = try parameters.read { parameters throws(RequestError) in
        try SlotsSubmission(storeID: id, parameters)
      }
    }

    func run() throws {
      let submission = try parameters.read { parameters throws(RequestError) in
        try SlotsSubmission(storeID: id, parameters)
      }
      let target = StateTarget(state: stateStorage.state, server: nil, dataOptions: dataOptions)
      let data = try dataOptions.loadCatalog()
      let listing = try StoresCommand.State.reportingValue {
        try target.withStorage { storage in
          do {
            let catalog = data.applying(try await storage.load())
            let day = try catalog.answering { catalog throws(RequestError) in
              try catalog.slotDay(submission, now: .now())
            }
            let counts = try await storage.slotCounts(
              storeID: day.storeID, service: day.countedAs, starting: day.range, at: day.now)
            return catalog.slots(day, counts: counts)
          } catch let error as StateStorageError {
            throw StateCommandFailure(storage: error)
          }
        }
      }
      switch format {
      case .json: standardOutput(JSONValue.object(listing.jsonObject).jsonText + "\n")
      case .text: standardOutput(listing.text)
      }
    }
  }
}
