import Logging
import OpeningHours
import PostgresNIO
import StoreLocator
import StoresState

/// The reservations in PostgreSQL: the tables of `StoredReservation` (SQLiteReservations.swift),
/// each call under the storage's deadline and failure mapping.
///
/// Every write is one statement in its own (implicit) transaction, so no row lock outlives its
/// statement: a hold is one round trip (`takePlace`: the slot's counter, made with the slot's
/// first hold, and the reservation), two when its slot is full or its key was given before
/// (`freeSlot`). In READ COMMITTED, an `UPDATE` that waits for a row another transaction locked
/// evaluates its condition again on the row that transaction committed, so a slot's conditional
/// counter never overbooks and a reservation leaves `held` or `confirmed`
/// once, whoever races; nothing is decided on rows counted in a snapshot. Statements that lock
/// several reservations lock them in `id` order, and always before the slots' rows, so they
/// cannot deadlock (a sweep, which locks several slots' rows, holds an advisory lock).
extension PostgresStateStorage {
  /// Migration 1 → 2: the reservations and the slots' counters.
  static let reservationsSchema: [String] = [
    """
    CREATE TABLE stores_reservations (
      id TEXT PRIMARY KEY, store_id TEXT NOT NULL, service TEXT NOT NULL DEFAULT '',
      slot_start BIGINT NOT NULL, slot_end BIGINT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('held', 'confirmed', 'released', 'expired')),
      expires_at BIGINT NOT NULL, created_at BIGINT NOT NULL, changed_at BIGINT NOT NULL,
      idempotency_key TEXT CONSTRAINT stores_reservations_idempotency_key UNIQUE,
      request_digest TEXT, answer TEXT)
    """,
    "CREATE INDEX stores_reservations_slot ON stores_reservations (store_id, service, slot_start)",
    "CREATE INDEX stores_reservations_held ON stores_reservations (expires_at) WHERE status = 'held'",
    """
    CREATE INDEX stores_reservations_live ON stores_reservations (slot_end)
    WHERE status IN ('held', 'confirmed')
    """,
    // Room on each page, so a counter's update stays on its page (HOT: no index entry to write).
    """
    CREATE TABLE stores_slots (
      store_id TEXT NOT NULL, service TEXT NOT NULL DEFAULT '', slot_start BIGINT NOT NULL,
      taken BIGINT NOT NULL DEFAULT 0 CHECK (taken >= 0), PRIMARY KEY (store_id, service, slot_start))
    WITH (fillfactor = 50)
    """,
  ]

  /// The key of the advisory lock a sweep holds ("storessw"): one sweep at a time, as two sweeps
  /// could lock the same slots' rows in opposite orders.
  static let sweepLockKey: Int64 = 0x7374_6f72_6573_7377

  /// How many times a call goes round when other transactions keep changing what it looks at
  /// (a full slot's freed places taken by others; a reservation changed between two statements).
  private static let attempts = 3

