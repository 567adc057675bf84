import OpeningHours

/// Answers `stores hours --batch` requests: one JSON object a line in, one a line out. The same
/// protocol feeds the differential test against opening-hours-py (DESIGN §7).
///
/// Request: `{"id": 1, "oh": "Mo-Fr 09:00-18:00; PH off", "tz": "Europe/Berlin", "country": "DE",
/// "at": "2026-03-29T00:59:00Z", "ops": ["state", "next_change"]}`; `country` may name a region
/// (`DE-BY`), `lat`/`lon` place sunrise and sunset, `ops` defaults to both operations.
/// Answer: `{"id": 1, "state": "open|closed|unknown", "comment": "…"|null, "next_change": "…"|null}`,
/// or `{"id": 1, "error": "…"}`.
public struct HoursBatch {
  let holidays: HolidayRegistry
  /// How far `next_change` looks ahead.
  public var horizonDays: Int
  private var zones: [String: TimeZoneRules] = [:]
  private var parsed: [String: Result<OpeningHours, OpeningHoursParseError>] = [:]
  private var schedules: [[String]: Schedule] = [:]

  public init(holidays: HolidayRegistry, horizonDays: Int = 400) {
    self.holidays = holidays
    self.horizonDays = horizonDays
  }

  /// The answer line (without newline) for one request line.
  public mutating func answer(_ line: String) -> String {
    var output = JSONObject()
    let request: JSONObject
    do {
      guard case .object(let object) = try JSONValue(parsing: line) else {
        return HoursBatch.error("a request is a JSON object", id: nil)
      }
      request = object
    } catch {
      return HoursBatch.error(error.description, id: nil)
    }
    let id = request["id"] ?? .null
    output["id"] = id
    guard let text = request["oh"]?.stringValue else {
      return HoursBatch.error("\"oh\" (the opening_hours text) is missing or not a string", id: id)
    }
    guard let zoneName = request["tz"]?.stringValue else {
      return HoursBatch.error("\"tz\" (an IANA time zone) is missing or not a string", id: id)
    }
    guard let atText = request["at"]?.stringValue else {
      return HoursBatch.error("\"at\" (ISO 8601 with an offset) is missing or not a string", id: id)
    }
    let instant: Instant
    do {
      guard case .instant(let given) = try TimeQuery(parsing: atText) else {
        return HoursBatch.error("\"at\" needs an offset or Z: '\(atText)'", id: id)
      }
      instant = given
    } catch {
      return HoursBatch.error("\"at\": \(error)", id: id)
    }
    let zone: TimeZoneRules
    if let known = zones[zoneName] {
      zone = known
    } else {
      do {
        zone = try TimeZoneRules(identifier: zoneName)
        zones[zoneName] = zone
      } catch {
        return HoursBatch.error(error.description, id: id)
      }
    }
    if parsed[text] == nil {
      parsed[text] = Result { () throws(OpeningHoursParseError) in try OpeningHours(parsing: text) }
    }
    let hours: OpeningHours
    switch parsed[text]! {
    case .success(let value): hours = value
    case .failure(let error): return HoursBatch.error("opening_hours \(error.description)", id: id)
    }
    var calendar: HolidayCalendar?
    if let country = request["country"]?.stringValue, !country.isEmpty {
      calendar = holidays.calendar(isoCode: country)
    }
    let latitude = request["lat"]?.scalarText.flatMap(Double.init)
    let longitude = request["lon"]?.scalarText.flatMap(Double.init)
    // Compile once per expression, zone, holidays and place: differential runs repeat them.
    let key = [
      text, zoneName, request["country"]?.stringValue ?? "", "\(latitude ?? .nan)", "\(longitude ?? .nan)",
    ]
    let schedule: Schedule
    if let compiled = schedules[key] {
      schedule = compiled
    } else {
      schedule = Schedule(hours, timeZone: zone, holidays: calendar, latitude: latitude, longitude: longitude)
      schedules[key] = schedule
    }
    var operations = ["state", "next_change"]
    if case .array(let listed) = request["ops"] { operations = listed.compactMap(\.stringValue) }
    for operation in operations {
      switch operation {
      case "state":
        let status = schedule.status(at: instant)
        output["state"] = .string(status.state.rawValue)
        output["comment"] = status.comment.map(JSONValue.string) ?? .null
      case "next_change":
        output["next_change"] =
          schedule.nextChange(after: instant, horizonDays: horizonDays).map { .string(iso8601($0, in: zone)) }
          ?? .null
      default:
        return HoursBatch.error("unknown op '\(operation)': expected state or next_change", id: id)
      }
    }
    return JSONValue.object(output).jsonText
  }

  static func error(_ message: String, id: JSONValue?) -> String {
    var object = JSONObject()
    object["id"] = id ?? .null
    object["error"] = .string(message)
    return JSONValue.object(object).jsonText
  }
}
