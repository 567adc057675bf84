import GeoIndex
import OpeningHours

/// What the catalog tells the tree about each store so a search can skip whole subtrees: the UTC
/// hours of the week in which it may be open (bits 0..<168, from `Schedule.possiblyOpenHours`),
/// and which of the indexed `--where` conditions it meets (bit 192 + i for condition i).
///
/// Both are exact filters for what they cover: a condition's bit is set exactly when
/// `Condition.matches` holds, so an indexed condition is answered by the bit alone; an hour bit is
/// a necessary condition for being open, so the schedule is still evaluated on the stores that
/// pass it.
struct SearchMasks: Sendable {
  static let firstConditionBit = 192
  /// The most conditions the masks hold.
  static let conditionCapacity = 64

  let masks: SubtreeMasks
  /// The indexed conditions, in bit order.
  let conditions: [StoreFilter.Condition]
  /// The instants for which the hour bits hold (`Schedule.possiblyOpenHours(within:)`); `nil`
  /// when no hours were evaluated and the hour bits are all set.
  let hoursWindow: Range<Instant>?

  /// The window of hour summaries built now: from 30 days ago to 400 days ahead, which covers
  /// the questions an ordering app asks. Other instants are answered without the hour bits.
  static func hoursWindow(around now: Instant) -> Range<Instant> {
    (now - 30 * 86_400)..<(now + 400 * 86_400)
  }

  /// - Parameters:
  ///   - openHours: Per store (in `stores` order), the hours it may be open within
  ///     `hoursWindow`; `nil` when the catalog evaluates no opening hours.
  ///   - storeAtPoint: The store position of each tree point.
  ///   - conditions: The conditions indexed, at most `conditionCapacity`.
  ///   - conditionBits: Per store (in `stores` order), the conditions it meets, bit `i` for
  ///     `conditions[i]` (`ConditionBits`); empty when there are no conditions.
  init<Positions: RandomAccessCollection<Int32> & Sendable>(
    tree: KDTree, storeAtPoint: Positions, openHours: [HoursOfWeek]?,
    hoursWindow: Range<Instant>, conditions: [StoreFilter.Condition], conditionBits: [UInt64]
  ) where Positions.Index == Int {
    precondition(conditions.count <= Self.conditionCapacity)
    masks = SubtreeMasks(for: tree) { point in
      let position = Int(storeAtPoint[point])
      var mask = openHours?[position].words ?? HoursOfWeek.all.words
      mask[Self.conditionWord] = conditionBits.isEmpty ? 0 : conditionBits[position]
      return mask
    }
    self.conditions = conditions
    self.hoursWindow = openHours == nil ? nil : hoursWindow
  }

  init(masks: SubtreeMasks, conditions: [StoreFilter.Condition], hoursWindow: Range<Instant>?) {
    self.masks = masks
    self.conditions = conditions
    self.hoursWindow = hoursWindow
  }

  /// The same hour bits with `conditions` indexed instead (`conditionBits` as for `init`).
  func indexing<Positions: RandomAccessCollection<Int32> & Sendable>(
    _ conditions: [StoreFilter.Condition], tree: KDTree, storeAtPoint: Positions, conditionBits: [UInt64]
  ) -> SearchMasks where Positions.Index == Int {
    precondition(conditions.count <= Self.conditionCapacity)
    let updated = masks.updating(for: tree) { point, mask in
      var mask = mask
      mask[Self.conditionWord] = conditionBits.isEmpty ? 0 : conditionBits[Int(storeAtPoint[point])]
      return mask
    }
    return SearchMasks(masks: updated, conditions: conditions, hoursWindow: hoursWindow)
  }

  private static let conditionWord = firstConditionBit >> 6

  /// The bits a search can require for `filter` and `open`, and the conditions the masks do not
  /// answer, which the search must still test on each store.
  func requirement(for filter: StoreFilter, open: OpeningRequirement?) -> (
    requirement: MaskRequirement?, unindexed: StoreFilter
  ) {
    var required = SubtreeMasks.Mask.zero
    var unindexed: [StoreFilter.Condition] = []
    for condition in filter.conditions {
      if let i = conditions.firstIndex(of: condition) {
        MaskRequirement.setting(Self.firstConditionBit + i, in: &required)
      } else {
        unindexed.append(condition)
      }
    }
    // A wall time is a different instant in each zone, so only an instant narrows the hours.
    if let hoursWindow, let open, case .instant(let instant) = open.time, hoursWindow.contains(instant) {
      MaskRequirement.setting(HoursOfWeek.utcHour(of: instant), in: &required)
    }
    let remaining = unindexed.count == filter.conditions.count ? filter : StoreFilter(unindexed)
    return (required == .zero ? nil : MaskRequirement(masks, required: required), remaining)
  }
}

