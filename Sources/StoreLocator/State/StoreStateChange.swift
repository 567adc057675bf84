import OpeningHours

/// A change to one store's state, as `PATCH /v1/stores/{id}/state` and `stores state …` give it:
/// any of `ordering` (with `until` and `reason`), `closures` and `special_days`; lists replace.
///
/// Read by the same code for the CLI and the service, and kept as JSON in the state's history.
public struct StoreStateChange: Hashable, Sendable {
  /// The members a change may have.
  public static let memberNames = ["ordering", "until", "reason", "closures", "special_days", "capacity"]
  /// The most closures one store keeps.
  public static let maximumClosures = 50
  /// The most special days one store keeps (a year of them).
  public static let maximumSpecialDays = 366
  /// The longest reason, in characters.
  public static let maximumReasonLength = 200

  public var ordering: StoreState.Ordering?
  public var closures: [StoreClosure]?
  public var specialDays: [SpecialDay]?
  public var capacity: CapacityChange?

  /// What a change does to the capacities set at run time.
  public enum CapacityChange: Hashable, Sendable {
    /// `{"orders_per_slot": 20, …}`: sets the capacity of its service (`nil`: the store's).
    case set(CapacitySetting)
    /// `{"orders_per_slot": null, "service": …}`: removes it; the store file's applies again.
    case remove(service: String?)
    /// `[{…}, {…}]`: replaces them all (`[]` removes them all). How a storage keeps them.
    case replace([CapacitySetting])
  }

  public init(
    ordering: StoreState.Ordering? = nil, closures: [StoreClosure]? = nil, specialDays: [SpecialDay]? = nil,
    capacity: CapacityChange? = nil
  ) {
    self.ordering = ordering
    self.closures = closures
    self.specialDays = specialDays
    self.capacity = capacity
  }

  /// Whether the change changes nothing.
  public var isEmpty: Bool { ordering == nil && closures == nil && specialDays == nil && capacity == nil }

  /// Reads a change from its JSON object.
  /// - Parameters:
  ///   - json: The body: an object with any of `memberNames`.
  ///   - zone: The store's time zone, to compare a closure's ends; UTC when it has none.
  ///   - now: The clock, to refuse a pause that has already ended.
  /// - Throws: `RequestError` (`.invalid`) whose `parameter` names the member that is wrong
  ///   (`closures[1].until`), with a sentence saying what was expected.
  public init(json: JSONValue, zone: TimeZoneRules?, now: Instant) throws(RequestError) {
    try self.init(json: json, zone: zone, now: now, checking: true)
  }

  /// - Parameter checking: Whether to check the values against the clock and the zone (false
  ///   for a state read back from storage, which was checked when it was made).
  init(json: JSONValue, zone: TimeZoneRules?, now: Instant, checking: Bool) throws(RequestError) {
    guard case .object(let object) = json else {
      throw RequestError(
        .invalid, parameter: nil, "the state change must be a JSON object, such as {\"ordering\": \"paused\"}"
      )
    }
    for member in object where !Self.memberNames.contains(member.key) {
      throw RequestError(
        .invalid, parameter: member.key,
        "\(member.key) is not a member of a state change; give \(Self.memberNames.joined(separator: ", "))")
    }
    guard !object.isEmpty || !checking else {
      throw RequestError(
        .invalid, parameter: nil,
        "the state change is empty; give \(Self.memberNames.joined(separator: ", "))")
    }
    let zone = zone ?? .utc
    let reason = try Self.reason(object["reason"], member: "reason")
    let until = try object["until"].flatMap { value throws(RequestError) -> Instant? in
      guard value != .null else { return nil }
      let text = try Self.text(value, member: "until")
      guard case .instant(let instant) = try Self.parse(text, member: "until", TimeQuery.init(parsing:))
      else {
        throw RequestError(
          .invalid, parameter: "until",
          "until \(text) has no offset; give an instant such as 2026-12-24T15:30:00Z")
      }
      return instant
    }
    switch object["ordering"] {
    case nil:
      if object["until"] != nil || object["reason"] != nil {
        throw RequestError(
          .invalid, parameter: object["until"] != nil ? "until" : "reason",
          "until and reason go with \"ordering\": \"paused\"")
      }
    case .string("open"):
      if let until, object["until"] != .null {
        throw RequestError(
          .invalid, parameter: "until",
          "until \(until.description) goes with \"ordering\": \"paused\"; \"open\" resumes now")
      }
      ordering = .open
    case .string("paused"):
      if let until, until <= now {
        throw RequestError(
          .invalid, parameter: "until",
          "until \(until.description) is not after now (\(now.description)); a pause must end later")
      }
      ordering = .paused(until: until, reason: reason)
    case let value?:
      throw RequestError(
        .invalid, parameter: "ordering", "ordering must be \"open\" or \"paused\", not \(value.jsonText)")
    }
    if let value = object["closures"] {
      let items = try Self.array(value, member: "closures", limit: Self.maximumClosures)
      closures = try items.enumerated().map { (index, item) throws(RequestError) in
        try Self.closure(item, member: "closures[\(index)]", zone: zone, checking: checking)
      }
    }
    if let value = object["special_days"] {
      let items = try Self.array(value, member: "special_days", limit: Self.maximumSpecialDays)
      var days: [SpecialDay] = []
      for (index, item) in items.enumerated() {
        let day = try Self.specialDay(item, member: "special_days[\(index)]")
        if days.contains(where: { $0.date == day.date && $0.service == day.service }) {
          throw RequestError(
            .invalid, parameter: "special_days[\(index)].date",
            "special_days[\(index)]: \(day.date)\(day.service.map { " (\($0))" } ?? "") is given twice")
        }
        days.append(day)
      }
      specialDays = days.sorted { ($0.date, $0.service ?? "") < ($1.date, $1.service ?? "") }
    }
    if let value = object["capacity"] {
      capacity = try Self.capacityChange(value)
    }
  }

