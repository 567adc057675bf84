import OpeningHours

/// "One store, and its state at a time": `stores show ID` and `GET /v1/stores/{id}`.
public struct StoreRequest: Sendable {
  public static let parameterNames = ["id", "at", "now"]

  public let id: String
  /// The time to give the state for; `nil` for now.
  public let time: TimeQuery?
  let now: Instant?
  let style: ParameterStyle

  /// Reads `id` (required), `at` and `now`.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    id = try parameters.storeID()
    time = try parameters.parse("at", TimeQuery.init(parsing:))
    now = try parameters.now()
    style = parameters.style
  }
}

/// "A store's opening hours, day by day": `stores hours ID` and `GET /v1/stores/{id}/hours`.
public struct HoursRequest: Sendable {
  public static let parameterNames = ["id", "at", "from", "days", "now"]
  public static let defaultDays = 7
  public static let dayRange = 1...366

  public let id: String
  /// The time to evaluate at; the days listed start on its local date. `nil` for now.
  public let time: TimeQuery?
  public let days: Int
  let now: Instant?
  let style: ParameterStyle

  /// Reads `id` (required), `at` (or its synonym `from`), `days` (1...366, default 7) and `now`.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    id = try parameters.storeID()
    let at = try parameters.parse("at", TimeQuery.init(parsing:))
    let from = try parameters.parse("from", TimeQuery.init(parsing:))
    if at != nil, from != nil {
      throw RequestError(
        .invalid, parameter: parameters.spelling(of: "from"),
        "give \(parameters.spelling(of: "at")) or \(parameters.spelling(of: "from")), not both: they mean the same"
      )
    }
    time = at ?? from
    days = try parameters.integer("days", in: Self.dayRange) ?? Self.defaultDays
    now = try parameters.now()
    style = parameters.style
  }
}

/// "Is the store open, and for that long?": `stores open ID` and `GET /v1/stores/{id}/open`.
public struct OpenRequest: Sendable {
  public static let parameterNames = ["id", "at", "for", "now"]

  public let id: String
  public let time: TimeQuery?
  /// Seconds the store must stay open; `nil` for "open at that moment".
  public let duration: Int64?
  let now: Instant?
  let style: ParameterStyle

  /// Reads `id` (required), `at`, `for` and `now`.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    id = try parameters.storeID()
    time = try parameters.parse("at", TimeQuery.init(parsing:))
    duration = try parameters.parse("for", parseDuration)
    now = try parameters.now()
    style = parameters.style
  }
}

extension RequestParameters {
  /// The `id` parameter: required, not empty.
  func storeID() throws(RequestError) -> String {
    guard let id = try value("id"), !id.isEmpty else {
      throw RequestError(.invalid, parameter: spelling(of: "id"), "the store id is empty")
    }
    return id
  }
}

/// One store with its state at the time asked, as `show` writes it.
public struct StoreAnswer: Sendable {
  public let store: Store
  public let status: StoreStatus
  /// The store's compiled hours; `nil` when it has none usable.
  public let schedule: Schedule?

  public var match: StoreMatch { StoreMatch(store: store, distance: nil, status: status) }
  /// The store object of `--format json`, ending in a newline.
  public var jsonText: String { JSONValue.object(match.jsonObject).jsonText + "\n" }
  /// The store as a one-feature GeoJSON FeatureCollection.
  public var geoJSONText: String { StoreMatch.geoJSONText([match], query: nil) }
}

/// A store's hours from a day on, as `hours` writes them.
public struct HoursAnswer: Sendable {
  /// The store; `nil` for an expression evaluated on its own (`stores hours --expression`).
  public let store: Store?
  public let status: StoreStatus
  public let schedule: Schedule?
  /// Whole local days from the local date of the time asked; empty without a schedule.
  public let days: [ScheduleDay]

  /// Evaluates `schedule` at `instant` and lists `count` days from its local date.
  public init(store: Store?, schedule: Schedule, at instant: Instant, days count: Int) {
    self.store = store
    self.schedule = schedule
    self.status = StoreStatus(of: schedule, at: instant)
    self.days = schedule.days(from: schedule.timeZone.localDateTime(at: instant).date, count: count)
  }

  init(store: Store, status: StoreStatus) {
    self.store = store
    self.status = status
    self.schedule = nil
    self.days = []
  }

  /// `opening_hours`, `timezone`, `at`, `state`, `comment`, `next_change`, `status_text`,
  /// `warnings` and `days` (`[{date, spans: [{start, end, state, comment}]}]`, wall-clock times,
  /// `null` for a span running in from the day before or on past the last day). A store without
  /// usable hours has the same members: its text (or `null`), `unknown`, and no days.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["opening_hours"] = (schedule?.hours.text ?? store?.openingHours).map(JSONValue.string) ?? .null
    object["timezone"] = (schedule?.timeZone.identifier ?? store?.timezone).map(JSONValue.string) ?? .null
    object["at"] = .string(status.formatted(status.instant))
    object["state"] = .string(status.state.rawValue)
    object["comment"] = status.status.comment.map(JSONValue.string) ?? .null
    object["next_change"] = status.nextChange.map { .string(status.formatted($0)) } ?? .null
    object["status_text"] = .string(status.summary)
    object["warnings"] = .array(
      ((schedule?.hours.warnings.map(\.description) ?? []) + (schedule?.warnings.map(\.description) ?? []))
        .map(JSONValue.string))
    object["days"] = .array(days.map { .object($0.jsonObject) })
    return object
  }

  public var jsonText: String { JSONValue.object(jsonObject).jsonText + "\n" }
}

