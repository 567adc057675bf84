import Testing

@testable import StoreLocator

/// `UnitDecisions` remembers one decision an address, through its growth, and decides each
/// address once: what `Catalog.indexing` relies on to decide a condition once a value.
struct UnitDecisionsTests {
  @Test func eachAddressIsDecidedOnceAndKeepsItsDecision() {
    let decisions = UnitDecisions()
    let arena = UnsafeMutableRawPointer.allocate(byteCount: 100_000, alignment: 1)
    defer { arena.deallocate() }
    // Odd and even offsets, neighbours, and far more addresses than the first table holds.
    let offsets = (0..<20_000).map { $0 * 5 % 100_000 }
    func expected(_ offset: Int) -> Bool { offset % 3 == 0 || offset % 7 == 1 }
    var calls = [Int: Int]()
    for round in 0..<3 {
      for offset in round == 1 ? offsets.reversed() : offsets {
        let decided = decisions.decision(for: arena + offset) {
          calls[offset, default: 0] += 1
          return expected(offset)
        }
        #expect(decided == expected(offset), "offset \(offset)")
      }
    }
    #expect(calls.count == offsets.count)
    #expect(calls.values.allSatisfy { $0 == 1 })
  }
}
