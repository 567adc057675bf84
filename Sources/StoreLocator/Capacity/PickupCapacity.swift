import OpeningHours

/// How many orders a store hands over per pickup slot (Olo's and Toast's order throttling):
/// the orders per slot, possibly by time of day, and the slot length.
///
/// From the store file (`pickup:capacity`, `pickup:slot_minutes`, and per service
/// `pickup:capacity:<service>`, `pickup:slot_minutes:<service>`) or set at run time in the store's
/// state (`{"capacity": {"orders_per_slot": 20, "slot_minutes": 15}}`). A store without one
/// takes any number of orders, as before capacity existed.
public struct PickupCapacity: Hashable, Sendable {
  /// A quarter of an hour, as Olo's default throttling slot.
  public static let defaultSlotMinutes = 15
  /// The most orders one slot may take.
  public static let maximumOrdersPerSlot = 10_000

  public var limits: SlotLimits
  /// Slots start at the store's local midnight and every `slotMinutes` after it; a divisor of a
  /// day (5, 10, 15, 20, 30, 60, …), so every day's slots start at the same wall times.
  public var slotMinutes: Int

  public init(limits: SlotLimits, slotMinutes: Int = PickupCapacity.defaultSlotMinutes) {
    self.limits = limits
    self.slotMinutes = slotMinutes
  }

  /// What is wrong with `minutes` as a slot length, or `nil`.
  public static func problem(withSlotMinutes minutes: Int) -> String? {
    guard (1...1440).contains(minutes), 1440 % minutes == 0 else {
      return
        "must divide a day into whole slots (5, 10, 15, 20, 30, 60, … up to 1440 minutes), not \(minutes)"
    }
    return nil
  }

  /// `20 orders per 15 minutes`, `Mo-Fr 07:00-09:00 20; 10 orders per 15 minutes`.
  public var summary: String {
    "\(limits) \(limits.constant == 1 ? "order" : "orders") per \(slotMinutes) minutes"
  }
}

/// The orders a slot may take, as one number (`20`) or rules by time of day read like
/// opening hours: `Mo-Fr 07:00-09:00 20; Sa,Su 08:00-12:00 30; 10`.
///
/// Each rule is an opening-hours selection (weekdays, times, dates, `PH`) followed by a number;
/// a rule of a number alone applies at any time. The first rule whose selection contains the
/// slot's start gives the limit, so the general rule goes last; when no rule contains it, the
/// slot has no limit.
public struct SlotLimits: Hashable, Sendable, CustomStringConvertible {
  public struct Rule: Hashable, Sendable {
    /// The opening-hours selection, or `nil` for every time.
    public let selection: String?
    public let orders: Int
  }

  public let rules: [Rule]

  /// One limit at every time.
  public init(orders: Int) {
    rules = [Rule(selection: nil, orders: orders)]
  }

  /// Reads `20` or `Mo-Fr 07:00-09:00 20; 10`.
  /// - Throws: `SlotLimitsError` saying which rule is wrong and how.
  public init(parsing text: String) throws(SlotLimitsError) {
    let parts = text.split(separator: ";", omittingEmptySubsequences: false)
      .map { String($0.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
    guard parts.count <= 50 else { throw SlotLimitsError("has \(parts.count) rules; at most 50") }
    var rules: [Rule] = []
    for (index, part) in parts.enumerated() {
      // A trailing `;` is harmless, as it is in opening hours.
      if part.isEmpty && index == parts.count - 1 && index > 0 { continue }
      let which = parts.count == 1 ? "" : "rule \(index + 1) (\"\(part)\") "
      guard !part.isEmpty else {
        throw SlotLimitsError(
          (parts.count == 1 ? "is empty" : "has an empty rule \(index + 1)")
            + "; give a number of orders such as 20, or rules such as Mo-Fr 07:00-09:00 20; 10")
      }
      let words = part.split(separator: " ")
      let last = String(words[words.count - 1])
      guard let orders = Int(last), last.utf8.allSatisfy({ (48...57).contains($0) }) else {
        throw SlotLimitsError(
          "\(which)ends in \"\(last)\", not a number of orders; each rule ends with one, such as "
            + "Mo-Fr 07:00-09:00 20")
      }
      guard orders <= PickupCapacity.maximumOrdersPerSlot else {
        throw SlotLimitsError(
          "\(which)allows \(orders) orders per slot; at most \(PickupCapacity.maximumOrdersPerSlot)")
      }
      var selection: String?
      if words.count > 1 {
        let text = words.dropLast().joined(separator: " ")
        do {
          let hours = try OpeningHours(parsing: text)
          guard hours.ruleCount == 1 else {
            throw SlotLimitsError("\(which)has more than one selection; separate rules with ;")
          }
        } catch let error as SlotLimitsError {
          throw error
        } catch {
          throw SlotLimitsError(
            "\(which)selection \"\(text)\" does not read as opening hours: \(error)")
        }
        selection = text
      }
      rules.append(Rule(selection: selection, orders: orders))
    }
    self.rules = rules
  }

  /// The limit when it does not depend on the time: a single number.
  public var constant: Int? {
    rules.count == 1 && rules[0].selection == nil ? rules[0].orders : nil
  }

  /// As it was given, normalised: `Mo-Fr 07:00-09:00 20; 10`.
  public var description: String {
    rules.map { rule in rule.selection.map { "\($0) \(rule.orders)" } ?? "\(rule.orders)" }
      .joined(separator: "; ")
  }
}

/// Why an orders-per-slot value does not read.
public struct SlotLimitsError: Error, Sendable, CustomStringConvertible {
  /// The sentence, after the value: `rule 2 ("Sa x") ends in "x", not a number of orders; …`.
  public let message: String

  init(_ message: String) { self.message = message }

  public var description: String { message }
}
