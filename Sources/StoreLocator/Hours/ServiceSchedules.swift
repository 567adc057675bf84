import OpeningHours

/// Every store's hours for one service (`drive_through`, `kitchen`, `delivery`, …), made once per
/// catalog and service, on the first request that names the service.
///
/// The rule, the same for the command line, the service and the page (docs/state.md):
/// - `opening_hours:<service>` given: those are the service's hours (read by the same engine as
///   `opening_hours`: the store's zone, holidays and location);
/// - else `<service>=no`: the service is not offered: closed at every hour, saying so;
/// - else `<service>` with another value (`yes`, `only`, …): the store's own hours, with a note;
/// - else nothing is known: the hours are unknown, as a store without `opening_hours` is.
final class ServiceSchedules: Sendable {
  /// Where a store's hours for the service come from.
  enum Source: Sendable {
    case ownHours
    case storeHours
    case notOffered
    case unknown
  }

  let service: String
  /// The stores with `opening_hours:<service>`, and its text.
  let ownTexts: [Int32: String]
  /// Their compiled schedules; `nil` where the text does not parse or the store has no zone.
  private let own: [Int32: Schedule?]
  private let storeHours: Set<Int32>
  private let notOffered: Set<Int32>
  /// `off "<service> not offered"` in each zone of a store that does not offer the service.
  private let notOfferedSchedules: [String: Schedule]

  /// Reads every store's `opening_hours:<service>` and `<service>` properties.
  /// - Complexity: O(n) row reads, plus compiling each store's service hours.
  init(service: String, table: StoreTable) {
    self.service = service
    var ownTexts: [Int32: String] = [:]
    var own: [Int32: Schedule?] = [:]
    var storeHours = Set<Int32>()
    var notOffered = Set<Int32>()
    var notOfferedSchedules: [String: Schedule] = [:]
    let hoursKey = table.keyNumber(of: "opening_hours:" + service)
    let flagKey = table.keyNumber(of: service)
    // Chains repeat the same hours: each (text, zone) is compiled once unless it names holidays
    // or the sun, which depend on the store's place.
    var compiled: [String: Schedule?] = [:]
    if hoursKey != nil || flagKey != nil {
      for position in 0..<table.storeCount {
        let row = Int32(position)
        if let text = table.scalarText(key: hoursKey, at: position) {
          ownTexts[row] = text
          let zone = table.timeZoneName(at: position) ?? ""
          let sharable =
            !HoursResources.mayNameHolidays(text) && !text.contains("sun") && !text.contains("dusk")
            && !text.contains("dawn")
          let key = zone + "\u{0}" + text
          if sharable, let schedule = compiled[key] {
            own[row] = schedule
          } else {
            let schedule = table.compileSchedule(of: table.store(at: position), text: text)
            if sharable { compiled[key] = schedule }
            own[row] = schedule
          }
        } else if let flag = table.scalarText(key: flagKey, at: position) {
          if flag == "no" || flag == "false" {
            notOffered.insert(row)
            let zone = table.timeZoneName(at: position) ?? "UTC"
            if notOfferedSchedules[zone] == nil,
              let rules = table.timeZone(named: zone),
              let hours = try? OpeningHours(parsing: "off \"\(service) not offered\"")
            {
              notOfferedSchedules[zone] = Schedule(hours, timeZone: rules)
            }
          } else {
            storeHours.insert(row)
          }
        }
      }
    }
    self.ownTexts = ownTexts
    self.own = own
    self.storeHours = storeHours
    self.notOffered = notOffered
    self.notOfferedSchedules = notOfferedSchedules
  }

  /// Where the hours of the store at `position` come from.
  func source(at position: Int) -> Source {
    let row = Int32(position)
    if own[row] != nil { return .ownHours }
    if storeHours.contains(row) { return .storeHours }
    if notOffered.contains(row) { return .notOffered }
    return .unknown
  }

  /// How many stores have hours of their own for the service.
  var countWithOwnHours: Int { own.count }

  /// The schedule of the store at `position` for the service (`nil`: unknown hours).
  func schedule(at position: Int, table: StoreTable) -> Schedule? {
    let row = Int32(position)
    if let schedule = own[row] { return schedule }
    if storeHours.contains(row) { return table.schedule(at: position) }
    if notOffered.contains(row) { return notOfferedSchedules[table.timeZoneName(at: position) ?? "UTC"] }
    return nil
  }

  /// Why the store at `position` has no schedule for the service, or `nil` when it has one.
  func gap(at position: Int, table: StoreTable) -> String? {
    let row = Int32(position)
    if let schedule = own[row] {
      return schedule == nil
        ? (table.timeZoneName(at: position) == nil
          ? "no time zone" : "opening_hours:\(service) does not parse")
        : nil
    }
    if storeHours.contains(row) { return table.scheduleGap(at: position) }
    if notOffered.contains(row) { return nil }
    return "no opening_hours:\(service), and \(service) is not given"
  }

  /// What a person should know about where the hours came from: the store's own hours standing
  /// in for the service's; `nil` when the service has hours of its own.
  func note(at position: Int) -> String? {
    storeHours.contains(Int32(position))
      ? "the store's hours: \(service) is given without opening_hours:\(service)" : nil
  }
}

extension StoreTable {
  /// The schedules of `service`, made on first use and then shared by every request.
  func schedules(ofService service: String) -> ServiceSchedules {
    if let made = serviceSchedules.withLock({ $0[service] }) { return made }
    // Made outside the lock: two first requests may both make it; one is kept.
    let made = ServiceSchedules(service: service, table: self)
    return serviceSchedules.withLock { cache in
      if let kept = cache[service] { return kept }
      cache[service] = made
      return made
    }
  }
}

extension StoreTable {
  /// Every service the data gives hours for (`opening_hours:<service>` with a valid service
  /// name), with how many stores give them, most first, then by name.
  /// - Complexity: O(n × s) for s such keys.
  var servicesWithHours: [(service: String, stores: Int)] {
    let prefix = "opening_hours:"
    var found: [(service: String, stores: Int)] = []
    for number in 0..<keyCount {
      let key = key(number: number)
      guard key.hasPrefix(prefix) else { continue }
      let service = String(key.dropFirst(prefix.count))
      guard ServiceName.isValid(service) else { continue }
      var count = 0
      for position in 0..<storeCount where valueJSON(key: UInt32(number), at: position) != nil { count += 1 }
      if count > 0 { found.append((service, count)) }
    }
    return found.sorted { ($1.stores, $0.service) < ($0.stores, $1.service) }
  }
}
