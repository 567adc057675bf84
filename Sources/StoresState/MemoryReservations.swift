import OpeningHours
import StoreLocator
import Synchronization

/// The reservations of a `MemoryStateStorage`: the reference the SQL storages are tested against.
struct MemoryReservations {
  var reservations: [String: Reservation] = [:]
  var byKey: [String: (id: String, digest: String, answer: String)] = [:]

  /// `reservation` as it reads at `now`: a hold past its expiry is expired, changed at its expiry
  /// (what the SQL storages answer, whether or not a sweep wrote it).
  static func asAt(_ reservation: Reservation, _ now: Instant) -> Reservation {
    var reservation = reservation
    if reservation.status == .held, reservation.expiresAt <= now {
      reservation.status = .expired
      reservation.changedAt = reservation.expiresAt
    }
    return reservation
  }

  /// Whether `reservation` takes a place at `now`.
  static func counts(_ reservation: Reservation, at now: Instant) -> Bool {
    switch reservation.status(at: now) {
    case .held, .confirmed: true
    case .released, .expired: false
    }
  }

  mutating func hold(_ hold: SlotHold, storeVersion: Int64, at now: Instant) -> SlotHoldOutcome {
    if let key = hold.idempotencyKey, let earlier = byKey[key], let reservation = reservations[earlier.id] {
      let asNow = Self.asAt(reservation, now)
      return earlier.digest == hold.requestDigest
        ? .replayed(asNow, answer: earlier.answer) : .keyReused(asNow)
    }
    if storeVersion > hold.stateVersion { return .stale(version: storeVersion) }
    let taken = reservations.values.count { $0.slot == hold.slot && Self.counts($0, at: now) }
    if let limit = hold.limit, taken >= limit { return .full(taken: taken) }
    let reservation = Reservation(
      id: hold.reservationID, slot: hold.slot, slotEnd: hold.slotEnd, status: .held,
      expiresAt: hold.expiresAt,
      createdAt: now, changedAt: now)
    reservations[reservation.id] = reservation
    if let key = hold.idempotencyKey { byKey[key] = (reservation.id, hold.requestDigest, hold.answer) }
    return .held(reservation)
  }

  mutating func confirm(_ id: String, at now: Instant) -> ReservationUpdate {
    guard var reservation = reservations[id] else { return .unknown }
    switch reservation.status(at: now) {
    case .confirmed: return .done(reservation)
    case .held:
      reservation.status = .confirmed
      reservation.changedAt = now
      reservations[id] = reservation
      return .done(reservation)
    case .expired, .released:
      return .refused(Self.asAt(reservation, now))
    }
  }

  mutating func release(_ id: String, at now: Instant) -> ReservationUpdate {
    guard var reservation = reservations[id] else { return .unknown }
    switch reservation.status(at: now) {
    case .held, .confirmed:
      reservation.status = .released
      reservation.changedAt = now
      reservations[id] = reservation
    case .expired, .released:
      reservation = Self.asAt(reservation, now)
    }
    return .done(reservation)
  }

  func bookings(endingAfter now: Instant, limit: Int) -> SlotBookings {
    var bookings = SlotBookings()
    for reservation in reservations.values
    where reservation.slotEnd > now && Self.counts(reservation, at: now) {
      bookings.add(
        reservation.slot, confirmed: reservation.status == .confirmed, expiresAt: reservation.expiresAt)
    }
    if bookings.slots.count > limit {
      let kept = bookings.slots.keys.sorted { $0.start < $1.start }.prefix(limit)
      bookings.slots = bookings.slots.filter { kept.contains($0.key) }
    }
    return bookings
  }

  func slotCounts(storeID: String, service: String?, starting range: Range<Instant>, at now: Instant)
    -> [Instant: SlotCount]
  {
    var counts: [Instant: SlotCount] = [:]
    for reservation in reservations.values
    where reservation.slot.storeID == storeID && reservation.slot.service == service
      && range.contains(reservation.slot.start) && Self.counts(reservation, at: now)
    {
      if reservation.status == .confirmed {
        counts[reservation.slot.start, default: SlotCount()].confirmed += 1
      } else {
        counts[reservation.slot.start, default: SlotCount()].holdExpiries.append(reservation.expiresAt)
      }
    }
    return counts
  }

  mutating func sweep(at now: Instant) -> Int {
    var swept = 0
    for (id, reservation) in reservations where reservation.status == .held && reservation.expiresAt <= now {
      reservations[id]?.status = .expired
      reservations[id]?.changedAt = reservation.expiresAt
      swept += 1
    }
    return swept
  }
}

extension MemoryStateStorage {
  public func hold(_ hold: SlotHold, at now: Instant) async throws(StateStorageError) -> SlotHoldOutcome {
    try reachable()
    // One lock: the state's version and the place are read and taken together.
    return contents.withLock { contents in
      contents.reservations.hold(hold, storeVersion: contents.states[hold.slot.storeID].version, at: now)
    }
  }

  public func confirm(reservation id: String, at now: Instant) async throws(StateStorageError)
    -> ReservationUpdate
  {
    try reachable()
    return withReservations { $0.confirm(id, at: now) }
  }

  public func release(reservation id: String, at now: Instant) async throws(StateStorageError)
    -> ReservationUpdate
  {
    try reachable()
    return withReservations { $0.release(id, at: now) }
  }

  public func reservation(_ id: String, at now: Instant) async throws(StateStorageError) -> Reservation? {
    try reachable()
    return withReservations { reservations in
      reservations.reservations[id].map { MemoryReservations.asAt($0, now) }
    }
  }

  public func bookings(endingAfter now: Instant, limit: Int) async throws(StateStorageError) -> SlotBookings {
    try reachable()
    return withReservations { $0.bookings(endingAfter: now, limit: limit) }
  }

  public func slotCounts(storeID: String, service: String?, starting range: Range<Instant>, at now: Instant)
    async throws(StateStorageError) -> [Instant: SlotCount]
  {
    try reachable()
    return withReservations { $0.slotCounts(storeID: storeID, service: service, starting: range, at: now) }
  }

  public func sweepExpiredHolds(at now: Instant) async throws(StateStorageError) -> Int {
    try reachable()
    return withReservations { $0.sweep(at: now) }
  }
}
