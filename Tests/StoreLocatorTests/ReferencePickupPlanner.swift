// The pickup planner as it was before issue 25 (commit 9616b6c), kept verbatim as the test-only
// reference `PickupDifferentialTests` holds the planner to: every store evaluated in full, one at
// a time, nearest first. Only its names changed (`referencePlanPickup`, `ReferencePickupEvaluator`).

import GeoIndex
import OpeningHours

@testable import StoreLocator

extension Catalog {
  /// Assigns a store to an order: the chosen store when it is eligible, else the nearest eligible
  /// store within the search radius, with alternatives, the stores passed over and why, and when
  /// nothing is eligible the earliest time one of the nearest stores could serve.
  ///
  /// The rule (docs/pickup.md): a store's pickup time is the later of the order's ready time and
  /// the customer's arrival (leaving at the order time, `TravelMode`). The store is eligible when
  /// it passes the required attributes, has a location, and is open from the pickup time for at
  /// least the close buffer, in its own time zone with its holidays; unknown hours count only
  /// when the request allows them (and nothing in that window is closed).
  ///
  /// Stores are considered nearest first (the chosen one before all others, wherever it is) until
  /// one is assigned and `alternativeCount` alternatives are found; every store considered and not
  /// used is listed in `passedOver`.
  /// - Throws: `PickupError` with `.unknownStore` when the chosen store id is not in the catalog,
  ///   `.ambiguousStore` when it names several stores, `.invalidRequest` for a negative close
  ///   buffer or alternative count or a travel bound that is not positive.
  /// - Complexity: O(log n + m) for the m stores within the search radius, plus evaluating the
  ///   hours of those considered.
  func referencePlanPickup(_ request: PickupRequest) throws(PickupError) -> PickupPlan {
    guard request.closeBuffer >= 0 else {
      throw PickupError(
        .invalidRequest, "the close buffer must not be negative (it is \(request.closeBuffer) s)")
    }
    guard request.maximumTravel > 0 else {
      throw PickupError(
        .invalidRequest, "the longest travel time must be positive (it is \(request.maximumTravel) s)")
    }
    guard request.alternativeCount >= 0 else {
      throw PickupError(.invalidRequest, "the number of alternatives must not be negative")
    }
    // Pickups are planned within days, not years; bounded windows keep every answer quick.
    guard request.closeBuffer <= PickupRequest.maximumCloseBuffer else {
      throw PickupError(
        .invalidRequest, "the close buffer must be at most a day (it is \(request.closeBuffer) s)")
    }
    try request.checkLeadTime()
    var chosen: StoreMatch?
    if let id = request.chosenStoreID {
      let found = stores(withID: id)
      guard let store = found.first else {
        let similar = ids(resembling: id, limit: 3)
        var message = "no store has the id \"\(id)\""
        if !similar.isEmpty {
          message += "; did you mean " + similar.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
        }
        throw PickupError(.unknownStore, message, suggestions: similar)
      }
      // Picking one of them would plan for a store the customer may not have meant.
      guard found.count == 1 else {
        throw PickupError(
          .ambiguousStore,
          "the id \"\(id)\" names \(found.count) stores ("
            + found.map { "\($0.name ?? "no name") at \($0.position)" }.joined(separator: "; ")
            + "); a chosen store needs an id of its own", candidates: found)
      }
      chosen = StoreMatch(store: store, distance: store.coordinate.map { request.customer.distance(to: $0) })
    }
    let evaluator = ReferencePickupEvaluator(catalog: self, request: request)
    let nearby = stores(within: request.searchRadius, of: request.customer)

    var assignment: PickupOption?
    var assignmentHoursUnknown = false
    var alternatives: [PickupOption] = []
    var passedOver: [PassedOverStore] = []
    var warnings: [PickupNotice] = []
    var chosenFailure: PassedOverStore?
    var firstTimes: ReferencePickupEvaluator.Times?

    if let chosen {
      switch evaluator.evaluate(chosen) {
      case .eligible(let option, let unknownHours):
        assignment = option
        assignmentHoursUnknown = unknownHours
      case .passedOver(let passed, let times):
        chosenFailure = passed
        passedOver.append(passed)
        firstTimes = times
      }
    }
    for match in nearby {
      if let chosen, match.store.catalogIndex == chosen.store.catalogIndex { continue }
      if assignment != nil && alternatives.count >= request.alternativeCount { break }
      switch evaluator.evaluate(match) {
      case .eligible(let option, let unknownHours):
        if assignment == nil {
          assignment = option
          assignmentHoursUnknown = unknownHours
        } else {
          alternatives.append(option)
        }
      case .passedOver(let passed, let times):
        passedOver.append(passed)
        if firstTimes == nil { firstTimes = times }
      }
    }

    var earliest: PickupOption?
    if let chosen, let chosenFailure {
      let name = "the chosen store \(chosen.store.id)"
      if let assignment {
        warnings.append(
          PickupNotice(
            .chosenNotEligible, storeID: chosen.store.id,
            "\(name) cannot serve the order: \(chosenFailure.message); assigned \(assignment.store.store.id) "
              + "(\(assignment.store.distance?.kilometersText ?? "? km")) instead"))
      } else {
        warnings.append(
          PickupNotice(
            .chosenNotEligible, storeID: chosen.store.id,
            "\(name) cannot serve the order: \(chosenFailure.message)"))
      }
    }
    if let assignment {
      warnings += evaluator.warnings(for: assignment, hoursUnknown: assignmentHoursUnknown)
    } else {
      var candidates: [StoreMatch] = []
      if let chosen { candidates.append(chosen) }
      candidates += nearby.lazy.filter { match in chosen.map { match.store != $0.store } ?? true }
      earliest = evaluator.earliestOpening(among: candidates)
      if let earliest {
        warnings.append(
          PickupNotice(
            .opensLater, storeID: earliest.store.store.id,
            "no store can serve the order now; the earliest is \(earliest.store.store.id) "
              + "(\(earliest.store.distance?.kilometersText ?? "? km")) from "
              + evaluator.wallTime(earliest.pickupAt, in: earliest.timeZone, after: request.orderedAt)))
      } else if !passedOver.isEmpty, passedOver.allSatisfy({ $0.reason == .tooFar }) {
        // Opening hours were never the problem: say what was.
        let nearest = passedOver.min {
          ($0.distance?.meters ?? .infinity) < ($1.distance?.meters ?? .infinity)
        }!
        warnings.append(
          PickupNotice(
            .noStoresNearby,
            "no store within reach: every store considered takes more than "
              + "\(ReferencePickupEvaluator.duration(request.maximumTravel)) \(ReferencePickupEvaluator.phrase(request.travel)) "
              + "to reach (the nearest, \(nearest.storeID), is "
              + "\(nearest.distance?.kilometersText ?? "? km") away)"))
      } else if nearby.isEmpty && chosen == nil {
        warnings.append(
          PickupNotice(
            .noStoresNearby,
            "no store within \(request.searchRadius.kilometersText) of the customer"))
      } else {
        warnings.append(
          PickupNotice(
            .noOpeningFound,
            PickupPlan.unknownHoursExplanation(
              passedOver: passedOver, allowsUnknownHours: request.allowsUnknownHours)
              ?? "no store can serve the order, and none of the nearest opens for pickup within "
              + "\(PickupPlan.earliestHorizonDays) days"))
      }
    }
    let readyAt: Instant
    let readyZone: TimeZoneRules?
    if let assignment {
      readyAt = assignment.readyAt
      readyZone = assignment.timeZone
    } else if let firstTimes {
      readyAt = firstTimes.readyAt
      readyZone = firstTimes.zone
    } else {
      readyZone = nil
      readyAt = evaluator.readyTime(in: TimeZoneRules.utc).instant
    }
    if evaluator.readyTime(in: readyZone ?? TimeZoneRules.utc).wasBeforeOrder {
      warnings.insert(
        PickupNotice(
          .readyBeforeOrder,
          "the ready time is before the order time; the order counts as ready at the order time"),
        at: 0)
    }
    return PickupPlan(
      orderedAt: request.orderedAt, assignment: assignment, readyAt: readyAt, warnings: warnings,
      alternatives: alternatives,
      passedOver: passedOver, earliest: earliest, travel: request.travel, closeBuffer: request.closeBuffer,
      maximumTravel: request.maximumTravel)
  }
}

