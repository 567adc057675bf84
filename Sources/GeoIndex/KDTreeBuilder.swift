/// Builds the node boxes and orders the points in place in the tree's own arrays (`xs`, `ys`,
/// `zs`, `ids`), recursively from the root: no interleaved copy to build on and none to copy back.
///
/// A large node's split axis is the one of largest spread among evenly spaced points, its box the
/// union of its children's; its split is a selection on that axis that moves the four arrays
/// together. Large ranges are cut by a pivot drawn from a
/// sample (Floyd–Rivest: about 1.5 passes instead of quickselect's 2 to 3) and partitioned in
/// blocks with no branch on the comparison (BlockQuicksort: the comparisons of a block are turned
/// into offsets first, then only misplaced points move), because a pivot near the median makes
/// every comparison a coin toss that a branch predictor loses half the time. Subtrees of at most
/// 512 points (16 KB, in the first-level cache) are built on an interleaved copy, where a swap
/// moves one 32-byte record.
struct Builder {
  let xs: UnsafeMutablePointer<Double>
  let ys: UnsafeMutablePointer<Double>
  let zs: UnsafeMutablePointer<Double>
  let ids: UnsafeMutablePointer<Int32>
  let boxes: UnsafeMutablePointer<Float>
  let count: Int
  let depth: Int
  /// Room for a sample of keys and for the offsets of two blocks.
  let scratch: UnsafeMutablePointer<Double>
  let offsets: UnsafeMutablePointer<UInt8>
  /// Room for the records of one small subtree.
  let small: UnsafeMutablePointer<SIMD4<Double>>

  static let sampleCapacity = 1024
  static let block = 128

  /// Writes the boxes of the subtree at `node`, which holds the points `lower..<upper`, and
  /// orders them so that each leaf holds its range.
  func build(node: Int, level: Int, firstLeaf: Int, lower: Int, upper: Int) {
    if upper - lower <= Self.smallSubtree {
      buildSmall(node: node, level: level, firstLeaf: firstLeaf, lower: lower, upper: upper)
      return
    }
    guard level < depth else {
      let box = bounds(lower, upper)
      let b = boxes + 6 * node
      b[0] = Self.roundedDown(box.min.x)
      b[1] = Self.roundedDown(box.min.y)
      b[2] = Self.roundedDown(box.min.z)
      b[3] = Self.roundedUp(box.max.x)
      b[4] = Self.roundedUp(box.max.y)
      b[5] = Self.roundedUp(box.max.z)
      return
    }
    // The split axis from the spread of evenly spaced points (a pass over a large node only to
    // choose it would cost as much as a third of its split); the box, exact, is the union of
    // the children's, once they are built (rounding outward commutes with the union).
    let samples = Self.spreadSample
    let stride = (upper - lower) / samples
    var low = SIMD4<Double>(repeating: .infinity)
    var high = SIMD4<Double>(repeating: -.infinity)
    for s in 0..<samples {
      let p = lower + s * stride
      let r = SIMD4(xs[p], ys[p], zs[p], 0)
      low = low.replacing(with: r, where: r .< low)
      high = high.replacing(with: r, where: r .> high)
    }
    defer {
      let b = boxes + 6 * node
      let left = boxes + 6 * (2 * node + 1)
      let right = boxes + 6 * (2 * node + 2)
      for i in 0..<3 { b[i] = Swift.min(left[i], right[i]) }
      for i in 3..<6 { b[i] = Swift.max(left[i], right[i]) }
    }
    let spread = high - low
    let axis = spread.x >= spread.y ? (spread.x >= spread.z ? 0 : 2) : (spread.y >= spread.z ? 1 : 2)
    let middleLeaf = firstLeaf + (1 << (depth - level - 1))
    let middle = (middleLeaf * count) >> depth
    if middle > lower && middle < upper {
      select(lower: lower, upper: upper, nth: middle, keys: axis == 0 ? xs : (axis == 1 ? ys : zs))
    }
    build(node: 2 * node + 1, level: level + 1, firstLeaf: firstLeaf, lower: lower, upper: middle)
    build(node: 2 * node + 2, level: level + 1, firstLeaf: middleLeaf, lower: middle, upper: upper)
  }

  /// How many points of a node larger than `smallSubtree` choose its split axis.
  static let spreadSample = 128

  /// The most points of a subtree built on a copy of its points (`buildSmall`).
  static let smallSubtree = 512

