/// Whether the stores whose value is a unit of the arena meet one condition, decided once a unit:
/// the unit's address stands for the value (`Catalog.indexing`).
///
/// Open addressing over the addresses with a multiplicative hash: a `Dictionary` hashed every
/// store's address with SipHash, and a captured dictionary was checked for exclusive access on
/// every use (together a third of deciding the conditions of 1M stores).
final class UnitDecisions {
  /// Per slot, the address with the decision in its lowest bit (units start at even or odd
  /// offsets, so the address is kept shifted left by one); 0 is an empty slot.
  private var slots: UnsafeMutablePointer<UInt>
  private var mask: Int
  private var count = 0

  init() {
    mask = 255
    slots = .allocate(capacity: mask + 1)
    slots.initialize(repeating: 0, count: mask + 1)
  }

  deinit { slots.deallocate() }

  /// The decision for `unit`, made by `decide` the first time it is asked for.
  func decision(for unit: UnsafeRawPointer, _ decide: () -> Bool) -> Bool {
    let key = UInt(bitPattern: unit) << 1
    var slot = Self.hash(key) & mask
    while slots[slot] != 0 {
      if slots[slot] & ~1 == key { return slots[slot] & 1 == 1 }
      slot = (slot + 1) & mask
    }
    let meets = decide()
    slots[slot] = key | (meets ? 1 : 0)
    count += 1
    if count * 2 > mask { grow() }
    return meets
  }

  private static func hash(_ key: UInt) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20)
  }

  private func grow() {
    let old = slots
    let oldCapacity = mask + 1
    mask = oldCapacity * 2 - 1
    slots = .allocate(capacity: mask + 1)
    slots.initialize(repeating: 0, count: mask + 1)
    for index in 0..<oldCapacity where old[index] != 0 {
      var slot = Self.hash(old[index] & ~1) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = old[index]
    }
    old.deallocate()
  }
}
