import OpeningHours
import SQLiteNIO
import StoreLocator

/// The slots' reservations in the SQL storages: the columns SQLite and PostgreSQL share, and how a
/// row reads back.
///
/// `stores_reservations` has one row per hold (`service` is `''` for the store's own capacity, so
/// the slot's key has no NULL); `stores_slots` one row per slot ever held, whose `taken` is the
/// number of its reservations whose stored status is `held` or `confirmed`. Every statement that
/// moves a reservation out of those two statuses takes one from `taken` in the same transaction
/// (or statement), so the counter and the rows agree.
///
/// A hold past its expiry keeps its stored status `held` until something writes it `expired`
/// (with `changed_at` = `expires_at`): a hold in a slot found full, a confirmation or release of
/// it, or a sweep. Reads never wait for that: a row is read as it is at the caller's clock
/// (`reservation(... at:)`), so a hold past its expiry reads as expired, changed at its expiry,
/// whether or not it was written so yet.
package enum StoredReservation {
  /// The reservation columns in the order `reservation(_:at:location:)` reads them.
  package static let columns =
    "id, store_id, service, slot_start, slot_end, status, expires_at, created_at, changed_at"

  /// The `service` column of `service`: `''` for the store's own capacity.
  package static func column(_ service: String?) -> String { service ?? "" }

  /// One reservation row, as it is at `now` (`nil`: as stored).
  /// - Throws: `StateStorageError` (`.unreadable`) when the status is not one this build knows.
  package static func reservation(
    id: String, storeID: String, service: String, slotStart: Int64, slotEnd: Int64, status: String,
    expiresAt: Int64, createdAt: Int64, changedAt: Int64, at now: Instant?, location: String
  ) throws(StateStorageError) -> Reservation {
    guard let stored = Reservation.Status(rawValue: status) else {
      throw StateStorageError(
        .unreadable,
        "the reservation \(id) in \(location) has the status '\(status)', which this build does not know")
    }
    var reservation = Reservation(
      id: id,
      slot: SlotKey(
        storeID: storeID, service: service.isEmpty ? nil : service,
        start: Instant(secondsSinceEpoch: slotStart)),
      slotEnd: Instant(secondsSinceEpoch: slotEnd), status: stored,
      expiresAt: Instant(secondsSinceEpoch: expiresAt),
      createdAt: Instant(secondsSinceEpoch: createdAt), changedAt: Instant(secondsSinceEpoch: changedAt))
    if let now { expire(&reservation, at: now) }
    return reservation
  }

  /// `reservation` as a sweep at `now` would leave it: a hold past its expiry, expired at its expiry.
  package static func expire(_ reservation: inout Reservation, at now: Instant) {
    if reservation.status(at: now) == .expired, reservation.status == .held {
      reservation.status = .expired
      reservation.changedAt = reservation.expiresAt
    }
  }

  /// What a hold whose idempotency key was given before answers: the earlier reservation, with the
  /// earlier answer when the request was the same.
  package static func repeated(
    _ earlier: Reservation, digest: String?, answer: String?, for hold: SlotHold
  ) -> SlotHoldOutcome {
    if let digest, digest == hold.requestDigest { return .replayed(earlier, answer: answer ?? "") }
    return .keyReused(earlier)
  }
}

