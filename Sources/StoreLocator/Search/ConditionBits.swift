/// Which of up to 64 conditions each store of a table meets, one bit a condition (bit `i` for
/// `conditions[i]`): what `Catalog.indexing` puts in the subtree masks.
///
/// A store's members are read once, not once a condition: the conditions on one key are
/// decided together, once a value unit on each thread (`UnitBits`), and a store without the key
/// meets what a store with no value meets. Each condition used to look up its key among the
/// store's members and its own decision: 46 suggested conditions were 46 member scans and
/// lookups a store, two thirds of indexing the conditions in `snapshot build`, on one core.
enum ConditionBits {
  /// The bits of every store of `table`, by position; stores are split among the processors.
  static func ofEveryStore(meeting conditions: [StoreFilter.Condition], in table: StoreTable) -> [UInt64] {
    precondition(conditions.count <= 64, "at most 64 conditions have a bit")
    let tests = conditions.map { RowFilter(StoreFilter([$0]), table: table).tests[0] }
    // The conditions on each key, by key number.
    var conditionsOnKey = [UInt64](repeating: 0, count: table.keyCount)
    // What a store without a value meets: the conditions on keys no store has, and on keys the
    // store lacks.
    var metWithoutValue: UInt64 = 0
    for (index, test) in tests.enumerated() {
      if let key = test.key { conditionsOnKey[Int(key)] |= 1 << UInt64(index) }
      if RowFilter.meets(test, value: nil, table, 0) { metWithoutValue |= 1 << UInt64(index) }
    }
    let (keyed, withoutValue) = (conditionsOnKey, metWithoutValue)
    let count = table.storeCount
    let parts = ActiveProcessors.parts(for: count)
    return [UInt64](unsafeUninitializedCapacity: count) { buffer, initialized in
      let shared = SharedSlots(slots: buffer)
      ActiveProcessors.run(parts: parts) { part in
        var decided = [UnitBits?](repeating: nil, count: keyed.count)
        for position in ActiveProcessors.range(part, of: parts, in: count) {
          table.checkRow(position)
          var bits = withoutValue
          var keysMet: UInt64 = 0
          table.forEachMember(at: position) { _, key, value in
            let onKey = key < keyed.count ? keyed[key] : 0
            // The first value of a key is the one a filter reads.
            guard onKey != 0, keysMet & onKey == 0 else { return }
            keysMet |= onKey
            func decide() -> UInt64 {
              var met: UInt64 = 0
              var remaining = onKey
              while remaining != 0 {
                let index = remaining.trailingZeroBitCount
                remaining &= remaining - 1
                if RowFilter.meets(tests[index], value: value, table, position) { met |= 1 << UInt64(index) }
              }
              return met
            }
            guard let unit = value.baseAddress else { return bits = bits & ~onKey | decide() }
            if decided[key] == nil { decided[key] = UnitBits() }
            bits = bits & ~onKey | decided[key]!.bits(for: unit, decide)
          }
          (shared.slots.baseAddress! + position).initialize(to: bits)
        }
      }
      initialized = count
    }
  }
}
