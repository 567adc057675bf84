import GeoIndex
import OpeningHours

extension PickupEvaluator {
  /// What a store's capacity says about an order it could otherwise take.
  enum SlotVerdict {
    /// The slot at the pickup time has room (or the store has no capacity): the option, with
    /// its slot when it has one.
    case fits(PickupOption)
    /// That slot is full; the option moved to the store's next free slot, later.
    case moved(PickupOption)
    /// That slot is full and no later slot is free within a day of it.
    case full(PassedOverStore)
  }

  /// The most later slots looked at for a free one (a day of quarter hours).
  static let laterSlotLimit = 96
  /// How far after the full slot a free one is looked for.
  static let laterSlotHorizon: Int64 = 86_400

  /// Places an eligible store's pickup in its slot: where the slot at the pickup time is full,
  /// the next slot with room in which the store is still open for the close buffer.
  mutating func slotted(_ option: PickupOption, at position: Int) -> SlotVerdict {
    let schedule = catalog.schedule(at: position)
    let zone = option.timeZone ?? zone(at: position, schedule: schedule) ?? .utc
    let now = request.orderedAt
    guard
      let slot = catalog.pickupSlot(
        at: position, service: catalog.service, containing: option.pickupAt, zone: zone, now: now,
        always: request.reserve)
    else { return .fits(option) }
    var placed = option
    placed.slot = slot
    if slot.hasRoom { return .fits(placed) }
    var start = slot.end
    for _ in 0..<Self.laterSlotLimit where start <= slot.start + Self.laterSlotHorizon {
      guard
        let next = catalog.pickupSlot(
          at: position, service: catalog.service, containing: start, zone: zone, now: now, always: true)
      else { break }
      defer { start = next.end }
      guard next.hasRoom else { continue }
      var status = option.store.status
      if let schedule {
        guard case .eligible(_, let atSlot) = hoursVerdict(schedule, at: next.start) else { continue }
        status = atSlot
      }
      var match = option.store
      match.status = status
      var moved = PickupOption(
        store: match, readyAt: option.readyAt, arrivalAt: option.arrivalAt, pickupAt: next.start,
        travelSeconds: option.travelSeconds)
      moved.slot = next
      moved.movedFrom = slot
      return .moved(moved)
    }
    return .full(
      PassedOverStore(
        storeID: option.store.id, reason: .slotFull, distance: option.store.distance,
        message: "\(describe(slot, in: zone)) is full and no later slot is free within a day"))
  }

  /// `the 08:00–08:15 slot (20 of 20 orders)`.
  func describe(_ slot: PickupSlot, in zone: TimeZoneRules?) -> String {
    let zone = zone ?? .utc
    let start = wallTime(slot.start, in: zone, after: request.orderedAt)
    let end = StoreStatus.wallTime(slot.end, after: slot.start, in: zone)
    let count = slot.limit.map { " (\(slot.taken) of \($0) orders)" } ?? ""
    return "the \(start)–\(end) slot\(count)"
  }

  /// Why a store whose pickup moved to a later slot was passed over for `other`.
  func laterThan(_ moved: PickupOption, _ other: PickupOption) -> PassedOverStore {
    let zone = moved.timeZone
    let full = moved.movedFrom.map { describe($0, in: zone) } ?? "the slot"
    return PassedOverStore(
      storeID: moved.store.id, reason: .slotFull, distance: moved.store.distance,
      message: "\(full) is full; its next free slot, at "
        + "\(wallTime(moved.pickupAt, in: zone, after: request.orderedAt)), is more than "
        + "\(Self.duration(request.maximumDelay)) after \(other.store.id)'s pickup at "
        + wallTime(other.pickupAt, in: other.timeZone, after: request.orderedAt))
  }

  /// The notice for an assignment moved to a later slot.
  func movedNotice(_ moved: PickupOption) -> PickupNotice? {
    guard let from = moved.movedFrom else { return nil }
    let zone = moved.timeZone
    return PickupNotice(
      .slotFull, storeID: moved.store.id,
      "\(describe(from, in: zone)) is full; pickup moved to the slot at "
        + wallTime(moved.pickupAt, in: zone, after: request.orderedAt))
  }
}
