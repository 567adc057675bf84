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

extension KDTree {
  /// The tree's arrays, for saving.
  public var parts: KDTreeParts { KDTreeParts(depth: depth, xs: xs, ys: ys, zs: zs, ids: ids, boxes: boxes) }

  /// A tree from saved parts, without rebuilding it.
  ///
  /// The parts are checked for consistency (array lengths, depth, every id in range), so parts
  /// that passed no checksum still cannot make a search read out of bounds; a wrong but
  /// consistent tree is the caller's to prevent (snapshots carry checksums).
  /// - Throws: `KDTreePartsError` saying which array does not fit.
  /// - Complexity: O(n).
  public init(coordinates: [Coordinate], parts: KDTreeParts) throws(KDTreePartsError) {
    let n = coordinates.count
    guard parts.xs.count == n, parts.ys.count == n, parts.zs.count == n, parts.ids.count == n else {
      throw KDTreePartsError(description: "the tree holds a different number of points than the coordinates")
    }
    guard (0..<40).contains(parts.depth) else {
      throw KDTreePartsError(description: "the tree depth \(parts.depth) does not fit \(n) points")
    }
    let nodeCount = n == 0 ? 1 : (2 << parts.depth) - 1
    guard parts.boxes.count == 6 * nodeCount else {
      throw KDTreePartsError(
        description: "the tree has \(parts.boxes.count / 6) node boxes, expected \(nodeCount)")
    }
    for id in parts.ids where id < 0 || Int(id) >= n {
      throw KDTreePartsError(description: "the tree refers to point \(id) of \(n)")
    }
    self.init(
      coordinates: coordinates, depth: parts.depth, xs: parts.xs, ys: parts.ys, zs: parts.zs, ids: parts.ids,
      boxes: parts.boxes)
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
