import Synchronization

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
/// 32 bytes a point plus 32 / (points per leaf) a node. The masks live in memory of their own
/// (built, or copied from parts), or in a mapped file they borrow (`init(for:borrowing:owner:
/// onDamagedLeaf:)`, for snapshots), so opening saved masks copies nothing.
///
/// `@unchecked Sendable`: the buffers are never written after the initializer, and `memory`
/// keeps them alive as long as any copy.
public struct SubtreeMasks: @unchecked Sendable {
  /// Four 64-bit words; bit `b` is bit `b % 64` of word `b / 64`.
  public typealias Mask = SIMD4<UInt64>

  /// Owns (or keeps alive) the buffers below.
  let memory: TreeMemory
  /// Point masks in tree order.
  let points: UnsafeBufferPointer<Mask>
  /// Node masks, in the tree's node numbering.
  let nodes: UnsafeBufferPointer<Mask>
  /// The tree's leaf level: leaf `j` holds the points `(j·n) >> depth ..< ((j+1)·n) >> depth`.
  let depth: Int
  /// For point masks read from a file: each leaf's digest, checked before a search reads them.
  let leafCheck: LeafCheck?

  /// Builds the masks of every point and node of `tree`.
  ///
  /// - Parameters:
  ///   - tree: The tree the masks are for; use them only in its searches (searches check the
  ///     sizes, not the identity).
  ///   - mask: The mask of the point with index `i` (the index of `tree.coordinates`).
  /// - Complexity: O(n) calls of `mask`.
  public init(for tree: KDTree, mask: (Int) -> Mask) {
    let ids = tree.ids
    let memory = TreeMemory(owner: nil)
    let points = memory.allocate(Mask.self, count: ids.count)
    for p in 0..<ids.count { points.initializeElement(at: p, to: mask(Int(ids[p]))) }
    self.init(tree: tree, memory: memory, points: UnsafeBufferPointer(points))
  }

  init(
    memory: TreeMemory, points: UnsafeBufferPointer<Mask>, nodes: UnsafeBufferPointer<Mask>, depth: Int,
    leafCheck: LeafCheck?
  ) {
    self.memory = memory
    self.points = points
    self.nodes = nodes
    self.depth = depth
    self.leafCheck = leafCheck
  }

  /// Masks with the point masks `points` (in tree order, in `memory`) and their unions per node.
  private init(tree: KDTree, memory: TreeMemory, points: UnsafeBufferPointer<Mask>) {
    let nodes = memory.allocate(Mask.self, count: tree.boxes.count / 6)
    Self.unions(of: points, depth: tree.depth, into: nodes)
    self.init(
      memory: memory, points: points, nodes: UnsafeBufferPointer(nodes), depth: tree.depth, leafCheck: nil)
  }

  /// Writes into `nodes` (one a node of a tree of leaf level `depth`) the union of each node's
  /// point masks.
  static func unions(
    of points: UnsafeBufferPointer<Mask>, depth: Int, into nodes: UnsafeMutableBufferPointer<Mask>
  ) {
    nodes.update(repeating: .zero)
    guard !points.isEmpty else { return }
    let firstLeaf = (1 << depth) - 1
    for node in firstLeaf..<nodes.count {
      let leaf = node - firstLeaf
      let start = (leaf * points.count) >> depth
      let end = ((leaf + 1) * points.count) >> depth
      var union = Mask.zero
      for p in start..<end { union |= points[p] }
      nodes[node] = union
    }
    for node in stride(from: firstLeaf - 1, through: 0, by: -1) {
      nodes[node] = nodes[2 * node + 1] | nodes[2 * node + 2]
    }
  }

  /// New masks computed from these: `transform` gets each point's index and current mask.
  ///
  /// - Parameter tree: The tree these masks were built for.
  /// - Complexity: O(n) calls of `transform`.
  public func updating(for tree: KDTree, _ transform: (_ index: Int, _ mask: Mask) -> Mask) -> SubtreeMasks {
    precondition(points.count == tree.count, "the masks were built for another tree")
    checkWhole()
    let ids = tree.ids
    let memory = TreeMemory(owner: nil)
    let updated = memory.allocate(Mask.self, count: points.count)
    for p in updated.indices { updated.initializeElement(at: p, to: transform(Int(ids[p]), points[p])) }
    return SubtreeMasks(tree: tree, memory: memory, points: UnsafeBufferPointer(updated))
  }

  /// The mask of the point with index `index`.
  ///
  /// - Complexity: O(n); meant for tests and diagnostics, not for search loops.
  public func mask(ofPoint index: Int, in tree: KDTree) -> Mask? {
    checkWhole()
    return tree.ids.firstIndex(of: Int32(index)).map { points[$0] }
  }

  /// The size of the masks: 32 bytes a point and a node.
  public var byteCount: Int { (points.count + nodes.count) * MemoryLayout<Mask>.stride }

  // MARK: - Leaf digests

