import GeoIndex
import OpeningHours

extension Catalog {
  /// The compiled opening hours of `store`, or `nil` when it has none usable.
  ///
  /// The store is found by its `catalogIndex`, never by id, so stores that share an id keep their
  /// own hours; a record made outside the catalog is found by id only when the id is unique.
  /// - Complexity: O(1).
  public func schedule(for store: Store) -> Schedule? {
    position(of: store).flatMap { schedule(at: $0) }
  }

  /// The rules of the store's time zone (given or inferred), or `nil` when it has none usable.
  ///
  /// - Complexity: O(1): zones are loaded once, when the catalog is built.
  public func timeZone(of store: Store) -> TimeZoneRules? {
    store.timezone.flatMap { timeZone(named: $0) }
  }

  /// Whether `store` is open at `time`, until when, and the phrase for people.
  ///
  /// Like `schedule(for:)`, this follows the record itself (its `catalogIndex`), not its id.
  /// A wall time (`TimeQuery.wallTime`) is read in the store's own time zone.
  /// - Complexity: O(1) for a weekly schedule; a bounded scan for the next change.
  public func status(of store: Store, at time: TimeQuery) -> StoreStatus {
    if let position = position(of: store) { return status(at: position, at: time) }
    return unknownStatus(zone: timeZone(of: store), reason: "no opening_hours", at: time)
  }

  /// The status of the store at `position`, read from its row and its group's schedule.
  func status(at position: Int, at time: TimeQuery) -> StoreStatus {
    guard let schedule = schedule(at: position) else {
      let zone = table.timeZoneName(at: position).flatMap { timeZone(named: $0) }
      return unknownStatus(zone: zone, reason: scheduleGap(at: position) ?? "no opening_hours", at: time)
    }
    return StoreStatus(of: schedule, at: time.instant(in: schedule.timeZone))
  }

  private func unknownStatus(zone: TimeZoneRules?, reason: String, at time: TimeQuery) -> StoreStatus {
    StoreStatus(
      instant: time.instant(in: zone ?? .utc), status: .unknown, nextChange: nil, timeZone: zone,
      unavailableReason: reason)
  }

  /// `character 7` or `characters 19-20`, one-based, for messages about an expression.
  static func characters(_ range: Range<Int>) -> String {
    range.count <= 1
      ? "character \(range.lowerBound + 1)" : "characters \(range.lowerBound + 1)-\(range.upperBound)"
  }

  /// `; write it as `Mo-Fr 09:00-17:00``: the end of a message about a tolerated or doubtful
  /// opening_hours value, naming its canonical form; empty when that is the text itself.
  static func fixIt(for hours: OpeningHours) -> String {
    let normalized = hours.normalized
    return normalized == hours.text ? "" : "; write it as `\(normalized)`"
  }

