import Testing

@testable import GeoIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Searches that skip subtrees by mask give exactly what brute force gives with the same bits
/// checked per point.
@Suite struct SubtreeMaskTests {
  static let points: [Coordinate] = {
    var rng = SplitMix64(seed: 99)
    // Uniform points plus a cluster straddling the antimeridian and one at the north pole.
    var points = rng.coordinates(6_000)
    for _ in 0..<1_000 {
      let longitude = rng.unit() < 0.5 ? rng.uniform(179.5, 180) : rng.uniform(-180, -179.5)
      points.append(Coordinate(uncheckedLatitude: rng.uniform(-17.5, -16.5), longitude: longitude))
    }
    for _ in 0..<500 {
      points.append(Coordinate(uncheckedLatitude: rng.uniform(89.99, 90), longitude: rng.uniform(-180, 180)))
    }
    return points
  }()

  static let tree = KDTree(coordinates: points)

  /// Bit 0 on about 10% of points, bit 1 on 1%, bit 70 on half, bit 200 on points of the
  /// eastern hemisphere (so whole regions lack it), bit 255 nowhere.
  static let pointMasks: [SubtreeMasks.Mask] = {
    var rng = SplitMix64(seed: 5)
    return points.map { point in
      var mask = SubtreeMasks.Mask.zero
      if rng.unit() < 0.10 { MaskRequirement.setting(0, in: &mask) }
      if rng.unit() < 0.01 { MaskRequirement.setting(1, in: &mask) }
      if rng.unit() < 0.5 { MaskRequirement.setting(70, in: &mask) }
      if point.longitude >= 0 { MaskRequirement.setting(200, in: &mask) }
      return mask
    }
  }()

  static let masks = SubtreeMasks(for: tree) { pointMasks[$0] }

  static let requirements: [[Int]] = [[], [0], [1], [70], [200], [0, 200], [1, 70, 200], [255]]

  static func requirement(_ bits: [Int]) -> MaskRequirement {
    var required = SubtreeMasks.Mask.zero
    for bit in bits { MaskRequirement.setting(bit, in: &required) }
    return MaskRequirement(masks, required: required)
  }

  static func holds(_ bits: [Int], _ index: Int) -> Bool {
    bits.allSatisfy { (pointMasks[index][$0 >> 6] >> UInt64($0 & 63)) & 1 == 1 }
  }

  static let queries: [Coordinate] = {
    var rng = SplitMix64(seed: 4242)
    var queries = rng.coordinates(150)
    queries += [
      Coordinate(uncheckedLatitude: -17, longitude: 180),
      Coordinate(uncheckedLatitude: -17, longitude: -179.9),
      Coordinate(uncheckedLatitude: 90, longitude: 0), Coordinate(uncheckedLatitude: -90, longitude: 0),
    ]
    return queries
  }()

  @Test(arguments: requirements)
  func nearestMatchesBruteForce(bits: [Int]) {
    let requirement = Self.requirement(bits)
    for (q, center) in Self.queries.enumerated() {
      // A second predicate on top of the masks, as the catalog uses it.
      let odd = q % 3 == 0
      let found = Self.tree.nearest(10, to: center, requiring: requirement) { !odd || $0 % 2 == 1 }
      let expected = Array(
        bruteForce(Self.points, from: center) { Self.holds(bits, $0) && (!odd || $0 % 2 == 1) }.prefix(10))
      expectSameNeighbors(found, expected, points: Self.points, center: center, "bits \(bits) query \(q)")
    }
  }

  @Test(arguments: requirements)
  func withinRadiusMatchesBruteForce(bits: [Int]) {
    let requirement = Self.requirement(bits)
    for (q, center) in Self.queries.enumerated() {
      let radius = Distance.kilometers(Double(q % 5 + 1) * 400)
      let found = Self.tree.within(radius, of: center, requiring: requirement)
      let expected = bruteForce(Self.points, from: center) { Self.holds(bits, $0) }.filter {
        $0.distance <= radius
      }
      expectSameNeighbors(found, expected, points: Self.points, center: center, "bits \(bits) query \(q)")
    }
  }

