import Testing

@testable import StoreLocator

/// `UnitBits` remembers the bits of each address, through its growth, and decides each address
/// once: what `ConditionBits` relies on to decide the conditions on a key once a value.
struct UnitBitsTests {
  @Test func eachAddressIsDecidedOnceAndKeepsItsBits() {
    let decided = UnitBits()
    let arena = UnsafeMutableRawPointer.allocate(byteCount: 100_000, alignment: 1)
    defer { arena.deallocate() }
    // Odd and even offsets, neighbours, and far more addresses than the first table holds.
    let offsets = (0..<20_000).map { $0 * 5 % 100_000 }
    func expected(_ offset: Int) -> UInt64 { UInt64(offset) &* 0x9E37_79B9 ^ (offset % 3 == 0 ? 1 << 63 : 0) }
    var calls = [Int: Int]()
    for round in 0..<3 {
      for offset in round == 1 ? offsets.reversed() : offsets {
        let bits = decided.bits(for: arena + offset) {
          calls[offset, default: 0] += 1
          return expected(offset)
        }
        #expect(bits == expected(offset), "offset \(offset)")
      }
    }
    #expect(calls.count == offsets.count)
    #expect(calls.values.allSatisfy { $0 == 1 })
  }
}
