import GeoIndex
import OpeningHours

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
  public func planPickup(_ request: PickupRequest) throws(PickupError) -> PickupPlan {
    guard request.service == service else { return try serving(request.service).planPickup(request) }
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
    // The chosen store, by its row.
    var chosen: (position: Int, distance: Distance?)?
    if let id = request.chosenStoreID {
      let found = positions(ofID: id)
      guard let position = found.first else {
        let similar = ids(resembling: id, limit: 3)
        var message = "no store has the id \"\(id)\""
        if !similar.isEmpty {
          message += "; did you mean " + similar.map { "\"\($0)\"" }.joined(separator: ", ") + "?"
        }
        throw PickupError(.unknownStore, message, suggestions: similar)
      }
      // Picking one of them would plan for a store the customer may not have meant.
      guard found.count == 1 else {
        let records = found.map { stores[$0] }
        throw PickupError(
          .ambiguousStore,
          "the id \"\(id)\" names \(records.count) stores ("
            + records.map { "\($0.name ?? "no name") at \($0.position)" }.joined(separator: "; ")
            + "); a chosen store needs an id of its own", candidates: records)
      }
      chosen = (position, table.coordinate(at: position).map { request.customer.distance(to: $0) })
    }
    var evaluator = PickupEvaluator(catalog: self, request: request)
    let nearby = stores(within: request.searchRadius, of: request.customer)

    var assignment: PickupOption?
    var assignmentHoursUnknown = false
    var alternatives: [PickupOption] = []
    var passedOver: [PassedOverStore] = []
    var warnings: [PickupNotice] = []
    var chosenFailure: PassedOverStore?
    var firstTimes: PickupEvaluator.Times?

    // Stores whose slot at the pickup time is full and whose pickup moved to a later slot: each
    // keeps the order only when that slot is no later than the next store's pickup time plus
    // the request's `maximumDelay` (or when no other store can take it).
    var deferred: [(option: PickupOption, unknownHours: Bool)] = []
    let chosenPosition = chosen?.position
    func assign(_ option: PickupOption, unknownHours: Bool) {
      guard assignment == nil else {
        alternatives.append(option)
        return
      }
      if let index = deferred.firstIndex(where: {
        $0.option.pickupAt <= option.pickupAt + request.maximumDelay
      }) {
        let kept = deferred.remove(at: index)
        assignment = kept.option
        assignmentHoursUnknown = kept.unknownHours
        alternatives.append(option)
      } else {
        assignment = option
        assignmentHoursUnknown = unknownHours
      }
      for later in deferred {
        let passed = evaluator.laterThan(later.option, option)
        if later.option.store.position == chosenPosition { chosenFailure = passed }
        passedOver.append(passed)
      }
      deferred = []
    }
    func consider(_ verdict: PickupEvaluator.Verdict, at position: Int) {
      switch verdict {
      case .eligible(let option, let unknownHours):
        switch evaluator.slotted(option, at: position) {
        case .fits(let option): assign(option, unknownHours: unknownHours)
        case .moved(let option):
          if assignment == nil {
            deferred.append((option, unknownHours))
          } else {
            alternatives.append(option)
          }
        case .full(let passed):
          if position == chosenPosition { chosenFailure = passed }
          passedOver.append(passed)
        }
      case .passedOver(let passed, let times):
        if position == chosenPosition { chosenFailure = passed }
        passedOver.append(passed)
        if firstTimes == nil { firstTimes = times }
      }
    }

    if let chosen {
      consider(
        evaluator.evaluate(chosen.position, distance: chosen.distance, wantsTimes: true), at: chosen.position)
    }
    for match in nearby {
      let position = match.position!
      if let chosen, position == chosen.position { continue }
      if assignment != nil && alternatives.count >= request.alternativeCount { break }
      consider(
        evaluator.evaluate(position, distance: match.distance, wantsTimes: firstTimes == nil), at: position)
    }
    if assignment == nil, !deferred.isEmpty {
      // No store without a full slot came: the nearest store's later slot beats none.
      let kept = deferred.removeFirst()
      assignment = kept.option
      assignmentHoursUnknown = kept.unknownHours
      alternatives += deferred.map(\.option)
      deferred = []
    }
    if assignment?.store.position == chosenPosition { chosenFailure = nil }

    var earliest: PickupOption?
    if let chosen, let chosenFailure {
      let chosenID = id(at: chosen.position)
      let name = "the chosen store \(chosenID)"
      if let assignment {
        warnings.append(
          PickupNotice(
            .chosenNotEligible, storeID: chosenID,
            "\(name) cannot serve the order: \(chosenFailure.message); assigned \(assignment.store.id) "
              + "(\(assignment.store.distance?.kilometersText ?? "? km")) instead"))
      } else {
        warnings.append(
          PickupNotice(
            .chosenNotEligible, storeID: chosenID,
            "\(name) cannot serve the order: \(chosenFailure.message)"))
      }
    }
    if let assignment {
      if let notice = evaluator.movedNotice(assignment) { warnings.append(notice) }
      warnings += evaluator.warnings(for: assignment, hoursUnknown: assignmentHoursUnknown)
    } else {
      let others = nearby.lazy.filter { $0.position != chosen?.position }.map {
        (position: $0.position!, distance: $0.distance)
      }
      earliest = evaluator.earliestOpening(chosen: chosen, nearby: others)
      if let earliest {
        let earliestID = earliest.store.id
        warnings.append(
          PickupNotice(
            .opensLater, storeID: earliestID,
            "no store can serve the order now; the earliest is \(earliestID) "
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
              + "\(PickupEvaluator.duration(request.maximumTravel)) \(PickupEvaluator.phrase(request.travel)) "
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
    var plan = PickupPlan(
      orderedAt: request.orderedAt, assignment: assignment, readyAt: readyAt, warnings: warnings,
      alternatives: alternatives,
      passedOver: passedOver, earliest: earliest, travel: request.travel, closeBuffer: request.closeBuffer,
      maximumTravel: request.maximumTravel)
    plan.service = service
    plan.stateVersion = stateVersion
    return plan
  }
}
