import ArgumentParser
import Dispatch
import OpeningHours
import StoreLocator
import StoresState
import Synchronization

extension StoresCommand {
  struct State: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract:
        "Show or change a store's state: paused ordering, temporary closures, special days, capacity.",
      discussion: """
        The state is what staff change during the day, applied on top of the data at answer time \
        (docs/state.md). Changes go to the state's storage: --state LOCATION (sqlite:PATH, default \
        the file beside the data: Data/stores.geojson keeps Data/stores.state.sqlite), which a \
        stores-server on the same file picks up within a second; or --server URL, a running \
        replica, with the admin token in $STORES_ADMIN_TOKEN (for PostgreSQL, which only \
        stores-server opens).

        Examples:
          stores state show nw-001
          stores state pause nw-001 --until 2026-12-24T15:30:00Z --reason "machine repair"
          stores state resume nw-001
          stores state close nw-001 --from 2027-01-05 --until 2027-01-19 --reason renovation
          stores state special nw-001 --date 2026-12-24 --hours 07:00-14:00 --reason "Christmas Eve"
          stores state capacity nw-001 --orders-per-slot 20 --slot-minutes 15
          stores state capacity nw-001 --orders-per-slot "Mo-Fr 07:00-09:00 20; 10" --service drive_through
          stores state history nw-001
          stores state pause nw-001 --server http://127.0.0.1:8080
        """,
      subcommands: [
        Show.self, Pause.self, Resume.self, Close.self, Special.self, Capacity.self, History.self,
      ])
  }
}

/// `--state`, where the commands that read and change the state (`state`, `slots`,
/// `reservation`) find it.
struct StateStorageOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "Where the state is kept: sqlite:PATH or memory (default: the SQLite file beside the data).",
      valueName: "location"))
  var state: String?

  init() {}

  /// `--state` as another command gives it.
  init(state: String?) { self.state = state }

  func validate() throws {
    if let state {
      do throws(StateStorageError) { _ = try StateStorageLocation(parsing: state) } catch {
        throw ValidationError("--state: \(error.message)")
      }
    }
  }
}

/// Where `stores state` reads and writes: a storage, or a replica.
struct StateTarget: ParsableArguments {
  @OptionGroup var storage: StateStorageOption
  /// `--state`.
  var state: String? { storage.state }

  @Option(
    help: ArgumentHelp(
      "A running stores-server to ask instead (http://HOST:PORT); changes send $STORES_ADMIN_TOKEN.",
      valueName: "url"))
  var server: String?

  @OptionGroup var dataOptions: DataOptions

  init() {}

  /// A target made by another command (`--state` on a query).
  init(state: String?, server: String?, dataOptions: DataOptions) {
    // Assigned whole: an option group made in code, not parsed, has no value to change.
    self.storage = StateStorageOption(state: state)
    self.server = server
    self.dataOptions = dataOptions
  }

  func validate() throws {
    if state != nil, server != nil { throw ValidationError("give --state or --server, not both") }
  }

  /// The storage location: `--state`, else the file beside the data.
  var location: StateStorageLocation {
    get throws {
      if let state {
        do throws(StateStorageError) { return try StateStorageLocation(parsing: state) } catch {
          throw ValidationError("--state: \(error.message)")
        }
      }
      return .beside(data: DefaultData.path(explicit: dataOptions.data, environment: currentEnvironment()))
    }
  }

  /// Runs `body` with the storage open, closing it after.
  func withStorage<T: Sendable>(_ body: @escaping @Sendable (any StateStorage) async throws -> T) throws -> T
  {
    let location = try location
    return try blocking {
      let storage: any StateStorage
      do { storage = try await openStateStorage(location) } catch {
        throw StateCommandFailure(storage: error)
      }
      do {
        let value = try await body(storage)
        await storage.close()
        return value
      } catch {
        await storage.close()
        throw error
      }
    }
  }

  /// The one store `id` names in the data, and its time zone; exits 66 naming similar ids.
  func store(_ id: String) throws -> (catalog: Catalog, zone: TimeZoneRules?) {
    let catalog = try dataOptions.loadCatalog()
    let store = try catalog.answering { catalog throws(RequestError) in try catalog.uniqueStore(withID: id) }
    return (catalog, catalog.timeZone(of: store))
  }

