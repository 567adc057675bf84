import GeoIndex
import OpeningHours

/// Answers `stores hours --batch` requests: one JSON object a line in, one a line out. The same
/// protocol feeds the differential test against opening-hours-py (DESIGN §7).
///
/// Request: `{"id": 1, "oh": "Mo-Fr 09:00-18:00; PH off", "tz": "Europe/Berlin", "country": "DE",
/// "at": "2026-03-29T00:59:00Z", "ops": ["state", "next_change"]}`; `country` may name a region
/// (`DE-BY`), `lat`/`lon` place sunrise and sunset, `ops` defaults to both operations.
/// Answer: `{"id": 1, "state": "open|closed|unknown", "comment": "…"|null, "next_change": "…"|null}`,
/// or `{"id": 1, "error": "…"}`.
///
/// Memory stays bounded however many distinct lines come: parsed expressions and compiled
/// schedules are kept in caches of `cacheCapacity` entries that drop the least recently used.
public struct HoursBatch {
  let holidays: HolidayRegistry
  /// How far `next_change` looks ahead.
  public var horizonDays: Int
  /// A century: a change years away is found (`2013 Dec 31` from 2011, `2000-3000/42` from 2021:
  /// 2042), as the reference engines find it. Days alike are painted once (`Schedule.nextChange`),
  /// so a dated value that never changes costs a check of its rules per day searched: 15 ms for
  /// `2012 easter -2 days-2012 easter +2 days; PH off` in Europe/Paris, 6.5 ms for `Dec 25 off`
  /// (release build), more with more rules; a later line of the same value at an instant inside
  /// the century already searched resumes where that search ended (100 lines through 2026: 0.04 s).
  /// opening-hours-rs looks to the year 9999 (`2000-3000` changes on 3001-01-01); that first search
  /// costs 80 times as much, for answers no store needs.
  public static let defaultHorizonDays = 36_525
  /// The operations a request may ask for; each at most once.
  public static let operations = ["state", "next_change"]
  /// How many parsed expressions, and how many compiled schedules, are kept for reuse.
  public static let cacheCapacity = 4096
  private var zones: [String: TimeZoneRules] = [:]
  private var parsed = LRUCache<String, Result<OpeningHours, OpeningHoursParseError>>(capacity: cacheCapacity)
  private var schedules = LRUCache<[String], Schedule>(capacity: cacheCapacity)

  public init(holidays: HolidayRegistry, horizonDays: Int = HoursBatch.defaultHorizonDays) {
    self.holidays = holidays
    self.horizonDays = horizonDays
  }

  /// The answer line for a line of input: a request, or a line too long to read.
  public mutating func answer(_ line: InputLines.Line, number: Int) -> String {
    switch line {
    case .text(let text): answer(text)
    case .tooLong:
      HoursBatch.error(
        "line \(number) is longer than \(InputLimits.describe(bytes: InputLimits.batchLineBytes)), "
          + "the limit for a batch line (docs/limits.md)", id: nil)
    }
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
    let parsedText: Result<OpeningHours, OpeningHoursParseError>
    if let known = parsed.value(for: text) {
      parsedText = known
    } else {
      parsedText = Result { () throws(OpeningHoursParseError) in try OpeningHours(parsing: text) }
      parsed.insert(parsedText, for: text)
    }
    let hours: OpeningHours
    switch parsedText {
    case .success(let value): hours = value
    case .failure(let error): return HoursBatch.error("opening_hours \(error.description)", id: id)
    }
    var calendar: HolidayCalendar?
    if let country = request["country"]?.stringValue, !country.isEmpty {
      calendar = holidays.calendar(isoCode: country)
    }
    var place: Coordinate?
    switch (request["lat"], request["lon"]) {
    case (nil, nil), (.null?, .null?): break
    case (let latitude?, let longitude?):
      guard let latitude = latitude.scalarText.flatMap(Double.init),
        let longitude = longitude.scalarText.flatMap(Double.init)
      else {
        return HoursBatch.error("\"lat\" and \"lon\" must be numbers (degrees)", id: id)
      }
      do {
        place = try Coordinate(latitude: latitude, longitude: longitude)
      } catch {
        return HoursBatch.error("\"lat\"/\"lon\": \(error)", id: id)
      }
    default:
      return HoursBatch.error("give both \"lat\" and \"lon\", or neither", id: id)
    }
    var operations = HoursBatch.operations
    if let listed = request["ops"] {
      guard case .array(let elements) = listed, !elements.isEmpty,
        elements.count <= HoursBatch.operations.count
      else {
        return HoursBatch.error(
          "\"ops\" is a list of 1 to \(HoursBatch.operations.count) operations: "
            + HoursBatch.operations.joined(separator: ", "), id: id)
      }
      operations = []
      for element in elements {
        guard let operation = element.stringValue, HoursBatch.operations.contains(operation) else {
          return HoursBatch.error(
            "unknown op \(MessageText.quoted(element.jsonText)): expected state or next_change", id: id)
        }
        guard !operations.contains(operation) else {
          return HoursBatch.error("\"ops\" lists '\(operation)' twice", id: id)
        }
        operations.append(operation)
      }
    }
    // Compile once per expression, zone, holidays and place: differential runs repeat them.
    let key = [
      text, zoneName, request["country"]?.stringValue ?? "", "\(place?.latitude ?? .nan)",
      "\(place?.longitude ?? .nan)",
    ]
    let schedule: Schedule
    if let compiled = schedules.value(for: key) {
      schedule = compiled
    } else {
      schedule = Schedule(
        hours, timeZone: zone, holidays: calendar, latitude: place?.latitude, longitude: place?.longitude)
      schedules.insert(schedule, for: key)
    }
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
