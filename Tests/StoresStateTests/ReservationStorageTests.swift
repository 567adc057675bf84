import Foundation
import OpeningHours
import SQLiteNIO
import StoreLocator
import StoresState
import StoresStatePostgres
import Testing

/// `ReservationStorage` on every storage: memory (the reference), SQLite, and PostgreSQL when
/// `STORES_TEST_POSTGRES_URL` is set, each test on data of its own. The clock is always an
/// argument: nothing here reads the time or measures it.
@Suite struct ReservationStorageTests {
  enum Kind: String, Sendable, CaseIterable, CustomTestStringConvertible {
    case memory, sqlite, postgres

    var testDescription: String { rawValue }

    /// A new backend of the kind: a second `open()` gives a second storage on the same data (for
    /// memory, the same storage).
    func backend() async throws -> Backend {
      switch self {
      case .memory:
        let storage = MemoryStateStorage()
        return Backend(name: "memory", open: { storage }, setSchemaVersion: { _ in }, remove: {})
      case .sqlite: return try Backend.sqlite()
      case .postgres: return try await Backend.postgres()
      }
    }
  }

  static let kinds: [Kind] = Backend.postgresURL == nil ? [.memory, .sqlite] : Kind.allCases

  static let noon = StateStorageBehaviours.noon
  static let slot = SlotKey(storeID: "nw-0001", service: nil, start: noon + 3600)
  /// When the holds made at `noon` expire unless said otherwise.
  static let expiry = noon + 300

  static func hold(
    _ slot: SlotKey = slot, limit: Int?, expiresAt: Instant = expiry, key: String? = nil,
    digest: String = "digest", answer: String = "answer"
  ) -> SlotHold {
    SlotHold(
      reservationID: Reservation.newID(), slot: slot, slotEnd: slot.start + 900, limit: limit,
      expiresAt: expiresAt, idempotencyKey: key, requestDigest: digest, answer: answer)
  }

  /// Runs `body` with a storage of `kind`, closing it and removing its data afterwards.
  static func with(_ kind: Kind, _ body: (Backend, any StateStorage) async throws -> Void) async throws {
    try await Backend.with(kind.backend) { backend in
      let storage = try await backend.open()
      do {
        try await body(backend, storage)
      } catch {
        await storage.close()
        throw error
      }
      await storage.close()
    }
  }

  /// `counts` with each slot's hold expiries in order (memory keeps them in no order).
  static func sorted(_ counts: [Instant: SlotCount]) -> [Instant: SlotCount] {
    counts.mapValues { SlotCount(confirmed: $0.confirmed, holdExpiries: $0.holdExpiries.sorted()) }
  }

  static func sorted(_ bookings: SlotBookings) -> [SlotKey: SlotCount] {
    bookings.slots.mapValues { SlotCount(confirmed: $0.confirmed, holdExpiries: $0.holdExpiries.sorted()) }
  }

  static func heldReservation(_ outcome: SlotHoldOutcome) -> Reservation? {
    if case .held(let reservation) = outcome { return reservation }
    return nil
  }