  /// Asks the replica of `--server`; a problem answer ends the command with its detail.
  func ask(_ method: String, _ path: String, body: JSONObject? = nil) throws -> JSONObject {
    var headers: [(String, String)] = [("Accept", "application/json")]
    if body != nil {
      headers.append(("Content-Type", "application/json"))
      if let token = currentEnvironment()["STORES_ADMIN_TOKEN"], !token.isEmpty {
        headers.append(("Authorization", "Bearer \(token)"))
      }
    }
    let answer: (status: Int, body: String)
    do {
      answer = try PlainHTTP.send(
        method, path, to: server ?? "", headers: headers,
        body: Array((body.map { JSONValue.object($0).jsonText } ?? "").utf8))
    } catch {
      throw StateCommandFailure(message: error.description, code: .ioError)
    }
    let json = (try? JSONValue(parsing: answer.body)) ?? .null
    guard (200..<300).contains(answer.status), case .object(let object) = json else {
      let detail: String
      if case .object(let problem) = json, let text = problem["detail"]?.stringValue {
        detail = text
      } else {
        detail = "the server answered \(answer.status)"
      }
      throw StateCommandFailure(
        message: detail, code: answer.status == 404 ? .inputMissing : answer.status == 400 ? .usage : .badData
      )
    }
    return object
  }

  /// `/v1/stores/{id}/state`, the id percent-encoded.
  static func statePath(_ id: String, _ suffix: String = "") -> String {
    var encoded = ""
    for byte in id.utf8 {
      let unreserved =
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
        || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "-._~".utf8.contains(byte)
      encoded +=
        unreserved ? String(UnicodeScalar(byte)) : "%" + String(byte, radix: 16, uppercase: true).leftPadded
    }
    return "/v1/stores/\(encoded)/state\(suffix)"
  }

  /// Makes `change` to store `id` (checked against the store's zone) and prints the new state.
  func change(_ id: String, format: StateFormat, _ make: (StoreState) throws -> JSONObject) throws {
    if server != nil {
      let current = try ask("GET", Self.statePath(id))
      let state = try CommandParameters().read { _ throws(RequestError) in try StoreState(document: current) }
      return print(try ask("PATCH", Self.statePath(id), body: try make(state)), format: format)
    }
    let (_, zone) = try store(id)
    let now = Instant.now()
    let object = try withStorage { storage in try await storage.load()[id] }
    let json = try make(object)
    let change = try CommandParameters().read { _ throws(RequestError) in
      try StoreStateChange(json: .object(json), zone: zone, now: now)
    }
    let state = try withStorage { storage in
      do { return try await storage.apply(change, to: id, by: "cli", at: now) } catch {
        throw StateCommandFailure(storage: error)
      }
    }
    print(state.jsonObject(id: id, at: now), format: format)
  }

  func print(_ object: JSONObject, format: StateFormat) {
    switch format {
    case .json: standardOutput(JSONValue.object(object).jsonText + "\n")
    case .text:
      let id = object["id"]?.stringValue ?? ""
      let state = (try? StoreState(document: object)) ?? .unchanged
      let version = object["version"]?.scalarText ?? "0"
      standardOutput("\(id): \(state.summary(at: .now())) (state version \(version))\n")
    }
  }
}

enum StateFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json
}

/// A `stores state` failure: its sentence and exit code.
struct StateCommandFailure: Error, CustomStringConvertible {
  let message: String
  let code: ExitCode
  var description: String { message }

  init(message: String, code: ExitCode) {
    self.message = message
    self.code = code
  }

  /// The storage's sentence: a database that cannot be opened or read is bad data (65).
  init(storage error: any Error) {
    let storage = error as? StateStorageError
    self.init(
      message: storage?.message ?? "\(error)", code: storage?.kind == .badLocation ? .usage : .badData)
  }
}

extension String {
  /// Two hex digits for one byte.
  fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}

/// Runs `body` to the end from synchronous code (the command line's `run()`).
func blocking<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
  let outcome = Mutex<Result<T, any Error>?>(nil)
  let done = DispatchSemaphore(value: 0)
  Task {
    let result: Result<T, any Error>
    do { result = .success(try await body()) } catch { result = .failure(error) }
    outcome.withLock { $0 = result }
    done.signal()
  }
  done.wait()
  return try outcome.withLock { $0! }.get()
}

extension StoresCommand.State {
  /// Ends the command with a state failure's sentence and code.
  static func reporting(_ body: () throws -> Void) throws {
    try reportingValue(body)
  }

  /// `body`'s value; a state failure ends the command with its sentence and code.
  static func reportingValue<T>(_ body: () throws -> T) throws -> T {
    do { return try body() } catch let failure as StateCommandFailure {
      standardError("stores: \(failure.message)")
      throw failure.code
    }
  }

  struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show a store's state.")
    @Argument(help: "The store's id.") var id: String
    @Option(help: "text or json.") var format: StateFormat = .text
    @OptionGroup var target: StateTarget

