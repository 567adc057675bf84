import GeoIndex
import OpeningHours

/// A store that can serve the order, and when.
public struct PickupOption: Hashable, Sendable {
  /// The store, its distance from the customer, and its status at `pickupAt` (which carries the
  /// store's time zone).
  public let store: StoreMatch
  /// When the order is ready at this store.
  public let readyAt: Instant
  /// When the customer arrives, leaving at the order time.
  public let arrivalAt: Instant
  /// The later of `readyAt` and `arrivalAt`.
  public let pickupAt: Instant
  /// Travel time to the store in seconds.
  public let travelSeconds: Int64
  /// The slot the pickup falls in, when the store has a capacity (or a reservation was asked for).
  public internal(set) var slot: PickupSlot?
  /// The full slot the pickup was moved out of, to `slot`.
  public internal(set) var movedFrom: PickupSlot?

  public init(
    store: StoreMatch, readyAt: Instant, arrivalAt: Instant, pickupAt: Instant, travelSeconds: Int64
  ) {
    self.store = store
    self.readyAt = readyAt
    self.arrivalAt = arrivalAt
    self.pickupAt = pickupAt
    self.travelSeconds = travelSeconds
  }

  /// The store's time zone, or `nil` when it has none.
  public var timeZone: TimeZoneRules? { store.status?.timeZone }

  /// `instant` as ISO 8601 with the store's offset then (UTC when it has no time zone).
  public func localTime(_ instant: Instant) -> String {
    iso8601(instant, in: timeZone ?? TimeZoneRules.utc)
  }
}

/// A warning about the plan, with a stable code (docs/pickup.md lists them).
public struct PickupNotice: Hashable, Sendable, CustomStringConvertible {
  public enum Code: String, Hashable, Sendable, CaseIterable {
    /// The chosen store cannot serve the order; another store is assigned (or none).
    case chosenNotEligible = "chosen-not-eligible"
    /// The store closes within `PickupPlan.closingSoonSeconds` after the pickup time.
    case closesSoon = "closes-soon"
    /// The travel time exceeds `TravelMode.farTravelSeconds`.
    case farFromCustomer = "far-from-customer"
    /// The chosen store is beyond the search radius (it is evaluated anyway).
    case outsideSearchRadius = "outside-search-radius"
    /// The store's time zone was not in the data but inferred from its location.
    case timezoneInferred = "timezone-inferred"
    /// The store's opening hours parsed with warnings (tolerated syntax, unknown holidays).
    case hoursWarnings = "hours-warnings"
    /// Unknown hours were allowed and the assigned store's hours are unknown at the pickup time.
    case hoursUnknown = "hours-unknown"
    /// The ready time was before the order time; the order time is used.
    case readyBeforeOrder = "ready-before-order"
    /// Nothing is eligible now; `earliest` says when and where the order could be served.
    case opensLater = "opens-later"
    /// Nothing is eligible and no store could serve within the look-ahead either.
    case noOpeningFound = "no-opening-found"
    /// No store at all within the search radius, or every store considered is beyond the
    /// travel bound.
    case noStoresNearby = "no-stores-nearby"
    /// The slot at the pickup time is full; the pickup moved to a later slot at the store.
    case slotFull = "slot-full"
  }

  public let code: Code
  /// The store it is about, when it is about one.
  public let storeID: String?
  /// One sentence for people.
  public let message: String

  public init(_ code: Code, storeID: String? = nil, _ message: String) {
    self.code = code
    self.storeID = storeID
    self.message = message
  }

  public var description: String { "\(code.rawValue): \(message)" }
}

/// A store that was considered and not assigned, with why.
public struct PassedOverStore: Hashable, Sendable, CustomStringConvertible {
  public enum Reason: String, Hashable, Sendable, CaseIterable {
    /// Closed at the pickup time (and not open at the order time either).
    case closedAtPickup = "closed-at-pickup"
    /// Open at the order time but closed by the pickup time (travel or preparation takes too long).
    case closesBeforePickup = "closes-before-pickup"
    /// Open at the pickup time but closes less than the close buffer after it.
    case closesTooSoon = "closes-too-soon"
    /// The hours are unknown at the pickup time (hours that do not parse, no time zone, a
    /// holiday rule without a calendar, an explicit `unknown` rule), and unknown is not allowed.
    case hoursUnknown = "hours-unknown"
    /// The store has no `opening_hours` at all, and unknown hours are not allowed.
    case noOpeningHours = "no-opening-hours"
    /// The store has no location, so its distance and travel time are unknown.
    case noLocation = "no-location"
    /// The store fails a required attribute (`--where`).
    case missingAttribute = "missing-attribute"
    /// Reaching the store takes longer than the request's `maximumTravel`.
    case tooFar = "too-far"
    /// The store has paused ordering (its state): it takes no orders until it resumes.
    case orderingPaused = "ordering-paused"
    /// A temporary closure (the store's state) covers the pickup time.
    case temporarilyClosed = "temporarily-closed"
    /// The store does not offer the service the request names (`drive_through=no`).
    case serviceNotOffered = "service-not-offered"
    /// The slot at the pickup time holds its limit of orders, and no later slot came soon enough.
    case slotFull = "slot-full"
  }