/// The reservation tables, their indexes and constraints, as both SQL storages create them (the
/// types are SQLite's; PostgreSQL's list spells them its way).
extension SQLiteStateStorage {
  /// Migration 1 → 2: the reservations and the slots' counters.
  static let reservationsSchema: [String] = [
    """
    CREATE TABLE IF NOT EXISTS stores_reservations (
      id TEXT PRIMARY KEY NOT NULL, store_id TEXT NOT NULL, service TEXT NOT NULL DEFAULT '',
      slot_start INTEGER NOT NULL, slot_end INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('held', 'confirmed', 'released', 'expired')),
      expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL, changed_at INTEGER NOT NULL,
      idempotency_key TEXT UNIQUE, request_digest TEXT, answer TEXT)
    """,
    // A slot's reservations: a slot's count, and the holds a hold in a full slot frees.
    """
    CREATE INDEX IF NOT EXISTS stores_reservations_slot
    ON stores_reservations (store_id, service, slot_start)
    """,
    // The holds to sweep.
    """
    CREATE INDEX IF NOT EXISTS stores_reservations_held
    ON stores_reservations (expires_at) WHERE status = 'held'
    """,
    // What counts, by the end of its slot: `bookings(endingAfter:)`.
    """
    CREATE INDEX IF NOT EXISTS stores_reservations_live
    ON stores_reservations (slot_end) WHERE status IN ('held', 'confirmed')
    """,
    """
    CREATE TABLE IF NOT EXISTS stores_slots (
      store_id TEXT NOT NULL, service TEXT NOT NULL DEFAULT '', slot_start INTEGER NOT NULL,
      taken INTEGER NOT NULL DEFAULT 0 CHECK (taken >= 0),
      PRIMARY KEY (store_id, service, slot_start)) WITHOUT ROWID
    """,
  ]
}

/// The reservations in the SQLite file: every call one transaction on the one connection
/// (`BEGIN IMMEDIATE` for a write, so another process's writes wait for it), in the same order as
/// the state's changes; holds that arrive together share one.
extension SQLiteStateStorage {
  /// Holds arriving while another transaction runs wait and are written together in the next
  /// (`GroupedWrites`): one commit for the group, each hold still decided on its own, in the
  /// order they came, on the rows the holds before it wrote.
  public func hold(_ hold: SlotHold, at now: Instant) async throws(StateStorageError) -> SlotHoldOutcome {
    try await holdGroups.submit((hold, now)) { [self] (holds) async throws(StateStorageError) in
      try await transaction { () async throws(StateStorageError) -> [SlotHoldOutcome] in
        var outcomes: [SlotHoldOutcome] = []
        outcomes.reserveCapacity(holds.count)
        for (hold, now) in holds { outcomes.append(try await decide(hold, at: now)) }
        return outcomes
      }
    }
  }

  /// One hold, inside the transaction (the write lock is held since `BEGIN IMMEDIATE`, so
  /// nothing comes in between its statements).
  private func decide(_ hold: SlotHold, at now: Instant) async throws(StateStorageError) -> SlotHoldOutcome {
    // The common case, two statements: a place in the slot (its counter, when below the limit,
    // the key is new and the store's state is not newer than the plan's), then the reservation.
    if try await takePlace(hold) {
      return .held(try await insert(hold, at: now))
    }
    // No place, the key was given before, or the plan read an older state. The key first: a
    // repeated request answers its reservation even in a full slot.
    if let key = hold.idempotencyKey, let earlier = try await reservation(byKey: key, at: now) {
      return StoredReservation.repeated(earlier.0, digest: earlier.1, answer: earlier.2, for: hold)
    }
    // Not against an older state of the store than the stored one (a capacity set meanwhile
    // that the planner's copy has not read).
    let stored = try await storedVersion(of: hold.slot.storeID)
    if stored > hold.stateVersion { return .stale(version: stored) }
    // Full, as the counter says: free the holds that expired by now and try once more.
    if try await expireHolds(in: hold.slot, at: now) > 0, try await takePlace(hold) {
      return .held(try await insert(hold, at: now))
    }
    return .full(taken: Int(try await taken(hold.slot)))
  }

  public func confirm(reservation id: String, at now: Instant) async throws(StateStorageError)
    -> ReservationUpdate
  {
    try await transaction { () async throws(StateStorageError) -> ReservationUpdate in
      guard var reservation = try await storedReservation(id) else { return .unknown }
      switch reservation.status(at: now) {
      case .confirmed:
        return .done(reservation)
      case .held:
        try await execute(
          "UPDATE stores_reservations SET status = 'confirmed', changed_at = ?2 WHERE id = ?1",
          [.text(id), .integer(Int(now.secondsSinceEpoch))])
        reservation.status = .confirmed
        reservation.changedAt = now
        return .done(reservation)
      case .expired, .released:
        try await expireHold(&reservation, at: now)
        return .refused(reservation)
      }
    }
  }