/// Evaluates one store against a request.
struct ReferencePickupEvaluator {
  let catalog: Catalog
  let request: PickupRequest

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
    case passedOver(PassedOverStore, Times?)
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

  func zone(of store: Store, schedule: Schedule?) -> TimeZoneRules? {
    schedule?.timeZone ?? catalog.timeZone(of: store)
  }

  func times(for match: StoreMatch, distance: Distance, schedule: Schedule?) -> Times {
    let zone = zone(of: match.store, schedule: schedule)
    let ready = readyTime(in: zone ?? TimeZoneRules.utc).instant
    let travel = request.travel.travelSeconds(for: distance)
    let arrival = request.orderedAt + travel
    return Times(
      zone: zone, readyAt: ready, arrivalAt: arrival, pickupAt: max(ready, arrival), travelSeconds: travel)
  }

  func option(_ match: StoreMatch, _ times: Times, pickupAt: Instant? = nil) -> PickupOption {
    let pickup = pickupAt ?? times.pickupAt
    var match = match
    match.status = catalog.status(of: match.store, at: .instant(pickup))
    return PickupOption(
      store: match, readyAt: times.readyAt, arrivalAt: times.arrivalAt, pickupAt: pickup,
      travelSeconds: times.travelSeconds)
  }

  func evaluate(_ match: StoreMatch) -> Verdict {
    let store = match.store
    func pass(_ reason: PassedOverStore.Reason, _ message: String, _ times: Times? = nil) -> Verdict {
      .passedOver(
        PassedOverStore(storeID: store.id, reason: reason, distance: match.distance, message: message), times)
    }
    let failing = request.filter.conditions.filter { !$0.matches(store) }
    if !failing.isEmpty {
      return pass(.missingAttribute, failing.map { Self.explain($0, for: store) }.joined(separator: "; "))
    }
    guard let distance = match.distance else {
      return pass(.noLocation, "has no location, so the travel time is unknown")
    }
    let schedule = catalog.schedule(for: store)
    let times = times(for: match, distance: distance, schedule: schedule)
    if times.travelSeconds > request.maximumTravel {
      return pass(
        .tooFar,
        "\(distance.kilometersText) away: about \(Self.duration(times.travelSeconds)) "
          + "\(Self.phrase(request.travel)), more than the limit of \(Self.duration(request.maximumTravel))",
        times)
    }
    let pickup = times.pickupAt
    guard let schedule else {
      if request.allowsUnknownHours { return .eligible(option(match, times), hoursUnknown: true) }
      if store.openingHours == nil { return pass(.noOpeningHours, "has no opening_hours", times) }
      let reason = catalog.status(of: store, at: .instant(pickup)).unavailableReason ?? "hours unknown"
      return pass(.hoursUnknown, "hours unknown (\(reason))", times)
    }
    let zone = schedule.timeZone
    let buffer = request.closeBuffer
    if schedule.isOpen(throughout: pickup, seconds: buffer) {
      return .eligible(option(match, times), hoursUnknown: false)
    }
    let window =
      buffer > 1
      ? schedule.intervals(from: pickup, to: pickup + buffer)
      : [ScheduleInterval(start: pickup, end: pickup + 1, status: schedule.status(at: pickup))]
    let stateAtPickup = window.first?.status.state ?? schedule.status(at: pickup).state
    // Relative to the order time, so a pickup tomorrow says so.
    let pickupClock = wallTime(pickup, in: zone, after: request.orderedAt)
    if request.allowsUnknownHours, window.allSatisfy({ $0.status.state != .closed }) {
      return .eligible(option(match, times), hoursUnknown: true)
    }
    switch stateAtPickup {
    case .open:
      // Open at pickup, but something other than open comes inside the buffer.
      let change = window.first { $0.status.state != .open } ?? window[window.count - 1]
      let after = Self.duration(change.start.secondsSinceEpoch - pickup.secondsSinceEpoch)
      let when = wallTime(change.start, in: zone, after: pickup)
      if change.status.state == .unknown {
        return pass(
          .hoursUnknown, "hours unknown from \(when), \(after) after pickup at \(pickupClock)", times)
      }
      return pass(.closesTooSoon, "closes at \(when), \(after) after pickup at \(pickupClock)", times)
    case .unknown:
      let comment = schedule.status(at: pickup).comment.map { " \"\($0)\"" } ?? ""
      return pass(.hoursUnknown, "hours unknown at pickup at \(pickupClock)\(comment)", times)
    case .closed:
      if schedule.status(at: request.orderedAt).state == .open {
        let closing = schedule.nextStateChange(after: request.orderedAt) ?? pickup
        return pass(
          .closesBeforePickup,
          "open at the order time but closes at \(wallTime(closing, in: zone, after: request.orderedAt)), "
            + "before pickup at \(pickupClock)", times)
      }
      let change = schedule.nextStateChange(after: pickup, horizonDays: 8)
      let comment = schedule.status(at: pickup).comment.map { " \"\($0)\"" } ?? ""
      let next =
        change.map { change in
          let when = wallTime(change, in: zone, after: request.orderedAt)
          return schedule.status(at: change).state == .open
            ? "; opens \(when)" : "; hours unknown from \(when)"
        } ?? "; does not open within a week"
      return pass(.closedAtPickup, "closed at pickup at \(pickupClock)\(comment)\(next)", times)
    }
  }

