import Testing

@testable import GeoIndex

/// A tree saved as its parts and restored (copied, or read in place from memory someone else
/// owns) answers exactly as the tree it came from; parts that do not fit are refused.
@Suite struct KDTreePartsTests {
  static let points: [Coordinate] = {
    var rng = SplitMix64(seed: 77)
    return rng.coordinates(3_000)
  }()
  static let tree = KDTree(coordinates: points)

  /// Memory laid out as a snapshot lays it out, owned by an object the tree must keep alive.
  final class Block: @unchecked Sendable {
    let raw: UnsafeMutableRawBufferPointer
    init(byteCount: Int) { raw = .allocate(byteCount: byteCount, alignment: 16) }
    deinit { raw.deallocate() }
  }

  static func borrowedTree() throws -> KDTree {
    let parts = tree.parts
    let pairs = points.flatMap { [$0.latitude, $0.longitude] }
    var offsets: [Int] = []
    var total = 0
    for bytes in [
      pairs.count * 8, parts.xs.count * 8, parts.ys.count * 8, parts.zs.count * 8, parts.ids.count * 4,
    ] {
      offsets.append(total)
      total += (bytes + 15) / 16 * 16
    }
    offsets.append(total)
    total += parts.boxes.count * 4
    let block = Block(byteCount: total)
    func place<T>(_ array: [T], _ index: Int) -> UnsafeBufferPointer<T> {
      let start = (block.raw.baseAddress! + offsets[index]).bindMemory(to: T.self, capacity: array.count)
      for (i, value) in array.enumerated() { start[i] = value }
      return UnsafeBufferPointer(start: start, count: array.count)
    }
    let layout = KDTreeLayout(
      depth: parts.depth, coordinates: place(pairs, 0), xs: place(parts.xs, 1), ys: place(parts.ys, 2),
      zs: place(parts.zs, 3), ids: place(parts.ids, 4), boxes: place(parts.boxes, 5))
    return try KDTree(borrowing: layout, owner: block)
  }

  @Test func restoredTreesAnswerTheSame() throws {
    let copied = try KDTree(coordinates: Self.points, parts: Self.tree.parts)
    let borrowed = try Self.borrowedTree()
    var rng = SplitMix64(seed: 9)
    for _ in 0..<200 {
      let center = rng.coordinate()
      let expected = Self.tree.nearest(10, to: center)
      #expect(copied.nearest(10, to: center) == expected)
      #expect(borrowed.nearest(10, to: center) == expected)
      #expect(borrowed.within(.kilometers(800), of: center) == Self.tree.within(.kilometers(800), of: center))
    }
    #expect(Array(borrowed.coordinates) == Self.points)
  }

  @Test func partsThatDoNotFitAreRefused() {
    var parts = Self.tree.parts
    parts.ids[17] = Int32(Self.points.count)
    #expect(throws: KDTreePartsError.self) { try KDTree(coordinates: Self.points, parts: parts) }
    parts = Self.tree.parts
    parts.boxes.removeLast()
    #expect(throws: KDTreePartsError.self) { try KDTree(coordinates: Self.points, parts: parts) }
    parts = Self.tree.parts
    parts.depth += 1
    #expect(throws: KDTreePartsError.self) { try KDTree(coordinates: Self.points, parts: parts) }
    #expect(throws: KDTreePartsError.self) {
      try KDTree(coordinates: Array(Self.points.dropLast()), parts: Self.tree.parts)
    }
  }
}
