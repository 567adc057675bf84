import OpeningHours
import Synchronization

/// A store's capacity for the orders of one service, and the slots that count them.
struct ResolvedCapacity {
  let capacity: PickupCapacity
  /// The service whose slots count the orders: the capacity's own (`drive_through`), or `nil`
  /// when the store's capacity applies, which every service without one of its own shares.
  let countedAs: String?
}

extension Catalog {
  /// The catalog as pickup planning sees it with `bookings`: a slot that holds its limit is full.
  public func counting(_ bookings: SlotBookings) -> Catalog {
    var copy = self
    copy.bookings = bookings
    return copy
  }

  /// The capacity that limits orders for `service` at the store at `position`, or `nil` when
  /// nothing limits them.
  ///
  /// The most specific wins, and at the same level the state wins over the file: the state's
  /// capacity for the service, `pickup:capacity:<service>`, the state's capacity for the store,
  /// `pickup:capacity`. A file's slot length is `pickup:slot_minutes[:<service>]` beside it.
  func capacity(at position: Int, service: String?) -> ResolvedCapacity? {
    let set = overlay?.capacities(at: position)
    if let service {
      if let capacity = set?.first(where: { $0.service == service })?.capacity {
        return ResolvedCapacity(capacity: capacity, countedAs: service)
      }
      if let capacity = fileCapacity(at: position, suffix: ":" + service) {
        return ResolvedCapacity(capacity: capacity, countedAs: service)
      }
    }
    if let capacity = set?.first(where: { $0.service == nil })?.capacity {
      return ResolvedCapacity(capacity: capacity, countedAs: nil)
    }
    return fileCapacity(at: position, suffix: "").map { ResolvedCapacity(capacity: $0, countedAs: nil) }
  }

  /// `pickup:capacity<suffix>` and `pickup:slot_minutes<suffix>` of the store at `position`.
  /// A value that does not read limits nothing here; `stores validate` reports it.
  private func fileCapacity(at position: Int, suffix: String) -> PickupCapacity? {
    guard let key = table.keyNumber(of: CapacityProperty.orders + suffix),
      let text = table.scalarText(key: key, at: position), let limits = table.capacityTexts.limits(text)
    else { return nil }
    var minutes = PickupCapacity.defaultSlotMinutes
    if let key = table.keyNumber(of: CapacityProperty.slotMinutes + suffix),
      let text = table.scalarText(key: key, at: position)
    {
      guard let number = Int(text), PickupCapacity.problem(withSlotMinutes: number) == nil else { return nil }
      minutes = number
    }
    return PickupCapacity(limits: limits, slotMinutes: minutes)
  }

  /// The limit of the slot starting at `start` at the store at `position`: the first rule whose
  /// selection contains `start`, in the store's zone with its holidays.
  func slotLimit(_ limits: SlotLimits, at position: Int, start: Instant) -> Int? {
    if let constant = limits.constant { return constant }
    for rule in limits.rules {
      guard let selection = rule.selection else { return rule.orders }
      let zone = table.timeZoneName(at: position) ?? "UTC"
      let schedule = table.capacityTexts.schedule(selection, zone: zone, position: position) {
        table.compileSchedule(of: table.store(at: position), text: selection)
      }
      if schedule?.status(at: start).state == .open { return rule.orders }
    }
    return nil
  }

  /// The slot that a pickup at `instant` for `service` falls in at the store at `position`, with
  /// its limit and what `bookings` say it holds at `now`; `nil` when nothing limits the store's
  /// orders and no slot is asked for.
  /// - Parameter always: Whether to name a slot (of the default length) also for a store
  ///   without capacity: a reservation holds one.
  func pickupSlot(
    at position: Int, service: String?, containing instant: Instant, zone: TimeZoneRules, now: Instant,
    always: Bool
  ) -> PickupSlot? {
    let capacity = capacity(at: position, service: service)
    guard capacity != nil || always else { return nil }
    let length = (capacity?.capacity.slotMinutes ?? PickupCapacity.defaultSlotMinutes) * 60
    let bounds = PickupSlot.bounds(containing: instant, length: length, in: zone)
    let key = SlotKey(storeID: table.id(at: position), service: capacity?.countedAs, start: bounds.lowerBound)
    return PickupSlot(
      key: key, end: bounds.upperBound,
      limit: capacity.flatMap { slotLimit($0.capacity.limits, at: position, start: bounds.lowerBound) },
      taken: bookings.taken(key, at: now))
  }
}

/// The store file's names for capacity (docs/pickup.md).
public enum CapacityProperty {
  /// `pickup:capacity`: orders per slot, a number or rules (`Mo-Fr 07:00-09:00 20; 10`);
  /// `pickup:capacity:<service>` for one service's orders.
  public static let orders = "pickup:capacity"
  /// `pickup:slot_minutes`: the slot length (default 15); `pickup:slot_minutes:<service>`.
  public static let slotMinutes = "pickup:slot_minutes"

  /// What is wrong with the property `key` = `value` when it is a capacity property that does not
  /// read (the `capacity-invalid` diagnostic), else `nil`.
  static func problem(key: String, value: JSONValue) -> String? {
    let isOrders = key == orders || key.hasPrefix(orders + ":")
    let isMinutes = key == slotMinutes || key.hasPrefix(slotMinutes + ":")
    guard isOrders || isMinutes else { return nil }
    let service = key.split(separator: ":").dropFirst(2).first.map(String.init)
    if let service, !ServiceName.isValid(service) {
      return "\(key): \(ServiceName.problem(service)); the capacity is not read"
    }
    guard let text = value.scalarText else {
      return "\(key) is \(value.jsonText), not a number or text; the store's orders are not limited by it"
    }
    if isMinutes {
      guard let minutes = Int(text) else {
        return "\(key) \"\(text)\" is not a whole number of minutes; the capacity beside it is not read"
      }
      return PickupCapacity.problem(withSlotMinutes: minutes).map {
        "\(key) \($0); the capacity beside it is not read"
      }
    }
    do {
      _ = try SlotLimits(parsing: text)
      return nil
    } catch {
      return "\(key) \"\(text)\" \(error.message); the store's orders are not limited by it"
    }
  }
}

/// The capacity values of one table, read once each: chains repeat the same few.
final class CapacityTexts: Sendable {
  private struct Contents {
    var limits: [String: SlotLimits?] = [:]
    var schedules: [String: Schedule?] = [:]
  }

  private let contents = Mutex(Contents())

  /// `text` read as orders per slot, or `nil` when it does not read.
  func limits(_ text: String) -> SlotLimits? {
    if let known = contents.withLock({ $0.limits[text] }) { return known }
    let limits = try? SlotLimits(parsing: text)
    contents.withLock { contents in
      // Bounded: a file of all-different values must not grow the cache without end.
      if contents.limits.count > 10_000 { contents.limits.removeAll() }
      contents.limits[text] = .some(limits)
    }
    return limits
  }

  /// A rule's selection compiled in `zone` (per store when it names holidays or the sun, which
  /// depend on where the store is).
  func schedule(_ selection: String, zone: String, position: Int, compile: () -> Schedule?) -> Schedule? {
    let perStore =
      HoursResources.mayNameHolidays(selection) || selection.contains("sun") || selection.contains("dusk")
      || selection.contains("dawn")
    let key = (perStore ? "#\(position)" : zone) + "\u{0}" + selection
    if let known = contents.withLock({ $0.schedules[key] }) { return known }
    let schedule = compile()
    contents.withLock { contents in
      if contents.schedules.count > 10_000 { contents.schedules.removeAll() }
      contents.schedules[key] = .some(schedule)
    }
    return schedule
  }
}
