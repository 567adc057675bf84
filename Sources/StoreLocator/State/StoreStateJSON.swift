import OpeningHours

extension StoreState {
  /// `GET /v1/stores/{id}/state` and `stores state show ID --format json`: the state as stored,
  /// with the ordering as it is at `now` (a pause past its `until` reads open).
  public func jsonObject(id: String, at now: Instant) -> JSONObject {
    var object = JSONObject()
    object["id"] = .string(id)
    switch ordering(at: now) {
    case .open:
      object["ordering"] = .string("open")
      object["paused_until"] = .null
      object["reason"] = .null
    case .paused(let until, let reason):
      object["ordering"] = .string("paused")
      object["paused_until"] = until.map { .string($0.description) } ?? .null
      object["reason"] = reason.map { .string($0) } ?? .null
    }
    object["closures"] = .array(closures.map { .object($0.jsonObject) })
    object["special_days"] = .array(specialDays.map { .object($0.jsonObject) })
    object["capacity"] = .array(capacities.map { .object($0.jsonObject) })
    object["version"] = .number(String(version))
    object["changed_at"] = changedAt.map { .string($0.description) } ?? .null
    return object
  }

  /// The state for people: `ordering paused until 15:30Z "machine repair"; closed 2027-01-05 until
  /// 2027-01-19 "renovation"; 2026-12-24 07:00-14:00 "Christmas Eve"`.
  public func summary(at now: Instant) -> String {
    var parts: [String] = []
    switch ordering(at: now) {
    case .open: parts.append("taking orders")
    case .paused(let until, let reason):
      parts.append(
        "ordering paused" + (until.map { " until \($0.description)" } ?? " until resumed")
          + (reason.map { " \"\($0)\"" } ?? ""))
    }
    for closure in closures {
      parts.append(
        "closed \(closure.from) until \(closure.until)" + (closure.reason.map { " \"\($0)\"" } ?? ""))
    }
    for day in specialDays {
      parts.append(
        "\(day.date)\(day.service.map { " \($0)" } ?? "") \(day.hours)"
          + (day.reason.map { " \"\($0)\"" } ?? ""))
    }
    for setting in capacities {
      parts.append("capacity\(setting.service.map { " \($0)" } ?? "") \(setting.capacity.summary)")
    }
    return parts.joined(separator: "; ")
  }
}

extension StoreClosure {
  /// `{"from", "until", "reason"}`, as a change gives it.
  public var jsonObject: JSONObject {
    JSONObject([
      .init(key: "from", value: .string(from.description)),
      .init(key: "until", value: .string(until.description)),
      .init(key: "reason", value: reason.map { .string($0) } ?? .null),
    ])
  }
}

extension SpecialDay {
  /// `{"date", "hours", "reason", "service"}`, as a change gives it.
  public var jsonObject: JSONObject {
    JSONObject([
      .init(key: "date", value: .string(date.description)),
      .init(key: "hours", value: .string(hours)),
      .init(key: "reason", value: reason.map { .string($0) } ?? .null),
      .init(key: "service", value: service.map { .string($0) } ?? .null),
    ])
  }
}

extension CapacitySetting {
  /// `{"orders_per_slot", "slot_minutes", "service"}`: a number when the limit is one, else the
  /// rules as text.
  public var jsonObject: JSONObject {
    JSONObject([
      .init(
        key: "orders_per_slot",
        value: capacity.limits.constant.map { JSONValue(Int($0)) } ?? .string(capacity.limits.description)),
      .init(key: "slot_minutes", value: JSONValue(Int(capacity.slotMinutes))),
      .init(key: "service", value: service.map { .string($0) } ?? .null),
    ])
  }
}

extension StoreState.Ordering {
  /// `open` or `paused`, as answers write it.
  public var name: String {
    switch self {
    case .open: "open"
    case .paused: "paused"
    }
  }

  /// `ordering paused until 2026-12-24T15:30:00Z "machine repair"`, or `nil` when open.
  public var note: String? {
    guard case .paused(let until, let reason) = self else { return nil }
    return "ordering paused " + (until.map { "until \($0.description)" } ?? "until resumed")
      + (reason.map { " \"\($0)\"" } ?? "")
  }
}

extension StoreState {
  /// The state as a storage keeps it: the members of a change (`ordering`, `until`, `reason`,
  /// `closures`, `special_days`) as they were given, a pause kept even after its `until`.
  public var storageJSON: JSONObject {
    StoreStateChange(
      ordering: ordering, closures: closures, specialDays: specialDays,
      capacity: capacities.isEmpty ? nil : .replace(capacities)
    ).jsonObject
  }

  /// Reads what `storageJSON` wrote, with the version and time of the last change.
  /// - Throws: `RequestError` naming the member, for a value no version of `storageJSON` writes.
  public init(storageJSON: JSONValue, version: Int64, changedAt: Instant?) throws(RequestError) {
    // Stored values were checked when they were made: only their shape is read again.
    let change = try StoreStateChange(
      json: storageJSON, zone: nil, now: Instant(secondsSinceEpoch: .min / 2), checking: false)
    self = change.applied(to: StoreState(version: version, changedAt: changedAt))
  }
}

extension StoreState {
  /// Reads the document `jsonObject(id:at:)` writes (`GET /v1/stores/{id}/state`).
  /// - Throws: `RequestError` naming the member that is not as that document writes it.
  public init(document: JSONObject) throws(RequestError) {
    var change = JSONObject()
    switch document["ordering"] {
    case .string("paused"):
      change["ordering"] = .string("paused")
      if let until = document["paused_until"], until != .null { change["until"] = until }
      if let reason = document["reason"], reason != .null { change["reason"] = reason }
    case .string("open"), nil: change["ordering"] = .string("open")
    case let other?:
      throw RequestError(
        .invalid, parameter: "ordering", "ordering must be \"open\" or \"paused\", not \(other.jsonText)")
    }
    if let closures = document["closures"] { change["closures"] = closures }
    if let days = document["special_days"] { change["special_days"] = days }
    if let capacity = document["capacity"] { change["capacity"] = capacity }
    let version = document["version"]?.scalarText.flatMap { Int64($0) } ?? 0
    let changedAt = document["changed_at"]?.stringValue.flatMap { text -> Instant? in
      if case .instant(let instant) = try? TimeQuery(parsing: text) { instant } else { nil }
    }
    try self.init(storageJSON: .object(change), version: version, changedAt: changedAt)
  }
}