extension Catalog {
  /// Up to `limit` `KEY=VALUE` conditions worth indexing: the values of properties that take few
  /// distinct short values (service tags such as `drive_through=yes`, `amenity=cafe`), leaving
  /// out values every store has. Rare values come first within a key: they prune the most.
  ///
  /// - Complexity: O(n × properties), the stores split among the processors.
  public func suggestedIndexConditions(limit: Int = 64) -> [StoreFilter.Condition] {
    let table = table
    let count = table.storeCount
    let parts = ActiveProcessors.parts(for: count)
    let tallies = [ValueTally?](unsafeUninitializedCapacity: parts) { buffer, initialized in
      buffer.initialize(repeating: nil)
      let shared = SharedSlots(slots: buffer)
      ActiveProcessors.run(parts: parts) { part in
        shared.slots[part] = ValueTally(table, ActiveProcessors.range(part, of: parts, in: count))
      }
      initialized = parts
    }
    // The parts' tallies added up: a key is saturated when its values in all of them are more
    // than `maximumValues` (as they are whenever one part's are), and keys come in the order
    // they first appear in the stores' order.
    var total = ValueTally()
    for tally in tallies {
      for key in tally!.keys {
        guard total.counts[key] != nil || !total.saturated.contains(key) else { continue }
        if total.counts[key] == nil { total.keys.append(key) }
        if tally!.saturated.contains(key) {
          total.saturate(key)
        } else {
          total.counts[key, default: [:]].merge(tally!.counts[key]!, uniquingKeysWith: +)
          if total.counts[key]!.count > ValueTally.maximumValues { total.saturate(key) }
        }
      }
    }
    var conditions: [StoreFilter.Condition] = []
    for key in total.keys where !total.saturated.contains(key) {
      guard let values = total.counts[key] else { continue }
      let name = table.key(number: key)
      for (value, count) in values.sorted(by: { ($0.value, $0.key) < ($1.value, $1.key) })
      where count < stores.count {
        conditions.append(StoreFilter.Condition(key: name, test: .equals(value)))
      }
    }
    return Array(conditions.prefix(limit))
  }
}

/// How often each short value of each key occurs in a run of stores, read from the rows' JSON
/// texts (no store is made: this was a sixth of `snapshot build`), up to `maximumValues` a key.
private struct ValueTally: Sendable {
  static let maximumValues = 16

  /// By key number, in the order keys first appear with a value counted.
  var keys: [Int] = []
  /// By key number, each value's count, until the key is saturated.
  var counts: [Int: [String: Int]] = [:]
  /// The keys with more than `maximumValues` values.
  var saturated: Set<Int> = []

  init() {}

  init(_ table: StoreTable, _ positions: Range<Int>) {
    // By key number: 1 + its entry in `tallies` (in the order of `keys`), 0 before a value of it
    // is counted, or `saturatedKey`.
    // Values are told apart by their units (`StoreTable.forEachValueUnit`), so a store's values
    // are not read once their key is saturated or their unit known: reading each value from the
    // arena (a cache miss a value) and hashing its text were most of this pass.
    var entryOfKey = [Int32](repeating: 0, count: table.keyCount)
    var tallies: [UnitTally] = []
    // Units whose values are not counted (too long, or not scalars), read once each. Bounded: past
    // it, such a value is read each time it is met.
    var uncounted = Set<UInt32>()
    for position in positions {
      table.checkRow(position)
      table.forEachValueUnit(at: position) { key, member, unit in
        guard key < entryOfKey.count else { return }
        let entry = entryOfKey[key]
        guard entry != Self.saturatedKey else { return }
        if entry > 0, tallies[Int(entry) - 1].count(unit) { return }
        if uncounted.contains(unit) { return }
        // (A text of 40 bytes is at most 242 as JSON: quotes, and six bytes an escaped byte.)
        let value = table.valueJSON(member: member)
        guard value.count <= 242, let text = table.scalarText(json: value), !text.isEmpty,
          text.utf8.count <= 40
        else {
          if uncounted.count < 1 << 16 { uncounted.insert(unit) }
          return
        }
        if entry == 0 {
          keys.append(key)
          tallies.append(UnitTally())
          entryOfKey[key] = Int32(tallies.count)
        }
        let index = Int(entryOfKey[key]) - 1
        if tallies[index].count(unit, text: text) > Self.maximumValues {
          entryOfKey[key] = Self.saturatedKey
          tallies[index] = UnitTally()
          saturated.insert(key)
        }
      }
    }
    for (key, tally) in zip(keys, tallies) where !saturated.contains(key) { counts[key] = tally.countsByText }
  }

  /// In `entryOfKey`: the key has more than `maximumValues` values.
  private static let saturatedKey: Int32 = -1

  mutating func saturate(_ key: Int) {
    saturated.insert(key)
    counts[key] = nil
  }
}

/// The values of one key counted in a run of stores, by unit (a value's offset in the arena): a
/// unit met again is found among a few, with no text read or hashed. Equal texts written
/// differently are different units of one text; units past `unitLimit` (a key with many
/// spellings of its few values) are counted by their text each time.
private struct UnitTally {
  static let unitLimit = 64
  private var units: [UInt32] = []
  /// By unit: its text's index in `texts`.
  private var textOfUnit: [Int] = []
  private var texts: [String] = []
  private var textCounts: [Int] = []

  /// Counts `unit` when it is known: false when it is not (then `count(_:text:)` counts it).
  mutating func count(_ unit: UInt32) -> Bool {
    guard let index = units.firstIndex(of: unit) else { return false }
    textCounts[textOfUnit[index]] += 1
    return true
  }

  /// Counts a unit not known yet, whose value reads `text`; returns how many texts are counted.
  mutating func count(_ unit: UInt32, text: String) -> Int {
    let index: Int
    if let known = texts.firstIndex(of: text) {
      index = known
    } else {
      index = texts.count
      texts.append(text)
      textCounts.append(0)
    }
    textCounts[index] += 1
    if units.count < Self.unitLimit {
      units.append(unit)
      textOfUnit.append(index)
    }
    return texts.count
  }

  /// Each text's count.
  var countsByText: [String: Int] {
    Dictionary(uniqueKeysWithValues: zip(texts, textCounts))
  }
}