    func run() throws {
      try reporting {
        if target.server != nil {
          return target.print(try target.ask("GET", StateTarget.statePath(id)), format: format)
        }
        _ = try target.store(id)
        let state = try target.withStorage { storage in
          do { return try await storage.load()[id] } catch {
            throw StateCommandFailure(storage: error)
          }
        }
        target.print(state.jsonObject(id: id, at: .now()), format: format)
      }
    }
  }

  struct Pause: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Pause ordering: the store stays listed, pickup passes it over until it resumes.")
    @Argument(help: "The store's id.") var id: String
    @Option(
      help: ArgumentHelp(
        "Resume by itself at this instant (ISO 8601 with Z or an offset).", valueName: "time"))
    var until: String?
    @Option(help: "Why, as customers and staff are told.") var reason: String?
    @Option(help: "text or json.") var format: StateFormat = .text
    @OptionGroup var target: StateTarget

    func run() throws {
      try reporting {
        try target.change(id, format: format) { _ in
          var object = JSONObject()
          object["ordering"] = .string("paused")
          if let until { object["until"] = .string(until) }
          if let reason { object["reason"] = .string(reason) }
          return object
        }
      }
    }
  }

  struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Resume ordering now.")
    @Argument(help: "The store's id.") var id: String
    @Option(help: "text or json.") var format: StateFormat = .text
    @OptionGroup var target: StateTarget

    func run() throws {
      try reporting {
        try target.change(id, format: format) { _ in
          JSONObject([.init(key: "ordering", value: .string("open"))])
        }
      }
    }
  }

  struct Close: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Add a temporary closure (closed for every service), or clear them all.",
      discussion: "FROM and UNTIL are dates (2027-01-05: the start of that day in the store's zone), "
        + "wall times in the store's zone (2027-01-05T14:00) or instants; UNTIL is when it reopens.")
    @Argument(help: "The store's id.") var id: String
    @Option(help: ArgumentHelp("When the closure starts.", valueName: "date|time")) var from: String?
    @Option(help: ArgumentHelp("When the store may open again.", valueName: "date|time")) var until: String?
    @Option(help: "Why, as customers are told.") var reason: String?
    @Flag(help: "Remove every closure instead.") var clear = false
    @Option(help: "text or json.") var format: StateFormat = .text
    @OptionGroup var target: StateTarget

    func validate() throws {
      if clear, from != nil || until != nil { throw ValidationError("--clear takes no --from or --until") }
      if !clear, from == nil || until == nil { throw ValidationError("give --from and --until (or --clear)") }
    }

    func run() throws {
      try reporting {
        try target.change(id, format: format) { state in
          // A closure is added to those there are: the list replaces the stored one.
          var closures = clear ? [] : state.closures.map { JSONValue.object($0.jsonObject) }
          if !clear {
            closures.append(
              .object(
                JSONObject([
                  .init(key: "from", value: .string(from!)), .init(key: "until", value: .string(until!)),
                  .init(key: "reason", value: reason.map(JSONValue.string) ?? .null),
                ])))
          }
          return JSONObject([.init(key: "closures", value: .array(closures))])
        }
      }
    }
  }

  struct Special: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Set a special day's hours (over the week and public holidays), or remove it.")
    @Argument(help: "The store's id.") var id: String
    @Option(help: ArgumentHelp("The day (2026-12-24).", valueName: "date")) var date: String
    @Option(
      help: ArgumentHelp("Its hours: 07:00-14:00, 07:00-11:00,12:00-16:00, or off.", valueName: "hours"))
    var hours: String?
    @Option(help: "Why, shown with the hours.") var reason: String?
    @Option(help: ArgumentHelp("Only for this service's hours (drive_through).", valueName: "service"))
    var service: String?
    @Flag(help: "Remove the special day instead.") var clear = false
    @Option(help: "text or json.") var format: StateFormat = .text
    @OptionGroup var target: StateTarget

    func validate() throws {
      if clear == (hours != nil) { throw ValidationError("give --hours, or --clear to remove the day") }
    }

    func run() throws {
      try reporting {
        try target.change(id, format: format) { state in
          // The other days stay; this one is replaced (or removed).
          var days = state.specialDays.filter { !($0.date.description == date && $0.service == service) }
            .map { JSONValue.object($0.jsonObject) }
          if let hours {
            days.append(
              .object(
                JSONObject([
                  .init(key: "date", value: .string(date)), .init(key: "hours", value: .string(hours)),
                  .init(key: "reason", value: reason.map(JSONValue.string) ?? .null),
                  .init(key: "service", value: service.map(JSONValue.string) ?? .null),
                ])))
          }
          return JSONObject([.init(key: "special_days", value: .array(days))])
        }
      }
    }
  }

  struct Capacity: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Set how many pickup orders a store takes per slot (over the data's), or remove it.")
    @Argument(help: "The store's id.") var id: String
    @Option(
      help: ArgumentHelp(
        "Orders per slot: a number (20), or rules by time of day (\"Mo-Fr 07:00-09:00 20; 10\").",
        valueName: "orders"))
    var ordersPerSlot: String?
    @Option(help: ArgumentHelp("The slot length, dividing a day (default 15).", valueName: "minutes"))
    var slotMinutes: Int?
    @Option(help: ArgumentHelp("Only this service's orders (drive_through).", valueName: "service"))
    var service: String?
    @Flag(help: "Remove the capacity set for the store (or --service); the data's applies again.")
    var clear = false
    @Option(help: "text or json.") var format: StateFormat = .text
    @OptionGroup var target: StateTarget

    func validate() throws {
      if clear == (ordersPerSlot != nil) {
        throw ValidationError("give --orders-per-slot, or --clear to remove the capacity")
      }
      if clear, slotMinutes != nil { throw ValidationError("--slot-minutes goes with --orders-per-slot") }
    }

    func run() throws {
      try reporting {
        try target.change(id, format: format) { _ in
          var capacity = JSONObject()
          if let ordersPerSlot {
            capacity["orders_per_slot"] = Int(ordersPerSlot).map { JSONValue($0) } ?? .string(ordersPerSlot)
          } else {
            capacity["orders_per_slot"] = .null
          }
          if let slotMinutes { capacity["slot_minutes"] = JSONValue(slotMinutes) }
          capacity["service"] = service.map(JSONValue.string) ?? .null
          return JSONObject([.init(key: "capacity", value: .object(capacity))])
        }
      }
    }
  }

  struct History: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List a store's state changes, newest first.")
    @Argument(help: "The store's id.") var id: String
    @Option(help: "How many changes at most (1...1000).") var limit = 20
    @Option(help: "text or json.") var format: StateFormat = .text
    @OptionGroup var target: StateTarget

    func validate() throws {
      guard (1...1000).contains(limit) else {
        throw ValidationError("--limit must be 1...1000 (got \(limit))")
      }
    }

    func run() throws {
      try reporting {
        let records: [JSONValue]
        if target.server != nil {
          let answer = try target.ask("GET", StateTarget.statePath(id, "/history?limit=\(limit)"))
          if case .array(let items) = answer["history"] { records = items } else { records = [] }
        } else {
          _ = try target.store(id)
          let limit = limit
          records = try target.withStorage { storage in
            do { return try await storage.history(of: id, limit: limit).map { .object($0.jsonObject) } } catch
            {
              throw StateCommandFailure(storage: error)
            }
          }
        }
        switch format {
        case .json:
          standardOutput(
            JSONValue.object(
              JSONObject([
                .init(key: "id", value: .string(id)), .init(key: "history", value: .array(records)),
              ])
            )
            .jsonText + "\n")
        case .text:
          if records.isEmpty { standardOutput("\(id): no changes\n") }
          for case .object(let record) in records {
            let change = record["change"].map { $0.jsonText } ?? "{}"
            standardOutput(
              "\(record["version"]?.scalarText ?? "")  \(record["at"]?.stringValue ?? "")  "
                + "\(record["by"]?.stringValue ?? "")  \(change)\n")
          }
        }
      }
    }
  }
}