  /// The warnings about the assigned store.
  func warnings(for assignment: PickupOption, hoursUnknown: Bool) -> [PickupNotice] {
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
    let hoursNotes = catalog.diagnostics.filter {
      // By position as well as id: stores that share an id have their own hours.
      $0.storeID == store.id && $0.position?.featureIndex == store.position.featureIndex
        && $0.code.rawValue.hasPrefix("opening-hours-")
        && $0.code.rawValue != "opening-hours-invalid"
    }
    if !hoursNotes.isEmpty {
      notes.append(
        PickupNotice(.hoursWarnings, storeID: store.id, hoursNotes.map(\.message).joined(separator: "; ")))
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
  /// the filter and have hours could serve; ties go to the earlier candidate.
  func earliestOpening(among candidates: [StoreMatch]) -> PickupOption? {
    var best: PickupOption?
    var tried = 0
    for match in candidates where tried < PickupPlan.earliestCandidateCount {
      guard request.filter.matches(match.store), let distance = match.distance,
        let schedule = catalog.schedule(for: match.store)
      else { continue }
      let times = times(for: match, distance: distance, schedule: schedule)
      guard times.travelSeconds <= request.maximumTravel else { continue }
      tried += 1
      guard
        let start = schedule.earliestOpening(
          lasting: request.closeBuffer, from: times.pickupAt, horizonDays: PickupPlan.earliestHorizonDays)
      else { continue }
      if best == nil || start < best!.pickupAt { best = option(match, times, pickupAt: start) }
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