  public func hold(_ hold: SlotHold, at now: Instant) async throws(StateStorageError) -> SlotHoldOutcome {
    try await withDeadline("holding a place in \(hold.slot)") { [logger, location] client in
      var taken: Int64 = 0
      for _ in 0..<Self.attempts {
        do {
          // The common case: the place and the reservation in one statement.
          if try await !Self.rows(Self.takePlace(hold, at: now), on: client, logger: logger).isEmpty {
            return .held(
              Reservation(
                id: hold.reservationID, slot: hold.slot, slotEnd: hold.slotEnd, status: .held,
                expiresAt: hold.expiresAt, createdAt: now, changedAt: now))
          }
        } catch let error as PSQLError where Self.isKeyConflict(error) {
          // The key was given before, or by a request that committed while this one waited: the
          // statement failed whole, its counter's increment with it. Answer the reservation made.
          let found = try await client.query(
            Self.statement(
              "SELECT \(StoredReservation.columns), request_digest, answer FROM stores_reservations "
                + "WHERE idempotency_key = $1::TEXT", [.text(hold.idempotencyKey)]),
            logger: logger
          ).collect()
          if let row = found.first {
            let (earlier, digest, answer) = try Self.keyed(row, at: now, location: location)
            return StoredReservation.repeated(earlier, digest: digest, answer: answer, for: hold)
          }
          continue
        }
        // Full as the counter says, or the slot has no row yet: the key's reservation if it has
        // one; else free the holds that expired by now (making the slot's row if it has none),
        // and try again if that left room.
        let rows = try await Self.rows(Self.freeSlot(hold, at: now), on: client, logger: logger)
        guard let row = rows.first else {
          throw StateStorageError(
            .unavailable, "the state database \(location) answered no row freeing a slot")
        }
        let (count, earlier, digest, answer) = try Self.freedSlot(row, at: now, location: location)
        if let earlier {
          return StoredReservation.repeated(earlier, digest: digest, answer: answer, for: hold)
        }
        // Refused with room left: the plan read an older state of the store than the stored one.
        if hold.limit.map({ count < $0 }) ?? true {
          let version = try await Self.integer(
            client.query(
              Self.statement(
                "SELECT coalesce(max(version), 0) FROM stores_state_stores WHERE store_id = $1::TEXT",
                [.text(hold.slot.storeID)]),
              logger: logger))
          if version > hold.stateVersion { return .stale(version: version) }
        }
        taken = count
        if let limit = hold.limit, count >= limit { break }
      }
      return .full(taken: Int(taken))
    }
  }

  public func confirm(reservation id: String, at now: Instant) async throws(StateStorageError)
    -> ReservationUpdate
  {
    try await withDeadline("confirming reservation \(id)") { [logger, location] client in
      for _ in 0..<Self.attempts {
        let confirmed = try await client.query(
          Self.statement(
            """
            UPDATE stores_reservations SET status = 'confirmed', changed_at = $2::BIGINT
            WHERE id = $1::TEXT AND status = 'held' AND expires_at > $2::BIGINT
            RETURNING \(StoredReservation.columns)
            """, [.text(id), .integer(now.secondsSinceEpoch)]),
          logger: logger
        ).collect()
        if let row = confirmed.first { return .done(try Self.reservation(row, at: now, location: location)) }
        guard let row = try await client.query(Self.expireOne(id, at: now), logger: logger).collect().first
        else { return .unknown }
        let reservation = try Self.reservation(row, at: now, location: location)
        switch reservation.status {
        case .confirmed: return .done(reservation)
        case .expired, .released: return .refused(reservation)
        case .held: continue  // made after the first statement looked: look again
        }
      }
      throw StateStorageError(.unavailable, "the state database \(location) kept changing reservation \(id)")
    }
  }

  public func release(reservation id: String, at now: Instant) async throws(StateStorageError)
    -> ReservationUpdate
  {
    try await withDeadline("releasing reservation \(id)") { [logger, location] client in
      for _ in 0..<Self.attempts {
        // The reservation and its slot's counter in one statement.
        let released = try await client.query(
          Self.statement(
            """
            WITH released AS (
              UPDATE stores_reservations SET status = 'released', changed_at = $2::BIGINT
              WHERE id = $1::TEXT AND (status = 'confirmed' OR (status = 'held' AND expires_at > $2::BIGINT))
              RETURNING \(StoredReservation.columns)),
            freed AS (
              UPDATE stores_slots AS s SET taken = s.taken - 1 FROM released AS r
              WHERE s.store_id = r.store_id AND s.service = r.service AND s.slot_start = r.slot_start)
            SELECT \(StoredReservation.columns) FROM released
            """, [.text(id), .integer(now.secondsSinceEpoch)]),
          logger: logger
        ).collect()
        if let row = released.first { return .done(try Self.reservation(row, at: now, location: location)) }
        guard let row = try await client.query(Self.expireOne(id, at: now), logger: logger).collect().first
        else { return .unknown }
        let reservation = try Self.reservation(row, at: now, location: location)
        switch reservation.status {
        case .expired, .released: return .done(reservation)
        case .held, .confirmed: continue  // made after the first statement looked: look again
        }
      }
      throw StateStorageError(.unavailable, "the state database \(location) kept changing reservation \(id)")
    }
  }

