/// Points in increasing distance from a query point, produced as they are iterated.
///
/// A best-first search: one priority queue holds nodes (keyed by the squared chord to their
/// box, a lower bound for every point below them) and points (keyed by their squared chord).
/// Iterating the first few of a large tree costs about as much as `KDTree.nearest(_:to:)`.
///
/// Elements come by (haversine distance, index). Because the ranking is by chord and the
/// reported distance by haversine, a point is held back until every point still queued is
/// farther by more than the rounding of either formula (`View.chordTieTolerance`), so reported
/// distances never decrease and exact ties always come in index order.
public struct NeighborSequence: Sequence, IteratorProtocol {
  private let tree: KDTree
  private let center: Coordinate
  private let qx: Double
  private let qy: Double
  private let qz: Double
  private var queue = MinHeap<QueueEntry>(reservingCapacity: 256)
  private var ready = MinHeap<ReadyEntry>()

  /// A node (`item >= 0`) or a point at tree position `-1 - item`.
  private struct QueueEntry: Comparable {
    var key: Double
    var item: Int
    static func < (a: QueueEntry, b: QueueEntry) -> Bool {
      a.key < b.key || (a.key == b.key && a.item < b.item)
    }
  }

  /// A point taken from the queue, waiting until nothing queued can precede it.
  private struct ReadyEntry: Comparable {
    var meters: Double
    var index: Int
    /// `View.tieBound2` of the point's squared chord: the queue must be past this before the
    /// point is emitted.
    var release2: Double
    static func < (a: ReadyEntry, b: ReadyEntry) -> Bool {
      a.meters < b.meters || (a.meters == b.meters && a.index < b.index)
    }
  }

  init(tree: KDTree, center: Coordinate) {
    self.tree = tree
    self.center = center
    let q = center.unitVector
    (qx, qy, qz) = (q.x, q.y, q.z)
    if tree.count > 0 {
      let rootKey = tree.withView { $0.boxDistance2(0, q.x, q.y, q.z) }
      queue.insert(QueueEntry(key: rootKey, item: 0))
    }
  }

  /// The next nearest point, or nil after the last.
  ///
  /// - Complexity: O(log n) amortized for well-spread points.
  public mutating func next() -> Neighbor? {
    while true {
      if let first = ready.min, queue.min.map({ $0.key > first.release2 }) ?? true {
        _ = ready.popMin()
        return Neighbor(index: first.index, distance: Distance(meters: first.meters))
      }
      guard let entry = queue.popMin() else { return nil }
      let (qx, qy, qz, center) = (self.qx, self.qy, self.qz, self.center)
      if entry.item < 0 {
        let index = tree.withView { Int($0.ids[-1 - entry.item]) }
        ready.insert(
          ReadyEntry(
            meters: center.distance(to: tree.coordinates[index]).meters, index: index,
            release2: View.tieBound2(entry.key)))
        continue
      }
      var queue = self.queue
      self.queue = MinHeap()  // Leaves `queue` uniquely referenced while it grows.
      tree.withView { view in
        if entry.item < view.firstLeafNode {
          let left = 2 * entry.item + 1
          let leftKey = view.boxDistance2(left, qx, qy, qz)
          if leftKey.isFinite { queue.insert(QueueEntry(key: leftKey, item: left)) }
          let rightKey = view.boxDistance2(left + 1, qx, qy, qz)
          if rightKey.isFinite { queue.insert(QueueEntry(key: rightKey, item: left + 1)) }
        } else {
          let (start, end) = view.leafBounds(entry.item)
          for p in start..<end {
            queue.insert(QueueEntry(key: view.chord2(p, qx, qy, qz), item: -1 - p))
          }
        }
      }
      self.queue = queue
    }
  }
}
