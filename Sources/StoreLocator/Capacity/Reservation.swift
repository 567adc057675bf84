import OpeningHours

/// A pickup slot held for an order (`"reserve": true`): counted in its slot until confirmed
/// (kept) or released (freed), or until it expires by itself, unconfirmed.
public struct Reservation: Hashable, Sendable {
  /// The default time a hold waits for its confirmation: 5 minutes.
  public static let defaultHoldSeconds: Int64 = 300
  /// The longest a request may ask a hold to wait: 30 minutes.
  public static let maximumHoldSeconds: Int64 = 1800
  /// The longest `Idempotency-Key`, in bytes.
  public static let maximumIdempotencyKeyLength = 255

  public enum Status: String, Hashable, Sendable, CaseIterable {
    /// Counted, waiting for its confirmation until `expiresAt`.
    case held
    /// Kept: counted until its slot is over.
    case confirmed
    /// Freed by `DELETE /v1/reservations/{id}`.
    case released
    /// Not confirmed in time: freed at `expiresAt`.
    case expired
  }

  /// `r_` and 26 random base-32 characters.
  public let id: String
  public let slot: SlotKey
  public let slotEnd: Instant
  public var status: Status
  /// When a hold frees itself unless confirmed; for a confirmed one, when it was to.
  public let expiresAt: Instant
  public let createdAt: Instant
  public var changedAt: Instant

  public init(
    id: String, slot: SlotKey, slotEnd: Instant, status: Status, expiresAt: Instant, createdAt: Instant,
    changedAt: Instant
  ) {
    self.id = id
    self.slot = slot
    self.slotEnd = slotEnd
    self.status = status
    self.expiresAt = expiresAt
    self.createdAt = createdAt
    self.changedAt = changedAt
  }

  /// The status at `now`: a hold past its expiry is expired, whether or not the storage has
  /// written so yet.
  public func status(at now: Instant) -> Status {
    status == .held && expiresAt <= now ? .expired : status
  }

  /// Whether an id has the form reservations are given (so a malformed one is a 404 without a
  /// database read).
  public static func isWellFormed(id: String) -> Bool {
    id.utf8.count == 28 && id.hasPrefix("r_")
      && id.utf8.dropFirst(2).allSatisfy { Self.alphabet.utf8.contains($0) }
  }

  /// Crockford's base 32, lowercase: no i, l, o or u to misread.
  static let alphabet = "0123456789abcdefghjkmnpqrstvwxyz"

  /// A new id: 130 random bits.
  public static func newID<G: RandomNumberGenerator>(using generator: inout G) -> String {
    let letters = Array(alphabet.utf8)
    var bytes: [UInt8] = Array("r_".utf8)
    for _ in 0..<26 { bytes.append(letters[Int(generator.next(upperBound: UInt32(letters.count)))]) }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// A new id from the system's random source.
  public static func newID() -> String {
    var generator = SystemRandomNumberGenerator()
    return newID(using: &generator)
  }

  /// `{"id", "store", "service", "slot_start", "slot_end", "status", "expires_at", "created_at",
  /// "changed_at"}`, with the status at `now`.
  public func jsonObject(at now: Instant) -> JSONObject {
    JSONObject([
      .init(key: "id", value: .string(id)),
      .init(key: "store", value: .string(slot.storeID)),
      .init(key: "service", value: slot.service.map { .string($0) } ?? .null),
      .init(key: "slot_start", value: .string(slot.start.description)),
      .init(key: "slot_end", value: .string(slotEnd.description)),
      .init(key: "status", value: .string(status(at: now).rawValue)),
      .init(key: "expires_at", value: .string(expiresAt.description)),
      .init(key: "created_at", value: .string(createdAt.description)),
      .init(key: "changed_at", value: .string(changedAt.description)),
    ])
  }
}