  public func reservation(_ id: String, at now: Instant) async throws(StateStorageError) -> Reservation? {
    try await withDeadline("reading reservation \(id)") { [logger, location] client in
      let rows = try await client.query(
        Self.statement(
          "SELECT \(StoredReservation.columns) FROM stores_reservations WHERE id = $1::TEXT", [.text(id)]),
        logger: logger
      ).collect()
      return try rows.first.map { row in try Self.reservation(row, at: now, location: location) }
    }
  }

  public func bookings(endingAfter now: Instant, limit: Int) async throws(StateStorageError) -> SlotBookings {
    guard limit > 0 else { return SlotBookings() }
    return try await withDeadline("reading the slots' bookings") { [logger] client in
      // The reservations that count at `now` in the `limit` soonest slots that end after it.
      let rows = try await client.query(
        Self.statement(
          """
          WITH live AS (
            SELECT store_id, service, slot_start, status, expires_at FROM stores_reservations
            WHERE slot_end > $1::BIGINT AND status IN ('held', 'confirmed')
            AND (status = 'confirmed' OR expires_at > $1::BIGINT)),
          kept AS (
            SELECT DISTINCT store_id, service, slot_start FROM live
            ORDER BY slot_start, store_id, service LIMIT $2::BIGINT)
          SELECT live.store_id, live.service, live.slot_start, live.status, live.expires_at
          FROM live JOIN kept USING (store_id, service, slot_start)
          """, [.integer(now.secondsSinceEpoch), .integer(Int64(limit))]),
        logger: logger
      ).collect()
      var bookings = SlotBookings()
      for row in rows {
        let (storeID, service, start, status, expiresAt) = try row.decode(
          (String, String, Int64, String, Int64).self)
        bookings.add(
          SlotKey(
            storeID: storeID, service: service.isEmpty ? nil : service,
            start: Instant(secondsSinceEpoch: start)),
          confirmed: status == "confirmed", expiresAt: Instant(secondsSinceEpoch: expiresAt))
      }
      return bookings
    }
  }

  public func slotCounts(storeID: String, service: String?, starting range: Range<Instant>, at now: Instant)
    async throws(StateStorageError) -> [Instant: SlotCount]
  {
    try await withDeadline("reading the slots of store \(storeID)") { [logger] client in
      let rows = try await client.query(
        Self.statement(
          """
          SELECT slot_start, status, expires_at FROM stores_reservations
          WHERE store_id = $1::TEXT AND service = $2::TEXT AND slot_start >= $3::BIGINT AND slot_start < $4::BIGINT
          AND status IN ('held', 'confirmed') AND (status = 'confirmed' OR expires_at > $5::BIGINT)
          ORDER BY slot_start, expires_at
          """,
          [
            .text(storeID), .text(StoredReservation.column(service)),
            .integer(range.lowerBound.secondsSinceEpoch),
            .integer(range.upperBound.secondsSinceEpoch), .integer(now.secondsSinceEpoch),
          ]),
        logger: logger
      ).collect()
      var counts: [Instant: SlotCount] = [:]
      for row in rows {
        let (start, status, expiresAt) = try row.decode((Int64, String, Int64).self)
        if status == "confirmed" {
          counts[Instant(secondsSinceEpoch: start), default: SlotCount()].confirmed += 1
        } else {
          counts[Instant(secondsSinceEpoch: start), default: SlotCount()].holdExpiries.append(
            Instant(secondsSinceEpoch: expiresAt))
        }
      }
      return counts
    }
  }