  /// The state after this change: the members given replace the old ones.
  public func applied(to state: StoreState) -> StoreState {
    var state = state
    if let ordering { state.ordering = ordering }
    if let closures { state.closures = closures }
    if let specialDays { state.specialDays = specialDays }
    switch capacity {
    case nil: break
    case .set(let setting):
      state.capacities.removeAll { $0.service == setting.service }
      state.capacities.append(setting)
    case .remove(let service): state.capacities.removeAll { $0.service == service }
    case .replace(let settings): state.capacities = settings
    }
    state.capacities.sort { ($0.service ?? "") < ($1.service ?? "") }
    return state
  }

  /// The change as JSON, as a client sends it and the history keeps it.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    if let ordering {
      switch ordering {
      case .open: object["ordering"] = .string("open")
      case .paused(let until, let reason):
        object["ordering"] = .string("paused")
        if let until { object["until"] = .string(until.description) }
        if let reason { object["reason"] = .string(reason) }
      }
    }
    if let closures { object["closures"] = .array(closures.map { .object($0.jsonObject) }) }
    if let specialDays { object["special_days"] = .array(specialDays.map { .object($0.jsonObject) }) }
    switch capacity {
    case nil: break
    case .set(let setting): object["capacity"] = .object(setting.jsonObject)
    case .remove(let service):
      object["capacity"] = .object(
        JSONObject([
          .init(key: "orders_per_slot", value: .null),
          .init(key: "service", value: service.map { .string($0) } ?? .null),
        ]))
    case .replace(let settings): object["capacity"] = .array(settings.map { .object($0.jsonObject) })
    }
    return object
  }

  // MARK: - Members

  private static func closure(_ value: JSONValue, member: String, zone: TimeZoneRules, checking: Bool)
    throws(RequestError) -> StoreClosure
  {
    let object = try self.object(value, member: member, accepted: ["from", "until", "reason"])
    let from = try moment(object["from"], member: "\(member).from")
    let until = try moment(object["until"], member: "\(member).until")
    let closure = StoreClosure(
      from: from, until: until, reason: try reason(object["reason"], member: "\(member).reason"))
    guard
      !checking
        || (from.local(in: zone) < until.local(in: zone) && from.instant(in: zone) < until.instant(in: zone))
    else {
      throw RequestError(
        .invalid, parameter: "\(member).until",
        "\(member): until \(until) is not after from \(from); until is when the store reopens")
    }
    return closure
  }

  private static func specialDay(_ value: JSONValue, member: String) throws(RequestError) -> SpecialDay {
    let object = try self.object(value, member: member, accepted: ["date", "hours", "reason", "service"])
    let dateText = try text(object["date"], member: "\(member).date")
    guard let date = StateMoment.date(dateText) else {
      throw RequestError(
        .invalid, parameter: "\(member).date", "\(member).date \(dateText) is not a date such as 2026-12-24")
    }
    let hours = try text(object["hours"], member: "\(member).hours")
    if let problem = SpecialDay.problem(withHours: hours) {
      throw RequestError(.invalid, parameter: "\(member).hours", "\(member).hours \"\(hours)\" \(problem)")
    }
    var service: String?
    if let value = object["service"], value != .null {
      let name = try text(value, member: "\(member).service")
      guard ServiceName.isValid(name) else {
        throw RequestError(
          .invalid, parameter: "\(member).service", "\(member).service \(ServiceName.problem(name))")
      }
      service = name
    }
    return SpecialDay(
      date: date, hours: hours, reason: try reason(object["reason"], member: "\(member).reason"),
      service: service)
  }

  /// The most capacities one store keeps: its own and one per service.
  public static let maximumCapacities = 20

  private static func capacityChange(_ value: JSONValue) throws(RequestError) -> CapacityChange {
    if case .array = value {
      let items = try array(value, member: "capacity", limit: maximumCapacities)
      var settings: [CapacitySetting] = []
      for (index, item) in items.enumerated() {
        let member = "capacity[\(index)]"
        guard case .set(let setting) = try capacity(item, member: member) else {
          throw RequestError(
            .invalid, parameter: "\(member).orders_per_slot",
            "\(member).orders_per_slot is null; a list of capacities gives each one's orders_per_slot")
        }
        if settings.contains(where: { $0.service == setting.service }) {
          throw RequestError(
            .invalid, parameter: "\(member).service",
            "\(member): the capacity of \(setting.service ?? "the store") is given twice")
        }
        settings.append(setting)
      }
      return .replace(settings)
    }
    return try capacity(value, member: "capacity")
  }

  private static func capacity(_ value: JSONValue, member: String) throws(RequestError) -> CapacityChange {
    let object = try self.object(
      value, member: member, accepted: ["orders_per_slot", "slot_minutes", "service"])
    var service: String?
    if let value = object["service"], value != .null {
      let name = try text(value, member: "\(member).service")
      guard ServiceName.isValid(name) else {
        throw RequestError(
          .invalid, parameter: "\(member).service", "\(member).service \(ServiceName.problem(name))")
      }
      service = name
    }
    let limits: SlotLimits
    switch object["orders_per_slot"] {
    case nil:
      throw RequestError(
        .invalid, parameter: "\(member).orders_per_slot",
        "\(member).orders_per_slot is missing: a number such as 20, rules such as \"Mo-Fr 07:00-09:00 20; 10\", "
          + "or null to remove the capacity set before")
    case .null?:
      if let minutes = object["slot_minutes"], minutes != .null {
        throw RequestError(
          .invalid, parameter: "\(member).slot_minutes",
          "\(member).slot_minutes goes with orders_per_slot; null orders_per_slot removes the capacity")
      }
      return .remove(service: service)
    case .number(let literal)?:
      guard let orders = Self.wholeNumber(literal), orders >= 0 else {
        throw RequestError(
          .invalid, parameter: "\(member).orders_per_slot",
          "\(member).orders_per_slot must be a whole number of orders from 0, not \(literal)")
      }
      guard orders <= PickupCapacity.maximumOrdersPerSlot else {
        throw RequestError(
          .invalid, parameter: "\(member).orders_per_slot",
          "\(member).orders_per_slot is \(orders); at most \(PickupCapacity.maximumOrdersPerSlot)")
      }
      limits = SlotLimits(orders: orders)
    case .string(let text)?:
      do {
        limits = try SlotLimits(parsing: text)
      } catch {
        throw RequestError(
          .invalid, parameter: "\(member).orders_per_slot",
          "\(member).orders_per_slot \"\(text)\" \(error.message)")
      }
    case let other?:
      throw RequestError(
        .invalid, parameter: "\(member).orders_per_slot",
        "\(member).orders_per_slot must be a number or rules as a string, not \(other.jsonText)")
    }
    var minutes = PickupCapacity.defaultSlotMinutes
    if let value = object["slot_minutes"], value != .null {
      guard case .number(let literal) = value, let number = Self.wholeNumber(literal) else {
        throw RequestError(
          .invalid, parameter: "\(member).slot_minutes",
          "\(member).slot_minutes must be a whole number of minutes, not \(value.jsonText)")
      }
      if let problem = PickupCapacity.problem(withSlotMinutes: number) {
        throw RequestError(.invalid, parameter: "\(member).slot_minutes", "\(member).slot_minutes \(problem)")
      }
      minutes = number
    }
    return .set(
      CapacitySetting(service: service, capacity: PickupCapacity(limits: limits, slotMinutes: minutes)))
  }

  /// `20` for `20`, `20.0` or `2e1`: JSON Schema's integers include whole numbers written so.
  private static func wholeNumber(_ literal: String) -> Int? {
    if let number = Int(literal) { return number }
    guard let value = Double(literal), value == value.rounded(), abs(value) < 1e9 else { return nil }
    return Int(value)
  }

  private static func object(_ value: JSONValue, member: String, accepted: [String]) throws(RequestError)
    -> JSONObject
  {
    guard case .object(let object) = value else {
      throw RequestError(.invalid, parameter: member, "\(member) must be an object, not \(value.jsonText)")
    }
    for item in object where !accepted.contains(item.key) {
      throw RequestError(
        .invalid, parameter: "\(member).\(item.key)",
        "\(member).\(item.key) is not a member; give \(accepted.joined(separator: ", "))")
    }
    return object
  }

  private static func array(_ value: JSONValue, member: String, limit: Int) throws(RequestError)
    -> [JSONValue]
  {
    guard case .array(let items) = value else {
      throw RequestError(.invalid, parameter: member, "\(member) must be an array (it replaces the list)")
    }
    guard items.count <= limit else {
      throw RequestError(.invalid, parameter: member, "\(member) has \(items.count) items; at most \(limit)")
    }
    return items
  }

  private static func text(_ value: JSONValue?, member: String) throws(RequestError) -> String {
    guard let value else { throw RequestError(.invalid, parameter: member, "\(member) is missing") }
    guard case .string(let text) = value else {
      throw RequestError(.invalid, parameter: member, "\(member) must be a string, not \(value.jsonText)")
    }
    return text
  }

  private static func moment(_ value: JSONValue?, member: String) throws(RequestError) -> StateMoment {
    try parse(try text(value, member: member), member: member, StateMoment.init(parsing:))
  }

  private static func parse<T>(_ text: String, member: String, _ reader: (String) throws(TimeParseError) -> T)
    throws(RequestError) -> T
  {
    do {
      return try reader(text)
    } catch {
      throw RequestError(
        .invalid, parameter: member,
        "\(member) \(text): \(error.message ?? "expected \(error.expected) at character \(error.position + 1)")"
      )
    }
  }

  private static func reason(_ value: JSONValue?, member: String) throws(RequestError) -> String? {
    guard let value, value != .null else { return nil }
    let text = try text(value, member: member)
    guard text.count <= maximumReasonLength else {
      throw RequestError(
        .invalid, parameter: member, "\(member) has \(text.count) characters; at most \(maximumReasonLength)")
    }
    guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
      throw RequestError(.invalid, parameter: member, "\(member) has a control character")
    }
    return text.isEmpty ? nil : text
  }
}