  @Test(arguments: requirements)
  func boxMatchesBruteForce(bits: [Int]) throws {
    let requirement = Self.requirement(bits)
    let boxes = [
      try GeoBox(west: 170, south: -30, east: -170, north: -5),
      try GeoBox(west: -10, south: 30, east: 40, north: 60),
      try GeoBox(west: -180, south: 80, east: 180, north: 90),
    ]
    for box in boxes {
      let found = Self.tree.within(box, requiring: requirement)
      let expected = Self.points.indices.filter { box.contains(Self.points[$0]) && Self.holds(bits, $0) }
      #expect(found == expected, "bits \(bits) box \(box)")
    }
  }

  /// A node's mask is the union of the masks below it, and a point keeps its own mask.
  @Test func nodeMasksAreUnionsOfTheirPoints() {
    let masks = Self.masks
    for node in stride(from: (1 << Self.tree.depth) - 2, through: 0, by: -1) {
      #expect(masks.nodes[node] == masks.nodes[2 * node + 1] | masks.nodes[2 * node + 2])
    }
    var all = SubtreeMasks.Mask.zero
    for mask in Self.pointMasks { all |= mask }
    #expect(masks.nodes[0] == all)
    for index in [0, 17, 6_500, Self.points.count - 1] {
      #expect(masks.mask(ofPoint: index, in: Self.tree) == Self.pointMasks[index])
    }
  }