  /// A hold planned on an older state of its store than the stored one (a capacity set meanwhile,
  /// not yet read by the replica that planned) is refused as stale, whatever the limit it brings:
  /// else a replica behind the state would hold against no limit at all.
  @Test(arguments: kinds) func aHoldPlannedOnAnOlderStateIsRefused(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let change = StoreStateChange(
        capacity: .set(CapacitySetting(service: nil, capacity: PickupCapacity(limits: SlotLimits(orders: 1))))
      )
      let state = try await storage.apply(change, to: Self.slot.storeID, by: "test", at: Self.noon)
      var old = Self.hold(limit: nil)
      old.stateVersion = state.version - 1
      #expect(try await storage.hold(old, at: Self.noon) == .stale(version: state.version))
      // Nothing was held, and a hold on the stored state is taken.
      #expect(try await storage.bookings(endingAfter: Self.noon, limit: 10).slots.isEmpty)
      var current = Self.hold(limit: 1)
      current.stateVersion = state.version
      #expect(Self.heldReservation(try await storage.hold(current, at: Self.noon)) != nil)
      // Another store's state does not make this one's holds stale.
      var other = Self.hold(SlotKey(storeID: "nw-0002", service: nil, start: Self.slot.start), limit: 1)
      other.stateVersion = 0
      #expect(Self.heldReservation(try await storage.hold(other, at: Self.noon)) != nil)
    }
  }

  /// Holds are taken until the slot's limit, then refused with the count; another service's slot
  /// at the same time, and another store's, count apart.
  @Test(arguments: kinds) func holdUntilFull(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let noon = Self.noon
      var held: [Reservation] = []
      for _ in 0..<3 {
        let request = Self.hold(limit: 3)
        let outcome = try await storage.hold(request, at: noon)
        let expected = Reservation(
          id: request.reservationID, slot: Self.slot, slotEnd: Self.slot.start + 900, status: .held,
          expiresAt: Self.expiry, createdAt: noon, changedAt: noon)
        #expect(outcome == .held(expected))
        held.append(expected)
      }
      #expect(try await storage.hold(Self.hold(limit: 3), at: noon + 1) == .full(taken: 3))
      #expect(try await storage.hold(Self.hold(limit: 3), at: noon + 2) == .full(taken: 3))
      // A lower limit (the store's capacity changed): refused with the count, above it.
      #expect(try await storage.hold(Self.hold(limit: 2), at: noon + 2) == .full(taken: 3))
      for reservation in held {
        #expect(try await storage.reservation(reservation.id, at: noon + 10) == reservation)
      }

      let driveThrough = SlotKey(storeID: "nw-0001", service: "drive_through", start: Self.slot.start)
      let otherStore = SlotKey(storeID: "nw-0002", service: nil, start: Self.slot.start)
      for other in [driveThrough, otherStore] {
        let outcome = try await storage.hold(Self.hold(other, limit: 1), at: noon)
        #expect(Self.heldReservation(outcome)?.slot == other)
        #expect(try await storage.hold(Self.hold(other, limit: 1), at: noon) == .full(taken: 1))
      }
      let counts = try await storage.slotCounts(
        storeID: "nw-0001", service: nil, starting: Self.slot.start..<(Self.slot.start + 1), at: noon)
      #expect(
        Self.sorted(counts) == [
          Self.slot.start: SlotCount(holdExpiries: Array(repeating: Self.expiry, count: 3))
        ])
      let driveThroughCounts = try await storage.slotCounts(
        storeID: "nw-0001", service: "drive_through", starting: Self.slot.start..<(Self.slot.start + 1),
        at: noon)
      #expect(driveThroughCounts[Self.slot.start]?.taken(at: noon) == 1)
    }
  }

  /// No limit: counted, never refused. A limit of 0: always refused.
  @Test(arguments: kinds) func limitNilNeverRefused(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      for index in 0..<30 {
        let outcome = try await storage.hold(Self.hold(limit: nil), at: Self.noon + Int64(index))
        #expect(Self.heldReservation(outcome) != nil, "\(outcome)")
      }
      let counts = try await storage.slotCounts(
        storeID: Self.slot.storeID, service: nil, starting: Self.slot.start..<(Self.slot.start + 1),
        at: Self.noon)
      #expect(counts[Self.slot.start]?.taken(at: Self.noon) == 30)

      let closed = SlotKey(storeID: "nw-0003", service: nil, start: Self.slot.start)
      #expect(try await storage.hold(Self.hold(closed, limit: 0), at: Self.noon) == .full(taken: 0))
      #expect(try await storage.hold(Self.hold(closed, limit: 0), at: Self.noon) == .full(taken: 0))
      #expect(
        Self.heldReservation(try await storage.hold(Self.hold(closed, limit: nil), at: Self.noon)) != nil)
      #expect(try await storage.hold(Self.hold(closed, limit: 0), at: Self.noon) == .full(taken: 1))
    }
  }

  /// 200 holds at once on a slot for 20: exactly 20 held, 180 refused saying 20, and the slot
  /// says 20.
  @Test(arguments: kinds) func concurrentHoldsNeverOverbook(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let outcomes = try await withThrowingTaskGroup(of: SlotHoldOutcome.self) { group in
        for index in 0..<200 {
          group.addTask { try await storage.hold(Self.hold(limit: 20), at: Self.noon + Int64(index % 7)) }
        }
        return try await group.reduce(into: [SlotHoldOutcome]()) { $0.append($1) }
      }
      let held = outcomes.compactMap(Self.heldReservation)
      #expect(held.count == 20)
      #expect(Set(held.map(\.id)).count == 20)
      #expect(outcomes.filter { $0 == .full(taken: 20) }.count == 180)
      let bookings = try await storage.bookings(endingAfter: Self.noon, limit: 10)
      #expect(bookings.slots[Self.slot]?.taken(at: Self.noon + 10) == 20)
      let counts = try await storage.slotCounts(
        storeID: Self.slot.storeID, service: nil, starting: Self.slot.start..<(Self.slot.start + 1),
        at: Self.noon + 10)
      #expect(counts[Self.slot.start]?.taken(at: Self.noon + 10) == 20)
    }
  }

  /// `storage.hold`, tried again (up to 10 times) while another connection to the same SQLite
  /// file holds the write lock past the storage's lock wait, as a client tries a 503 again: on a
  /// CI machine whose test runner's threads are starved, one connection can stall mid-transaction
  /// for longer than that wait. A refusal at `BEGIN` changed nothing, so the retry is exact.
  static func holdRetryingLocks(_ storage: any StateStorage, _ hold: SlotHold, at now: Instant) async throws
    -> SlotHoldOutcome
  {
    var attempt = 0
    while true {
      do {
        return try await storage.hold(hold, at: now)
      } catch {
        guard error.kind == .unavailable, error.message.contains("locked"), attempt < 9 else { throw error }
        attempt += 1
      }
    }
  }

  /// Two storages on the same data (two replicas, or the service and the command line), holding
  /// at once: still exactly the limit.
  @Test(arguments: kinds) func twoStoragesNeverOverbook(_ kind: Kind) async throws {
    try await Self.with(kind) { backend, one in
      let two = try await backend.open()
      let outcomes = try await withThrowingTaskGroup(of: SlotHoldOutcome.self) { group in
        for index in 0..<100 {
          let storage = index.isMultiple(of: 2) ? one : two
          group.addTask { try await Self.holdRetryingLocks(storage, Self.hold(limit: 20), at: Self.noon) }
        }
        return try await group.reduce(into: [SlotHoldOutcome]()) { $0.append($1) }
      }
      #expect(outcomes.compactMap(Self.heldReservation).count == 20)
      #expect(outcomes.filter { $0 == .full(taken: 20) }.count == 80)
      #expect(
        try await one.bookings(endingAfter: Self.noon, limit: 10)
          == two.bookings(endingAfter: Self.noon, limit: 10))
      await two.close()
    }
  }

  /// The same key with the same request answers the first reservation and its answer, even when
  /// the slot is full since; with another request, the reservation and no place.
  @Test(arguments: kinds) func idempotencyKey(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let first = Self.hold(limit: 1, key: "key-1", digest: "d1", answer: "{\"plan\":1}")
      let reservation = try #require(Self.heldReservation(try await storage.hold(first, at: Self.noon)))
      #expect(reservation.id == first.reservationID)

      let again = Self.hold(limit: 1, key: "key-1", digest: "d1", answer: "{\"plan\":2}")
      #expect(
        try await storage.hold(again, at: Self.noon + 5) == .replayed(reservation, answer: "{\"plan\":1}"))
      let other = Self.hold(limit: 1, key: "key-1", digest: "d2", answer: "{\"plan\":3}")
      #expect(try await storage.hold(other, at: Self.noon + 6) == .keyReused(reservation))
      // The key names its reservation wherever the new request asks.
      let elsewhere = SlotKey(storeID: "nw-0002", service: nil, start: Self.slot.start)
      #expect(
        try await storage.hold(Self.hold(elsewhere, limit: 5, key: "key-1", digest: "d1"), at: Self.noon + 7)
          == .replayed(reservation, answer: "{\"plan\":1}"))
      #expect(
        try await storage.hold(Self.hold(elsewhere, limit: 5, key: "key-1", digest: "d9"), at: Self.noon + 7)
          == .keyReused(reservation))
      // Nothing more was counted: the slot holds the one; the other slot none.
      #expect(try await storage.hold(Self.hold(limit: 1), at: Self.noon + 8) == .full(taken: 1))
      let counts = try await storage.slotCounts(
        storeID: "nw-0002", service: nil, starting: Self.slot.start..<(Self.slot.start + 1), at: Self.noon)
      #expect(counts.isEmpty)
      // A reused key on a confirmed reservation answers it as it is now.
      _ = try await storage.confirm(reservation: reservation.id, at: Self.noon + 9)
      let confirmed = try #require(try await storage.reservation(reservation.id, at: Self.noon + 10))
      #expect(confirmed.status == .confirmed)
      #expect(
        try await storage.hold(again, at: Self.noon + 10) == .replayed(confirmed, answer: "{\"plan\":1}"))
    }
  }

  /// 20 holds at once with the same key and request: one reservation, and every answer names it.
  @Test(arguments: kinds) func concurrentHoldsWithOneKey(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let outcomes = try await withThrowingTaskGroup(of: SlotHoldOutcome.self) { group in
        for _ in 0..<20 {
          group.addTask {
            try await storage.hold(Self.hold(limit: 5, key: "same", digest: "d", answer: "a"), at: Self.noon)
          }
        }
        return try await group.reduce(into: [SlotHoldOutcome]()) { $0.append($1) }
      }
      let held = outcomes.compactMap(Self.heldReservation)
      #expect(held.count == 1)
      let reservation = try #require(held.first)
      #expect(outcomes.filter { $0 == .replayed(reservation, answer: "a") }.count == 19)
      let counts = try await storage.slotCounts(
        storeID: Self.slot.storeID, service: nil, starting: Self.slot.start..<(Self.slot.start + 1),
        at: Self.noon)
      #expect(counts[Self.slot.start]?.taken(at: Self.noon) == 1)
      // The counter agrees: 4 more places, not fewer.
      for _ in 0..<4 {
        #expect(Self.heldReservation(try await storage.hold(Self.hold(limit: 5), at: Self.noon)) != nil)
      }
      #expect(try await storage.hold(Self.hold(limit: 5), at: Self.noon) == .full(taken: 5))
    }
  }

  /// A hold expiring at T counts at T - 1 and not at T: a full slot takes a new hold from T, and
  /// its count stays right after.
  @Test(arguments: kinds) func expiryByTheClock(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let t = Self.expiry
      let first = try #require(
        Self.heldReservation(try await storage.hold(Self.hold(limit: 2), at: Self.noon)))
      _ = try #require(
        Self.heldReservation(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 300), at: Self.noon)))

      #expect(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 299), at: t - 1) == .full(taken: 2))
      let range = Self.slot.start..<(Self.slot.start + 1)
      #expect(
        Self.sorted(
          try await storage.slotCounts(storeID: Self.slot.storeID, service: nil, starting: range, at: t - 1))
          == [Self.slot.start: SlotCount(holdExpiries: [t, t + 300])])
      #expect(try await storage.reservation(first.id, at: t - 1)?.status == .held)
      #expect(try await storage.reservation(first.id, at: t)?.status == .expired)
      #expect(
        Self.sorted(
          try await storage.slotCounts(storeID: Self.slot.storeID, service: nil, starting: range, at: t))
          == [Self.slot.start: SlotCount(holdExpiries: [t + 300])])
      #expect(
        Self.sorted(try await storage.bookings(endingAfter: t, limit: 10)) == [
          Self.slot: SlotCount(holdExpiries: [t + 300])
        ])

      // From T the first hold's place is free: one new hold, then full again.
      let third = try #require(
        Self.heldReservation(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 600), at: t)))
      #expect(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 300), at: t) == .full(taken: 2))
      #expect(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 599), at: t + 299) == .full(taken: 2))
      #expect(try await storage.reservation(first.id, at: t + 1)?.status == .expired)
      // The second expires at T + 300: one place again, exactly one.
      #expect(
        Self.heldReservation(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 900), at: t + 300))
          != nil)
      #expect(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 600), at: t + 300) == .full(taken: 2))
      // Confirmed, the third outlives its expiry.
      #expect(try await storage.confirm(reservation: third.id, at: t + 599).map(\.status) == .confirmed)
      #expect(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 900), at: t + 600) == .full(taken: 2))
      #expect(
        Self.heldReservation(try await storage.hold(Self.hold(limit: 2, expiresAt: t + 1200), at: t + 900))
          != nil)
      #expect(
        try await storage.hold(Self.hold(limit: 2, expiresAt: t + 1200), at: t + 900) == .full(taken: 2))
    }
  }

  /// Confirmations and releases: what each status becomes, what is refused (HTTP 409), what is
  /// unknown, and the slot's count after all of them.
  @Test(arguments: kinds) func confirmAndRelease(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let t = Self.expiry
      var held: [Reservation] = []
      for _ in 0..<4 {
        held.append(
          try #require(Self.heldReservation(try await storage.hold(Self.hold(limit: 4), at: Self.noon))))
      }

      // Held → confirmed → (confirmed again: unchanged) → released → (released again: unchanged).
      var confirmed = held[0]
      confirmed.status = .confirmed
      confirmed.changedAt = t - 1
      #expect(try await storage.confirm(reservation: held[0].id, at: t - 1) == .done(confirmed))
      #expect(try await storage.confirm(reservation: held[0].id, at: t + 100) == .done(confirmed))
      #expect(try await storage.reservation(held[0].id, at: t + 100) == confirmed)
      var released = confirmed
      released.status = .released
      released.changedAt = t + 200
      #expect(try await storage.release(reservation: held[0].id, at: t + 200) == .done(released))
      #expect(try await storage.release(reservation: held[0].id, at: t + 300) == .done(released))
      #expect(try await storage.confirm(reservation: held[0].id, at: t + 300) == .refused(released))

      // Held past its expiry: the confirmation refused, the release done, both saying expired.
      let refused = try await storage.confirm(reservation: held[1].id, at: t)
      guard case .refused(let expired) = refused else {
        Issue.record("confirming an expired hold: \(refused)")
        return
      }
      #expect(expired.id == held[1].id && expired.status == .expired)
      #expect(try await storage.release(reservation: held[1].id, at: t + 1).map(\.status) == .expired)
      #expect(try await storage.confirm(reservation: held[1].id, at: t + 2).refusedStatus == .expired)

      // Held, released before its expiry: done; confirming it then is refused.
      var releasedHold = held[2]
      releasedHold.status = .released
      releasedHold.changedAt = t - 1
      #expect(try await storage.release(reservation: held[2].id, at: t - 1) == .done(releasedHold))
      #expect(try await storage.confirm(reservation: held[2].id, at: t - 1) == .refused(releasedHold))

      // Released after its expiry: it had expired.
      #expect(try await storage.release(reservation: held[3].id, at: t).map(\.status) == .expired)
      #expect(try await storage.reservation(held[3].id, at: t)?.status == .expired)

      // Unknown.
      let unknown = Reservation.newID()
      #expect(try await storage.confirm(reservation: unknown, at: t) == .unknown)
      #expect(try await storage.release(reservation: unknown, at: t) == .unknown)
      #expect(try await storage.reservation(unknown, at: t) == nil)

      // Every place is free again, each freed once: exactly the limit again.
      for _ in 0..<4 {
        #expect(
          Self.heldReservation(try await storage.hold(Self.hold(limit: 4, expiresAt: t + 1000), at: t + 400))
            != nil)
      }
      #expect(try await storage.hold(Self.hold(limit: 4, expiresAt: t + 700), at: t + 400) == .full(taken: 4))
    }
  }

  /// A sweep marks the holds expired by its clock, says how many, and the counters agree after:
  /// the slot takes holds again to its limit, not beyond.
  @Test(arguments: kinds) func sweepKeepsTheCounters(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let t = Self.expiry
      let other = SlotKey(storeID: "nw-0002", service: "drive_through", start: Self.slot.start)
      var held: [Reservation] = []
      for _ in 0..<3 {
        held.append(
          try #require(Self.heldReservation(try await storage.hold(Self.hold(limit: 3), at: Self.noon))))
      }
      _ = try await storage.confirm(reservation: held[2].id, at: Self.noon + 1)
      let later = try #require(
        Self.heldReservation(
          try await storage.hold(Self.hold(other, limit: 3, expiresAt: t + 100), at: Self.noon)))

      #expect(try await storage.sweepExpiredHolds(at: t - 1) == 0)
      #expect(try await storage.sweepExpiredHolds(at: t) == 2)
      #expect(try await storage.sweepExpiredHolds(at: t) == 0)
      var swept = held[0]
      swept.status = .expired
      swept.changedAt = t
      #expect(try await storage.reservation(held[0].id, at: t + 50) == swept)
      #expect(try await storage.reservation(held[2].id, at: t + 50)?.status == .confirmed)
      #expect(try await storage.sweepExpiredHolds(at: t + 100) == 1)
      #expect(try await storage.reservation(later.id, at: t + 100)?.status == .expired)

      // Two places free in the slot (the confirmed one keeps its own), one in the other.
      for _ in 0..<2 {
        #expect(
          Self.heldReservation(try await storage.hold(Self.hold(limit: 3, expiresAt: t + 1000), at: t + 100))
            != nil)
      }
      #expect(try await storage.hold(Self.hold(limit: 3, expiresAt: t + 400), at: t + 100) == .full(taken: 3))
      #expect(
        Self.heldReservation(
          try await storage.hold(Self.hold(other, limit: 1, expiresAt: t + 400), at: t + 100)) != nil)
      #expect(
        try await storage.hold(Self.hold(other, limit: 1, expiresAt: t + 400), at: t + 100) == .full(taken: 1)
      )

      // A hold a full slot already freed (SQL storages write it expired then) and a sweep after:
      // freed once.
      let third = SlotKey(storeID: "nw-0003", service: nil, start: Self.slot.start)
      _ = try #require(
        Self.heldReservation(
          try await storage.hold(Self.hold(third, limit: 1, expiresAt: t + 200), at: t + 100)))
      _ = try #require(
        Self.heldReservation(
          try await storage.hold(Self.hold(third, limit: 1, expiresAt: t + 1000), at: t + 200)))
      _ = try await storage.sweepExpiredHolds(at: t + 500)
      #expect(
        try await storage.hold(Self.hold(third, limit: 1, expiresAt: t + 800), at: t + 500) == .full(taken: 1)
      )
      #expect(
        Self.heldReservation(
          try await storage.hold(Self.hold(third, limit: 2, expiresAt: t + 800), at: t + 500)) != nil)
      #expect(
        try await storage.hold(Self.hold(third, limit: 2, expiresAt: t + 800), at: t + 500) == .full(taken: 2)
      )
    }
  }

  /// `bookings` lists the slots that end after the clock, the soonest `limit` of them, with
  /// confirmed reservations and holds that still count.
  @Test(arguments: kinds) func bookingsSoonestSlots(_ kind: Kind) async throws {
    try await Self.with(kind) { _, storage in
      let starts = [Self.noon + 1800, Self.noon + 3600, Self.noon + 5400]
      let slots = starts.map { SlotKey(storeID: "nw-0001", service: nil, start: $0) }
      let past = SlotKey(storeID: "nw-0001", service: nil, start: Self.noon - 900)
      for slot in slots.reversed() + [past] {
        _ = try #require(
          Self.heldReservation(
            try await storage.hold(Self.hold(slot, limit: 5, expiresAt: Self.noon + 300), at: Self.noon - 100)
          ))
      }
      let confirmed = try #require(
        Self.heldReservation(
          try await storage.hold(
            Self.hold(slots[1], limit: 5, expiresAt: Self.noon + 60), at: Self.noon - 100)))
      _ = try await storage.confirm(reservation: confirmed.id, at: Self.noon - 50)

      let all = try await storage.bookings(endingAfter: Self.noon, limit: 10)
      #expect(
        Self.sorted(all) == [
          slots[0]: SlotCount(holdExpiries: [Self.noon + 300]),
          slots[1]: SlotCount(confirmed: 1, holdExpiries: [Self.noon + 300]),
          slots[2]: SlotCount(holdExpiries: [Self.noon + 300]),
        ])
      #expect(
        Set(try await storage.bookings(endingAfter: Self.noon, limit: 2).slots.keys) == Set(slots.prefix(2)))
      #expect(try await storage.bookings(endingAfter: Self.noon, limit: 0).slots.isEmpty)
      // After the holds expired, the confirmed one alone.
      #expect(
        Self.sorted(try await storage.bookings(endingAfter: Self.noon + 300, limit: 10))
          == [slots[1]: SlotCount(confirmed: 1)])
      #expect(try await storage.bookings(endingAfter: Self.noon + 300, limit: 1).slots.keys.first == slots[1])
      // `slotCounts` by start, within the range.
      let counts = try await storage.slotCounts(
        storeID: "nw-0001", service: nil, starting: starts[0]..<starts[2], at: Self.noon)
      #expect(
        Self.sorted(counts) == [
          starts[0]: SlotCount(holdExpiries: [Self.noon + 300]),
          starts[1]: SlotCount(confirmed: 1, holdExpiries: [Self.noon + 300]),
        ])
    }
  }

  /// A file (database) at schema 1, from before the reservations, migrates to 2 on open and
  /// keeps its states and history; holds work after.
  @Test(arguments: kinds) func migrationFromSchemaOneKeepsStates(_ kind: Kind) async throws {
    let downgrade: @Sendable (String) async throws -> Void
    let backend: Backend
    switch kind {
    case .memory:
      return
    case .sqlite:
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "stores-state-\(UInt64.random(in: 0...UInt64.max))")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let path = folder.appendingPathComponent("state.sqlite").path
      backend = Backend(
        name: "sqlite",
        open: { () async throws(StateStorageError) in try await SQLiteStateStorage.open(path: path) },
        setSchemaVersion: { _ in }, remove: { try? FileManager.default.removeItem(at: folder) })
      downgrade = { sql in
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
          _ = try await connection.query(sql)
        } catch {
          try await connection.close()
          throw error
        }
        try await connection.close()
      }
    case .postgres:
      let base = try #require(Backend.postgresURL)
      let database = "stores_test_\(UInt64.random(in: 0...UInt64.max))"
      try await Backend.administer(base, "CREATE DATABASE \(database)")
      let url = Backend.replacingDatabase(of: base, with: database)
      backend = Backend(
        name: "postgres",
        open: { () async throws(StateStorageError) in try await PostgresStateStorage.open(url: url) },
        setSchemaVersion: { _ in },
        remove: { try? await Backend.administer(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") })
      downgrade = { sql in try await Backend.administer(url, sql) }
    }
    try await Backend.with({ backend }) { backend in
      let writer = try await backend.open()
      _ = try await writer.apply(StateStorageBehaviours.pause("kept"), to: "s1", by: "alice", at: Self.noon)
      _ = try await writer.apply(StateStorageBehaviours.closures, to: "s2", by: "bob", at: Self.noon + 1)
      let states = try await writer.load()
      let history = try await writer.history(of: "s1", limit: 10)
      await writer.close()
      // What a build of schema 1 left: its three tables, no reservations.
      try await downgrade("DROP TABLE stores_slots")
      try await downgrade("DROP TABLE stores_reservations")
      try await downgrade("UPDATE stores_state_schema SET version = 1")

      let storage = try await backend.open()
      #expect(try await storage.load() == states)
      #expect(try await storage.history(of: "s1", limit: 10) == history)
      #expect(Self.heldReservation(try await storage.hold(Self.hold(limit: 1), at: Self.noon)) != nil)
      #expect(try await storage.hold(Self.hold(limit: 1), at: Self.noon) == .full(taken: 1))
      await storage.close()
      // Opened again: at schema 2 already, nothing to migrate, the reservation still there.
      let again = try await backend.open()
      #expect(try await again.hold(Self.hold(limit: 1), at: Self.noon) == .full(taken: 1))
      #expect(try await again.load() == states)
      await again.close()
    }
  }
}

extension ReservationUpdate {
  /// The status of a refused update; `nil` when it was not refused.
  var refusedStatus: Reservation.Status? {
    if case .refused(let reservation) = self { return reservation.status }
    return nil
  }

  func map<T>(_ transform: (Reservation) -> T) -> T? {
    switch self {
    case .done(let reservation): transform(reservation)
    case .refused, .unknown: nil
    }
  }
}