  public func release(reservation id: String, at now: Instant) async throws(StateStorageError)
    -> ReservationUpdate
  {
    try await transaction { () async throws(StateStorageError) -> ReservationUpdate in
      guard var reservation = try await storedReservation(id) else { return .unknown }
      switch reservation.status(at: now) {
      case .held, .confirmed:
        try await execute(
          "UPDATE stores_reservations SET status = 'released', changed_at = ?2 WHERE id = ?1",
          [.text(id), .integer(Int(now.secondsSinceEpoch))])
        try await freePlace(reservation.slot, count: 1)
        reservation.status = .released
        reservation.changedAt = now
      case .expired, .released:
        try await expireHold(&reservation, at: now)
      }
      return .done(reservation)
    }
  }

  public func reservation(_ id: String, at now: Instant) async throws(StateStorageError) -> Reservation? {
    try await transaction(begin: "BEGIN") { () async throws(StateStorageError) -> Reservation? in
      guard var reservation = try await storedReservation(id) else { return nil }
      StoredReservation.expire(&reservation, at: now)
      return reservation
    }
  }

  public func bookings(endingAfter now: Instant, limit: Int) async throws(StateStorageError) -> SlotBookings {
    guard limit > 0 else { return SlotBookings() }
    return try await transaction(begin: "BEGIN") { () async throws(StateStorageError) -> SlotBookings in
      // The reservations that count at `now` in the `limit` soonest slots that end after it.
      let found = try await rows(
        """
        WITH live AS (
          SELECT store_id, service, slot_start, status, expires_at FROM stores_reservations
          WHERE slot_end > ?1 AND status IN ('held', 'confirmed') AND (status = 'confirmed' OR expires_at > ?1)),
        kept AS (
          SELECT DISTINCT store_id, service, slot_start FROM live
          ORDER BY slot_start, store_id, service LIMIT ?2)
        SELECT live.store_id, live.service, live.slot_start, live.status, live.expires_at
        FROM live JOIN kept USING (store_id, service, slot_start)
        """, [.integer(Int(now.secondsSinceEpoch)), .integer(limit)])
      var bookings = SlotBookings()
      for row in found {
        let service = try text(row, "service")
        bookings.add(
          SlotKey(
            storeID: try text(row, "store_id"), service: service.isEmpty ? nil : service,
            start: Instant(secondsSinceEpoch: try integer(row, "slot_start"))),
          confirmed: try text(row, "status") == "confirmed",
          expiresAt: Instant(secondsSinceEpoch: try integer(row, "expires_at")))
      }
      return bookings
    }
  }

  public func slotCounts(storeID: String, service: String?, starting range: Range<Instant>, at now: Instant)
    async throws(StateStorageError) -> [Instant: SlotCount]
  {
    try await transaction(begin: "BEGIN") { () async throws(StateStorageError) -> [Instant: SlotCount] in
      let found = try await rows(
        """
        SELECT slot_start, status, expires_at FROM stores_reservations
        WHERE store_id = ?1 AND service = ?2 AND slot_start >= ?3 AND slot_start < ?4
        AND status IN ('held', 'confirmed') AND (status = 'confirmed' OR expires_at > ?5)
        ORDER BY slot_start, expires_at
        """,
        [
          .text(storeID), .text(StoredReservation.column(service)),
          .integer(Int(range.lowerBound.secondsSinceEpoch)),
          .integer(Int(range.upperBound.secondsSinceEpoch)),
          .integer(Int(now.secondsSinceEpoch)),
        ])
      var counts: [Instant: SlotCount] = [:]
      for row in found {
        let start = Instant(secondsSinceEpoch: try integer(row, "slot_start"))
        if try text(row, "status") == "confirmed" {
          counts[start, default: SlotCount()].confirmed += 1
        } else {
          counts[start, default: SlotCount()].holdExpiries.append(
            Instant(secondsSinceEpoch: try integer(row, "expires_at")))
        }
      }
      return counts
    }
  }