extension SpecialDay {
  /// What is wrong with `hours` as a special day's time selection, or `nil` when it is one.
  static func problem(withHours hours: String) -> String? {
    let words = ["off", "closed", "open"]
    if words.contains(hours) { return nil }
    guard !hours.isEmpty, hours.utf8.allSatisfy({ "0123456789:-,+ ".utf8.contains($0) }) else {
      return "is not a time selection; give times such as 07:00-14:00 or 07:00-11:00,12:00-16:00, or off"
    }
    do {
      let parsed = try OpeningHours(parsing: "2026 Jan 01 " + hours)
      guard parsed.ruleCount == 1, parsed.warnings.isEmpty else {
        return "is not one time selection; give times such as 07:00-14:00, or off"
      }
      return nil
    } catch {
      return "does not read as times: \(error.expected) expected at character \(max(1, error.position - 11))"
    }
  }
}

/// The name of a service as OpenStreetMap writes it after `opening_hours:` (`drive_through`).
public enum ServiceName {
  /// Lowercase letters, digits and `_`, starting with a letter, at most 40 characters.
  public static func isValid(_ name: String) -> Bool {
    guard let first = name.utf8.first, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first),
      name.utf8.count <= 40
    else { return false }
    return name.utf8.allSatisfy {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0)
        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        || $0 == UInt8(ascii: "_")
    }
  }

  /// Why `name` is not a service name.
  static func problem(_ name: String) -> String {
    "\"\(name)\" is not a service name; give one as OpenStreetMap writes it after opening_hours:, "
      + "such as drive_through (lowercase letters, digits and _)"
  }
}