  public func sweepExpiredHolds(at now: Instant) async throws(StateStorageError) -> Int {
    try await withDeadline("sweeping the expired holds") { [logger] client in
      try await client.withTransaction(logger: logger) { connection in
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.sweepLockKey))", logger: logger)
        // The holds and their slots' counters in one statement: each hold counted by the one
        // transaction that marks it.
        return Int(
          try await Self.integer(
            connection.query(
              Self.statement(
                """
                WITH expired AS (
                  UPDATE stores_reservations SET status = 'expired', changed_at = expires_at
                  WHERE id IN (
                    SELECT id FROM stores_reservations WHERE status = 'held' AND expires_at <= $1::BIGINT
                    ORDER BY id FOR UPDATE)
                  AND status = 'held'
                  RETURNING store_id, service, slot_start),
                freed AS (
                  UPDATE stores_slots AS s SET taken = s.taken - e.holds
                  FROM (
                    SELECT store_id, service, slot_start, count(*) AS holds FROM expired
                    GROUP BY store_id, service, slot_start) AS e
                  WHERE s.store_id = e.store_id AND s.service = e.service AND s.slot_start = e.slot_start)
                SELECT count(*) FROM expired
                """, [.integer(now.secondsSinceEpoch)]),
              logger: logger)))
      }
    }
  }

  // MARK: - Statements

  /// Counts one more reservation in `hold.slot` when it holds fewer than its limit, and writes the
  /// reservation: one row (the new count) when it did, none when the slot is full as its counter
  /// says (or another transaction made its row since the statement's snapshot). The reservation's
  /// `INSERT` fails on the idempotency key's unique constraint when the key was given before (the
  /// whole statement with it).
  ///
  /// A plain conditional `UPDATE` of a slot's row, and an `INSERT … DO NOTHING` of it only when the
  /// snapshot has none (a slot's first hold, one round trip too): a slot full in the snapshot is
  /// not even locked, so refusals in a full slot write nothing and wait for no commit (`INSERT …
  /// ON CONFLICT DO UPDATE … WHERE` locks the row whether or not it updates it: each refusal would
  /// wait for the WAL flush of the hold before).
  private static func takePlace(_ hold: SlotHold, at now: Instant) -> Prepared<TakePlace> {
    let keyed = hold.idempotencyKey != nil
    return Prepared(
      bindings(
        slotBinds(hold.slot) + [
          .integer(hold.limit.map(Int64.init)), .text(hold.reservationID),
          .integer(hold.slotEnd.secondsSinceEpoch),
          .integer(hold.expiresAt.secondsSinceEpoch), .integer(now.secondsSinceEpoch),
          .text(hold.idempotencyKey),
          .text(keyed ? hold.requestDigest : nil), .text(keyed ? hold.answer : nil),
          .integer(hold.stateVersion),
        ]))
  }

  /// `takePlace`'s statement.
  private enum TakePlace: PreparedSQL {
    static let name = "stores_take_place"
    static let sql = """
      WITH allowed AS (
        -- Not against an older state than the stored one (a capacity set meanwhile).
        SELECT ($4::BIGINT IS NULL OR $4::BIGINT > 0)
        AND coalesce((SELECT version FROM stores_state_stores WHERE store_id = $1::TEXT), 0) <= $12::BIGINT AS yes),
      counted AS (
        UPDATE stores_slots SET taken = taken + 1
        WHERE store_id = $1::TEXT AND service = $2::TEXT AND slot_start = $3::BIGINT
        AND ($4::BIGINT IS NULL OR taken < $4::BIGINT) AND (SELECT yes FROM allowed)
        RETURNING taken),
      first AS (
        INSERT INTO stores_slots (store_id, service, slot_start, taken)
        SELECT $1::TEXT, $2::TEXT, $3::BIGINT, 1
        WHERE (SELECT yes FROM allowed) AND NOT EXISTS (
          SELECT 1 FROM stores_slots WHERE store_id = $1::TEXT AND service = $2::TEXT AND slot_start = $3::BIGINT)
        ON CONFLICT (store_id, service, slot_start) DO NOTHING
        RETURNING taken),
      slot AS (SELECT taken FROM counted UNION ALL SELECT taken FROM first),
      made AS (
        INSERT INTO stores_reservations (
          id, store_id, service, slot_start, slot_end, status, expires_at, created_at, changed_at,
          idempotency_key, request_digest, answer)
        SELECT $5::TEXT, $1::TEXT, $2::TEXT, $3::BIGINT, $6::BIGINT, 'held', $7::BIGINT, $8::BIGINT, $8::BIGINT,
          $9::TEXT, $10::TEXT, $11::TEXT
        FROM slot)
      SELECT taken FROM slot
      """
  }

  /// For a hold `takePlace` did not take: makes the slot's row if it has none, and marks the
  /// slot's holds that expired by `now`, taking them from its counter; answers one row: the slot's
  /// count, and the reservation with the hold's idempotency key with its digest and answer (NULLs
  /// when none). With no row to make and nothing to free it writes nothing.
  private static func freeSlot(_ hold: SlotHold, at now: Instant) -> Prepared<FreeSlot> {
    Prepared(bindings(slotBinds(hold.slot) + [.integer(now.secondsSinceEpoch), .text(hold.idempotencyKey)]))
  }

  /// `freeSlot`'s statement.
  private enum FreeSlot: PreparedSQL {
    static let name = "stores_free_slot"
    static let sql = """
      WITH expired AS (
        UPDATE stores_reservations SET status = 'expired', changed_at = expires_at
        WHERE id IN (
          SELECT id FROM stores_reservations
          WHERE store_id = $1::TEXT AND service = $2::TEXT AND slot_start = $3::BIGINT AND status = 'held'
          AND expires_at <= $4::BIGINT
          ORDER BY id FOR UPDATE)
        AND status = 'held'
        RETURNING id),
      freed AS (
        UPDATE stores_slots SET taken = taken - (SELECT count(*) FROM expired)
        WHERE store_id = $1::TEXT AND service = $2::TEXT AND slot_start = $3::BIGINT
        AND EXISTS (SELECT 1 FROM expired)
        RETURNING taken),
      made AS (
        INSERT INTO stores_slots (store_id, service, slot_start, taken) VALUES ($1::TEXT, $2::TEXT, $3::BIGINT, 0)
        ON CONFLICT (store_id, service, slot_start) DO NOTHING)
      SELECT
        coalesce(
          (SELECT taken FROM freed),
          (SELECT taken FROM stores_slots WHERE store_id = $1::TEXT AND service = $2::TEXT AND slot_start = $3::BIGINT),
          0)::BIGINT AS taken,
        \(keyColumns), k.request_digest, k.answer
      FROM (SELECT 1) AS one LEFT JOIN stores_reservations AS k ON k.idempotency_key = $5::TEXT
      """

    static let keyColumns = StoredReservation.columns.split(separator: ", ").map { "k.\($0)" }.joined(
      separator: ", ")
  }

  /// Marks reservation `id` expired when it is a hold past its expiry, taking it from its slot's
  /// counter, and answers the reservation (none when no reservation has the id).
  private static func expireOne(_ id: String, at now: Instant) -> PostgresQuery {
    statement(
      """
      WITH expired AS (
        UPDATE stores_reservations SET status = 'expired', changed_at = expires_at
        WHERE id = $1::TEXT AND status = 'held' AND expires_at <= $2::BIGINT
        RETURNING \(StoredReservation.columns)),
      freed AS (
        UPDATE stores_slots AS s SET taken = s.taken - 1 FROM expired AS e
        WHERE s.store_id = e.store_id AND s.service = e.service AND s.slot_start = e.slot_start)
      SELECT \(StoredReservation.columns) FROM expired
      UNION ALL
      SELECT \(StoredReservation.columns) FROM stores_reservations
      WHERE id = $1::TEXT AND NOT EXISTS (SELECT 1 FROM expired)
      """, [.text(id), .integer(now.secondsSinceEpoch)])
  }

  /// Whether `error` is the idempotency key's unique constraint refusing a second reservation.
  private static func isKeyConflict(_ error: PSQLError) -> Bool {
    error.code == .server && error.serverInfo?[.sqlState] == "23505"
      && error.serverInfo?[.constraintName] == "stores_reservations_idempotency_key"
  }

  private enum Bind {
    case text(String?)
    case integer(Int64?)
  }

  /// `sql` with `$n` for `binds[n - 1]` (each may appear more than once; a NULL has no type of its
  /// own, so the statements cast every parameter).
  private static func statement(_ sql: String, _ binds: [Bind]) -> PostgresQuery {
    PostgresQuery(unsafeSQL: sql, binds: bindings(binds))
  }

  private static func bindings(_ binds: [Bind]) -> PostgresBindings {
    var bindings = PostgresBindings(capacity: binds.count)
    for bind in binds {
      switch bind {
      case .text(let value): bindings.append(value)
      case .integer(let value): bindings.append(value)
      }
    }
    return bindings
  }

  /// The SQL of a statement prepared on each connection the first time it runs there, then only
  /// bound and run: the hot path's statements, parsed and planned once.
  private protocol PreparedSQL: Sendable {
    /// Its name on the connection: short, as PostgreSQL tells prepared statements apart by their
    /// first 63 bytes.
    static var name: String { get }
    static var sql: String { get }
  }

  /// A `PreparedSQL` statement with its parameters, answering its rows as they are.
  private struct Prepared<Statement: PreparedSQL>: PostgresPreparedStatement {
    static var name: String { Statement.name }
    static var sql: String { Statement.sql }
    typealias Row = PostgresRow

    let bindings: PostgresBindings

    init(_ bindings: PostgresBindings) { self.bindings = bindings }

    func makeBindings() -> PostgresBindings { bindings }

    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
  }

  /// Runs a prepared statement, answering all its rows.
  private static func rows<Statement>(
    _ statement: Prepared<Statement>, on client: PostgresClient, logger: Logger
  ) async throws -> [PostgresRow] {
    var rows: [PostgresRow] = []
    for try await row in try await client.execute(statement, logger: logger) { rows.append(row) }
    return rows
  }

  /// `$1, $2, $3`: the slot's store, service and start.
  private static func slotBinds(_ slot: SlotKey) -> [Bind] {
    [
      .text(slot.storeID), .text(StoredReservation.column(slot.service)),
      .integer(slot.start.secondsSinceEpoch),
    ]
  }

  // MARK: - Rows

  /// A row of `StoredReservation.columns`, as it is at `now`.
  private static func reservation(_ row: PostgresRow, at now: Instant, location: String) throws -> Reservation
  {
    let (id, storeID, service, start, end, status, expiresAt, createdAt, changedAt) = try row.decode(
      (String, String, String, Int64, Int64, String, Int64, Int64, Int64).self)
    return try StoredReservation.reservation(
      id: id, storeID: storeID, service: service, slotStart: start, slotEnd: end, status: status,
      expiresAt: expiresAt, createdAt: createdAt, changedAt: changedAt, at: now, location: location)
  }

  /// A row of `StoredReservation.columns` then `request_digest, answer`.
  private static func keyed(_ row: PostgresRow, at now: Instant, location: String) throws
    -> (Reservation, String?, String?)
  {
    let (id, storeID, service, start, end, status, expiresAt, createdAt, changedAt, digest, answer) =
      try row.decode(
        (String, String, String, Int64, Int64, String, Int64, Int64, Int64, String?, String?).self)
    return (
      try StoredReservation.reservation(
        id: id, storeID: storeID, service: service, slotStart: start, slotEnd: end, status: status,
        expiresAt: expiresAt, createdAt: createdAt, changedAt: changedAt, at: now, location: location),
      digest, answer
    )
  }

  /// `freeSlot`'s row: the slot's count, and the key's reservation with its digest and answer.
  private static func freedSlot(_ row: PostgresRow, at now: Instant, location: String) throws
    -> (Int64, Reservation?, String?, String?)
  {
    let (taken, id, storeID, service, start, end, status, expiresAt, createdAt, changedAt, digest, answer) =
      try row.decode(
        (Int64, String?, String?, String?, Int64?, Int64?, String?, Int64?, Int64?, Int64?, String?, String?)
          .self)
    guard let id, let storeID, let service, let start, let end, let status, let expiresAt, let createdAt,
      let changedAt
    else { return (taken, nil, nil, nil) }
    return (
      taken,
      try StoredReservation.reservation(
        id: id, storeID: storeID, service: service, slotStart: start, slotEnd: end, status: status,
        expiresAt: expiresAt, createdAt: createdAt, changedAt: changedAt, at: now, location: location),
      digest, answer
    )
  }
}