  /// `build` for a subtree of at most `smallSubtree` points: its points are copied into
  /// interleaved records (x, y, z and the id's bits: one 32-byte block a point, so a swap moves
  /// two vector registers instead of four arrays), built there, and copied back.
  func buildSmall(node: Int, level: Int, firstLeaf: Int, lower: Int, upper: Int) {
    let count = upper - lower
    let records = small
    for i in 0..<count {
      let p = lower + i
      records[i] = SIMD4(xs[p], ys[p], zs[p], Double(bitPattern: UInt64(UInt32(bitPattern: ids[p]))))
    }
    buildSmall(records: records, node: node, level: level, firstLeaf: firstLeaf, lower: lower, upper: upper)
    for i in 0..<count {
      let p = lower + i
      let r = records[i]
      xs[p] = r.x
      ys[p] = r.y
      zs[p] = r.z
      ids[p] = Int32(bitPattern: UInt32(truncatingIfNeeded: r.w.bitPattern))
    }
  }

  /// The recursion of `buildSmall` on the records; `records[0]` is the point at `base`.
  func buildSmall(
    records: UnsafeMutablePointer<SIMD4<Double>>, node: Int, level: Int, firstLeaf: Int, lower: Int,
    upper: Int,
    base: Int? = nil
  ) {
    let base = base ?? lower
    var low = SIMD4<Double>(repeating: .infinity)
    var high = SIMD4<Double>(repeating: -.infinity)
    for i in lower - base..<upper - base {
      let r = records[i]
      low = low.replacing(with: r, where: r .< low)
      high = high.replacing(with: r, where: r .> high)
    }
    let b = boxes + 6 * node
    b[0] = Self.roundedDown(low.x)
    b[1] = Self.roundedDown(low.y)
    b[2] = Self.roundedDown(low.z)
    b[3] = Self.roundedUp(high.x)
    b[4] = Self.roundedUp(high.y)
    b[5] = Self.roundedUp(high.z)
    guard level < depth else { return }
    let spread = high - low
    let axis = spread.x >= spread.y ? (spread.x >= spread.z ? 0 : 2) : (spread.y >= spread.z ? 1 : 2)
    let middleLeaf = firstLeaf + (1 << (depth - level - 1))
    let middle = (middleLeaf * count) >> depth
    if middle > lower && middle < upper {
      Self.select(records: records, lower: lower - base, upper: upper - base, nth: middle - base, axis: axis)
    }
    buildSmall(
      records: records, node: 2 * node + 1, level: level + 1, firstLeaf: firstLeaf, lower: lower,
      upper: middle,
      base: base)
    buildSmall(
      records: records, node: 2 * node + 2, level: level + 1, firstLeaf: middleLeaf, lower: middle,
      upper: upper,
      base: base)
  }

  /// `quickselect` on records: a median-of-three pivot and branch-free Lomuto partitions, with a
  /// second pass gathering the keys equal to the pivot when it is the smallest.
  static func select(
    records: UnsafeMutablePointer<SIMD4<Double>>, lower: Int, upper: Int, nth: Int, axis: Int
  ) {
    var lower = lower
    var upper = upper
    while upper - lower > 1 {
      let a = records[lower][axis]
      let b = records[lower + (upper - lower) / 2][axis]
      let c = records[upper - 1][axis]
      let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
      var split = lomuto(records, lower, upper, axis) { isBelow($0, pivot) }
      if split == lower {
        split = lomuto(records, lower, upper, axis) { 1 &- isBelow(pivot, $0) }
        if nth < split { return }
        lower = split
      } else if nth < split {
        upper = split
      } else {
        lower = split
      }
    }
  }

  @inline(__always)
  static func lomuto(
    _ records: UnsafeMutablePointer<SIMD4<Double>>, _ lower: Int, _ upper: Int, _ axis: Int,
    goesFirst: (Double) -> Int
  ) -> Int {
    var store = lower
    for i in lower..<upper {
      let r = records[i]
      let first = goesFirst(r[axis])
      records[i] = records[store]
      records[store] = r
      store &+= first
    }
    return store
  }