  /// A requirement no point meets finds nothing, and an empty requirement changes nothing.
  @Test func impossibleAndEmptyRequirements() {
    let center = Coordinate(uncheckedLatitude: 10, longitude: 10)
    #expect(Self.tree.nearest(5, to: center, requiring: Self.requirement([255])).isEmpty)
    #expect(
      Self.tree.nearest(5, to: center, requiring: Self.requirement([])) == Self.tree.nearest(5, to: center))
    let empty = KDTree(coordinates: [])
    let none = SubtreeMasks(for: empty) { _ in .zero }
    #expect(empty.nearest(3, to: center, requiring: MaskRequirement(none, required: .zero)).isEmpty)
  }

  // MARK: - Masks read in place

  /// Memory the borrowed masks keep alive, as a mapped snapshot.
  final class Block: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    init(size: Int) {
      base = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 4096)
      base.initializeMemory(as: UInt8.self, repeating: 0, count: size)
    }
    deinit { base.deallocate() }
  }

  /// `masks` laid out as a snapshot lays them out (point masks, node masks, leaf digests), the
  /// masks `shift` bytes past a 32-byte boundary, the point mask at tree position `damaged` with
  /// one bit flipped, and read in place.
  static func borrowed(
    shift: Int = 0, damaged: Int? = nil,
    onDamagedLeaf: (@Sendable (Int) -> Never)? = { leaf in fatalError("leaf \(leaf) is damaged") }
  ) throws(KDTreePartsError) -> SubtreeMasks {
    let parts = masks.parts
    let digests = masks.leafDigests
    let pointsAt = 32 + shift
    let nodesAt = pointsAt + 32 * parts.points.count
    let digestsAt = nodesAt + 32 * parts.nodes.count
    let block = Block(size: digestsAt + 8 * digests.count)
    parts.points.withUnsafeBytes {
      (block.base + pointsAt).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
    }
    parts.nodes.withUnsafeBytes {
      (block.base + nodesAt).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
    }
    digests.withUnsafeBytes {
      (block.base + digestsAt).copyMemory(from: $0.baseAddress!, byteCount: $0.count)
    }
    if let damaged {
      block.base.storeBytes(of: 0x10, toByteOffset: pointsAt + 32 * damaged + 9, as: UInt8.self)
    }
    let bytes = UnsafeRawBufferPointer(start: block.base, count: digestsAt + 8 * digests.count)
    let layout = SubtreeMaskLayout(
      points: UnsafeRawBufferPointer(rebasing: bytes[pointsAt..<nodesAt]),
      nodes: UnsafeRawBufferPointer(rebasing: bytes[nodesAt..<digestsAt]),
      leafDigests: UnsafeRawBufferPointer(rebasing: bytes[digestsAt...]))
    return try SubtreeMasks(for: tree, borrowing: layout, owner: block, onDamagedLeaf: onDamagedLeaf)
  }

  /// Masks read in place from borrowed memory, each leaf checked against its digest as the
  /// search reads it, answer as the masks built in memory, which answer as brute force.
  @Test func borrowedMasksAnswerAsBuiltOnes() throws {
    let borrowed = try Self.borrowed()
    #expect(borrowed.leafCheck != nil)
    #expect(borrowed.leafDigests == Self.masks.leafDigests)
    let box = try GeoBox(west: -10, south: 30, east: 40, north: 60)
    for bits in Self.requirements {
      var required = SubtreeMasks.Mask.zero
      for bit in bits { MaskRequirement.setting(bit, in: &required) }
      let inPlace = MaskRequirement(borrowed, required: required)
      let built = MaskRequirement(Self.masks, required: required)
      for (q, center) in Self.queries.enumerated() {
        #expect(
          Self.tree.nearest(10, to: center, requiring: inPlace)
            == Self.tree.nearest(10, to: center, requiring: built),
          "bits \(bits) query \(q)")
        let radius = Distance.kilometers(Double(q % 5 + 1) * 400)
        #expect(
          Self.tree.within(radius, of: center, requiring: inPlace)
            == Self.tree.within(radius, of: center, requiring: built))
      }
      #expect(Self.tree.within(box, requiring: inPlace) == Self.tree.within(box, requiring: built))
      let expected = Array(bruteForce(Self.points, from: Self.queries[0]) { Self.holds(bits, $0) }.prefix(10))
      expectSameNeighbors(
        Self.tree.nearest(10, to: Self.queries[0], requiring: inPlace), expected, points: Self.points,
        center: Self.queries[0], "bits \(bits)")
    }
    #expect(borrowed.isConsistent(with: Self.tree))
    #expect(borrowed.firstDamagedLeaf() == nil)
    #expect(borrowed.leafCheck?.verifiedWhole.load(ordering: .relaxed) == true)
    for index in [0, 17, 6_500] {
      #expect(borrowed.mask(ofPoint: index, in: Self.tree) == Self.pointMasks[index])
    }
  }

  /// Masks off their 32-byte boundary are refused, not read as vectors.
  @Test func misalignedMasksAreRefused() {
    for shift in [8, 16, 24] {
      #expect(throws: KDTreePartsError(description: "the masks do not lie on 32-byte boundaries")) {
        try Self.borrowed(shift: shift)
      }
    }
  }

  /// A flipped bit in a point mask is found in its leaf, and only there.
  @Test func aDamagedPointMaskIsFoundInItsLeaf() throws {
    for position in [0, 1_234, Self.points.count - 1] {
      let damaged = try Self.borrowed(damaged: position)
      let leaf = try #require(damaged.firstDamagedLeaf())
      #expect(damaged.leafBounds(leaf).contains(position))
      #expect(damaged.leafCheck?.verifiedWhole.load(ordering: .relaxed) == false)
    }
  }

  /// A search that reads a damaged leaf's masks ends in `onDamagedLeaf` before it uses them.
  @Test func aSearchReadingADamagedLeafReportsIt() async {
    await #expect(processExitsWith: .exitCode(42)) {
      let position = 1_234
      let damaged = try SubtreeMaskTests.borrowed(damaged: position, onDamagedLeaf: { _ in exit(42) })
      let index = Int(SubtreeMaskTests.tree.ids[position])
      // The leaf holding the query point is always scanned, whatever the requirement.
      _ = SubtreeMaskTests.tree.nearest(
        1, to: SubtreeMaskTests.points[index], requiring: MaskRequirement(damaged, required: .zero))
    }
  }
}
