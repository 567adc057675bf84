import OpeningHours

/// What staff change about one store during the day, applied on top of the catalog at answer time:
/// whether it takes orders, when it is temporarily closed, and days with other hours.
///
/// A value: the planner and the open-state answers take it beside the catalog and the clock
/// (`Catalog.applying(_:service:)`), so an answer is a function of (catalog, state version, request,
/// time). Where it is kept (SQLite, PostgreSQL) is the `StoresState` module's business.
public struct StoreState: Hashable, Sendable {
  /// Whether the store takes orders (mobile and online), or is paused.
  public var ordering: Ordering
  /// Ranges in which the store is closed for every service, whatever its hours say.
  public var closures: [StoreClosure]
  /// Dates whose hours replace what the weekly rule and public holidays say.
  public var specialDays: [SpecialDay]
  /// Capacities set at run time, each for a service or (`service` nil) the store; they win over
  /// the store file's.
  public var capacities: [CapacitySetting]
  /// The state version of this store's last change (0: never changed).
  public var version: Int64
  /// When the last change was made.
  public var changedAt: Instant?

  public init(
    ordering: Ordering = .open, closures: [StoreClosure] = [], specialDays: [SpecialDay] = [],
    capacities: [CapacitySetting] = [], version: Int64 = 0, changedAt: Instant? = nil
  ) {
    self.ordering = ordering
    self.closures = closures
    self.specialDays = specialDays
    self.capacities = capacities
    self.version = version
    self.changedAt = changedAt
  }

  /// A store nobody changed: taking orders, no closures, no special days.
  public static let unchanged = StoreState()

  /// Whether the state changes nothing in any answer (ordering open, nothing scheduled).
  public var isNeutral: Bool {
    ordering == .open && closures.isEmpty && specialDays.isEmpty && capacities.isEmpty
  }

  /// The capacity set for `service` (`nil`: the store's own).
  public func capacity(for service: String?) -> PickupCapacity? {
    capacities.first { $0.service == service }?.capacity
  }

  /// Whether the store takes orders, or has paused them (Square's "pause online ordering").
  public enum Ordering: Hashable, Sendable {
    case open
    /// Paused until `until` (by itself, no request needed), or until resumed when `nil`.
    case paused(until: Instant?, reason: String?)

    /// Whether ordering is paused at `instant`: a pause ends by itself at its `until`.
    public func isPaused(at instant: Instant) -> Bool {
      guard case .paused(let until, _) = self else { return false }
      return until.map { instant < $0 } ?? true
    }
  }

  /// The ordering as it is at `instant`: a pause whose time has passed is open.
  public func ordering(at instant: Instant) -> Ordering {
    ordering.isPaused(at: instant) ? ordering : .open
  }
}

/// When a closure starts or ends: a date (the start of that day in the store's zone), a wall time
/// in the store's zone, or an instant.
public enum StateMoment: Hashable, Sendable, CustomStringConvertible {
  case date(LocalDate)
  case time(TimeQuery)

  /// Reads `2027-01-05`, `2027-01-05T14:00` (store's wall time) or `2027-01-05T14:00:00Z`.
  /// - Throws: `TimeParseError` naming what was expected where.
  public init(parsing text: String) throws(TimeParseError) {
    if text.utf8.count == 10, let date = Self.date(text) {
      self = .date(date)
    } else {
      self = .time(try TimeQuery(parsing: text))
    }
  }

  /// `YYYY-MM-DD`, or `nil`.
  static func date(_ text: String) -> LocalDate? {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
      let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
      TimeQuery.supportedYears.contains(year)
    else { return nil }
    return LocalDate(year: year, month: month, day: day)
  }

  /// The wall clock in `zone` this moment names.
  public func local(in zone: TimeZoneRules) -> LocalDateTime {
    switch self {
    case .date(let date): LocalDateTime(date: date, secondsIntoDay: 0)
    case .time(.wallTime(let local)): local
    case .time(.instant(let instant)): zone.localDateTime(at: instant)
    }
  }

  /// The instant this moment names in `zone`.
  public func instant(in zone: TimeZoneRules) -> Instant {
    switch self {
    case .date(let date): TimeQuery.wallTime(LocalDateTime(date: date, secondsIntoDay: 0)).instant(in: zone)
    case .time(let time): time.instant(in: zone)
    }
  }

  /// As it was given: `2027-01-05`, `2027-01-05T14:00:00`, or an instant in UTC.
  public var description: String {
    switch self {
    case .date(let date): date.description
    case .time(.wallTime(let local)): local.description
    case .time(.instant(let instant)): instant.description
    }
  }
}

/// A temporary closure: closed for every service from `from` until `until` (the reopening moment,
/// not included), with the reason customers are told.
public struct StoreClosure: Hashable, Sendable {
  public var from: StateMoment
  /// When the closure ends: a date means the store may open again from the start of that day.
  public var until: StateMoment
  public var reason: String?

  public init(from: StateMoment, until: StateMoment, reason: String? = nil) {
    self.from = from
    self.until = until
    self.reason = reason
  }

  /// The instants the closure covers in `zone`.
  public func range(in zone: TimeZoneRules) -> Range<Instant> {
    let start = from.instant(in: zone)
    return start..<max(start, until.instant(in: zone))
  }
}

/// A date whose hours replace the weekly rule's and a public holiday's (Google's special hours,
/// Olo's overrides): `07:00-14:00` on 24 December, `off` for a staff event.
public struct SpecialDay: Hashable, Sendable {
  public var date: LocalDate
  /// An opening-hours time selection: `07:00-14:00`, `07:00-11:00,12:00-15:00`, `off`, `open`.
  public var hours: String
  public var reason: String?
  /// The service whose hours the day replaces (`drive_through`); `nil` for the store's own hours
  /// and every service's.
  public var service: String?

  public init(date: LocalDate, hours: String, reason: String? = nil, service: String? = nil) {
    self.date = date
    self.hours = hours
    self.reason = reason
    self.service = service
  }
}

/// A capacity set in a store's state: `{"capacity": {"orders_per_slot": 20, "slot_minutes": 15,
/// "service": "drive_through"}}`.
public struct CapacitySetting: Hashable, Sendable {
  /// The service whose orders it limits, or `nil` for the store's (and every service without one
  /// of its own).
  public var service: String?
  public var capacity: PickupCapacity

  public init(service: String?, capacity: PickupCapacity) {
    self.service = service
    self.capacity = capacity
  }
}

/// The state of every store that has one, at one version: what a replica answers from.
public struct StoreStates: Sendable, Equatable {
  /// Grows by one with every change to any store; answers name the version they used.
  public var version: Int64
  /// By store id; stores not here are `StoreState.unchanged`.
  public var stores: [String: StoreState]

  public init(version: Int64 = 0, stores: [String: StoreState] = [:]) {
    self.version = version
    self.stores = stores
  }

  /// No store changed.
  public static let empty = StoreStates()

  /// The state of the store with `id`.
  public subscript(id: String) -> StoreState { stores[id] ?? .unchanged }
}