/// `--state` on the commands that answer about stores: the state to apply, opt-in, so an answer
/// from the data alone never opens a database.
struct StateOption: ParsableArguments {
  @Option(
    name: .customLong("state"),
    help: ArgumentHelp(
      "Apply the stores' state (paused ordering, closures, special days) kept at this location: "
        + "sqlite:PATH, or 'default' for the file beside the data that stores-server uses.",
      valueName: "location"))
  var location: String?

  func validate() throws {
    if let location, location != "default" {
      do throws(StateStorageError) { _ = try StateStorageLocation(parsing: location) } catch {
        throw ValidationError("--state: \(error.message)")
      }
    }
  }

  /// `catalog` with the state applied, or as it is without `--state`.
  func applied(to catalog: Catalog, data: DataOptions) throws -> Catalog {
    guard let location else { return catalog }
    let target = StateTarget(
      state: location == "default" ? nil : location, server: nil, dataOptions: data)
    // The slots' counts too: a pickup with --state plans around full slots, as the service does.
    let (states, bookings) = try StoresCommand.State.reportingValue {
      try target.withStorage { storage in
        do {
          return (
            try await storage.load(),
            try await storage.bookings(endingAfter: .now(), limit: StateStorageLimits.bookingsCopied)
          )
        } catch { throw StateCommandFailure(storage: error) }
      }
    }
    return catalog.applying(states).counting(bookings)
  }
}
