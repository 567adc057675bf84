/// 256 bits of facts about each point of a tree (an attribute it has, an hour it may be open),
/// OR-ed over every subtree, so a search that requires some bits skips each subtree where no point
/// has them all, instead of testing its points one by one.
///
/// The bits mean whatever the caller decides; the tree only combines them. A node's mask is the
/// union of its points' masks, so "no point below has all the required bits" is exact: the
/// search skips nothing that could match, and with the per-point test the results are exactly
/// those of a predicate that checks the bits.
///
/// Layout: one mask a point, in tree order (so a leaf's masks are contiguous), and one a node:
/// 32 bytes a point plus 32 / (points per leaf) a node.
public struct SubtreeMasks: Sendable {
  /// Four 64-bit words; bit `b` is bit `b % 64` of word `b / 64`.
  public typealias Mask = SIMD4<UInt64>

  /// Point masks in tree order.
  let points: [Mask]
  /// Node masks, in the tree's node numbering.
  let nodes: [Mask]

  /// Builds the masks of every point and node of `tree`.
  ///
  /// - Parameters:
  ///   - tree: The tree the masks are for; use them only in its searches (searches check the
  ///     sizes, not the identity).
  ///   - mask: The mask of the point with index `i` (the index of `tree.coordinates`).
  /// - Complexity: O(n) calls of `mask`.
  public init(for tree: KDTree, mask: (Int) -> Mask) {
    let ids = tree.ids
    let points = [Mask](unsafeUninitializedCapacity: ids.count) { buffer, initialized in
      for p in 0..<ids.count { buffer[p] = mask(Int(ids[p])) }
      initialized = ids.count
    }
    self.init(tree: tree, points: points)
  }

  init(uncheckedPoints points: [Mask], nodes: [Mask]) {
    self.points = points
    self.nodes = nodes
  }

  /// Masks with the point masks `points` (in tree order) and their unions per node.
  init(tree: KDTree, points: [Mask]) {
    let nodeCount = tree.boxes.count / 6
    var nodes = [Mask](repeating: .zero, count: nodeCount)
    if !points.isEmpty {
      let firstLeaf = (1 << tree.depth) - 1
      for node in firstLeaf..<nodeCount {
        let leaf = node - firstLeaf
        let start = (leaf * points.count) >> tree.depth
        let end = ((leaf + 1) * points.count) >> tree.depth
        var union = Mask.zero
        for p in start..<end { union |= points[p] }
        nodes[node] = union
      }
      for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
        nodes[node] = nodes[2 * node + 1] | nodes[2 * node + 2]
      }
    }
    self.points = points
    self.nodes = nodes
  }

  /// New masks computed from these: `transform` gets each point's index and current mask.
  ///
  /// - Parameter tree: The tree these masks were built for.
  /// - Complexity: O(n) calls of `transform`.
  public func updating(for tree: KDTree, _ transform: (_ index: Int, _ mask: Mask) -> Mask) -> SubtreeMasks {
    precondition(points.count == tree.count, "the masks were built for another tree")
    let ids = tree.ids
    var updated = points
    for p in updated.indices { updated[p] = transform(Int(ids[p]), points[p]) }
    return SubtreeMasks(tree: tree, points: updated)
  }

  /// The mask of the point with index `index`.
  ///
  /// - Complexity: O(n); meant for tests and diagnostics, not for search loops.
  public func mask(ofPoint index: Int, in tree: KDTree) -> Mask? {
    tree.ids.firstIndex(of: Int32(index)).map { points[$0] }
  }

  /// The size of the masks: 32 bytes a point and a node.
  public var byteCount: Int { (points.count + nodes.count) * MemoryLayout<Mask>.stride }
}

/// "Only points whose mask holds all of `required`": a condition the search checks on whole
/// subtrees before it looks at their points.
public struct MaskRequirement: Sendable {
  public let masks: SubtreeMasks
  public let required: SubtreeMasks.Mask

  public init(_ masks: SubtreeMasks, required: SubtreeMasks.Mask) {
    self.masks = masks
    self.required = required
  }

  /// Sets bit `bit` (0..<256) of `mask`.
  public static func setting(_ bit: Int, in mask: inout SubtreeMasks.Mask) {
    precondition((0..<256).contains(bit), "bit \(bit) is outside 0..<256")
    mask[bit >> 6] |= 1 << UInt64(bit & 63)
  }
}

/// The masks as the search loops read them.
struct MaskView {
  let points: UnsafePointer<SubtreeMasks.Mask>
  let nodes: UnsafePointer<SubtreeMasks.Mask>
  let required: SubtreeMasks.Mask

  @inline(__always)
  func nodeMayMatch(_ node: Int) -> Bool { (nodes[node] & required) == required }

  @inline(__always)
  func pointMatches(_ p: Int) -> Bool { (points[p] & required) == required }
}