  /// The smallest and largest x, y, z of the points `lower..<upper` (not empty).
  @inline(__always)
  func bounds(_ lower: Int, _ upper: Int) -> (min: SIMD4<Double>, max: SIMD4<Double>) {
    // Two independent lanes of accumulators per axis, so the loop is not one long dependency.
    var minX = SIMD2<Double>(repeating: .infinity)
    var maxX = SIMD2<Double>(repeating: -.infinity)
    var minY = minX
    var maxY = maxX
    var minZ = minX
    var maxZ = maxX
    var i = lower
    while i + 2 <= upper {
      let x = SIMD2(xs[i], xs[i + 1])
      let y = SIMD2(ys[i], ys[i + 1])
      let z = SIMD2(zs[i], zs[i + 1])
      minX = minX.replacing(with: x, where: x .< minX)
      maxX = maxX.replacing(with: x, where: x .> maxX)
      minY = minY.replacing(with: y, where: y .< minY)
      maxY = maxY.replacing(with: y, where: y .> maxY)
      minZ = minZ.replacing(with: z, where: z .< minZ)
      maxZ = maxZ.replacing(with: z, where: z .> maxZ)
      i += 2
    }
    if i < upper {
      let x = SIMD2(repeating: xs[i])
      let y = SIMD2(repeating: ys[i])
      let z = SIMD2(repeating: zs[i])
      minX = minX.replacing(with: x, where: x .< minX)
      maxX = maxX.replacing(with: x, where: x .> maxX)
      minY = minY.replacing(with: y, where: y .< minY)
      maxY = maxY.replacing(with: y, where: y .> maxY)
      minZ = minZ.replacing(with: z, where: z .< minZ)
      maxZ = maxZ.replacing(with: z, where: z .> maxZ)
    }
    return (
      SIMD4(Swift.min(minX.x, minX.y), Swift.min(minY.x, minY.y), Swift.min(minZ.x, minZ.y), 0),
      SIMD4(Swift.max(maxX.x, maxX.y), Swift.max(maxY.x, maxY.y), Swift.max(maxZ.x, maxZ.y), 0)
    )
  }

  static func roundedDown(_ value: Double) -> Float {
    let f = Float(value)
    return Double(f) > value ? f.nextDown : f
  }

  static func roundedUp(_ value: Double) -> Float {
    let f = Float(value)
    return Double(f) < value ? f.nextUp : f
  }

  /// Swaps the points at positions `i` and `j` in all four arrays.
  @inline(__always)
  func swapAt(_ i: Int, _ j: Int) {
    let x = xs[i]
    let y = ys[i]
    let z = zs[i]
    let id = ids[i]
    xs[i] = xs[j]
    ys[i] = ys[j]
    zs[i] = zs[j]
    ids[i] = ids[j]
    xs[j] = x
    ys[j] = y
    zs[j] = z
    ids[j] = id
  }

  /// 1 when `key < pivot`, else 0, from the sign of the difference (exact for these keys, which
  /// are at most 1 in magnitude: it is negative exactly when `key < pivot`), so the compiler
  /// cannot make it a branch.
  @inline(__always)
  static func isBelow(_ key: Double, _ pivot: Double) -> Int {
    Int(truncatingIfNeeded: (key - pivot).bitPattern >> 63)
  }

  /// Reorders `lower..<upper` so that position `nth` holds the point a sort by `keys` would put
  /// there, with no larger key before it and no smaller key after it.
  func select(lower: Int, upper: Int, nth: Int, keys: UnsafeMutablePointer<Double>) {
    var lower = lower
    var upper = upper
    while upper - lower > 256 {
      guard let pivot = samplePivot(lower: lower, upper: upper, nth: nth, keys: keys) else { break }
      let split = partition(lower: lower, upper: upper, pivot: pivot, keys: keys)
      // Keys equal to the pivot can leave one side empty (many equal coordinates): quickselect,
      // which puts equal keys on both sides, then finishes.
      if split == lower || split == upper { break }
      if nth < split { upper = split } else { lower = split }
    }
    quickselect(lower: lower, upper: upper, nth: nth, keys: keys)
  }

  /// A key of the range that is, with high probability, just past the `nth` smallest on the side
  /// that leaves the smaller part to search: a sample's order statistic at the target's rank
  /// moved by 2.5 standard deviations of its error. Nil when the range is too small to sample.
  func samplePivot(lower: Int, upper: Int, nth: Int, keys: UnsafeMutablePointer<Double>) -> Double? {
    let size = upper - lower
    let sampleSize = Swift.min(Self.sampleCapacity, Swift.max(64, 2 * Int(Double(size).squareRoot())))
    guard size >= 4 * sampleSize else { return nil }
    // Evenly spaced positions: the points arrive in no particular order along the axis.
    let stride = size / sampleSize
    for s in 0..<sampleSize { scratch[s] = keys[lower + s * stride] }
    let fraction = Double(nth - lower) / Double(size)
    let error = 2.5 * (fraction * (1 - fraction) * Double(sampleSize)).squareRoot()
    // Keep the smaller side: below the target when it lies in the lower half, else above.
    let rank = fraction < 0.5 ? fraction * Double(sampleSize) + error : fraction * Double(sampleSize) - error
    let position = Swift.min(sampleSize - 1, Swift.max(0, Int(rank.rounded())))
    return Self.orderStatistic(position, of: scratch, count: sampleSize)
  }

