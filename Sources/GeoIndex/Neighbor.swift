/// A point found by a search: its position in the array the tree was built from, and how far it is.
public struct Neighbor: Hashable, Sendable {
  /// Position of the point in the array passed to `KDTree.init(coordinates:)`.
  public let index: Int
  /// Great-circle distance from the query point (haversine, `earthMeanRadiusMeters`).
  public let distance: Distance

  public init(index: Int, distance: Distance) {
    self.index = index
    self.distance = distance
  }
}
