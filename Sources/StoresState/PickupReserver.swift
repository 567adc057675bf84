import OpeningHours
import StoreLocator

/// A pickup planned and its slot held: the one loop the service (`"reserve": true`) and the
/// command line (`stores pickup --reserve`) run.
///
/// The plan is made with the caller's copy of the slots' counts; the storage decides the hold
/// atomically. When it finds the slot full (the copy was behind), the slot is marked full with
/// the count the storage gave and the order is planned again, so a burst of orders for one slot
/// spreads to later slots and other stores, each told why (`slot-full`).
public enum PickupReserver {
  /// How many times an order is planned again after the storage found its slot full.
  public static let maximumAttempts = 8

  public enum Outcome: Sendable {
    /// Nothing to hold: no store can take the order (the plan says why; `reservation` null).
    case unassigned(PickupAnswer)
    /// Held: the answer with its `reservation`, and its JSON text (kept for a repeated key).
    case held(PickupAnswer, text: String)
    /// The idempotency key was given before with the same request: the answer given then.
    case replayed(text: String)
    /// The idempotency key was given before with another request.
    case keyReused(Reservation)
    /// Every slot planned filled before it could be held, `maximumAttempts` times.
    case keptFilling
  }

  /// Plans `submission` and holds the assignment's slot.
  /// - Parameters:
  ///   - holdSeconds: How long the hold waits for its confirmation.
  ///   - idempotencyKey: The client's key: a repeated request answers the first one's reservation.
  ///   - requestDigest: What tells two requests with the same key apart.
  ///   - bookings: The slots' counts as the caller knows them.
  ///   - plan: Plans the order with the given counts (the catalog, state and clock are the
  ///     caller's), answering the plan and the state it read.
  ///   - hold: Asks the storage for the hold.
  ///   - readStateAgain: Reads the state from the storage, after a hold refused as `.stale` (the
  ///     store's state changed since the plan's copy), before planning again.
  /// - Throws: What `plan` or `hold` throw: `RequestError`, `StateStorageError`.
  public static func reserve(
    holdSeconds: Int64, idempotencyKey: String?, requestDigest: String, bookings: SlotBookings,
    plan: (SlotBookings) async throws -> (answer: PickupAnswer, states: StoreStates),
    hold: (SlotHold) async throws -> SlotHoldOutcome,
    readStateAgain: () async throws -> Void
  ) async throws -> Outcome {
    var bookings = bookings
    for _ in 0..<maximumAttempts {
      let (answer, states) = try await plan(bookings)
      guard let assignment = answer.plan.assignment, let slot = assignment.slot else {
        return .unassigned(answer)
      }
      let orderedAt = answer.plan.orderedAt
      // Instants are whole seconds and `orderedAt` the clock cut down to one: a second more, so a
      // hold waits at least `holdSeconds` (at most a second longer), never less.
      var held = answer
      held.plan.reservation = Reservation(
        id: Reservation.newID(), slot: slot.key, slotEnd: slot.end, status: .held,
        expiresAt: orderedAt + (holdSeconds + 1), createdAt: orderedAt, changedAt: orderedAt)
      let reservation = held.plan.reservation!
      let text = held.jsonText
      var request = SlotHold(
        reservationID: reservation.id, slot: slot.key, slotEnd: slot.end, limit: slot.limit,
        expiresAt: reservation.expiresAt, idempotencyKey: idempotencyKey, requestDigest: requestDigest,
        answer: text)
      request.stateVersion = states[slot.key.storeID].version
      let outcome = try await hold(request)
      switch outcome {
      case .held: return .held(held, text: text)
      case .full(let taken): bookings.refused(slot.key, taken: taken)
      case .replayed(_, let text): return .replayed(text: text)
      case .keyReused(let earlier): return .keyReused(earlier)
      case .stale: try await readStateAgain()
      }
    }
    return .keptFilling
  }

  /// What tells two requests with the same key apart: FNV-1a (64-bit) of the parameters and body.
  public static func digest(_ body: [UInt8], query: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in Array(query.utf8) + [0] + body {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return String(hash, radix: 16)
  }
}
