/// The arrays a built tree consists of, to save it (in a snapshot) and restore it without
/// rebuilding. The layout is the one documented on `KDTree`.
public struct KDTreeParts: Sendable {
  /// The level of the leaves; there are `1 << depth` of them.
  public var depth: Int
  /// Unit vectors in tree order.
  public var xs: [Double]
  public var ys: [Double]
  public var zs: [Double]
  /// The input index of the point at each tree position.
  public var ids: [Int32]
  /// Six `Float`s a node: min x, y, z, then max x, y, z.
  public var boxes: [Float]

  public init(depth: Int, xs: [Double], ys: [Double], zs: [Double], ids: [Int32], boxes: [Float]) {
    self.depth = depth
    self.xs = xs
    self.ys = ys
    self.zs = zs
    self.ids = ids
    self.boxes = boxes
  }
}

/// Why saved tree parts do not make a tree.
public struct KDTreePartsError: Error, Hashable, Sendable, CustomStringConvertible {
  public let description: String
}

/// Where the arrays of a saved tree lie in memory the caller owns (a mapped snapshot), for
/// `KDTree(borrowing:owner:)`.
public struct KDTreeLayout {
  public var depth: Int
  /// The coordinates as latitude, longitude pairs of `Double`s, in index order.
  public var coordinates: UnsafeBufferPointer<Double>
  public var xs: UnsafeBufferPointer<Double>
  public var ys: UnsafeBufferPointer<Double>
  public var zs: UnsafeBufferPointer<Double>
  public var ids: UnsafeBufferPointer<Int32>
  public var boxes: UnsafeBufferPointer<Float>

  public init(
    depth: Int, coordinates: UnsafeBufferPointer<Double>, xs: UnsafeBufferPointer<Double>,
    ys: UnsafeBufferPointer<Double>, zs: UnsafeBufferPointer<Double>, ids: UnsafeBufferPointer<Int32>,
    boxes: UnsafeBufferPointer<Float>
  ) {
    self.depth = depth
    self.coordinates = coordinates
    self.xs = xs
    self.ys = ys
    self.zs = zs
    self.ids = ids
    self.boxes = boxes
  }
}

extension KDTree {
  /// The tree's arrays, for saving.
  public var parts: KDTreeParts {
    KDTreeParts(
      depth: depth, xs: Array(xs), ys: Array(ys), zs: Array(zs), ids: Array(ids), boxes: Array(boxes))
  }

  /// A tree from saved parts, without rebuilding it (the parts are copied).
  ///
  /// - Throws: `KDTreePartsError` saying which array does not fit.
  /// - Complexity: O(n).
  public init(coordinates: [Coordinate], parts: KDTreeParts) throws(KDTreePartsError) {
    let memory = TreeMemory(owner: nil)
    func copy<T>(_ array: [T]) -> UnsafeBufferPointer<T> {
      let buffer = memory.allocate(T.self, count: array.count)
      _ = buffer.initialize(from: array)
      return UnsafeBufferPointer(buffer)
    }
    try self.init(
      checking: memory, coordinates: copy(coordinates), depth: parts.depth, xs: copy(parts.xs),
      ys: copy(parts.ys), zs: copy(parts.zs), ids: copy(parts.ids), boxes: copy(parts.boxes))
  }