  /// The number of leaves, and of leaf digests.
  var leafCount: Int { 1 << depth }

  /// The tree positions of leaf `leaf`'s points.
  @inline(__always)
  func leafBounds(_ leaf: Int) -> Range<Int> {
    ((leaf * points.count) >> depth)..<(((leaf + 1) * points.count) >> depth)
  }

  /// Each leaf's digest (`digest(_:count:)` of its point masks), in leaf order: what a snapshot
  /// saves beside the masks so that a reader can check each leaf when it first reads it.
  ///
  /// - Complexity: O(n).
  public var leafDigests: [UInt64] {
    checkWhole()
    return (0..<leafCount).map { leaf in
      let bounds = leafBounds(leaf)
      return Self.digest(points.baseAddress.map { $0 + bounds.lowerBound }, count: bounds.count)
    }
  }

  /// The first leaf whose point masks do not match their saved digest, or `nil` when all match
  /// (always for masks built or copied in memory). Once all have matched, searches stop checking
  /// them (a service verifies its snapshot beside serving, then answers at full speed).
  ///
  /// - Complexity: O(n).
  public func firstDamagedLeaf() -> Int? {
    guard let leafCheck else { return nil }
    for leaf in 0..<leafCount {
      let bounds = leafBounds(leaf)
      guard
        Self.digest(points.baseAddress.map { $0 + bounds.lowerBound }, count: bounds.count)
          == leafCheck.digests[leaf]
      else { return leaf }
    }
    leafCheck.verifiedWhole.store(true, ordering: .relaxed)
    return nil
  }

  /// Whether searches check each leaf's point masks against its digest before they read them:
  /// masks read from a file whose leaves have not all been verified (`firstDamagedLeaf()`).
  public var checksLeavesAsRead: Bool {
    leafCheck.map { !$0.verifiedWhole.load(ordering: .relaxed) } ?? false
  }

  /// Checks every leaf before the masks are read whole (updated, saved), ending as a damaged leaf
  /// found by a search does.
  func checkWhole() {
    guard let leafCheck, !leafCheck.verifiedWhole.load(ordering: .relaxed) else { return }
    if let leaf = firstDamagedLeaf() { leafCheck.damaged(leaf) }
  }

  /// A 64-bit digest of `count` masks: four multiply–rotate lanes, one a word of the mask, then
  /// the count. Not cryptographic: it catches flipped bits and stray edits, for the price of a
  /// few multiplications a mask, so a search can check each leaf it reads (1 KB at most with
  /// the default leaf size) and nothing else.
  @inline(__always)
  public static func digest(_ masks: UnsafePointer<Mask>?, count: Int) -> UInt64 {
    let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    var lanes = SIMD4<UInt64>(prime1, prime2, prime1 ^ prime2, ~prime1)
    if let masks {
      for i in 0..<count {
        let value = lanes &+ masks[i] &* prime2
        lanes = ((value &<< 31) | (value &>> 33)) &* prime1
      }
    }
    @inline(__always) func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
      let value = lane &+ word &* prime2
      return ((value << 31) | (value >> 33)) &* prime1
    }
    var hash = mix(lanes[0], lanes[1]) ^ mix(lanes[2], lanes[3]) ^ UInt64(truncatingIfNeeded: count)
    hash ^= hash >> 29
    return hash &* prime1
  }
}

/// The digests of masks read from a file, and what to do when a leaf does not match its digest.
final class LeafCheck: @unchecked Sendable {
  /// One a leaf (`SubtreeMasks.leafDigests`).
  let digests: UnsafeBufferPointer<UInt64>
  private let onDamagedLeaf: @Sendable (Int) -> Never
  /// Set once every leaf has matched its digest: searches stop checking.
  let verifiedWhole = Atomic<Bool>(false)

  init(digests: UnsafeBufferPointer<UInt64>, onDamagedLeaf: @escaping @Sendable (Int) -> Never) {
    self.digests = digests
    self.onDamagedLeaf = onDamagedLeaf
  }

  @inline(never)
  func damaged(_ leaf: Int) -> Never { onDamagedLeaf(leaf) }
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
  /// The leaves' digests while point masks read from a file are not all known to match them;
  /// `nil` for masks built in memory or verified whole.
  let digests: UnsafePointer<UInt64>?
  let leafCheck: LeafCheck?

  @inline(__always)
  func nodeMayMatch(_ node: Int) -> Bool { (nodes[node] & required) == required }

  @inline(__always)
  func pointMatches(_ p: Int) -> Bool { (points[p] & required) == required }

  /// Checks the point masks of leaf `leaf` (tree positions `start..<end`) against its digest
  /// before a search reads them; a mismatch ends with the owner's `onDamagedLeaf`.
  @inline(__always)
  func checkLeaf(_ leaf: Int, _ start: Int, _ end: Int) {
    guard let digests else { return }
    if SubtreeMasks.digest(points + start, count: end - start) != digests[leaf] { leafCheck!.damaged(leaf) }
  }
}
