/// The memory behind a tree's buffers: blocks the tree allocated while building (freed with the
/// last copy of the tree), or memory it borrows, such as a mapped snapshot, whose owner it keeps
/// alive.
final class TreeMemory: @unchecked Sendable {
  private var blocks: [UnsafeMutableRawPointer] = []
  private let owner: (any AnyObject & Sendable)?

  init(owner: (any AnyObject & Sendable)?) { self.owner = owner }

  /// Uninitialized room for `count` values, freed with this object. Only while building.
  func allocate<T>(_: T.Type, count: Int) -> UnsafeMutableBufferPointer<T> {
    let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: Swift.max(count, 1))
    blocks.append(UnsafeMutableRawPointer(buffer.baseAddress!))
    return UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
  }

  deinit { for block in blocks { block.deallocate() } }
}

/// A tree's points in the order given, as a collection; `Neighbor.index` refers to its positions.
public struct TreeCoordinates: RandomAccessCollection, @unchecked Sendable {
  let buffer: UnsafeBufferPointer<Coordinate>
  /// Keeps `buffer` alive.
  let memory: TreeMemory

  public var startIndex: Int { 0 }
  public var endIndex: Int { buffer.count }
  public subscript(position: Int) -> Coordinate { withExtendedLifetime(memory) { buffer[position] } }
}