  /// A tree over arrays in memory the caller owns, such as a mapped snapshot, copying nothing;
  /// the tree keeps `owner` alive, and the memory must not change while it lives.
  ///
  /// The layout is checked for consistency (lengths, depth, every id in range), so it cannot
  /// make a search read out of bounds; that the values are the ones saved is the caller's to
  /// check (snapshots carry checksums).
  /// - Throws: `KDTreePartsError` saying which array does not fit.
  /// - Complexity: O(n) to check the ids.
  public init(borrowing layout: KDTreeLayout, owner: any AnyObject & Sendable) throws(KDTreePartsError) {
    let memory = TreeMemory(owner: owner)
    guard layout.coordinates.count % 2 == 0,
      let base = layout.coordinates.baseAddress ?? layout.xs.baseAddress
    else {
      throw KDTreePartsError(description: "the coordinates are not latitude, longitude pairs")
    }
    let count = layout.coordinates.count / 2
    let coordinates: UnsafeBufferPointer<Coordinate>
    if Coordinate.isLatitudeLongitudePair {
      coordinates = UnsafeBufferPointer(
        start: UnsafeRawPointer(base).assumingMemoryBound(to: Coordinate.self), count: count)
    } else {
      let copy = memory.allocate(Coordinate.self, count: count)
      for i in 0..<count {
        copy[i] = Coordinate(
          uncheckedLatitude: layout.coordinates[2 * i], longitude: layout.coordinates[2 * i + 1])
      }
      coordinates = UnsafeBufferPointer(copy)
    }
    try self.init(
      checking: memory, coordinates: coordinates, depth: layout.depth, xs: layout.xs, ys: layout.ys,
      zs: layout.zs, ids: layout.ids, boxes: layout.boxes)
  }

  private init(
    checking memory: TreeMemory, coordinates: UnsafeBufferPointer<Coordinate>, depth: Int,
    xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>, zs: UnsafeBufferPointer<Double>,
    ids: UnsafeBufferPointer<Int32>, boxes: UnsafeBufferPointer<Float>
  ) throws(KDTreePartsError) {
    let n = coordinates.count
    guard xs.count == n, ys.count == n, zs.count == n, ids.count == n else {
      throw KDTreePartsError(description: "the tree holds a different number of points than the coordinates")
    }
    // The builder never makes more leaves than points (at most one leaf level past 2^depth ≥ n),
    // and the searches compute leaf bounds as `leaf * n >> depth`: a depth this bounds cannot
    // overflow that product, nor ask for an absurd number of node boxes.
    guard Self.fits(depth: depth, count: n) else {
      throw KDTreePartsError(description: "the tree depth \(depth) does not fit \(n) points")
    }
    let nodeCount = n == 0 ? 1 : (2 << depth) - 1
    guard boxes.count == 6 * nodeCount else {
      throw KDTreePartsError(description: "the tree has \(boxes.count / 6) node boxes, expected \(nodeCount)")
    }
    for id in ids where id < 0 || Int(id) >= n {
      throw KDTreePartsError(description: "the tree refers to point \(id) of \(n)")
    }
    self.init(
      memory: memory, coordinates: coordinates, depth: depth, xs: xs, ys: ys, zs: zs, ids: ids, boxes: boxes)
  }
}

extension KDTree {
  /// Whether `depth` is one the builder can give `count` points: 0 for no points, else at most
  /// the depth at which every leaf holds one point (`2^depth < 2 * count`).
  static func fits(depth: Int, count: Int) -> Bool {
    guard depth >= 0, depth < 32 else { return false }
    return count == 0 ? depth == 0 : (1 << depth) < 2 * count
  }

