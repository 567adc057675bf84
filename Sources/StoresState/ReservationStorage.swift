import OpeningHours
import StoreLocator

/// A hold asked of the storage: one place in one slot, refused when the slot already holds its
/// limit. The storage decides in one statement or transaction that checks the slot's count
/// against the limit (a conditional update of the slot's counter), never by reading in Swift and
/// writing after.
public struct SlotHold: Sendable, Equatable {
  /// Made by the caller (`Reservation.newID()`), so the answer can be written before the hold.
  public let reservationID: String
  public let slot: SlotKey
  public let slotEnd: Instant
  /// The slot's limit at its start; `nil`: no limit (the hold is counted, never refused).
  public let limit: Int?
  /// When the hold frees itself unless confirmed.
  public let expiresAt: Instant
  /// The client's `Idempotency-Key`: a second hold with the same key answers the first one's
  /// reservation (`.replayed`), never a second place.
  public let idempotencyKey: String?
  /// What identifies the request the key was given with (a digest of its body), so the same key
  /// with another request is refused (`.keyReused`).
  public let requestDigest: String
  /// The answer to replay for the same key: the JSON text of the plan with its reservation.
  public let answer: String
  /// The version of the store's state the plan read (`StoreState.version`, 0 for a store never
  /// changed): when the storage holds a newer one (a capacity set meanwhile that this replica has
  /// not read yet), the hold is refused as `.stale`, so no slot is held against an old limit.
  public var stateVersion: Int64 = 0

  public init(
    reservationID: String, slot: SlotKey, slotEnd: Instant, limit: Int?, expiresAt: Instant,
    idempotencyKey: String?, requestDigest: String, answer: String
  ) {
    self.reservationID = reservationID
    self.slot = slot
    self.slotEnd = slotEnd
    self.limit = limit
    self.expiresAt = expiresAt
    self.idempotencyKey = idempotencyKey
    self.requestDigest = requestDigest
    self.answer = answer
  }
}

/// What the storage did with a `SlotHold`.
public enum SlotHoldOutcome: Sendable, Equatable {
  /// Held: the slot counts it from now on.
  case held(Reservation)
  /// Refused: the slot holds `taken` orders (confirmed, and held and not expired), its limit.
  case full(taken: Int)
  /// The key was given before with the same request: its reservation and the answer given then.
  case replayed(Reservation, answer: String)
  /// The key was given before with another request: nothing held.
  case keyReused(Reservation)
  /// Nothing held: the store's state changed after the version the plan read (`version` is the
  /// stored one); plan again with the state read anew.
  case stale(version: Int64)
}

/// What the storage did with a confirmation or a release.
public enum ReservationUpdate: Sendable, Equatable {
  /// Done (or already done: confirming a confirmed reservation, releasing a released one):
  /// the reservation as it is now.
  case done(Reservation)
  /// Refused: a confirmation of a hold that expired or was released. The reservation as it is.
  case refused(Reservation)
  /// No reservation has the id.
  case unknown
}

/// The slots and reservations part of a `StateStorage`. Every method takes the clock: a hold
/// past its `expiresAt` no longer counts, whether or not a sweep has marked it expired yet.
public protocol ReservationStorage: Sendable {
  /// Holds one place in `hold.slot` unless it is full, atomically.
  func hold(_ hold: SlotHold, at now: Instant) async throws(StateStorageError) -> SlotHoldOutcome

  /// Keeps a held reservation: `.refused` when it expired or was released.
  func confirm(reservation id: String, at now: Instant) async throws(StateStorageError) -> ReservationUpdate

  /// Frees a held or confirmed reservation's place.
  func release(reservation id: String, at now: Instant) async throws(StateStorageError) -> ReservationUpdate

  /// The reservation with `id`, as it is at `now`.
  func reservation(_ id: String, at now: Instant) async throws(StateStorageError) -> Reservation?

  /// What every slot that ends after `now` holds: confirmed reservations, and holds with their
  /// expiries. At most `limit` slots (the soonest), so a replica's copy stays bounded.
  func bookings(endingAfter now: Instant, limit: Int) async throws(StateStorageError) -> SlotBookings

  /// What each slot of one store and service starting in `range` holds, by slot start: for
  /// `GET /v1/stores/{id}/slots`.
  func slotCounts(storeID: String, service: String?, starting range: Range<Instant>, at now: Instant)
    async throws(StateStorageError) -> [Instant: SlotCount]

  /// Marks the holds that expired by `now` as expired, freeing their places in the slots'
  /// counters. Returns how many it marked. Holds stop counting at their expiry without it; it
  /// keeps the counters and the table small.
  func sweepExpiredHolds(at now: Instant) async throws(StateStorageError) -> Int
}

/// Bounds shared by the callers of a storage.
public enum StateStorageLimits {
  /// The most slots a copy of the counts keeps (the soonest): planning beyond them counts
  /// nothing, and the storage still refuses a hold in a full slot.
  public static let bookingsCopied = 100_000
}
