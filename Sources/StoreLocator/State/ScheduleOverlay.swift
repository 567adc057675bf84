import OpeningHours
import Synchronization

/// The catalog's hours as one request sees them: the hours of the service it names, with the
/// stores' state (closures, special days, paused ordering) applied.
///
/// Made once per state version (and service), never per request: a replica swaps it in when the
/// state changes, and the answer path reads a dictionary for the few stores the state names.
/// A closure and a special day become rules appended to the store's hours, so every question
/// (open now, until when, open for 20 minutes, the earliest opening, the days listed by `hours`)
/// is answered by the same engine, and a special day wins over the weekly rule and holidays as
/// any later rule does:
/// `Mo-Fr 07:00-22:00; PH off; 2026 Dec 24 07:00-14:00 "Christmas Eve"; 2027 Jan 05-2027 Jan 18 off "renovation"`.
final class ScheduleOverlay: Sendable {
  /// The service asked for, when one was.
  let service: ServiceSchedules?
  let states: StoreStates
  /// The stores whose hours the state changes, and their schedules with it applied.
  private let composed: [Int32: Schedule?]
  /// Per store, the closures in instants, for the status text and pickup's reasons.
  private let closures: [Int32: [ClosureSpan]]
  /// The stores whose ordering is paused (or was, until a time that may have passed).
  private let orderings: [Int32: StoreState.Ordering]
  /// The stores whose state sets a capacity.
  private let capacities: [Int32: [CapacitySetting]]
  /// Whether the per-subtree "might be open" summaries, made from the stores' own hours, still
  /// never leave out an open store: not for a service's hours, nor when a special day opens.
  let keepsHoursMasks: Bool
  /// The same state seen through each service asked for so far.
  private let byService = Mutex<[String: ScheduleOverlay]>([:])

  struct ClosureSpan: Sendable {
    let range: Range<Instant>
    let reason: String?
  }

  /// - Complexity: O(s) for the s stores the state names, compiling the hours of those with
  ///   closures or special days.
  init(table: StoreTable, service: String?, states: StoreStates) {
    self.states = states
    let serviceSchedules = service.map { table.schedules(ofService: $0) }
    self.service = serviceSchedules
    var composed: [Int32: Schedule?] = [:]
    var closures: [Int32: [ClosureSpan]] = [:]
    var orderings: [Int32: StoreState.Ordering] = [:]
    var capacities: [Int32: [CapacitySetting]] = [:]
    var opensMore = false
    for (id, state) in states.stores where !state.isNeutral {
      let days = state.specialDays.filter { $0.service == nil || $0.service == service }
      for position in table.positions(ofID: id) {
        let row = Int32(position)
        if state.ordering != .open { orderings[row] = state.ordering }
        if !state.capacities.isEmpty { capacities[row] = state.capacities }
        guard !days.isEmpty || !state.closures.isEmpty else { continue }
        let zone = table.timeZoneName(at: position).flatMap { table.timeZone(named: $0) } ?? .utc
        closures[row] = state.closures.map { ClosureSpan(range: $0.range(in: zone), reason: $0.reason) }
        let base = Self.baseHours(at: position, table: table, service: serviceSchedules)
        let text =
          ([base ?? "24/7 unknown"] + days.map(Self.rule) + state.closures.map { Self.rules($0, zone) })
          .joined(separator: "; ")
        composed[row] = table.compileSchedule(of: table.store(at: position), text: text)
        opensMore = opensMore || days.contains { $0.hours != "off" && $0.hours != "closed" }
      }
    }
    self.composed = composed
    self.closures = closures
    self.orderings = orderings
    self.capacities = capacities
    keepsHoursMasks = service == nil && !opensMore
  }

  /// The capacities the state sets for the store at `position`.
  func capacities(at position: Int) -> [CapacitySetting]? {
    capacities.isEmpty ? nil : capacities[Int32(position)]
  }

  /// This state seen through `service` (`nil`: the store's own hours).
  func serving(_ service: String?, table: StoreTable) -> ScheduleOverlay {
    guard service != self.service?.service else { return self }
    let key = service ?? ""
    if let made = byService.withLock({ $0[key] }) { return made }
    let made = ScheduleOverlay(table: table, service: service, states: states)
    byService.withLock { $0[key] = made }
    return made
  }

