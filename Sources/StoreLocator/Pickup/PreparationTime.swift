/// One line of an order: what, how many, and how long one takes to prepare.
public struct OrderItem: Hashable, Sendable {
  public let name: String
  /// How many; at least 1.
  public let quantity: Int
  /// Minutes to prepare one, at least 0 (fractions allowed: `0.5`).
  public let preparationMinutes: Double

  public init(name: String, quantity: Int = 1, preparationMinutes: Double) {
    self.name = name
    self.quantity = quantity
    self.preparationMinutes = preparationMinutes
  }
}

/// How long an order takes to prepare, from its items.
///
/// The rule: every unit is counted (an item with quantity 3 is three units). The longest unit
/// sets the pace, and the others are prepared alongside it, each adding `shareOfRest` (a quarter)
/// of its own time. The result is rounded up to the whole minute.
///
///     seconds = ceil_minute(60 × (longest + shareOfRest × (sum of all units − longest)))
///
/// For 2 × flat white (4 min) and 1 × croissant (1 min): longest 4, rest 4 + 1 = 5, so
/// 4 + 0.25 × 5 = 5.25 minutes, rounded up to 6 minutes (360 seconds). An order with no items,
/// or only items that need no preparation, is ready at once.
public enum PreparationTime {
  /// The share of each unit's time, other than the longest, that adds to the order's time.
  public static let shareOfRest = 0.25

  /// The preparation time of `items` in seconds, a whole number of minutes.
  public static func seconds(for items: [OrderItem]) -> Int64 {
    var longest = 0.0
    var total = 0.0
    for item in items where item.quantity > 0 && item.preparationMinutes > 0 {
      longest = max(longest, item.preparationMinutes)
      total += item.preparationMinutes * Double(item.quantity)
    }
    let minutes = longest + shareOfRest * (total - longest)
    guard minutes > 0, minutes.isFinite else { return 0 }
    // Round to the microminute first so 5.000000001 from float sums does not become 6.
    let whole = (minutes * 1_000_000).rounded() / 1_000_000
    return Int64(min(whole.rounded(.up), 1e9)) * 60
  }
}