  /// The `rank`-th smallest of `count` values, which it reorders (Hoare quickselect).
  static func orderStatistic(_ rank: Int, of values: UnsafeMutablePointer<Double>, count: Int) -> Double {
    var left = 0
    var right = count - 1
    while right > left {
      let pivot = values[left + (right - left) / 2]
      var i = left
      var j = right
      while i <= j {
        while values[i] < pivot { i += 1 }
        while values[j] > pivot { j -= 1 }
        if i <= j {
          (values[i], values[j]) = (values[j], values[i])
          i += 1
          j -= 1
        }
      }
      if rank <= j {
        right = j
      } else if rank >= i {
        left = i
      } else {
        break
      }
    }
    return values[rank]
  }

  /// Moves the points of `lower..<upper` with a key below `pivot` before the others and returns
  /// where the others start.
  func partition(lower: Int, upper: Int, pivot: Double, keys: UnsafeMutablePointer<Double>) -> Int {
    let block = Self.block
    let leftOffsets = offsets
    let rightOffsets = offsets + block
    var left = lower  // Everything before `left` is below the pivot.
    var right = upper  // Everything from `right` on is not.
    var leftCount = 0
    var leftStart = 0
    var rightCount = 0
    var rightStart = 0
    while right - left > 2 * block {
      if leftCount == 0 {
        // The offsets of points that belong on the right, written unconditionally.
        leftStart = 0
        let base = keys + left
        for k in 0..<block {
          leftOffsets[leftCount] = UInt8(truncatingIfNeeded: k)
          leftCount &+= 1 &- Self.isBelow(base[k], pivot)
        }
      }
      if rightCount == 0 {
        rightStart = 0
        let base = keys + (right - 1)
        for k in 0..<block {
          rightOffsets[rightCount] = UInt8(truncatingIfNeeded: k)
          rightCount &+= Self.isBelow((base - k).pointee, pivot)
        }
      }
      let pairs = Swift.min(leftCount, rightCount)
      for k in 0..<pairs {
        swapAt(left + Int(leftOffsets[leftStart + k]), right - 1 - Int(rightOffsets[rightStart + k]))
      }
      leftCount -= pairs
      rightCount -= pairs
      leftStart += pairs
      rightStart += pairs
      if leftCount == 0 { left += block }
      if rightCount == 0 { right -= block }
    }
    // The rest, at most two blocks, one point at a time.
    var i = left
    var j = right - 1
    while true {
      while i <= j && keys[i] < pivot { i += 1 }
      while i <= j && keys[j] >= pivot { j -= 1 }
      guard i < j else { break }
      swapAt(i, j)
      i += 1
      j -= 1
    }
    return i
  }

  /// Quickselect for a small range: a median-of-three pivot and Lomuto partitioning with no
  /// branch on the comparison (every point is swapped, to its own place when it stays). When the
  /// pivot is the smallest key, a second pass gathers the keys equal to it, so equal keys cannot
  /// stall it.
  func quickselect(lower: Int, upper: Int, nth: Int, keys: UnsafeMutablePointer<Double>) {
    var lower = lower
    var upper = upper
    while upper - lower > 1 {
      let a = keys[lower]
      let b = keys[lower + (upper - lower) / 2]
      let c = keys[upper - 1]
      let pivot = Swift.max(Swift.min(a, b), Swift.min(Swift.max(a, b), c))
      var split = lowerPartition(lower: lower, upper: upper, keys: keys) { Self.isBelow($0, pivot) }
      if split == lower {
        // No key below the pivot: the pivot is the smallest; put the keys equal to it first.
        split = lowerPartition(lower: lower, upper: upper, keys: keys) { 1 &- Self.isBelow(pivot, $0) }
        if nth < split { return }
        lower = split
      } else if nth < split {
        upper = split
      } else {
        lower = split
      }
    }
  }

  /// Moves the points whose key `goesFirst` (1 or 0) before the others, keeping no branch on it,
  /// and returns where the others start.
  @inline(__always)
  func lowerPartition(
    lower: Int, upper: Int, keys: UnsafeMutablePointer<Double>, goesFirst: (Double) -> Int
  ) -> Int {
    var store = lower
    for i in lower..<upper {
      let first = goesFirst(keys[i])
      swapAt(i, store)
      store &+= first
    }
    return store
  }
}