  /// The hours of the store at `position` that the state is applied to: the service's when one
  /// was asked for (following `ServiceSchedules`' rule), else the store's.
  private static func baseHours(at position: Int, table: StoreTable, service: ServiceSchedules?) -> String? {
    let own = table.scalarText(key: table.answerKeys.openingHours, at: position)
    guard let service else { return own }
    switch service.source(at: position) {
    case .ownHours: return service.ownTexts[Int32(position)]
    case .storeHours: return own
    case .notOffered: return "off \"\(service.service) not offered\""
    case .unknown: return nil
    }
  }

  // MARK: - Reading

  /// Whether the state or the service changes the hours of the store at `position`.
  @inline(__always)
  func overrides(_ position: Int) -> Bool {
    // A service's statuses carry a note per store, so they are not shared by schedule group.
    service != nil || composed[Int32(position)] != nil
  }

  func schedule(at position: Int, table: StoreTable) -> Schedule? {
    if let schedule = composed[Int32(position)] { return schedule }
    if let service { return service.schedule(at: position, table: table) }
    return table.schedule(at: position)
  }

  func gap(at position: Int, table: StoreTable) -> String? {
    if let schedule = composed[Int32(position)] { return schedule == nil ? "no time zone" : nil }
    if let service { return service.gap(at: position, table: table) }
    return table.scheduleGap(at: position)
  }

  /// The closure of the store at `position` that `instant` falls in, if any.
  func closure(at position: Int, covering instant: Instant) -> ClosureSpan? {
    closures[Int32(position)]?.first { $0.range.contains(instant) }
  }

  /// The ordering of the store at `position` at `instant`.
  @inline(__always)
  func ordering(at position: Int, at instant: Instant) -> StoreState.Ordering {
    guard let ordering = orderings[Int32(position)] else { return .open }
    return ordering.isPaused(at: instant) ? ordering : .open
  }

  /// Whether any store has a paused ordering (a pickup then checks each candidate).
  var hasPausedOrdering: Bool { !orderings.isEmpty }

  // MARK: - Rules

  private static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `2026 Dec 24`, as a date selector writes a day.
  static func selector(_ date: LocalDate) -> String {
    "\(date.year) \(monthNames[date.month - 1]) \(date.day < 10 ? "0" : "")\(date.day)"
  }

  /// A comment as opening_hours writes one: in double quotes, which it cannot contain.
  private static func comment(_ reason: String?) -> String {
    reason.map { " \"" + $0.replacingAll("\"", with: "'") + "\"" } ?? ""
  }

  /// `2026 Dec 24 07:00-14:00 "Christmas Eve"`.
  static func rule(_ day: SpecialDay) -> String {
    selector(day.date) + " " + (day.hours == "closed" ? "off" : day.hours) + comment(day.reason)
  }

  /// The rules that close the store from `closure.from` until `closure.until` in `zone`: whole
  /// days closed outright (the night before's spill too), partial days closed for those times.
  static func rules(_ closure: StoreClosure, _ zone: TimeZoneRules) -> String {
    let start = closure.from.local(in: zone)
    let end = closure.until.local(in: zone)
    let note = comment(closure.reason ?? "temporarily closed")
    // Minutes, as opening_hours writes them: the closure starts at its minute and ends at the
    // next whole one, so it never ends early.
    let startMinute = start.secondsIntoDay / 60
    let endMinute = (end.secondsIntoDay + 59) / 60
    func clock(_ minute: Int) -> String {
      let text = "\(minute / 60 < 10 ? "0" : "")\(minute / 60):\(minute % 60 < 10 ? "0" : "")\(minute % 60)"
      return text
    }
    var rules: [String] = []
    var firstWholeDay = start.date
    if startMinute > 0 {
      if start.date == end.date {
        return "\(selector(start.date)) \(clock(startMinute))-\(clock(endMinute)) off\(note)"
      }
      rules.append("\(selector(start.date)) \(clock(startMinute))-24:00 off\(note)")
      firstWholeDay = start.date.adding(days: 1)
    }
    let lastWholeDay = end.date.adding(days: -1)
    if firstWholeDay < lastWholeDay {
      rules.append("\(selector(firstWholeDay))-\(selector(lastWholeDay)) off\(note)")
    } else if firstWholeDay == lastWholeDay {
      rules.append("\(selector(firstWholeDay)) off\(note)")
    }
    if endMinute > 0, end.date >= firstWholeDay {
      rules.append("\(selector(end.date)) 00:00-\(clock(endMinute)) off\(note)")
    }
    return rules.joined(separator: "; ")
  }
}

extension String {
  /// The text with every `target` replaced.
  fileprivate func replacingAll(_ target: Character, with replacement: String) -> String {
    var result = ""
    for character in self {
      if character == target { result += replacement } else { result.append(character) }
    }
    return result
  }
}
