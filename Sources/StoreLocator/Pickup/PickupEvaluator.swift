import GeoIndex
import OpeningHours

/// Evaluates the stores of one pickup request against it, reading their rows.
///
/// A store's verdict is decided in this order: its attributes (`--where`), its location, its
/// travel time, and only then its hours. So a store beyond the travel bound is passed over on its
/// distance alone: its hours are never read (nor its times worked out, unless the plan borrows
/// them). What the hours say about a pickup depends on the compiled schedule and the pickup
/// instant only, so it is worked out once per (schedule group, instant) and shared by every store
/// of the request with that schedule and the same travel minutes; so is the earliest opening.
///
/// No `Store` is made for a store that passes its conditions: ids, distances, zones and schedules
/// are read from the row. One value per request, never shared between threads.
struct PickupEvaluator {
  let catalog: Catalog
  let request: PickupRequest
  /// The request's conditions, made ready for the table's rows.
  private let rows: RowFilter
  /// What the hours say at each (schedule, pickup instant) asked so far.
  private var verdicts: [HoursMoment: HoursVerdict] = [:]
  /// The earliest opening after each (schedule, pickup instant) asked so far.
  private var openings: [HoursMoment: Instant?] = [:]

  init(catalog: Catalog, request: PickupRequest) {
    self.catalog = catalog
    self.request = request
    rows = RowFilter(request.filter, table: catalog.table)
  }

  private var table: StoreTable { catalog.table }

  /// A store's times: when the order is ready there, when the customer arrives, the pickup.
  struct Times {
    let zone: TimeZoneRules?
    let readyAt: Instant
    let arrivalAt: Instant
    let pickupAt: Instant
    let travelSeconds: Int64
  }

  enum Verdict {
    case eligible(PickupOption, hoursUnknown: Bool)
    /// With the store's times, when they were worked out (always, unless the store fails its
    /// conditions, has no location, or is beyond the travel bound and no times were wanted).
    case passedOver(PassedOverStore, Times?)
  }

  /// A compiled schedule (its group in the table) at a pickup instant.
  private struct HoursMoment: Hashable {
    let group: Int
    let pickup: Instant
  }

  /// What a schedule says about a pickup at one instant: the same for every store that shares
  /// the schedule, since the messages name only times in the schedule's zone.
  enum HoursVerdict {
    /// Eligible, with the status at the pickup time.
    case eligible(hoursUnknown: Bool, StoreStatus)
    case passedOver(PassedOverStore.Reason, String)
  }

  /// The ready time resolved in `zone`, and whether the request's time was before the order time.
  func readyTime(in zone: TimeZoneRules) -> (instant: Instant, wasBeforeOrder: Bool) {
    let orderedAt = request.orderedAt
    switch request.ready {
    case .after(let seconds):
      return (orderedAt + max(0, seconds), false)
    case .at(let time):
      let instant = time.instant(in: zone)
      return instant < orderedAt ? (orderedAt, true) : (instant, false)
    case .preparing(let items, let notBefore):
      let prepared = orderedAt + PreparationTime.seconds(for: items)
      guard let notBefore else { return (prepared, false) }
      return (max(prepared, notBefore.instant(in: zone)), false)
    }
  }

  /// The zone of the store at `position`: its schedule's, else the one its row names.
  func zone(at position: Int, schedule: Schedule?) -> TimeZoneRules? {
    schedule?.timeZone ?? table.timeZoneName(at: position).flatMap { catalog.timeZone(named: $0) }
  }

  private func times(at position: Int, distance: Distance, travel: Int64, schedule: Schedule?) -> Times {
    let zone = zone(at: position, schedule: schedule)
    let ready = readyTime(in: zone ?? TimeZoneRules.utc).instant
    let arrival = request.orderedAt + travel
    return Times(
      zone: zone, readyAt: ready, arrivalAt: arrival, pickupAt: max(ready, arrival), travelSeconds: travel)
  }

  private func option(_ match: StoreMatch, _ times: Times, status: StoreStatus, pickupAt: Instant? = nil)
    -> PickupOption
  {
    var match = match
    match.status = status
    return PickupOption(
      store: match, readyAt: times.readyAt, arrivalAt: times.arrivalAt, pickupAt: pickupAt ?? times.pickupAt,
      travelSeconds: times.travelSeconds)
  }

  /// `nil` when the store at `position` meets the request's conditions, else why not:
  /// `lacks drive_through=yes (has "no")`.
  private func failedConditions(at position: Int) -> String? {
    guard !rows.isEmpty else { return nil }
    table.checkRow(position)
    if rows.matches(table, at: position) { return nil }
    // Only a store that fails is made, to say what it has instead.
    let store = table.store(at: position)
    let failing = request.filter.conditions.filter { !$0.matches(store) }
    return failing.isEmpty ? nil : failing.map { Self.explain($0, for: store) }.joined(separator: "; ")
  }

