import OpeningHours

/// The opening-hours conditions of a search (`open_now`, `open_at`, `open_for`, `allow_unknown`),
/// as `nearest` and `within` read them.
struct OpeningConditions: Sendable {
  static let names = ["open_now", "open_at", "open_for", "allow_unknown", "service"]

  var openNow: Bool
  var openAt: TimeQuery?
  /// Seconds the store must stay open.
  var openFor: Int64?
  var allowsUnknown: Bool
  /// The service whose hours the conditions and statuses speak of (`drive_through`); `nil` for
  /// the stores' own hours.
  var service: String?

  init(_ parameters: RequestParameters) throws(RequestError) {
    openNow = try parameters.flag("open_now")
    openAt = try parameters.parse("open_at", TimeQuery.init(parsing:))
    openFor = try parameters.parse("open_for", parseDuration)
    allowsUnknown = try parameters.flag("allow_unknown")
    service = try parameters.service()
    if openNow, openAt != nil {
      throw RequestError(
        .invalid, parameter: parameters.spelling(of: "open_now"),
        "give \(parameters.spelling(of: "open_now")) or \(parameters.spelling(of: "open_at")), not both")
    }
  }

  /// The time results describe: `open_at`, else now.
  func time(now: Instant) -> TimeQuery { openAt ?? .instant(now) }

  /// The requirement, or `nil` when no opening-hours condition was given (`open_for` alone means
  /// open now and for that long).
  func requirement(now: Instant) -> OpeningRequirement? {
    guard openNow || openAt != nil || openFor != nil else { return nil }
    return OpeningRequirement(time: time(now: now), seconds: openFor ?? 0, allowsUnknown: allowsUnknown)
  }

  /// The conditions as the JSON `query` echoes them.
  func describe(into query: inout JSONObject, now: Instant) {
    query["at"] = .string(time(now: now).description)
    query["open"] = .bool(requirement(now: now) != nil)
    query["open_for_s"] = openFor.map { JSONValue(Int($0)) } ?? .null
    query["service"] = service.map(JSONValue.string) ?? .null
  }
}