  /// Parses each store's `opening_hours`, settles its time zone (inferring it from the nearest
  /// populated place when the data has none), and compiles a schedule; says what went wrong as
  /// diagnostics on the store.
  static func compileSchedules(
    of stores: inout [Store], with resources: HoursResources, openHoursWindow: Range<Instant>,
    diagnostics: inout [Diagnostic]
  ) -> CompiledSchedules {
    var schedules: [Schedule?] = Array(repeating: nil, count: stores.count)
    // Stores that share a compiled schedule form a group; the table keeps one schedule a group.
    var groups: [UInt32?] = Array(repeating: nil, count: stores.count)
    var groupOfKey: [ScheduleKey: UInt32] = [:]
    var groupSchedules: [Schedule?] = []
    var groupLeaders: [UInt32] = []
    // Stores without a schedule are unknown at every hour, so they may be open at any.
    var openHours: [HoursOfWeek] = Array(repeating: .all, count: stores.count)
    var openHoursByKey: [ScheduleKey: HoursOfWeek] = [:]
    var gaps: [String?] = Array(repeating: nil, count: stores.count)
    var zones: [String: TimeZoneRules?] = [:]
    // Chains repeat the same hours in the same zones: parse each text once, compile each
    // (text, zone, holiday region) once.
    var parsed: [String: Result<OpeningHours, OpeningHoursParseError>] = [:]
    var fixes: [String: String] = [:]
    // Building a calendar merges a country's dates with a region's: once per pair.
    var calendars: [HolidayKey: HolidayCalendar?] = [:]
    var added: [Diagnostic] = []
    func note(_ code: String, _ severity: Diagnostic.Severity, _ store: Store, _ message: String) {
      added.append(
        Diagnostic(Diagnostic.Code(code), severity, at: store.position, storeID: store.id, message))
    }
    for position in stores.indices {
      var store = stores[position]
      // Time zone: the data's, else inferred from the location.
      var rules: TimeZoneRules?
      if let name = store.timezone {
        if zones[name] == nil { zones[name] = .some(try? TimeZoneRules(identifier: name)) }
        rules = zones[name] ?? nil
        if rules == nil {
          note(
            "unknown-timezone", .warning, store,
            "the time zone \"\(name)\" is not an IANA zone name (such as Asia/Shanghai); "
              + (store.coordinate == nil
                ? "its hours cannot be evaluated" : "one is inferred from the location"))
          store.timezone = nil
        }
      }
      if store.timezone == nil, let coordinate = store.coordinate, let locator = resources.timeZoneLocator,
        let guess = locator.timeZone(near: coordinate, country: store.country)
      {
        if zones[guess.identifier] == nil {
          zones[guess.identifier] = .some(try? TimeZoneRules(identifier: guess.identifier))
        }
        if let inferred = zones[guess.identifier] ?? nil {
          rules = inferred
          store.timezone = guess.identifier
          store.inferredTimezone = guess
          note(
            "timezone-inferred", .note, store, "no usable \"timezone\": \(guess.identifier), \(guess.note)")
        }
      }
      stores[position] = store

      guard let text = store.openingHours else {
        gaps[position] = "no opening_hours"
        continue
      }
      if parsed[text] == nil {
        parsed[text] = Result { () throws(OpeningHoursParseError) in try OpeningHours(parsing: text) }
      }
      let hours: OpeningHours
      do {
        hours = try parsed[text]!.get()
      } catch {
        gaps[position] = "opening_hours does not parse"
        note(
          "opening-hours-invalid", .warning, store,
          "opening_hours \"\(text)\" \(error.description); the hours count as unknown")
        continue
      }
      // The fix-it: the canonical spelling, which parses without warnings and means the same.
      var fix = ""
      if !hours.warnings.isEmpty {
        if fixes[text] == nil { fixes[text] = Catalog.fixIt(for: hours) }
        fix = fixes[text]!
      }
      for warning in hours.warnings {
        // Most deviations have a clear meaning (a note); a doubtful one may not mean what it says.
        note(
          warning.isDoubtful ? "opening-hours-doubtful" : "opening-hours-tolerated",
          warning.isDoubtful ? .warning : .note, store,
          "opening_hours \"\(text)\" \(Catalog.characters(warning.range)): "
            + "\(warning.message) [\(warning.code)]\(fix)")
      }
      guard let rules else {
        gaps[position] = "no time zone"
        note(
          "no-timezone", .warning, store,
          "no \"timezone\" property and no location to infer one from; the hours cannot be evaluated")
        continue
      }
      let calendarKey = HolidayKey(
        country: store.country, region: store.region)
      if calendars[calendarKey] == nil {
        calendars[calendarKey] = .some(resources.holidayCalendar(for: store))
      }
      let calendar = calendars[calendarKey] ?? nil
      let key = ScheduleKey(text: text, hours: hours, zone: rules.identifier, calendar: calendar)
      let schedule: Schedule
      if let key, let group = groupOfKey[key] {
        schedule = groupSchedules[Int(group)]!
        groups[position] = group
      } else {
        schedule = Schedule(
          hours, timeZone: rules, holidays: calendar, latitude: store.coordinate?.latitude,
          longitude: store.coordinate?.longitude)
        let group = UInt32(groupSchedules.count)
        groupSchedules.append(schedule)
        groupLeaders.append(UInt32(position))
        groups[position] = group
        if let key { groupOfKey[key] = group }
      }
      for warning in schedule.warnings {
        note(
          "opening-hours-\(warning.code)", .warning, store, "opening_hours \"\(text)\": \(warning.message)")
      }
      schedules[position] = schedule
      if let key {
        if openHoursByKey[key] == nil {
          openHoursByKey[key] = schedule.possiblyOpenHours(within: openHoursWindow)
        }
        openHours[position] = openHoursByKey[key]!
      } else {
        openHours[position] = schedule.possiblyOpenHours(within: openHoursWindow)
      }
    }
    if !added.isEmpty {
      // Keep input order: each added diagnostic goes after the loader's ones for its feature.
      var key = -1
      let keyed =
        diagnostics.enumerated().map { offset, diagnostic in
          key = diagnostic.position?.featureIndex ?? key
          return (key: key, group: 0, offset: offset, diagnostic: diagnostic)
        }
        + added.enumerated().map { offset, diagnostic in
          (
            key: diagnostic.position?.featureIndex ?? Int.max, group: 1, offset: offset,
            diagnostic: diagnostic
          )
        }
      diagnostics = keyed.sorted { ($0.key, $0.group, $0.offset) < ($1.key, $1.group, $1.offset) }.map(
        \.diagnostic)
    }
    return CompiledSchedules(
      schedules: schedules, gaps: gaps, zones: zones.compactMapValues { $0 }, openHours: openHours,
      groups: groups, groupSchedules: groupSchedules, groupLeaders: groupLeaders)
  }
}

/// What compiling a catalog's opening hours produced, per store and per schedule group.
struct CompiledSchedules {
  var schedules: [Schedule?]
  var gaps: [String?]
  var zones: [String: TimeZoneRules]
  var openHours: [HoursOfWeek]
  /// Per store, the group of stores sharing its compiled schedule (`nil`: it has none).
  var groups: [UInt32?]
  var groupSchedules: [Schedule?]
  /// Per group, its first store.
  var groupLeaders: [UInt32]

  /// Lets go of what is kept per store once the rows hold it (states, groups).
  mutating func dropPerStoreParts() {
    schedules = []
    gaps = []
    openHours = []
    groups = []
  }
}

/// What makes two stores' compiled schedules the same.
struct ScheduleKey: Hashable {
  let text: String
  let zone: String
  let country: String?
  let region: String?

  /// The key of `hours` (written `text`) in `zone` with `calendar`, or `nil` when the schedule
  /// cannot be shared: sun times depend on the exact place. Holidays matter only to hours that
  /// name them, so other hours share across regions.
  init?(text: String, hours: OpeningHours, zone: String, calendar: HolidayCalendar?) {
    guard !hours.usesSunEvents else { return nil }
    let usesHolidays = hours.usesPublicHolidays || hours.usesSchoolHolidays
    self.text = text
    self.zone = zone
    self.country = usesHolidays ? calendar?.country : nil
    self.region = usesHolidays ? calendar?.region : nil
  }
}

/// The properties that choose a store's holiday calendar.
private struct HolidayKey: Hashable {
  let country: String?
  let region: String?
}