  /// Checks what a search relies on beyond what opening checks (array sizes, depth, ids in
  /// range), for a tree whose arrays came from a file: the coordinates are valid, the ids are a
  /// permutation of the points, each unit vector is its point's, each leaf's box holds its points
  /// and each node's box holds its children's. A tree that passes answers as the one saved.
  ///
  /// - Throws: `KDTreePartsError` naming the first inconsistency.
  /// - Complexity: O(n) time, n bits of memory.
  public func validateStructure() throws(KDTreePartsError) {
    let n = count
    var seen = [Bool](repeating: false, count: n)
    for p in 0..<n {
      let id = Int(ids[p])
      guard !seen[id] else { throw KDTreePartsError(description: "the tree holds point \(id) twice") }
      seen[id] = true
      let coordinate = coordinateBuffer[id]
      guard (-90...90).contains(coordinate.latitude), (-180...180).contains(coordinate.longitude) else {
        throw KDTreePartsError(description: "point \(id) has no valid coordinate")
      }
      // The unit vectors were computed with the platform's sin and cos: allow their last bits.
      let v = coordinate.unitVector
      guard abs(xs[p] - v.x) <= 1e-12, abs(ys[p] - v.y) <= 1e-12, abs(zs[p] - v.z) <= 1e-12 else {
        throw KDTreePartsError(description: "the unit vector of point \(id) is not its coordinate's")
      }
    }
    let nodeCount = boxes.count / 6
    guard n > 0 else { return }
    let firstLeaf = (1 << depth) - 1
    for node in firstLeaf..<nodeCount {
      let leaf = node - firstLeaf
      for p in (leaf * n) >> depth..<((leaf + 1) * n) >> depth
      where !boxContains(node, x: xs[p], y: ys[p], z: zs[p]) {
        throw KDTreePartsError(description: "the box of node \(node) does not hold its point \(ids[p])")
      }
    }
    for node in 0..<firstLeaf {
      for child in [2 * node + 1, 2 * node + 2] where !boxContains(node, child: child) {
        throw KDTreePartsError(description: "the box of node \(node) does not hold its child \(child)")
      }
    }
  }

  /// Written so that a NaN bound fails.
  private func boxContains(_ node: Int, x: Double, y: Double, z: Double) -> Bool {
    let b = 6 * node
    return Double(boxes[b]) <= x && Double(boxes[b + 1]) <= y && Double(boxes[b + 2]) <= z
      && x <= Double(boxes[b + 3]) && y <= Double(boxes[b + 4]) && z <= Double(boxes[b + 5])
  }

  /// An empty child (min +∞, max -∞) is held by any box; NaN bounds fail.
  private func boxContains(_ node: Int, child: Int) -> Bool {
    let b = 6 * node
    let c = 6 * child
    if boxes[c] == .infinity && boxes[c + 3] == -.infinity { return !boxes[b].isNaN && !boxes[b + 3].isNaN }
    return (0..<3).allSatisfy { boxes[b + $0] <= boxes[c + $0] && boxes[c + 3 + $0] <= boxes[b + 3 + $0] }
  }
}

/// The arrays of `SubtreeMasks`, for saving.
public struct SubtreeMaskParts: Sendable {
  /// One mask a point, in tree order.
  public var points: [SubtreeMasks.Mask]
  /// One mask a node.
  public var nodes: [SubtreeMasks.Mask]

  public init(points: [SubtreeMasks.Mask], nodes: [SubtreeMasks.Mask]) {
    self.points = points
    self.nodes = nodes
  }
}

extension SubtreeMasks {
  /// The masks' arrays, for saving (checked against their digests first when read from a file).
  public var parts: SubtreeMaskParts {
    checkWhole()
    return SubtreeMaskParts(points: Array(points), nodes: Array(nodes))
  }

  /// Masks from saved parts, checked against the tree's size (the parts are copied).
  public init(for tree: KDTree, parts: SubtreeMaskParts) throws(KDTreePartsError) {
    guard parts.points.count == tree.count, parts.nodes.count == tree.boxes.count / 6 else {
      throw KDTreePartsError(description: "the masks do not fit the tree")
    }
    let memory = TreeMemory(owner: nil)
    func copy(_ array: [Mask]) -> UnsafeBufferPointer<Mask> {
      let buffer = memory.allocate(Mask.self, count: array.count)
      _ = buffer.initialize(from: array)
      return UnsafeBufferPointer(buffer)
    }
    self.init(
      memory: memory, points: copy(parts.points), nodes: copy(parts.nodes), depth: tree.depth, leafCheck: nil)
  }

