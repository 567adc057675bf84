import GeoIndex

/// A location that looks typed as `LON,LAT`: its nearest store is far away, while the point with
/// latitude and longitude exchanged has stores close by (London typed `-0.1278,51.5074` lands in
/// the Indian Ocean, whose nearest store is in Mumbai).
public struct SwappedCoordinateHint: Hashable, Sendable, CustomStringConvertible {
  /// The location as given.
  public let given: Coordinate
  /// The same numbers read the other way round.
  public let swapped: Coordinate
  /// How far the nearest store is from `given`.
  public let nearestDistance: Distance
  /// How far the nearest store is from `swapped`.
  public let swappedNearestDistance: Distance
  /// How many stores are within 1 km of `swapped`.
  public let storesWithinOneKilometer: Int

  /// The nearest store farther than this from the given point is what makes a swap worth
  /// suspecting: a customer is rarely 100 km from every store of a chain.
  public static let suspiciousDistance = Distance.kilometers(100)
  /// The swapped reading must have a store within this distance, and ten times closer than the
  /// given one, to be named.
  public static let plausibleDistance = Distance.kilometers(50)

  /// "the nearest store is 7190 km from -0.1278,51.5074; did you mean --near 51.5074,-0.1278
  /// (LAT,LON)? 12 stores are within 1 km of it"
  public var description: String { text(for: .commandLine) }

  /// The hint naming the parameter as `style` writes it: `--near 51.5074,-0.1278` on the command
  /// line, `near=51.5074,-0.1278` in a query string.
  public func text(for style: ParameterStyle) -> String {
    let suggestion = style == .commandLine ? "--near \(swapped)" : "near=\(swapped)"
    var text =
      "the nearest store is \(nearestDistance.kilometersText) from \(given); did you mean \(suggestion) "
      + "(LAT,LON)? "
    switch storesWithinOneKilometer {
    case 0: text += "the nearest store to it is \(swappedNearestDistance.kilometersText) away"
    case 1: text += "1 store is within 1 km of it"
    case let count: text += "\(count) stores are within 1 km of it"
    }
    return text
  }
}

extension Catalog {
  /// A hint that `point` was typed as `LON,LAT`, or `nil` when it does not look so.
  ///
  /// The rule: the nearest store to `point` is farther than
  /// `SwappedCoordinateHint.suspiciousDistance` (100 km), the exchanged reading is a valid
  /// location, and its nearest store is within `plausibleDistance` (50 km) and at most a tenth
  /// of the first distance. Two nearest-neighbour searches and a count within 1 km: cheap enough
  /// to run on every query; the first is skipped when the caller gives its answer, and the others
  /// run only when the nearest store is that far away.
  /// - Parameters:
  ///   - point: The location as given.
  ///   - nearestDistance: The distance from `point` to the nearest located store, when the caller
  ///     already has it: the first match of a `nearest` or `stores(within:of:)` query with no
  ///     filter and no opening requirement. (With either, the first match need not be the
  ///     nearest store: pass `nil`, and the search runs.)
  /// - Complexity: O(log n) for well-spread stores.
  public func swappedCoordinateHint(
    for point: Coordinate, nearestDistance: Distance? = nil
  ) -> SwappedCoordinateHint? {
    guard point.latitude != point.longitude,
      let nearest = nearestDistance ?? tree.nearest(1, to: point).first?.distance,
      nearest.meters > SwappedCoordinateHint.suspiciousDistance.meters,
      let swapped = try? Coordinate(latitude: point.longitude, longitude: point.latitude),
      let swappedNearest = tree.nearest(1, to: swapped).first?.distance,
      swappedNearest.meters <= SwappedCoordinateHint.plausibleDistance.meters,
      swappedNearest.meters * 10 <= nearest.meters
    else { return nil }
    return SwappedCoordinateHint(
      given: point, swapped: swapped, nearestDistance: nearest, swappedNearestDistance: swappedNearest,
      storesWithinOneKilometer: tree.within(.kilometers(1), of: swapped).count)
  }
}
