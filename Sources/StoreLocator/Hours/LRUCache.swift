/// A cache that keeps at most `capacity` entries, dropping the least recently used one to make
/// room, so a long-running reader of distinct requests (a batch of a million different opening
/// hours, a service touching every store) holds a bounded amount of memory.
///
/// Entries live in flat arrays linked into a recency list by index: no node objects.
struct LRUCache<Key: Hashable, Value> {
  private struct Entry {
    var key: Key
    var value: Value
    var newer: Int
    var older: Int
  }

  let capacity: Int
  private var positions: [Key: Int] = [:]
  private var entries: [Entry] = []
  /// The most and the least recently used entry; -1 when empty.
  private var newest = -1
  private var oldest = -1

  /// - Precondition: `capacity` is at least 1.
  init(capacity: Int) {
    precondition(capacity >= 1, "an LRU cache needs room for one entry")
    self.capacity = capacity
  }

  var count: Int { entries.count }

  /// The value for `key`, now the most recently used; `nil` when absent.
  ///
  /// - Complexity: O(1) on average.
  mutating func value(for key: Key) -> Value? {
    guard let position = positions[key] else { return nil }
    moveToFront(position)
    return entries[position].value
  }

  /// Stores `value` for `key` as the most recently used entry, dropping the least recently used
  /// entry when the cache is full.
  ///
  /// - Complexity: O(1) on average.
  mutating func insert(_ value: Value, for key: Key) {
    if let position = positions[key] {
      entries[position].value = value
      moveToFront(position)
      return
    }
    if entries.count < capacity {
      entries.append(Entry(key: key, value: value, newer: -1, older: newest))
      let position = entries.count - 1
      if newest >= 0 { entries[newest].newer = position }
      newest = position
      if oldest < 0 { oldest = position }
      positions[key] = position
      return
    }
    // Reuse the oldest entry's slot for the new one.
    let position = oldest
    positions[entries[position].key] = nil
    entries[position].key = key
    entries[position].value = value
    positions[key] = position
    moveToFront(position)
  }

  private mutating func moveToFront(_ position: Int) {
    guard position != newest else { return }
    let newer = entries[position].newer
    let older = entries[position].older
    // Unlink (it has a newer entry, since it is not the newest).
    entries[newer].older = older
    if older >= 0 { entries[older].newer = newer } else { oldest = newer }
    // Link in front.
    entries[position].older = newest
    entries[position].newer = -1
    entries[newest].newer = position
    newest = position
  }
}
