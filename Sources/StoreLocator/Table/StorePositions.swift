/// The store position of each tree point: the `storePositions` section, read in place from the
/// table's memory, which the table keeps while the catalog lives.
///
/// Copied into an array, a 1M-store snapshot's 4 MB cost every process that opened it a copy
/// and the faults of fresh pages, about a tenth of one that answers a single query
/// (Benchmarks/README.md, "A snapshot opened on both cores").
struct StorePositions: RandomAccessCollection, @unchecked Sendable {
  private let points: UnsafeBufferPointer<Int32>

  /// The positions in `points`, little-endian, in memory that outlives this.
  init(_ points: UnsafeBufferPointer<Int32>) { self.points = points }

  var startIndex: Int { 0 }
  var endIndex: Int { points.count }

  /// The store position of tree point `point`.
  @inline(__always) subscript(point: Int) -> Int32 { Int32(littleEndian: points[point]) }
}