  public func sweepExpiredHolds(at now: Instant) async throws(StateStorageError) -> Int {
    try await transaction { () async throws(StateStorageError) -> Int in
      let binds: [SQLiteData] = [.integer(Int(now.secondsSinceEpoch))]
      // The counters first, by the holds about to be marked, then the holds.
      try await execute(
        """
        UPDATE stores_slots SET taken = taken - expired.holds
        FROM (
          SELECT store_id, service, slot_start, count(*) AS holds FROM stores_reservations
          WHERE status = 'held' AND expires_at <= ?1 GROUP BY store_id, service, slot_start) AS expired
        WHERE stores_slots.store_id = expired.store_id AND stores_slots.service = expired.service
        AND stores_slots.slot_start = expired.slot_start
        """, binds)
      try await execute(
        """
        UPDATE stores_reservations SET status = 'expired', changed_at = expires_at
        WHERE status = 'held' AND expires_at <= ?1
        """, binds)
      return Int(try await integer("SELECT changes()"))
    }
  }

  // MARK: - Statements (inside a transaction)

  /// Counts one more reservation in `hold.slot` when it holds fewer than its limit, no
  /// reservation has the hold's idempotency key and the store's stored state is not newer than
  /// the plan's; whether it did. One statement: the slot's row is made with the place (the first
  /// hold in a slot), or its counter goes up under its condition.
  private func takePlace(_ hold: SlotHold) async throws(StateStorageError) -> Bool {
    let limit: SQLiteData = hold.limit.map { .integer($0) } ?? .null
    let key: SQLiteData = hold.idempotencyKey.map { .text($0) } ?? .null
    let taken = try await rows(
      """
      INSERT INTO stores_slots (store_id, service, slot_start, taken)
      SELECT ?1, ?2, ?3, 1
      WHERE (?4 IS NULL OR ?4 > 0) AND NOT EXISTS (SELECT 1 FROM stores_reservations WHERE idempotency_key = ?5)
      AND coalesce((SELECT max(version) FROM stores_state_stores WHERE store_id = ?1), 0) <= ?6
      ON CONFLICT (store_id, service, slot_start) DO UPDATE SET taken = taken + 1
      WHERE (?4 IS NULL OR taken < ?4) AND NOT EXISTS (SELECT 1 FROM stores_reservations WHERE idempotency_key = ?5)
      AND coalesce((SELECT max(version) FROM stores_state_stores WHERE store_id = ?1), 0) <= ?6
      RETURNING taken
      """, slotBinds(hold.slot) + [limit, key, .integer(Int(hold.stateVersion))])
    return !taken.isEmpty
  }

  /// The version of `storeID`'s stored state (0 when it has none).
  private func storedVersion(of storeID: String) async throws(StateStorageError) -> Int64 {
    let found = try await rows(
      "SELECT coalesce(max(version), 0) AS version FROM stores_state_stores WHERE store_id = ?",
      [.text(storeID)])
    return Int64(found.first?.column("version")?.integer ?? 0)
  }

  /// Writes the held reservation whose place `takePlace` took.
  private func insert(_ hold: SlotHold, at now: Instant) async throws(StateStorageError) -> Reservation {
    let reservation = Reservation(
      id: hold.reservationID, slot: hold.slot, slotEnd: hold.slotEnd, status: .held,
      expiresAt: hold.expiresAt,
      createdAt: now, changedAt: now)
    // The digest and the answer only matter for a key: none kept without one.
    let keyed = hold.idempotencyKey != nil
    try await execute(
      """
      INSERT INTO stores_reservations (
        id, store_id, service, slot_start, slot_end, status, expires_at, created_at, changed_at,
        idempotency_key, request_digest, answer)
      VALUES (?, ?, ?, ?, ?, 'held', ?, ?, ?, ?, ?, ?)
      """,
      [.text(hold.reservationID)] + slotBinds(hold.slot) + [
        .integer(Int(hold.slotEnd.secondsSinceEpoch)), .integer(Int(hold.expiresAt.secondsSinceEpoch)),
        .integer(Int(now.secondsSinceEpoch)), .integer(Int(now.secondsSinceEpoch)),
        hold.idempotencyKey.map { .text($0) } ?? .null, keyed ? .text(hold.requestDigest) : .null,
        keyed ? .text(hold.answer) : .null,
      ])
    return reservation
  }

