/// A candidate in a k-nearest search: squared chord from the query and the input index.
///
/// Ordered by `(chord2, index)`, so equal distances break by input index.
struct Candidate {
  var chord2: Double
  var index: Int32

  @inline(__always)
  static func precedes(_ a: Candidate, _ b: Candidate) -> Bool {
    a.chord2 < b.chord2 || (a.chord2 == b.chord2 && a.index < b.index)
  }
}

/// A max-heap of at most `capacity` candidates over caller-provided storage (a temporary
/// allocation, so a query allocates nothing per visited node).
///
/// The top is the worst candidate kept, the one a better candidate replaces once the heap is full.
struct BoundedMaxHeap {
  let storage: UnsafeMutablePointer<Candidate>
  let capacity: Int
  private(set) var count = 0

  init(storage: UnsafeMutablePointer<Candidate>, capacity: Int) {
    self.storage = storage
    self.capacity = capacity
  }

  var isFull: Bool { count == capacity }

  /// The worst candidate kept. Only valid when `count > 0`.
  var top: Candidate { storage[0] }

  /// Adds `candidate`. Requires `!isFull`.
  ///
  /// - Complexity: O(log capacity).
  @inline(__always)
  mutating func insert(_ candidate: Candidate) {
    var child = count
    count += 1
    while child > 0 {
      let parent = (child - 1) >> 1
      guard Candidate.precedes(storage[parent], candidate) else { break }
      storage[child] = storage[parent]
      child = parent
    }
    storage[child] = candidate
  }

  /// Removes the top and adds `candidate`, which must precede it. Requires `count > 0`.
  ///
  /// - Complexity: O(log capacity).
  @inline(__always)
  mutating func replaceTop(with candidate: Candidate) {
    var parent = 0
    while true {
      var child = 2 * parent + 1
      if child >= count { break }
      if child + 1 < count && Candidate.precedes(storage[child], storage[child + 1]) { child += 1 }
      guard Candidate.precedes(candidate, storage[child]) else { break }
      storage[parent] = storage[child]
      parent = child
    }
    storage[parent] = candidate
  }
}

/// A binary min-heap on an array, for the best-first search of `NeighborSequence`.
struct MinHeap<Element: Comparable> {
  private(set) var storage: [Element] = []

  init(reservingCapacity capacity: Int = 0) { storage.reserveCapacity(capacity) }

  var isEmpty: Bool { storage.isEmpty }
  var count: Int { storage.count }
  var min: Element? { storage.first }

  /// - Complexity: O(log count).
  mutating func insert(_ element: Element) {
    storage.append(element)
    var child = storage.count - 1
    while child > 0 {
      let parent = (child - 1) >> 1
      guard element < storage[parent] else { break }
      storage[child] = storage[parent]
      child = parent
    }
    storage[child] = element
  }

  /// - Complexity: O(log count).
  mutating func popMin() -> Element? {
    guard let last = storage.popLast() else { return nil }
    guard !storage.isEmpty else { return last }
    let result = storage[0]
    let count = storage.count
    var parent = 0
    while true {
      var child = 2 * parent + 1
      if child >= count { break }
      if child + 1 < count && storage[child + 1] < storage[child] { child += 1 }
      guard storage[child] < last else { break }
      storage[parent] = storage[child]
      parent = child
    }
    storage[parent] = last
    return result
  }
}