  /// Masks over arrays in memory the caller owns, such as a mapped snapshot, copying nothing;
  /// they keep `owner` alive, and the memory must not change while they live.
  ///
  /// The sizes and the alignment are checked here. The node masks are the caller's to check
  /// (a snapshot checksums them, a few MB, before it calls this). The point masks (32 bytes a
  /// point) are not read now: a search checks each leaf's masks against its digest before it
  /// reads them, so a search never skips or admits a point on a damaged mask, and opening costs
  /// nothing per point. A leaf that does not match ends in `onDamagedLeaf`.
  ///
  /// - Parameters:
  ///   - layout: The point masks, node masks and leaf digests (`leafDigests`).
  ///   - onDamagedLeaf: Called with the leaf whose point masks do not match their digest,
  ///     before anything reads them; it must not return (a query cannot fail). `nil`: the masks
  ///     are trusted as they are (an image built in memory a moment ago), not checked.
  /// - Throws: `KDTreePartsError` when a size does not fit the tree or the masks do not lie on
  ///   32-byte boundaries.
  /// - Complexity: O(1).
  public init(
    for tree: KDTree, borrowing layout: SubtreeMaskLayout, owner: any AnyObject & Sendable,
    onDamagedLeaf: (@Sendable (_ leaf: Int) -> Never)?
  ) throws(KDTreePartsError) {
    let stride = MemoryLayout<Mask>.stride
    let leafCount = 1 << tree.depth
    guard layout.points.count == tree.count * stride, layout.nodes.count == tree.boxes.count / 6 * stride,
      layout.leafDigests.count == leafCount * 8
    else { throw KDTreePartsError(description: "the masks do not fit the tree") }
    func aligned(_ bytes: UnsafeRawBufferPointer, _ alignment: Int) -> Bool {
      bytes.isEmpty || Int(bitPattern: bytes.baseAddress) % alignment == 0
    }
    guard aligned(layout.points, 32), aligned(layout.nodes, 32), aligned(layout.leafDigests, 8) else {
      throw KDTreePartsError(description: "the masks do not lie on 32-byte boundaries")
    }
    func bound<T>(_ bytes: UnsafeRawBufferPointer, as _: T.Type) -> UnsafeBufferPointer<T> {
      guard let base = bytes.baseAddress, !bytes.isEmpty else {
        return UnsafeBufferPointer(start: nil, count: 0)
      }
      return UnsafeBufferPointer(
        start: base.assumingMemoryBound(to: T.self), count: bytes.count / MemoryLayout<T>.stride)
    }
    self.init(
      memory: TreeMemory(owner: owner), points: bound(layout.points, as: Mask.self),
      nodes: bound(layout.nodes, as: Mask.self), depth: tree.depth,
      leafCheck: onDamagedLeaf.map {
        LeafCheck(digests: bound(layout.leafDigests, as: UInt64.self), onDamagedLeaf: $0)
      })
  }

  /// Whether every node's mask is the union of its subtree's point masks, as searches that skip
  /// subtrees assume (`stores snapshot verify` checks it; opening only checks sizes).
  ///
  /// - Complexity: O(n).
  public func isConsistent(with tree: KDTree) -> Bool {
    guard points.count == tree.count, nodes.count == tree.boxes.count / 6 else { return false }
    var unions = [Mask](repeating: .zero, count: nodes.count)
    unions.withUnsafeMutableBufferPointer { Self.unions(of: points, depth: tree.depth, into: $0) }
    return unions.elementsEqual(nodes)
  }
}

/// Where saved masks lie in memory the caller owns (a mapped snapshot), for
/// `SubtreeMasks(for:borrowing:owner:onDamagedLeaf:)`.
public struct SubtreeMaskLayout {
  /// 32 bytes a point, in tree order, on a 32-byte boundary.
  public var points: UnsafeRawBufferPointer
  /// 32 bytes a node, on a 32-byte boundary.
  public var nodes: UnsafeRawBufferPointer
  /// A `UInt64` a leaf: `SubtreeMasks.leafDigests`.
  public var leafDigests: UnsafeRawBufferPointer

  public init(
    points: UnsafeRawBufferPointer, nodes: UnsafeRawBufferPointer, leafDigests: UnsafeRawBufferPointer
  ) {
    self.points = points
    self.nodes = nodes
    self.leafDigests = leafDigests
  }
}
