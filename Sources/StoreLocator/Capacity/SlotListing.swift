import OpeningHours

/// One store's pickup slots on one day, with what each holds: `GET /v1/stores/{id}/slots` and
/// `stores slots ID --date D`, for an app's "choose a time" screen (which offers the slots that
/// are open with room).
public struct SlotListing: Sendable {
  public struct Entry: Hashable, Sendable {
    public let start: Instant
    public let end: Instant
    /// The slot's limit; `nil`: none.
    public let limit: Int?
    public let held: Int
    public let confirmed: Int
    /// Whether the store is open (for the service) at the slot's start: `nil` when its hours
    /// are unknown then.
    public let open: Bool?

    /// Places left; `nil` without a limit.
    public var free: Int? { limit.map { max(0, $0 - held - confirmed) } }
  }

  public let storeID: String
  /// The service asked for.
  public let service: String?
  /// The service whose slots count the orders (`nil`: the store's), as reservations name it.
  public let countedAs: String?
  public let date: LocalDate
  public let zone: TimeZoneRules
  /// The capacity that applies; `nil`: the store takes any number of orders.
  public let capacity: PickupCapacity?
  public let slots: [Entry]
  /// Whether the store takes orders now (its state's `ordering`).
  public let ordering: StoreState.Ordering

  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["id"] = .string(storeID)
    object["date"] = .string(date.description)
    object["service"] = service.map { .string($0) } ?? .null
    object["counted_as"] = countedAs.map { .string($0) } ?? .null
    object["time_zone"] = .string(zone.identifier)
    object["capacity"] =
      capacity.map {
        .object(CapacitySetting(service: countedAs, capacity: $0).jsonObject)
      } ?? .null
    object["ordering"] = .string(ordering.name)
    object["slots"] = .array(
      slots.map { entry in
        .object(
          JSONObject([
            .init(key: "start", value: .string(entry.start.description)),
            .init(key: "start_local", value: .string(iso8601(entry.start, in: zone))),
            .init(key: "end", value: .string(entry.end.description)),
            .init(key: "orders_per_slot", value: entry.limit.map { JSONValue(Int($0)) } ?? .null),
            .init(key: "held", value: JSONValue(Int(entry.held))),
            .init(key: "confirmed", value: JSONValue(Int(entry.confirmed))),
            .init(key: "free", value: entry.free.map { JSONValue(Int($0)) } ?? .null),
            .init(key: "open", value: entry.open.map { .bool($0) } ?? .null),
          ]))
      })
    return object
  }

  /// One line a slot: `08:00-08:15  20 per slot  held 3  confirmed 12  free 5  open`.
  public var text: String {
    var lines = [
      "\(storeID) \(date)\(service.map { " \($0)" } ?? "") (\(zone.identifier)): "
        + (capacity.map { $0.summary } ?? "no capacity: any number of orders")
        + (ordering == .open ? "" : "; \(ordering.note ?? "ordering paused")")
    ]
    for entry in slots {
      let start = iso8601(entry.start, in: zone).dropFirst(11).prefix(5)
      let end = iso8601(entry.end, in: zone).dropFirst(11).prefix(5)
      let limit = entry.limit.map { "\($0) per slot" } ?? "no limit"
      let free = entry.free.map { "free \($0)" } ?? "free"
      let open = entry.open.map { $0 ? "open" : "closed" } ?? "hours unknown"
      lines.append(
        "\(start)-\(end)  \(limit)  held \(entry.held)  confirmed \(entry.confirmed)  \(free)  \(open)")
    }
    return lines.joined(separator: "\n") + "\n"
  }
}

/// A request for one store's slots: `date` (default: today in the store's zone), `service`, `now`.
public struct SlotsSubmission: Sendable {
  public static let parameterNames = ["date", "service", "now"]

  public let storeID: String
  public let date: LocalDate?
  public let service: String?
  public let now: Instant?

  public init(storeID: String, _ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    self.storeID = storeID
    if let text = try parameters.value("date") {
      guard let date = StateMoment.date(text) else {
        throw RequestError(
          .invalid, parameter: parameters.spelling(of: "date"),
          "\(parameters.spelling(of: "date")) \(text) is not a date such as 2026-12-24")
      }
      self.date = date
    } else {
      date = nil
    }
    service = try parameters.service()
    now = try parameters.now()
  }
}

extension Catalog {
  /// Where the slots of `submission` are: the store, the service that counts them, the day's
  /// instants in its zone, and the capacity. What the storage is asked for before `slots(…)`.
  public func slotDay(_ submission: SlotsSubmission, now clock: Instant) throws(RequestError) -> SlotDay {
    let store = try uniqueStore(withID: submission.storeID)
    guard let position = position(of: store) else {
      preconditionFailure("a store found by id has a position")
    }
    let catalog = serving(submission.service)
    let zone = catalog.timeZone(of: store) ?? .utc
    let now = submission.now ?? clock
    let date = submission.date ?? zone.localDateTime(at: now).date
    let resolved = catalog.capacity(at: position, service: submission.service)
    let start = TimeQuery.wallTime(LocalDateTime(date: date, secondsIntoDay: 0)).instant(in: zone)
    let end = TimeQuery.wallTime(LocalDateTime(date: date.adding(days: 1), secondsIntoDay: 0)).instant(
      in: zone)
    return SlotDay(
      storeID: submission.storeID, position: position, service: submission.service,
      countedAs: resolved?.countedAs, capacity: resolved?.capacity, date: date, zone: zone,
      range: start..<end,
      now: now)
  }

  /// The slots of `day` with what `counts` (by slot start, from the storage) say each holds.
  public func slots(_ day: SlotDay, counts: [Instant: SlotCount]) -> SlotListing {
    let catalog = serving(day.service)
    let length = Int64((day.capacity?.slotMinutes ?? PickupCapacity.defaultSlotMinutes) * 60)
    let schedule = catalog.schedule(at: day.position)
    var entries: [SlotListing.Entry] = []
    var start = day.range.lowerBound
    while start < day.range.upperBound, entries.count < 1440 {
      let bounds = PickupSlot.bounds(containing: start, length: Int(length), in: day.zone)
      let count = counts[bounds.lowerBound] ?? SlotCount()
      let state = schedule?.status(at: bounds.lowerBound).state
      entries.append(
        SlotListing.Entry(
          start: bounds.lowerBound, end: bounds.upperBound,
          limit: day.capacity.flatMap {
            catalog.slotLimit($0.limits, at: day.position, start: bounds.lowerBound)
          },
          held: count.held(at: day.now), confirmed: count.confirmed,
          open: state.map { $0 == .open } ?? nil))
      start = max(bounds.upperBound, start + 1)
    }
    return SlotListing(
      storeID: day.storeID, service: day.service, countedAs: day.countedAs, date: day.date, zone: day.zone,
      capacity: day.capacity, slots: entries, ordering: catalog.ordering(at: day.position, at: day.now))
  }
}

/// One store's day of slots, before their counts are read.
public struct SlotDay: Sendable {
  public let storeID: String
  let position: Int
  public let service: String?
  public let countedAs: String?
  public let capacity: PickupCapacity?
  public let date: LocalDate
  public let zone: TimeZoneRules
  /// The day's instants in the store's zone.
  public let range: Range<Instant>
  public let now: Instant
}