  public let storeID: String
  public let reason: Reason
  /// Great-circle distance from the customer; `nil` without a location.
  public let distance: Distance?
  /// One sentence for people: `closes at 21:00, 5 minutes after pickup`.
  public let message: String

  public init(storeID: String, reason: Reason, distance: Distance?, message: String) {
    self.storeID = storeID
    self.reason = reason
    self.distance = distance
    self.message = message
  }

  public var description: String { "\(storeID): \(reason.rawValue): \(message)" }
}

/// The answer of `Catalog.planPickup(_:)`: the assigned store or none, when, why not the others.
public struct PickupPlan: Hashable, Sendable {
  public enum Status: String, Hashable, Sendable {
    case assigned
    case none
  }

  /// Eligible stores that close less than this (30 minutes) after the pickup time earn the
  /// `closes-soon` warning.
  public static let closingSoonSeconds: Int64 = 30 * 60
  /// How far ahead `earliest` looks (14 days).
  public static let earliestHorizonDays = 14
  /// How many of the nearest stores `earliest` tries when nothing is eligible.
  public static let earliestCandidateCount = 5

  /// The assigned store and its times; `nil` when nothing is eligible.
  public let assignment: PickupOption?
  /// When the order is ready: at the assigned store, else at the nearest store considered (else
  /// in UTC).
  public let readyAt: Instant
  /// Warnings, about the assigned store or the plan as a whole.
  public let warnings: [PickupNotice]
  /// Up to `alternativeCount` further eligible stores, the chosen one first when it is eligible
  /// but not assigned (never happens) then nearest first.
  public let alternatives: [PickupOption]
  /// Every store considered and not assigned or listed as an alternative: the chosen one first,
  /// then nearest first.
  public let passedOver: [PassedOverStore]
  /// When nothing is eligible: the earliest time one of the nearest stores could serve.
  public let earliest: PickupOption?
  /// How the customer travels.
  public let travel: TravelMode
  /// The close buffer in seconds.
  public let closeBuffer: Int64
  /// The longest travel time allowed, in seconds.
  public let maximumTravel: Int64
  /// The service whose hours the plan went by (`drive_through`); `nil` for the stores' own.
  public internal(set) var service: String?
  /// The version of the stores' state the plan read (0: none applied).
  public internal(set) var stateVersion: Int64 = 0
  /// The slot held for the assignment, when the request asked to reserve one and the storage
  /// held it (set by the caller that holds it: the service).
  public var reservation: Reservation?
  /// When the order was placed (the request's `orderedAt`): the day times are told relative to.
  public let orderedAt: Instant

  public init(
    orderedAt: Instant, assignment: PickupOption?, readyAt: Instant, warnings: [PickupNotice],
    alternatives: [PickupOption],
    passedOver: [PassedOverStore], earliest: PickupOption?, travel: TravelMode, closeBuffer: Int64,
    maximumTravel: Int64 = PickupRequest.defaultMaximumTravel
  ) {
    self.assignment = assignment
    self.readyAt = readyAt
    self.warnings = warnings
    self.alternatives = alternatives
    self.passedOver = passedOver
    self.earliest = earliest
    self.travel = travel
    self.closeBuffer = closeBuffer
    self.maximumTravel = maximumTravel
    self.orderedAt = orderedAt
  }

  public var status: Status { assignment == nil ? .none : .assigned }
  /// The assigned store, with its distance and its status at the pickup time.
  public var store: StoreMatch? { assignment?.store }
  public var arrivalAt: Instant? { assignment?.arrivalAt }
  public var pickupAt: Instant? { assignment?.pickupAt }
}