  /// The verdict on the store at `position`, `distance` from the customer (`nil`: it has no
  /// location).
  /// - Parameter wantsTimes: Whether a store passed over for its distance should still carry
  ///   its times (the plan borrows the first passed-over store's).
  mutating func evaluate(_ position: Int, distance: Distance?, wantsTimes: Bool) -> Verdict {
    func pass(_ reason: PassedOverStore.Reason, _ message: String, _ times: Times? = nil) -> Verdict {
      .passedOver(
        PassedOverStore(
          storeID: table.id(at: position), reason: reason, distance: distance, message: message),
        times)
    }
    if let failing = failedConditions(at: position) { return pass(.missingAttribute, failing) }
    guard let distance else {
      return pass(.noLocation, "has no location, so the travel time is unknown")
    }
    let travel = request.travel.travelSeconds(for: distance)
    if travel > request.maximumTravel {
      return pass(
        .tooFar,
        "\(distance.kilometersText) away: about \(Self.duration(travel)) "
          + "\(Self.phrase(request.travel)), more than the limit of \(Self.duration(request.maximumTravel))",
        wantsTimes
          ? times(at: position, distance: distance, travel: travel, schedule: catalog.schedule(at: position))
          : nil)
    }
    let schedule = catalog.schedule(at: position)
    let times = times(at: position, distance: distance, travel: travel, schedule: schedule)
    var match = StoreMatch(table: table, position: position, distance: distance)
    let pickup = times.pickupAt
    // The store's state and the service, before its hours: each says more than "closed".
    if let overlay = catalog.overlay {
      let ordering = overlay.ordering(at: position, at: request.orderedAt)
      if case .paused(let until, let reason) = ordering {
        let resumes =
          until.map { "until \(wallTime($0, in: times.zone, after: request.orderedAt))" } ?? "until resumed"
        return pass(.orderingPaused, "ordering paused \(resumes)\(reason.map { " \"\($0)\"" } ?? "")", times)
      }
      if let service = overlay.service, service.source(at: position) == .notOffered {
        return pass(.serviceNotOffered, "does not offer \(service.service) (\(service.service)=no)", times)
      }
      if let closure = overlay.closure(at: position, covering: pickup) {
        let reopening = StoreStatus.dayAndTime(closure.range.upperBound, in: times.zone ?? .utc)
        return pass(
          .temporarilyClosed,
          "temporarily closed\(closure.reason.map { " \"\($0)\"" } ?? "") until \(reopening), "
            + "at pickup at \(wallTime(pickup, in: times.zone, after: request.orderedAt))", times)
      }
      match.ordering = ordering
    }
    // A store whose hours are its own (a service's, or changed by its state) is its own group.
    guard let schedule else {
      let catalog = catalog
      func status() -> StoreStatus { catalog.status(at: position, at: .instant(pickup)) }
      if request.allowsUnknownHours {
        return .eligible(option(match, times, status: status()), hoursUnknown: true)
      }
      if table.scalarText(key: table.answerKeys.openingHours, at: position) == nil {
        return pass(.noOpeningHours, "has no opening_hours", times)
      }
      return pass(.hoursUnknown, "hours unknown (\(status().unavailableReason ?? "hours unknown"))", times)
    }
    let group = catalog.scheduleGroup(at: position) ?? (-1 - position)
    let moment = HoursMoment(group: group, pickup: pickup)
    let verdict: HoursVerdict
    if let known = verdicts[moment] {
      verdict = known
    } else {
      verdict = hoursVerdict(schedule, at: pickup)
      verdicts[moment] = verdict
    }
    switch verdict {
    case .eligible(let hoursUnknown, let status):
      return .eligible(option(match, times, status: status), hoursUnknown: hoursUnknown)
    case .passedOver(let reason, let message):
      return pass(reason, message, times)
    }
  }

  /// What `schedule` says about a pickup at `pickup`: open for the close buffer (eligible), or
  /// why not.
  func hoursVerdict(_ schedule: Schedule, at pickup: Instant) -> HoursVerdict {
    let zone = schedule.timeZone
    let buffer = request.closeBuffer
    func eligible(hoursUnknown: Bool) -> HoursVerdict {
      .eligible(hoursUnknown: hoursUnknown, StoreStatus(of: schedule, at: pickup))
    }
    if schedule.isOpen(throughout: pickup, seconds: buffer) { return eligible(hoursUnknown: false) }
    let window =
      buffer > 1
      ? schedule.intervals(from: pickup, to: pickup + buffer)
      : [ScheduleInterval(start: pickup, end: pickup + 1, status: schedule.status(at: pickup))]
    let stateAtPickup = window.first?.status.state ?? schedule.status(at: pickup).state
    // Relative to the order time, so a pickup tomorrow says so.
    let pickupClock = wallTime(pickup, in: zone, after: request.orderedAt)
    if request.allowsUnknownHours, window.allSatisfy({ $0.status.state != .closed }) {
      return eligible(hoursUnknown: true)
    }
    switch stateAtPickup {
    case .open:
      // Open at pickup, but something other than open comes inside the buffer.
      let change = window.first { $0.status.state != .open } ?? window[window.count - 1]
      let after = Self.duration(change.start.secondsSinceEpoch - pickup.secondsSinceEpoch)
      let when = wallTime(change.start, in: zone, after: pickup)
      if change.status.state == .unknown {
        return .passedOver(
          .hoursUnknown, "hours unknown from \(when), \(after) after pickup at \(pickupClock)")
      }
      return .passedOver(.closesTooSoon, "closes at \(when), \(after) after pickup at \(pickupClock)")
    case .unknown:
      let comment = schedule.status(at: pickup).comment.map { " \"\($0)\"" } ?? ""
      return .passedOver(.hoursUnknown, "hours unknown at pickup at \(pickupClock)\(comment)")
    case .closed:
      if schedule.status(at: request.orderedAt).state == .open {
        let closing = schedule.nextStateChange(after: request.orderedAt) ?? pickup
        return .passedOver(
          .closesBeforePickup,
          "open at the order time but closes at \(wallTime(closing, in: zone, after: request.orderedAt)), "
            + "before pickup at \(pickupClock)")
      }
      let change = schedule.nextStateChange(after: pickup, horizonDays: 8)
      let comment = schedule.status(at: pickup).comment.map { " \"\($0)\"" } ?? ""
      let next =
        change.map { change in
          let when = wallTime(change, in: zone, after: request.orderedAt)
          return schedule.status(at: change).state == .open
            ? "; opens \(when)" : "; hours unknown from \(when)"
        } ?? "; does not open within a week"
      return .passedOver(.closedAtPickup, "closed at pickup at \(pickupClock)\(comment)\(next)")
    }
  }

  /// The warnings about the assigned store.
  func warnings(for assignment: PickupOption, hoursUnknown: Bool) -> [PickupNotice] {
    // The one record made for the assigned store: its source position and zone guess.
    let store = assignment.store.store
    var notes: [PickupNotice] = []
    if let distance = assignment.store.distance, distance > request.searchRadius {
      notes.append(
        PickupNotice(
          .outsideSearchRadius, storeID: store.id,
          "\(store.id) is \(distance.kilometersText) away, beyond the search radius of "
            + request.searchRadius.kilometersText))
    }
    if let schedule = catalog.schedule(for: store), schedule.status(at: assignment.pickupAt).state == .open {
      let horizon = assignment.pickupAt + PickupPlan.closingSoonSeconds
      if let change = schedule.intervals(from: assignment.pickupAt, to: horizon).first(where: {
        $0.status.state != .open
      }) {
        let after = Self.duration(change.start.secondsSinceEpoch - assignment.pickupAt.secondsSinceEpoch)
        notes.append(
          PickupNotice(
            .closesSoon, storeID: store.id,
            "closes at \(wallTime(change.start, in: schedule.timeZone, after: assignment.pickupAt)), "
              + "\(after) after pickup"))
      }
    }
    if assignment.travelSeconds > TravelMode.farTravelSeconds {
      notes.append(
        PickupNotice(
          .farFromCustomer, storeID: store.id,
          "\(assignment.store.distance?.kilometersText ?? "? km") away: about \(Self.duration(assignment.travelSeconds)) "
            + Self.phrase(request.travel)))
    }
    if let guess = store.inferredTimezone {
      notes.append(
        PickupNotice(.timezoneInferred, storeID: store.id, "no timezone in the data: \(guess)"))
    }
    // By position as well as id: stores that share an id have their own hours.
    let hoursNotes = catalog.pickupHoursNotes.messages(of: store.id, feature: store.position.featureIndex)
    if !hoursNotes.isEmpty {
      notes.append(PickupNotice(.hoursWarnings, storeID: store.id, hoursNotes.joined(separator: "; ")))
    }
    if hoursUnknown {
      let reason = assignment.store.status?.unavailableReason.map { " (\($0))" } ?? ""
      notes.append(
        PickupNotice(
          .hoursUnknown, storeID: store.id,
          "the hours are unknown at the pickup time\(reason); the store is assigned because unknown hours are allowed"
        ))
    }
    return notes
  }

  /// The earliest time one of the first `PickupPlan.earliestCandidateCount` candidates that pass
  /// the filter, have hours and are within the travel bound could serve; ties go to the earlier
  /// candidate. The candidates: the chosen store (when there is one), then `nearby`.
  ///
  /// - Parameter nearby: Row positions and distances, nearest first. Travel time grows with
  ///   distance, so the first beyond the travel bound ends the search. A candidate whose pickup is
  ///   no earlier than the best found cannot open earlier (an opening is never before the pickup),
  ///   so its hours are not searched; it still counts as tried.
  mutating func earliestOpening(
    chosen: (position: Int, distance: Distance?)?,
    nearby: some Sequence<(position: Int, distance: Distance?)>
  ) -> PickupOption? {
    var best: PickupOption?
    var tried = 0
    /// Tries one candidate; false when the ones after it are all beyond the travel bound.
    func consider(_ position: Int, _ distance: Distance?) -> Bool {
      guard let distance else { return true }
      let travel = request.travel.travelSeconds(for: distance)
      guard travel <= request.maximumTravel else { return false }
      guard failedConditions(at: position) == nil, let schedule = catalog.schedule(at: position),
        !catalog.ordering(at: position, at: request.orderedAt).isPaused(at: request.orderedAt)
      else { return true }
      let group = catalog.scheduleGroup(at: position) ?? (-1 - position)
      tried += 1
      let times = times(at: position, distance: distance, travel: travel, schedule: schedule)
      if let best, times.pickupAt >= best.pickupAt { return true }
      let moment = HoursMoment(group: group, pickup: times.pickupAt)
      let start: Instant?
      if let known = openings[moment] {
        start = known
      } else {
        // From the end of a closure the pickup falls in: the horizon counts from the reopening.
        let from =
          catalog.overlay?.closure(at: position, covering: times.pickupAt)?.range.upperBound ?? times.pickupAt
        start = schedule.earliestOpening(
          lasting: request.closeBuffer, from: from, horizonDays: PickupPlan.earliestHorizonDays)
        openings[moment] = start
      }
      guard let start else { return true }
      if let best, start >= best.pickupAt { return true }
      let opening = option(
        StoreMatch(table: table, position: position, distance: distance), times,
        status: StoreStatus(of: schedule, at: start), pickupAt: start)
      // Its slot then, when the store has a capacity: a full one moves the earliest time to the
      // next slot with room, and a store with none free within a day offers no earliest time.
      let placed: PickupOption
      switch slotted(opening, at: position) {
      case .fits(let option), .moved(let option): placed = option
      case .full: return true
      }
      if best == nil || placed.pickupAt < best!.pickupAt { best = placed }
      return true
    }
    if let chosen { _ = consider(chosen.position, chosen.distance) }
    for candidate in nearby {
      guard tried < PickupPlan.earliestCandidateCount, consider(candidate.position, candidate.distance) else {
        break
      }
    }
    return best
  }

  /// `21:00` on the same local day as `reference`, `Mon 07:00` within a week, the date beyond.
  func wallTime(_ instant: Instant, in zone: TimeZoneRules?, after reference: Instant) -> String {
    StoreStatus.wallTime(instant, after: reference, in: zone ?? TimeZoneRules.utc)
  }

  /// `45 seconds`, `1 minute`, `25 minutes`, `2 h`, `2 h 05 min`.
  static func duration(_ seconds: Int64) -> String {
    if seconds < 60 { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
    let minutes = (seconds + 59) / 60
    if minutes < 120 { return minutes == 1 ? "1 minute" : "\(minutes) minutes" }
    if minutes % 60 == 0 { return "\(minutes / 60) h" }
    return "\(minutes / 60) h " + (minutes % 60 < 10 ? "0" : "") + "\(minutes % 60) min"
  }

  /// `on foot`, `by bike`, `by car`, `at 12 km/h`: how the customer travels, after a duration.
  static func phrase(_ travel: TravelMode) -> String {
    switch travel {
    case .walk: "on foot"
    case .bike: "by bike"
    case .drive: "by car"
    case .speed: "at \(travel)"
    }
  }

  /// Why `store` fails `condition`: `lacks drive_through=yes (has "no")`.
  static func explain(_ condition: StoreFilter.Condition, for store: Store) -> String {
    let value = store.properties[condition.key]
    let has =
      value.map { value in
        value.scalarText.map { "has \"\($0)\"" } ?? (value == .null ? "it is null" : "has \(value.jsonText)")
      } ?? "no \(condition.key) property"
    switch condition.test {
    case .notEquals: return "fails \(condition) (\(has))"
    case .present, .equals: return "lacks \(condition) (\(has))"
    }
  }
}
