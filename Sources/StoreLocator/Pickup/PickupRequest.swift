import GeoIndex
import OpeningHours

/// When an order will be ready to hand over.
public enum ReadyTime: Hashable, Sendable {
  /// This many seconds after the order time.
  case after(seconds: Int64)
  /// At this time; a wall time is read in each store's own time zone. A time before the order
  /// time means the order time (with the `ready-before-order` warning).
  case at(TimeQuery)
  /// When the items are prepared (`PreparationTime`), counted from the order time, and not
  /// before `notBefore` when given (an order "for 08:15").
  case preparing([OrderItem], notBefore: TimeQuery? = nil)
}

/// Everything `Catalog.planPickup(_:)` needs to assign a store to an order.
public struct PickupRequest: Hashable, Sendable {
  /// The longest close buffer a request may ask for: a day.
  public static let maximumCloseBuffer: Int64 = 86_400
  /// The default bound on travel time: 2 hours, more than anyone travels to collect a coffee, so
  /// a chosen store on another continent is never assigned.
  public static let defaultMaximumTravel: Int64 = 2 * 3600
  /// The furthest ahead an order may be ready: 30 days.
  public static let maximumLeadTime: Int64 = 30 * 86_400

  /// Where the customer is.
  public var customer: Coordinate
  /// When the order is placed ("now"), given explicitly so answers are reproducible. The
  /// customer sets off at this time.
  public var orderedAt: Instant
  /// When the order will be ready.
  public var ready: ReadyTime
  /// The store the customer chose, by id; it is assigned when eligible, wherever it is.
  public var chosenStoreID: String?
  /// Properties a store must have (`--where drive_through=yes`).
  public var filter: StoreFilter
  /// Only stores this close are considered (the chosen store always is). Default 10 km.
  public var searchRadius: Distance
  /// How long, in seconds, a store must stay open after the pickup time; stores stop taking
  /// pickups this long before closing. Default 600 (10 minutes).
  public var closeBuffer: Int64
  /// How the customer travels to the store.
  public var travel: TravelMode
  /// The longest travel time, in seconds, a store may take to reach; any store farther away (the
  /// chosen one too) is passed over as `too-far`. Default 7200 (2 hours).
  public var maximumTravel: Int64
  /// Whether a store whose hours are unknown at the pickup time may be assigned (with the
  /// `hours-unknown` warning). Default false.
  public var allowsUnknownHours: Bool
  /// How many eligible stores besides the assigned one to list. Default 3.
  public var alternativeCount: Int
  /// The service the order is for (`drive_through`): the stores' hours for that service decide,
  /// and a store that does not offer it is passed over (`service-not-offered`). `nil`: the
  /// stores' own hours.
  public var service: String?
  /// How much later a store's next free slot may be than the next store's pickup time for the
  /// store to keep the order (its slot at the pickup time being full). Default 900 (15 minutes).
  public var maximumDelay: Int64 = PickupRequest.defaultMaximumDelay
  /// Whether the assigned store's slot is to be held (`"reserve": true`): the plan then names
  /// a slot even at a store without capacity.
  public var reserve = false

  /// The default `maximumDelay`: one slot of the default length.
  public static let defaultMaximumDelay: Int64 = 900
  /// The longest `maximumDelay`: 2 hours.
  public static let maximumMaximumDelay: Int64 = 7200

  public init(
    customer: Coordinate, orderedAt: Instant, ready: ReadyTime, chosenStoreID: String? = nil,
    filter: StoreFilter = .all, searchRadius: Distance = .kilometers(10), closeBuffer: Int64 = 600,
    travel: TravelMode = .walk, maximumTravel: Int64 = PickupRequest.defaultMaximumTravel,
    allowsUnknownHours: Bool = false, alternativeCount: Int = 3
  ) {
    self.customer = customer
    self.orderedAt = orderedAt
    self.ready = ready
    self.chosenStoreID = chosenStoreID
    self.filter = filter
    self.searchRadius = searchRadius
    self.closeBuffer = closeBuffer
    self.travel = travel
    self.maximumTravel = maximumTravel
    self.allowsUnknownHours = allowsUnknownHours
    self.alternativeCount = alternativeCount
  }
}

extension PickupRequest {
  /// Refuses a request whose order would be ready more than `maximumLeadTime` after the order
  /// time, however the ready time is given: a delay, a time, or items whose quantities add up to
  /// years of preparation. One bound, so no way of giving a time can reach a pickup years away.
  ///
  /// A wall time is checked as if in UTC; the few hours a time zone moves it do not matter here.
  /// - Throws: `PickupError.invalidRequest` naming how far away the ready time is.
  public func checkLeadTime() throws(PickupError) {
    func check(_ seconds: Int64, _ what: String, _ after: String = "") throws(PickupError) {
      guard seconds > PickupRequest.maximumLeadTime else { return }
      throw PickupError(
        .invalidRequest,
        "the order must be ready within 30 days of the order time; \(what) \(PickupRequest.describe(seconds))"
          + after)
    }
    // However far ahead, the pickup must stay in the years a time can be given in, so every time
    // of the answer can be read back.
    let latest = orderedAt.secondsSinceEpoch + PickupRequest.maximumLeadTime + max(0, maximumTravel)
    guard latest < TimeQuery.supportedInstants.upperBound.secondsSinceEpoch else {
      throw PickupError(
        .invalidRequest,
        "the order time is too close to the end of \(TimeQuery.supportedYears.upperBound), the last year times "
          + "are accepted in: a pickup could fall after it")
    }
    switch ready {
    case .after(let seconds): try check(seconds, "it would be ready in")
    case .at(let time):
      try check(
        time.instant(in: .utc).secondsSinceEpoch - orderedAt.secondsSinceEpoch, "the ready time is", " ahead")
    case .preparing(let items, let notBefore):
      try check(PreparationTime.seconds(for: items), "the items take", " to prepare")
      if let notBefore {
        try check(
          notBefore.instant(in: .utc).secondsSinceEpoch - orderedAt.secondsSinceEpoch,
          "the pickup time asked for is", " ahead")
      }
    }
  }

  /// `45 days`, `1902 years`: a long span in the unit a person would use.
  static func describe(_ seconds: Int64) -> String {
    let days = seconds / 86_400
    return days < 3 * 365 ? "\(days) days" : "\(days / 365) years"
  }
}

/// Why a pickup could not be planned at all. A plan with no eligible store is not an error.
public struct PickupError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable {
    /// The chosen store id is not in the catalog (the CLI exits 66).
    case unknownStore
    /// The chosen store id names several stores: the data repeats it (the CLI exits 64).
    case ambiguousStore
    /// A request value is out of range, such as a negative close buffer (the CLI exits 64).
    case invalidRequest
  }

  public let kind: Kind
  public let message: String
  /// For `.unknownStore`: ids that resemble the one asked for, most similar first.
  public let suggestions: [String]
  /// For `.ambiguousStore`: every store with the id, in input order.
  public let candidates: [Store]

  public init(_ kind: Kind, _ message: String, suggestions: [String] = [], candidates: [Store] = []) {
    self.kind = kind
    self.message = message
    self.suggestions = suggestions
    self.candidates = candidates
  }

  public var description: String { message }
}
