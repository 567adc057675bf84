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

/// What a nearest search admits, as a type, so that the search without a predicate is compiled
/// with no call per point.
protocol PointFilter {
  func includes(_ index: Int) -> Bool
}

/// Admits every point.
struct EveryPoint: PointFilter {
  @inline(__always)
  func includes(_ index: Int) -> Bool { true }
}

/// Admits the points a caller's predicate admits.
struct ClosureFilter: PointFilter {
  let isIncluded: (Int) -> Bool

  init(_ isIncluded: @escaping (Int) -> Bool) { self.isIncluded = isIncluded }

  @inline(__always)
  func includes(_ index: Int) -> Bool { isIncluded(index) }
}

/// The nodes a best-first search has yet to visit: a binary min-heap by distance, in a buffer on
/// the caller's stack that moves to the heap (the allocator's) only when a search queues more
/// than `initialCapacity` nodes (many leaves: large k, rare matches).
struct NodeQueue {
  struct Entry {
    var distance2: Double
    var node: Int
  }

  static let initialCapacity = 64

  private var storage: UnsafeMutablePointer<Entry>
  private var capacity = NodeQueue.initialCapacity
  private var allocated = false
  private(set) var count = 0

  init(initial: UnsafeMutablePointer<Entry>) { storage = initial }

  /// Frees the buffer the queue allocated, if it grew.
  func release() {
    if allocated { storage.deallocate() }
  }

  @inline(__always)
  mutating func push(_ entry: Entry) {
    if count == capacity { grow() }
    var child = count
    count += 1
    while child > 0 {
      let parent = (child - 1) >> 1
      guard entry.distance2 < storage[parent].distance2 else { break }
      storage[child] = storage[parent]
      child = parent
    }
    storage[child] = entry
  }

  /// The nearest entry. Requires `count > 0`.
  var minimum: Entry { storage[0] }

  /// Removes and returns the nearest entry. Requires `count > 0`.
  @inline(__always)
  mutating func popMin() -> Entry {
    let result = storage[0]
    count -= 1
    let last = storage[count]
    var parent = 0
    while true {
      var child = 2 * parent + 1
      if child >= count { break }
      if child + 1 < count && storage[child + 1].distance2 < storage[child].distance2 { child += 1 }
      guard storage[child].distance2 < last.distance2 else { break }
      storage[parent] = storage[child]
      parent = child
    }
    storage[parent] = last
    return result
  }

  private mutating func grow() {
    let larger = UnsafeMutablePointer<Entry>.allocate(capacity: 2 * capacity)
    larger.moveInitialize(from: storage, count: count)
    if allocated { storage.deallocate() }
    storage = larger
    capacity *= 2
    allocated = true
  }
}
