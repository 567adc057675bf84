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
    guard (0..<40).contains(depth) else {
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
  public var parts: SubtreeMaskParts { SubtreeMaskParts(points: points, nodes: nodes) }

  /// Masks from saved parts, checked against the tree's size.
  public init(for tree: KDTree, parts: SubtreeMaskParts) throws(KDTreePartsError) {
    guard parts.points.count == tree.count, parts.nodes.count == tree.boxes.count / 6 else {
      throw KDTreePartsError(description: "the masks do not fit the tree")
    }
    self.init(uncheckedPoints: parts.points, nodes: parts.nodes)
  }
}