  /// Marks the holds of `slot` that expired by `now` and takes them from its counter; how many.
  private func expireHolds(in slot: SlotKey, at now: Instant) async throws(StateStorageError) -> Int {
    let expired = try await rows(
      """
      UPDATE stores_reservations SET status = 'expired', changed_at = expires_at
      WHERE store_id = ?1 AND service = ?2 AND slot_start = ?3 AND status = 'held' AND expires_at <= ?4
      RETURNING id
      """, slotBinds(slot) + [.integer(Int(now.secondsSinceEpoch))])
    if !expired.isEmpty { try await freePlace(slot, count: expired.count) }
    return expired.count
  }

  /// When `reservation` (as stored) is a hold past its expiry at `now`: marks it expired and
  /// frees its place. `reservation` becomes what is stored.
  private func expireHold(_ reservation: inout Reservation, at now: Instant) async throws(StateStorageError) {
    guard reservation.status == .held, reservation.status(at: now) == .expired else { return }
    try await execute(
      "UPDATE stores_reservations SET status = 'expired', changed_at = expires_at WHERE id = ?1",
      [.text(reservation.id)])
    try await freePlace(reservation.slot, count: 1)
    StoredReservation.expire(&reservation, at: now)
  }

  private func freePlace(_ slot: SlotKey, count: Int) async throws(StateStorageError) {
    try await execute(
      "UPDATE stores_slots SET taken = taken - ?4 WHERE store_id = ?1 AND service = ?2 AND slot_start = ?3",
      slotBinds(slot) + [.integer(count)])
  }

  /// What `slot`'s counter says (0 for a slot never held).
  private func taken(_ slot: SlotKey) async throws(StateStorageError) -> Int64 {
    let found = try await rows(
      "SELECT taken FROM stores_slots WHERE store_id = ?1 AND service = ?2 AND slot_start = ?3",
      slotBinds(slot))
    guard let row = found.first else { return 0 }
    return try integer(row, "taken")
  }

  /// The reservation `id` as stored.
  private func storedReservation(_ id: String) async throws(StateStorageError) -> Reservation? {
    let found = try await rows(
      "SELECT \(StoredReservation.columns) FROM stores_reservations WHERE id = ?1", [.text(id)])
    guard let row = found.first else { return nil }
    return try reservation(row, at: nil)
  }

  /// The reservation made with idempotency key `key`, as it is at `now`, with its request's digest
  /// and its answer.
  private func reservation(byKey key: String, at now: Instant) async throws(StateStorageError)
    -> (Reservation, String?, String?)?
  {
    let found = try await rows(
      """
      SELECT \(StoredReservation.columns), request_digest, answer FROM stores_reservations
      WHERE idempotency_key = ?1
      """, [.text(key)])
    guard let row = found.first else { return nil }
    return (try reservation(row, at: now), row.column("request_digest")?.string, row.column("answer")?.string)
  }

  private func reservation(_ row: SQLiteRow, at now: Instant?) throws(StateStorageError) -> Reservation {
    try StoredReservation.reservation(
      id: try text(row, "id"), storeID: try text(row, "store_id"), service: try text(row, "service"),
      slotStart: try integer(row, "slot_start"), slotEnd: try integer(row, "slot_end"),
      status: try text(row, "status"), expiresAt: try integer(row, "expires_at"),
      createdAt: try integer(row, "created_at"), changedAt: try integer(row, "changed_at"), at: now,
      location: location)
  }

  /// `?1, ?2, ?3`: the slot's store, service and start.
  private func slotBinds(_ slot: SlotKey) -> [SQLiteData] {
    [
      .text(slot.storeID), .text(StoredReservation.column(slot.service)),
      .integer(Int(slot.start.secondsSinceEpoch)),
    ]
  }
}
