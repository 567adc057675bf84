import OpeningHours

/// The slot a pickup falls in at its store, with the limit and count it was planned against.
public struct PickupSlot: Hashable, Sendable {
  public let key: SlotKey
  public let end: Instant
  /// The orders the slot takes; `nil`: no limit (the store has no capacity; a slot is still
  /// named so a reservation can hold it).
  public let limit: Int?
  /// The orders it held when planned (confirmed, and held and not expired).
  public let taken: Int

  public init(key: SlotKey, end: Instant, limit: Int?, taken: Int) {
    self.key = key
    self.end = end
    self.limit = limit
    self.taken = taken
  }

  public var start: Instant { key.start }

  /// Whether the slot can take one more order.
  public var hasRoom: Bool { limit.map { taken < $0 } ?? true }

  /// `{"start", "end", "service", "orders_per_slot", "taken"}`.
  public var jsonObject: JSONObject {
    JSONObject([
      .init(key: "start", value: .string(key.start.description)),
      .init(key: "end", value: .string(end.description)),
      .init(key: "service", value: key.service.map { .string($0) } ?? .null),
      .init(key: "orders_per_slot", value: limit.map { JSONValue(Int($0)) } ?? .null),
      .init(key: "taken", value: JSONValue(Int(taken))),
    ])
  }

  /// The slot of `length` seconds that `instant` falls in, in `zone`: slots start at local
  /// midnight and every `length` after it, so they start at the same wall times every day.
  static func bounds(containing instant: Instant, length: Int, in zone: TimeZoneRules) -> Range<Instant> {
    let local = zone.localDateTime(at: instant)
    let startOfSlot = local.secondsIntoDay - local.secondsIntoDay % length
    var start = TimeQuery.wallTime(LocalDateTime(date: local.date, secondsIntoDay: startOfSlot)).instant(
      in: zone)
    // Around a DST change a wall time can name an instant after `instant`; the slot then starts
    // at the instant itself.
    if start > instant { start = instant }
    var end = start + Int64(length)
    if end <= instant { end = instant + 1 }
    return start..<end
  }
}
