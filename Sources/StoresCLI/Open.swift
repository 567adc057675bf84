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
      let store = try catalog.uniqueStore(withID: id)
      let time = at ?? .instant(clock.current)
      // `state` is the state at the time asked, as in every store object; the --for answer is
      // its own member, and the exit code answers the question asked (--for when given).
      let status = catalog.status(of: store, at: time)
      var state = status.state
      var answer: (met: OpeningState, text: String)?
      if let duration {
        let met = OpeningRequirement(time: time, seconds: duration).state(of: catalog.schedule(for: store))
        answer = (met, Self.phrase(met, now: status.state, duration: duration))
        state = met
      }
      if format == .json {
        var object = StoreMatch(store: store, distance: nil, status: status).jsonObject
        object["open_for"] =
          duration.map { duration in
            var member = JSONObject()
            member["seconds"] = JSONValue(Int(duration))
            member["met"] = answer.map { $0.met == .unknown ? .null : .bool($0.met == .open) } ?? .null
            member["text"] = .string(answer?.text ?? "")
            return .object(member)
          } ?? .null
        standardOutput(JSONValue.object(object).jsonText + "\n")
      } else {
        let text = status.summary + (answer.map { "; \($0.text)" } ?? "")
        standardOutput("\(store.name ?? store.id) (\(store.id)): \(text)\n")
      }
      switch state {
      case .open: return
      case .closed: throw ExitCode(1)
      case .unknown: throw ExitCode(2)
      }
    }

    /// The answer to "open for `duration`?" in words, given the state at the time asked:
    /// `open for the next 15 min`, `closes before 15 min are up`, `so not open for 15 min`.
    static func phrase(_ met: OpeningState, now: OpeningState, duration: Int64) -> String {
      let span = formattedDuration(duration)
      switch (met, now) {
      case (.open, _): return "stays open for the next \(span)"
      case (.closed, .open): return "closes before \(span) are up"
      case (.closed, _): return "so not open for \(span)"
      case (.unknown, .open): return "hours unknown before \(span) are up"
      case (.unknown, _): return "unknown whether open for \(span)"
      }
    }
  }
}
