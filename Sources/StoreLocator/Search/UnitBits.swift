/// Bits decided once a unit of the arena: the unit's address stands for the value (equal values
/// of a few-valued key are one unit), so whatever depends only on the value is worked out at the
/// first store with it (`ConditionBits`: which conditions on a key the value meets).
///
/// Open addressing over the addresses with a multiplicative hash: a `Dictionary` hashed every
/// store's address with SipHash, and a captured dictionary was checked for exclusive access on
/// every use (together a third of deciding the conditions of 1M stores).
///
/// Not shared between threads: each thread that decides keeps its own.
final class UnitBits {
  /// Per slot, the address; 0 is an empty slot.
  private var addresses: UnsafeMutablePointer<UInt>
  /// Per slot, the bits of its address.
  private var values: UnsafeMutablePointer<UInt64>
  private var mask: Int
  private var count = 0

  init() {
    mask = 255
    addresses = .allocate(capacity: mask + 1)
    addresses.initialize(repeating: 0, count: mask + 1)
    values = .allocate(capacity: mask + 1)
  }

  deinit {
    addresses.deallocate()
    values.deallocate()
  }

  /// The bits of `unit`, made by `decide` the first time they are asked for.
  func bits(for unit: UnsafeRawPointer, _ decide: () -> UInt64) -> UInt64 {
    let key = UInt(bitPattern: unit)
    var slot = Self.hash(key) & mask
    while addresses[slot] != 0 {
      if addresses[slot] == key { return values[slot] }
      slot = (slot + 1) & mask
    }
    let bits = decide()
    addresses[slot] = key
    values[slot] = bits
    count += 1
    if count * 2 > mask { grow() }
    return bits
  }

  private static func hash(_ key: UInt) -> Int {
    Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 20)
  }

  private func grow() {
    let (oldAddresses, oldValues, oldCapacity) = (addresses, values, mask + 1)
    mask = oldCapacity * 2 - 1
    addresses = .allocate(capacity: mask + 1)
    addresses.initialize(repeating: 0, count: mask + 1)
    values = .allocate(capacity: mask + 1)
    for index in 0..<oldCapacity where oldAddresses[index] != 0 {
      var slot = Self.hash(oldAddresses[index]) & mask
      while addresses[slot] != 0 { slot = (slot + 1) & mask }
      addresses[slot] = oldAddresses[index]
      values[slot] = oldValues[index]
    }
    oldAddresses.deallocate()
    oldValues.deallocate()
  }
}
