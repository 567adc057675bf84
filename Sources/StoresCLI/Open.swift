import ArgumentParser
import OpeningHours
import StoreLocator

extension StoresCommand {
  struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Tell whether a store is open: exit 0 open, 1 closed, 2 unknown.",
      discussion: """
        Examples:
          stores open nw-0001
          stores open nw-0001 --at 2026-12-24T23:30 --for 15m && echo "order now"

        With --for, the exit code answers "open now and for that long?": 0 yes, 1 no (closed at \
        some point), 2 unknown. The JSON store object's "state" and "status_text" stay the state \
        at the time asked; the answer to --for is its own member, "open_for": {"seconds": 900, \
        "met": true|false|null (unknown), "text": "closes before 15 min are up"} (null without \
        --for).

        Exits 66 when no store has the id (with the most similar ids), 64 when several stores \
        share it (they are listed).
        """)

    @Argument(help: "The store's id.")
    var id: String

    @Option(
      help: ArgumentHelp(
        "The time (ISO 8601; without an offset it is the store's wall time); default: now.", valueName: "time"
      ))
    var at: String?

    @Option(
      name: .customLong("for"),
      help: ArgumentHelp("…and staying open at least this long (15m, 1h30m, PT15M).", valueName: "duration"))
    var duration: String?

    @OptionGroup var serviceOption: ServiceOption
    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var stateOption: StateOption
    @Option(name: .long, help: "Output format: text or json.")
    var format: DocumentFormat = .text

    /// The options as the library reads them (OpenRequest, as the service's path and query).
    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("id", id)
      parameters.add("at", at)
      parameters.add("for", duration)
      serviceOption.add(to: &parameters)
      clock.add(to: &parameters)
      return parameters
    }

    func validate() throws {
      guard [.text, .json].contains(format) else { throw ValidationError("open writes text or json") }
      _ = try parameters.read(OpenRequest.init)
    }

    func run() throws {
      let request = try parameters.read(OpenRequest.init)
      let catalog = try stateOption.applied(to: dataOptions.loadCatalog(), data: dataOptions)
      let answer = try catalog.answering { catalog throws(RequestError) in
        try catalog.answer(request, now: .now())
      }
      // `state` in JSON is the state at the time asked, as in every store object; the --for
      // answer is its own member, and the exit code answers the question asked.
      if format == .json {
        standardOutput(answer.jsonText)
      } else {
        let text = answer.status.summary + (answer.durationText.map { "; \($0)" } ?? "")
        standardOutput("\(answer.store.name ?? answer.store.id) (\(answer.store.id)): \(text)\n")
      }
      switch answer.state {
      case .open: return
      case .closed: throw ExitCode(1)
      case .unknown: throw ExitCode(2)
      }
    }
  }
}
