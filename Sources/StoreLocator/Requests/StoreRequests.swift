import OpeningHours

/// "One store, and its state at a time": `stores show ID` and `GET /v1/stores/{id}`.
public struct StoreRequest: Sendable {
  public static let parameterNames = ["id", "at", "service", "now"]

  public let id: String
  /// The time to give the state for; `nil` for now.
  public let time: TimeQuery?
  /// The service whose hours are asked about (`drive_through`); `nil` for the store's own.
  public let service: String?
  let now: Instant?
  let style: ParameterStyle

  /// Reads `id` (required), `at` and `now`.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    id = try parameters.storeID()
    time = try parameters.parse("at", TimeQuery.init(parsing:))
    service = try parameters.service()
    now = try parameters.now()
    style = parameters.style
  }
}

/// "A store's opening hours, day by day": `stores hours ID` and `GET /v1/stores/{id}/hours`.
public struct HoursRequest: Sendable {
  public static let parameterNames = ["id", "at", "from", "days", "service", "now"]
  public static let defaultDays = 7
  public static let dayRange = 1...366

  public let id: String
  /// The time to evaluate at; the days listed start on its local date. `nil` for now.
  public let time: TimeQuery?
  public let days: Int
  /// The service whose hours are asked about (`drive_through`); `nil` for the store's own.
  public let service: String?
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
    service = try parameters.service()
    now = try parameters.now()
    style = parameters.style
  }
}

/// "Is the store open, and for that long?": `stores open ID` and `GET /v1/stores/{id}/open`.
public struct OpenRequest: Sendable {
  public static let parameterNames = ["id", "at", "for", "service", "now"]

  public let id: String
  public let time: TimeQuery?
  /// Seconds the store must stay open; `nil` for "open at that moment".
  public let duration: Int64?
  /// The service whose hours are asked about (`drive_through`); `nil` for the store's own.
  public let service: String?
  let now: Instant?
  let style: ParameterStyle

  /// Reads `id` (required), `at`, `for` and `now`.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    id = try parameters.storeID()
    time = try parameters.parse("at", TimeQuery.init(parsing:))
    duration = try parameters.parse("for", parseDuration)
    service = try parameters.service()
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
  /// Whether it takes orders at the time asked (its state).
  public var ordering: StoreState.Ordering = .open

  public init(store: Store, status: StoreStatus, schedule: Schedule?) {
    self.store = store
    self.status = status
    self.schedule = schedule
  }

  public var match: StoreMatch {
    var match = StoreMatch(store: store, distance: nil, status: status)
    match.ordering = ordering
    return match
  }
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
  /// The service these hours are of (`drive_through`); `nil` for the store's own.
  public internal(set) var service: String?
  /// The hours as the data writes them (the service's, when one was asked for); `nil` when it
  /// gives none.
  public internal(set) var hoursText: String?
  /// Without a service asked for: the week of each service the data gives hours for, and where
  /// this store's come from.
  public internal(set) var services: [(service: String, source: String, answer: HoursAnswer)] = []

  /// Evaluates `schedule` at `instant` and lists `count` days from its local date.
  public init(store: Store?, schedule: Schedule, at instant: Instant, days count: Int) {
    self.init(store: store, schedule: schedule, status: StoreStatus(of: schedule, at: instant), days: count)
  }

  /// Lists `count` days from the local date of `status`, which the catalog gave (with its
  /// state's closure, when one covers it).
  init(store: Store?, schedule: Schedule, status: StoreStatus, days count: Int) {
    self.store = store
    self.schedule = schedule
    self.status = status
    self.days = schedule.days(from: schedule.timeZone.localDateTime(at: status.instant).date, count: count)
    self.hoursText = store?.openingHours ?? schedule.hours.text
  }

  init(store: Store, status: StoreStatus, hoursText: String?) {
    self.store = store
    self.status = status
    self.schedule = nil
    self.days = []
    self.hoursText = hoursText
  }

  /// `opening_hours`, `timezone`, `at`, `state`, `comment`, `next_change`, `status_text`,
  /// `warnings` and `days` (`[{date, spans: [{start, end, state, comment}]}]`, wall-clock times,
  /// `null` for a span running in from the day before or on past the last day). A store without
  /// usable hours has the same members: its text (or `null`), `unknown`, and no days.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["opening_hours"] = hoursText.map(JSONValue.string) ?? .null
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
    if store != nil {
      object["service"] = service.map(JSONValue.string) ?? .null
      if service == nil {
        object["services"] = .array(
          services.map { entry in
            var week = entry.answer.jsonObject
            week["service"] = .string(entry.service)
            week["source"] = .string(entry.source)
            return .object(week)
          })
      }
    }
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
  /// Whether it takes orders at the time asked (its state).
  public var ordering: StoreState.Ordering = .open

  public var jsonObject: JSONObject {
    var match = StoreMatch(store: store, distance: nil, status: status)
    match.ordering = ordering
    var object = match.jsonObject
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
    guard request.service == service else { return try serving(request.service).answer(request, now: now) }
    let store = try uniqueStore(withID: request.id, parameter: request.style.spelling(of: "id"))
    let status = self.status(of: store, at: request.time ?? .instant(request.now ?? now))
    var answer = StoreAnswer(store: store, status: status, schedule: schedule(for: store))
    answer.ordering = ordering(of: store, at: status.instant)
    return answer
  }

  /// Answers `request`: the state at the time asked and the days from its local date.
  /// - Throws: `RequestError` when the id names no store or several.
  public func answer(_ request: HoursRequest, now: Instant) throws(RequestError) -> HoursAnswer {
    guard request.service == service else { return try serving(request.service).answer(request, now: now) }
    let store = try uniqueStore(withID: request.id, parameter: request.style.spelling(of: "id"))
    var answer = hours(of: store, at: request.time ?? .instant(request.now ?? now), days: request.days)
    // The store's own hours come with the week of each service the data gives hours for.
    if service == nil {
      for name in table.serviceNames {
        let view = serving(name)
        guard let position = view.position(of: store),
          let source = view.overlay?.service?.source(at: position)
        else { continue }
        answer.services.append(
          (
            name, source.name,
            view.hours(of: store, at: request.time ?? .instant(request.now ?? now), days: request.days)
          ))
      }
    }
    return answer
  }

  /// The state of `store` at `time` and its days from then, by this catalog's service and state.
  private func hours(of store: Store, at time: TimeQuery, days: Int) -> HoursAnswer {
    let status = self.status(of: store, at: time)
    let text = position(of: store).flatMap { hoursText(at: $0) }
    var answer =
      schedule(for: store).map { HoursAnswer(store: store, schedule: $0, status: status, days: days) }
      ?? HoursAnswer(store: store, status: status, hoursText: text)
    answer.hoursText = text
    answer.service = service
    return answer
  }

  /// Answers `request`: the state at the time asked, and throughout the duration when given.
  /// - Throws: `RequestError` when the id names no store or several.
  public func answer(_ request: OpenRequest, now: Instant) throws(RequestError) -> OpenAnswer {
    guard request.service == service else { return try serving(request.service).answer(request, now: now) }
    let store = try uniqueStore(withID: request.id, parameter: request.style.spelling(of: "id"))
    let time = request.time ?? .instant(request.now ?? now)
    let status = self.status(of: store, at: time)
    let met = request.duration.map {
      OpeningRequirement(time: time, seconds: $0).state(of: schedule(for: store))
    }
    var answer = OpenAnswer(store: store, status: status, duration: request.duration, durationState: met)
    answer.ordering = ordering(of: store, at: status.instant)
    return answer
  }
}
