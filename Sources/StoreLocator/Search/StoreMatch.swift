import GeoIndex
import OpeningHours

/// A store found by a query, with its distance from the query point when there was one, and
/// whether it is open at the query's time when one was given.
///
/// A match found in a catalog holds the store's row, not a copy of the store: answers are rendered
/// from the row (`StoreRowJSON`), and `store` makes the record only when it is asked for.
public struct StoreMatch: Hashable, Sendable {
  enum Record: Sendable {
    /// A row of a catalog's table.
    case row(StoreTable, Int)
    /// A record made elsewhere.
    case store(Store)
  }

  let record: Record
  /// Great-circle distance from the query point; `nil` for box queries.
  public let distance: Distance?
  /// Open, closed or unknown at the query's time, and until when.
  public var status: StoreStatus?
  /// Whether the store takes orders at the query's time (its state); `.open` without a state.
  public var ordering: StoreState.Ordering = .open

  public init(store: Store, distance: Distance?, status: StoreStatus? = nil) {
    self.record = .store(store)
    self.distance = distance
    self.status = status
  }

  init(table: StoreTable, position: Int, distance: Distance?, status: StoreStatus? = nil) {
    self.record = .row(table, position)
    self.distance = distance
    self.status = status
  }

  /// The store, made from its row (each access makes it anew: keep it when reading it often).
  public var store: Store {
    switch record {
    case .row(let table, let position): table.store(at: position)
    case .store(let store): store
    }
  }

  /// The store's position in the catalog it was found in, or its `catalogIndex`.
  var position: Int? {
    switch record {
    case .row(_, let position): position
    case .store(let store): store.catalogIndex
    }
  }

  /// The store's id, without making the store.
  var id: String {
    switch record {
    case .row(let table, let position): table.id(at: position)
    case .store(let store): store.id
    }
  }

  public static func == (a: StoreMatch, b: StoreMatch) -> Bool {
    a.distance == b.distance && a.status == b.status && a.ordering == b.ordering && a.store == b.store
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(store)
    hasher.combine(distance)
    hasher.combine(status)
  }
}

extension Catalog {
  /// `matches` with each store's status at `time` filled in.
  ///
  /// Each distinct compiled schedule among them is evaluated once: stores that share one share
  /// its status (`GroupStatuses`, kept for this call only).
  public func withStatus(_ matches: consuming [StoreMatch], at time: TimeQuery) -> [StoreMatch] {
    var known = GroupStatuses()
    // Set in place (taken, not copied, from a caller that passes the search's result): a match
    // is large, and a copy of each, in and out of a closure, retained and released every
    // reference it holds.
    for index in matches.indices {
      let status = status(of: matches[index], at: time, known: &known)
      if let overlay, let position = matches[index].position {
        matches[index].ordering = overlay.ordering(at: position, at: status.instant)
      }
      matches[index].status = status
    }
    return matches
  }

  /// The status of a match's store at `time`, taken from `known` when a store with the same
  /// compiled schedule was answered at the same instant in this request, else from the table's
  /// `RecentStatuses` when another request answered one, and added to both otherwise.
  func status(of match: StoreMatch, at time: TimeQuery, known: inout GroupStatuses) -> StoreStatus {
    guard case .row(let matchTable, let position) = match.record, matchTable === table,
      let group = scheduleGroup(at: position)
    else { return status(of: match, at: time) }
    // An instant is the same in every zone, so the statuses already found are looked up before
    // the schedule is taken: a copy of it and of its zone retains every reference they hold.
    var schedule: Schedule?
    let instant: Instant
    switch time {
    case .instant(let given): instant = given
    case .wallTime:
      guard let found = self.schedule(at: position) else { return status(of: match, at: time) }
      schedule = found
      instant = time.instant(in: found.timeZone)
    }
    if let status = known.status(ofGroup: group, at: instant) { return status }
    if let status = table.recentStatuses.status(ofGroup: group, at: instant) {
      known.remember(status, ofGroup: group)
      return status
    }
    guard let schedule = schedule ?? self.schedule(at: position) else { return status(of: match, at: time) }
    // As `status(at:at:)` answers a store with a schedule.
    let status = StoreStatus(of: schedule, at: instant)
    known.remember(status, ofGroup: group)
    table.recentStatuses.remember(status, ofGroup: group)
    return status
  }

  /// The status of a match's store at `time`, found by its row when it has one.
  func status(of match: StoreMatch, at time: TimeQuery) -> StoreStatus {
    guard case .row(let matchTable, let position) = match.record, matchTable === table else {
      return status(of: match.store, at: time)
    }
    return status(at: position, at: time)
  }
}
