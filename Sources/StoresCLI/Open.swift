import ArgumentParser
import OpeningHours
import StoreLocator

/// `90 s`, `15 min`, `1 h 30 min`.
func formattedDuration(_ seconds: Int64) -> String {
  if seconds < 60 { return "\(seconds) s" }
  let minutes = (seconds + 59) / 60
  return minutes < 60
    ? "\(minutes) min" : "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
}

extension StoresCommand {
  struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Tell whether a store is open: exit 0 open, 1 closed, 2 unknown.",
      discussion: """
        Examples:
          stores open nw-0001
          stores open nw-0001 --at 2026-12-24T23:30 --for 15m && echo "order now"
        """)

    @Argument(help: "The store's id.")
    var id: String

    @Option(
      help: ArgumentHelp(
        "The time (ISO 8601; without an offset it is the store's wall time); default: now.", valueName: "time"
      ),
      transform: parsed(TimeQuery.init(parsing:)))
    var at: TimeQuery?

    @Option(
      name: .customLong("for"),
      help: ArgumentHelp("…and staying open at least this long (15m, 1h30m, PT15M).", valueName: "duration"),
      transform: parsed(parseDuration))
    var duration: Int64?

    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @Option(name: .long, help: "Output format: text or json.")
    var format: DocumentFormat = .text

    func validate() throws {
      guard [.text, .json].contains(format) else { throw ValidationError("open writes text or json") }
    }

    func run() throws {
      let catalog = try dataOptions.loadCatalog()
      guard let store = catalog.store(withID: id) else {
        standardError("stores: no store with id '\(id)' in \(catalog.source)")
        throw ExitCode.inputMissing
      }
      let time = at ?? .instant(clock.current)
      let status = catalog.status(of: store, at: time)
      var state = status.state
      var summary = status.summary
      if let duration, state == .open {
        state = OpeningRequirement(time: time, seconds: duration).state(of: catalog.schedule(for: store))
        if state != .open {
          summary +=
            "; \(state == .closed ? "closes" : "hours unknown") before \(formattedDuration(duration)) are up"
        }
      }
      if format == .json {
        var object = StoreMatch(store: store, distance: nil, status: status).jsonObject
        object["state"] = .string(state.rawValue)
        object["status_text"] = .string(summary)
        standardOutput(JSONValue.object(object).jsonText + "\n")
      } else {
        standardOutput("\(store.name ?? store.id) (\(store.id)): \(summary)\n")
      }
      switch state {
      case .open: return
      case .closed: throw ExitCode(1)
      case .unknown: throw ExitCode(2)
      }
    }
  }
}
