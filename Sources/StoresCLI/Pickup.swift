import ArgumentParser
import GeoIndex
import OpeningHours
import StoreLocator
import StoresState

extension StoresCommand {
  struct Pickup: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Assign a pickup store to an order: the nearest store open when the order is ready.",
      discussion: """
        The pickup time is the later of the ready time and the customer's arrival (distance × 1.3 \
        at the travel mode's speed). A store is eligible when it is open then and stays open for \
        the close buffer after it, in its own time zone, holidays included, and the customer \
        reaches it within --max-travel (else it is passed over as too-far). The chosen --store \
        wins when eligible; otherwise the nearest eligible store, with the reasons the others \
        were passed over. docs/pickup.md has the rules; docs/schemas/ the JSON shapes.

        --order FILE reads an order document (items with prep minutes, the customer, \
        "pickup_time": "asap" or a time; '-' for standard input) and writes the same order with a \
        "pickup" object added (JSON unless --format text).

        A store with a capacity (pickup:capacity in the data, or set in its state) takes so many \
        orders per slot: a full slot moves the pickup to the store's next free slot when that is \
        within --max-delay of the next store's pickup, else the next store takes it (slot-full). \
        --reserve holds the assigned slot in the state's storage (--state, default the file \
        beside the data) for --hold-for (default 5m) until confirmed with `stores reservation \
        confirm ID`; the answer's "reservation" names it.

        Exits 0 when a store is assigned, 3 when none is eligible (the reasons and the earliest \
        possible pickup are in the output), 64 usage (also a --store id that several stores share: \
        they are listed), 65 bad data or order, 66 missing file or store (with similar ids).

        Times in the text output are store time; a time on another day than the order's carries \
        its date.

        Examples:
          stores pickup --near 35.6595,139.7005 --ready-in 12m
          stores pickup --near Vancouver --bias 49.28,-123.12 --ready-in 15m
          stores pickup --near 51.5074,-0.1278 --ready-at 2026-12-24T16:45 --store nw-0881 --travel bike
          stores pickup --order order.json > placed.json
          stores pickup --near 51.5074,-0.1278 --ready-in 10m --reserve --idempotency-key order-1234
        """)

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp(
        "Where the customer is: LAT,LON or a place name (default with --order: the order's customer).",
        valueName: "lat,lon|place"))
    var near: String?

    @OptionGroup var placeBias: PlaceBiasOptions

    @Option(help: ArgumentHelp("The order is ready this long after now (12m, PT15M).", valueName: "duration"))
    var readyIn: String?

    @Option(
      help: ArgumentHelp(
        "The order is ready at this time (ISO 8601; without an offset, the store's wall time).",
        valueName: "time"))
    var readyAt: String?

    @Option(help: ArgumentHelp("An order document (JSON; '-' reads standard input).", valueName: "file"))
    var order: String?

    @Option(help: ArgumentHelp("The store the customer chose.", valueName: "id"))
    var store: String?

    @Option(
      parsing: .unconditional,
      help: ArgumentHelp(
        "Consider stores within this distance (default 10km, at most 1000km).", valueName: "distance"))
    var within: String?

    @Option(
      help: ArgumentHelp(
        "A store stops taking pickups this long before it closes (default 10m).", valueName: "duration"))
    var closeBuffer: String?

    @Option(
      help: ArgumentHelp("walk, bike, drive, or a speed (12km/h, 3m/s); default walk.", valueName: "mode"))
    var travel: String?

    @Option(
      help: ArgumentHelp(
        "Pass over stores that take longer than this to reach (default 2h), the chosen one too.",
        valueName: "duration"))
    var maxTravel: String?

    @Flag(help: "Let stores whose hours are unknown at pickup be assigned.")
    var allowUnknown = false

    @Option(help: "How many alternatives to list (0...100; default 3).")
    var alternatives: String?

    @Option(
      help: ArgumentHelp(
        "A store whose slot is full keeps the order in a later slot if that is at most this much "
          + "after the next store's pickup (default 15m, at most 2h).", valueName: "duration"))
    var maxDelay: String?

    @Flag(help: "Hold the assigned store's slot in the state's storage (--state) until confirmed.")
    var reserve = false

    @Option(
      help: ArgumentHelp(
        "How long the hold waits for its confirmation (default 5m, at most 30m).", valueName: "duration"))
    var holdFor: String?

    @Option(
      help: ArgumentHelp(
        "With --reserve: the same key gives the same reservation, never a second one.", valueName: "key"))
    var idempotencyKey: String?

    @OptionGroup var filters: FilterOptions
    @OptionGroup var serviceOption: ServiceOption
    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var stateOption: StateOption
    @Option(name: .long, help: "Output format: text or json (default: json with --order, else text).")
    var format: DocumentFormat?

    /// An order document goes back into the order flow, so it comes back as JSON unless asked.
    var outputFormat: DocumentFormat { format ?? (order == nil ? .text : .json) }

    /// The options as the library reads them (PickupSubmission, as the service's body).
    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("near", near)
      placeBias.add(to: &parameters)
      parameters.add("ready_in", readyIn)
      parameters.add("ready_at", readyAt)
      parameters.add("store", store)
      parameters.add("within", within)
      parameters.add("close_buffer", closeBuffer)
      parameters.add("travel", travel)
      parameters.add("max_travel", maxTravel)
      parameters.add("allow_unknown", allowUnknown)
      parameters.add("alternatives", alternatives)
      parameters.add("max_delay", maxDelay)
      parameters.add("reserve", reserve)
      parameters.add("hold_for", holdFor)
      filters.add(to: &parameters)
      serviceOption.add(to: &parameters)
      clock.add(to: &parameters)
      return parameters
    }

    func validate() throws {
      guard [.text, .json].contains(outputFormat) else { throw ValidationError("pickup writes text or json") }
      if order != nil, readyIn != nil || readyAt != nil {
        throw ValidationError("give one of --ready-in, --ready-at or --order")
      }
      if idempotencyKey != nil, !reserve { throw ValidationError("--idempotency-key goes with --reserve") }
      if let idempotencyKey,
        idempotencyKey.isEmpty || idempotencyKey.utf8.count > Reservation.maximumIdempotencyKeyLength
          || !idempotencyKey.utf8.allSatisfy({ (0x21...0x7e).contains($0) })
      {
        throw ValidationError(
          "--idempotency-key must be 1 to \(Reservation.maximumIdempotencyKeyLength) visible ASCII characters"
        )
      }
      // Without an order the options are the whole request; with one, checked once it is read.
      if order == nil {
        _ = try parameters.beforeLoading.read { parameters throws(RequestError) in
          try PickupSubmission(parameters)
        }
      }
    }

    func run() throws {
      var document: OrderDocument?
      var orderText = ""
      if let order {
        let text = try readOrder(order)
        orderText = text
        do { document = try OrderDocument(parsing: text) } catch {
          standardError("stores: \(order): \(error.description)")
          throw ExitCode.badData
        }
      }
      if reserve {
        let catalog = try dataOptions.loadCatalog()
        let submission = try parameters.with(catalog).read { parameters throws(RequestError) in
          try PickupSubmission(parameters, order: document)
        }
        return try reserveAndPrint(submission, catalog: catalog, orderText: orderText)
      }
      let catalog = try stateOption.applied(to: dataOptions.loadCatalog(), data: dataOptions)
      let submission = try parameters.with(catalog).read { parameters throws(RequestError) in
        try PickupSubmission(parameters, order: document)
      }
      let answer = try catalog.answering { catalog throws(RequestError) in
        try catalog.answer(submission, now: .now())
      }
      try print(answer)
    }

    /// Plans with the state and the slots' counts of the storage, and holds the slot there.
    private func reserveAndPrint(_ submission: PickupSubmission, catalog: Catalog, orderText: String) throws {
      let target = StateTarget(
        state: stateOption.location == "default" ? nil : stateOption.location, server: nil,
        dataOptions: dataOptions)
      let now = Instant.now()
      let key = idempotencyKey
      let digest = PickupReserver.digest(
        Array(orderText.utf8), query: parameters.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
      )
      let outcome = try StoresCommand.State.reportingValue {
        try target.withStorage { storage in
          do {
            return try await PickupReserver.reserve(
              holdSeconds: submission.holdSeconds, idempotencyKey: key, requestDigest: digest,
              bookings: try await storage.bookings(
                endingAfter: now, limit: StateStorageLimits.bookingsCopied),
              plan: { bookings in
                // The state read for each plan: a refusal as stale plans again with the newer one.
                let states = try await storage.load()
                return (try catalog.applying(states).counting(bookings).answer(submission, now: now), states)
              },
              hold: { try await storage.hold($0, at: now) },
              readStateAgain: {})
          } catch let error as StateStorageError {
            throw StateCommandFailure(storage: error)
          }
        }
      }
      switch outcome {
      case .unassigned(let answer): try print(answer)
      case .held(let answer, _): try print(answer)
      case .replayed(let text):
        standardError("stores: --idempotency-key was given before with the same request: its reservation")
        standardOutput(text)
      case .keyReused(let earlier):
        standardError(
          "stores: --idempotency-key was given before with another request (reservation \(earlier.id)); "
            + "use a new key for a new order")
        throw ExitCode.usage
      case .keptFilling:
        standardError(
          "stores: the slots planned filled up \(PickupReserver.maximumAttempts) times in a row; try again")
        throw ExitCode(75)
      }
    }

    private func print(_ answer: PickupAnswer) throws {
      for note in answer.notes { standardError("stores: \(note)") }
      switch outputFormat {
      case .json: standardOutput(answer.jsonText)
      default: standardOutput(PickupText(plan: answer.plan, units: .km).rendered)
      }
      if answer.plan.status == .none { throw ExitCode(3) }
    }

  }
}

