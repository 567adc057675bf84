import OpeningHours

/// One pickup slot of one store: the orders counted together against a limit.
public struct SlotKey: Hashable, Sendable, CustomStringConvertible {
  public let storeID: String
  /// The service whose capacity the slot counts against (`drive_through`), or `nil` for the
  /// store's own capacity, which orders for a service without a capacity of its own share.
  public let service: String?
  public let start: Instant

  public init(storeID: String, service: String?, start: Instant) {
    self.storeID = storeID
    self.service = service
    self.start = start
  }

  /// `nw-0001 drive_through 2026-12-02T08:00:00Z`.
  public var description: String {
    "\(storeID)\(service.map { " \($0)" } ?? "") \(start.description)"
  }
}

/// The orders a slot holds: confirmed ones, and holds that count until they expire.
public struct SlotCount: Hashable, Sendable {
  public var confirmed: Int
  /// When each unconfirmed hold expires.
  public var holdExpiries: [Instant]

  public init(confirmed: Int = 0, holdExpiries: [Instant] = []) {
    self.confirmed = confirmed
    self.holdExpiries = holdExpiries
  }

  /// Holds still counting at `now`: a hold frees its place at its expiry, with no request.
  public func held(at now: Instant) -> Int { holdExpiries.count { $0 > now } }

  /// Confirmed and held at `now`.
  public func taken(at now: Instant) -> Int { confirmed + held(at: now) }
}

/// What every slot already holds: the count pickup planning reads beside the catalog and the
/// state (`Catalog.planPickup(_:bookings:)`), so a plan is a function of them and the clock.
///
/// A replica keeps a copy refreshed from the state storage; a slot it has seen refused there
/// (full) is marked with `refused(_:taken:)` until the next refresh, so planning moves on.
public struct SlotBookings: Sendable, Equatable {
  public var slots: [SlotKey: SlotCount]
  /// Slots the storage refused a hold in, with the count it had then: at least that many are
  /// taken, whatever the copy says.
  public var refusals: [SlotKey: Int]

  public init(slots: [SlotKey: SlotCount] = [:], refusals: [SlotKey: Int] = [:]) {
    self.slots = slots
    self.refusals = refusals
  }

  /// No slot holds anything.
  public static let empty = SlotBookings()

  /// The orders `key` holds at `now`.
  public func taken(_ key: SlotKey, at now: Instant) -> Int {
    max(slots[key]?.taken(at: now) ?? 0, refusals[key] ?? 0)
  }

  /// Counts a new hold (or confirmed order) in `key`.
  public mutating func add(_ key: SlotKey, confirmed: Bool, expiresAt: Instant) {
    if confirmed {
      slots[key, default: SlotCount()].confirmed += 1
    } else {
      slots[key, default: SlotCount()].holdExpiries.append(expiresAt)
    }
  }

  /// Records that the storage refused a hold in `key` holding `taken` orders.
  public mutating func refused(_ key: SlotKey, taken: Int) {
    refusals[key] = max(refusals[key] ?? 0, taken)
  }

  public var isEmpty: Bool { slots.isEmpty && refusals.isEmpty }
}