extension ScheduleDay {
  /// `{"date", "spans": [{"start", "end", "state", "comment"}]}`.
  var jsonObject: JSONObject {
    var object = JSONObject()
    object["date"] = .string(date.description)
    object["spans"] = .array(
      spans.map { span in
        var entry = JSONObject()
        entry["start"] = span.start.map { .string($0.description) } ?? .null
        entry["end"] = span.end.map { .string($0.description) } ?? .null
        entry["state"] = .string(span.status.state.rawValue)
        entry["comment"] = span.status.comment.map(JSONValue.string) ?? .null
        return .object(entry)
      })
    return object
  }
}

/// Whether a store is open at a time, and stays open for a while, as `open` writes it.
public struct OpenAnswer: Sendable {
  public let store: Store
  /// The state at the time asked.
  public let status: StoreStatus
  /// The seconds asked for, if any.
  public let duration: Int64?
  /// Open for all of `duration` from the time asked: open, closed at some point, or unknown;
  /// `nil` without a duration.
  public let durationState: OpeningState?

  /// The answer to the question asked: the state throughout the duration when one was given,
  /// else the state at the moment (`stores open` exits 0, 1, 2 on it).
  public var state: OpeningState { durationState ?? status.state }

  /// The duration's answer in words: `stays open for the next 15 min`, `closes before 15 min are
  /// up`, `so not open for 15 min`; `nil` without a duration.
  public var durationText: String? {
    guard let duration, let met = durationState else { return nil }
    let span = OpenAnswer.spoken(duration)
    switch (met, status.state) {
    case (.open, _): return "stays open for the next \(span)"
    case (.closed, .open): return "closes before \(span) are up"
    case (.closed, _): return "so not open for \(span)"
    case (.unknown, .open): return "hours unknown before \(span) are up"
    case (.unknown, _): return "unknown whether open for \(span)"
    }
  }

  /// `90 s`, `15 min`, `1 h 30 min`.
  public static func spoken(_ seconds: Int64) -> String {
    if seconds < 60 { return "\(seconds) s" }
    let minutes = (seconds + 59) / 60
    return minutes < 60
      ? "\(minutes) min" : "\(minutes / 60) h" + (minutes % 60 == 0 ? "" : " \(minutes % 60) min")
  }

  /// The store object with `open_for`: `{"seconds", "met": true|false|null, "text"}`, or `null`
  /// without a duration. `state` and `status_text` stay the state at the time asked.
  public var jsonObject: JSONObject {
    var object = StoreMatch(store: store, distance: nil, status: status).jsonObject
    object["open_for"] =
      duration.map { duration in
        var member = JSONObject()
        member["seconds"] = JSONValue(Int(duration))
        member["met"] = durationState.map { $0 == .unknown ? .null : .bool($0 == .open) } ?? .null
        member["text"] = .string(durationText ?? "")
        return .object(member)
      } ?? .null
    return object
  }

  public var jsonText: String { JSONValue.object(jsonObject).jsonText + "\n" }
}

extension Catalog {
  /// The one store `id` names.
  /// - Throws: `RequestError`: `.unknownStore` with the most similar ids when no store has it,
  ///   `.ambiguousStore` with the stores when several share it (the data repeats it).
  public func uniqueStore(withID id: String, parameter: String = "id") throws(RequestError) -> Store {
    let found = stores(withID: id)
    if found.count == 1 { return found[0] }
    guard !found.isEmpty else {
      let suggestions = ids(resembling: id, limit: 3)
      throw RequestError(
        .unknownStore, parameter: parameter,
        "no store with id \(MessageText.quoted(id)) in \(source)"
          + (suggestions.isEmpty
            ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"),
        suggestions: suggestions)
    }
    throw RequestError(
      .ambiguousStore, parameter: parameter,
      "the id \(MessageText.quoted(id)) names \(found.count) stores in \(source), so it does not say which one; "
        + "ids must be unique ('stores validate' lists the repeats)",
      candidates: found)
  }

  /// Answers `request`: the store and its state at the time asked.
  /// - Throws: `RequestError` when the id names no store or several.
  public func answer(_ request: StoreRequest, now: Instant) throws(RequestError) -> StoreAnswer {
    let store = try uniqueStore(withID: request.id, parameter: request.style.spelling(of: "id"))
    let status = self.status(of: store, at: request.time ?? .instant(request.now ?? now))
    return StoreAnswer(store: store, status: status, schedule: schedule(for: store))
  }

  /// Answers `request`: the state at the time asked and the days from its local date.
  /// - Throws: `RequestError` when the id names no store or several.
  public func answer(_ request: HoursRequest, now: Instant) throws(RequestError) -> HoursAnswer {
    let store = try uniqueStore(withID: request.id, parameter: request.style.spelling(of: "id"))
    let status = self.status(of: store, at: request.time ?? .instant(request.now ?? now))
    guard let schedule = schedule(for: store) else { return HoursAnswer(store: store, status: status) }
    return HoursAnswer(store: store, schedule: schedule, at: status.instant, days: request.days)
  }

  /// Answers `request`: the state at the time asked, and throughout the duration when given.
  /// - Throws: `RequestError` when the id names no store or several.
  public func answer(_ request: OpenRequest, now: Instant) throws(RequestError) -> OpenAnswer {
    let store = try uniqueStore(withID: request.id, parameter: request.style.spelling(of: "id"))
    let time = request.time ?? .instant(request.now ?? now)
    let status = self.status(of: store, at: time)
    let met = request.duration.map {
      OpeningRequirement(time: time, seconds: $0).state(of: schedule(for: store))
    }
    return OpenAnswer(store: store, status: status, duration: request.duration, durationState: met)
  }
}