/// The order document's text; a file that cannot be read exits 66.
private func readOrder(_ path: String) throws -> String {
  do {
    return String(
      decoding: try InputFile.bytes(at: path, maximumBytes: InputLimits.orderBytes, what: "order"),
      as: UTF8.self)
  } catch {
    standardError("stores: \(error.description)")
    throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
  }
}

/// What a person needs from a plan: where and when to collect the order, or why no store can.
struct PickupText {
  let plan: PickupPlan
  let units: DisplayUnit

  var rendered: String {
    let writer = ResultWriter(units: units)
    var text = ""
    if let option = plan.assignment {
      let store = option.store.store
      let distance = option.store.distance.map { writer.formatted($0) + " away, " } ?? ""
      text += "Pick up at \(store.name ?? store.id) (\(store.id))"
      if let address = store.address { text += ", \(address)" }
      text += "\n  \(distance)\(option.travelSeconds / 60) min \(travelPhrase)\n"
      text +=
        "  at \(clockTime(option.pickupAt, option)) store time (\(option.localTime(option.pickupAt)), "
        + "\(option.pickupAt)); ready \(clockTime(plan.readyAt, option, day: option.pickupAt)), "
        + "you arrive \(clockTime(option.arrivalAt, option, day: option.pickupAt))\n"
      if let status = option.store.status { text += "  \(status.summary)\n" }
      if let slot = option.slot {
        let limit = slot.limit.map { "\(slot.taken) of \($0) orders taken" } ?? "no limit"
        text += "  slot \(clockTime(slot.start, option))-\(clockTime(slot.end, option)) (\(limit))\n"
      }
      if let reservation = plan.reservation {
        text +=
          "  held as \(reservation.id) until \(clockTime(reservation.expiresAt, option)) "
          + "(\(reservation.expiresAt)): confirm with `stores reservation confirm \(reservation.id)`\n"
      }
    } else {
      text += "No store can take this order.\n"
      if let earliest = plan.earliest {
        let store = earliest.store.store
        text +=
          "  Earliest: \(store.name ?? store.id) (\(store.id)) at \(earliest.localTime(earliest.pickupAt))\n"
      }
    }
    if !plan.warnings.isEmpty {
      text += "\nWarnings:\n" + plan.warnings.map { "  \($0.code.rawValue): \($0.message)\n" }.joined()
    }
    if !plan.alternatives.isEmpty {
      text += "\nAlternatives:\n"
      let rows = plan.alternatives.map { option in
        [
          option.store.store.id, option.store.store.name ?? "",
          option.store.distance.map { writer.formatted($0) } ?? "",
          "pickup \(clockTime(option.pickupAt, option))",
        ]
      }
      // Ids are never cut: they are what a person pastes into --store.
      let columns = [
        TextTable.Column("", width: .max), TextTable.Column("", width: 40),
        TextTable.Column("", width: 12, rightAligned: true), TextTable.Column("", width: .max),
      ]
      text += Self.indented(TextTable(columns: columns, rows: rows))
    }
    if !plan.passedOver.isEmpty {
      text += "\nPassed over:\n"
      // The nearest few tell the story; JSON lists them all.
      let shown = 8
      let rows = plan.passedOver.prefix(shown).map { [$0.storeID, $0.reason.rawValue, $0.message] }
      let columns = [
        // Ids are never cut: people paste them into `stores show`.
        TextTable.Column(""), TextTable.Column("", width: 24), TextTable.Column("", width: .max),
      ]
      text += Self.indented(TextTable(columns: columns, rows: rows))
      if plan.passedOver.count > shown {
        text += "  … and \(plan.passedOver.count - shown) more farther away (--format json lists them all)\n"
      }
    }
    return text
  }

  /// The rows of a table without titles, each indented by two spaces.
  static func indented(_ table: TextTable) -> String {
    // The title row is blank, and splitting leaves blank lines out.
    table.rendered.split(separator: "\n").map { "  " + $0 + "\n" }.joined()
  }

  var travelPhrase: String {
    switch plan.travel {
    case .walk: "on foot"
    case .bike: "by bike"
    case .drive: "by car"
    case .speed: "at \(plan.travel)"
    }
  }

  /// `16:45` in store time on the day of `day` (default the day of the order, in store time),
  /// `Tue 2026-11-24 16:45` on another day, so a pickup tomorrow never reads as today, nor an
  /// arrival today as the pickup's day.
  func clockTime(_ instant: Instant, _ option: PickupOption, day: Instant? = nil) -> String {
    guard let zone = option.timeZone else { return instant.description }
    let local = zone.localDateTime(at: instant)
    guard local.date != zone.localDateTime(at: day ?? plan.orderedAt).date else { return local.hourAndMinute }
    return "\(StoreStatus.weekdayName(local.date)) \(local.date) \(local.hourAndMinute)"
  }
}
