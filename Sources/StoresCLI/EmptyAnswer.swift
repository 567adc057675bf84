import GeoIndex
import StoreLocator

/// What the search commands say besides their results: why an answer is empty, and a location
/// that looks typed as LON,LAT. The library finds both; this only prints them.
extension Catalog {
  /// The sentence text output shows when `matches` is empty (the library's explanation of the
  /// query); the reasons it found go to standard error, in every format, so a JSON or CSV reader
  /// hears them too. Does nothing, and returns an empty string, when there are matches.
  func reportEmptyAnswer(
    _ matches: [StoreMatch], in area: SearchArea, where filter: StoreFilter, open: OpeningRequirement?,
    format: OutputFormat, units: DisplayUnit
  ) -> String {
    guard matches.isEmpty else { return "" }
    let writer = ResultWriter(format: .text, units: units)
    let explanation = explainEmptyResult(in: area, where: filter, open: open) { writer.formatted($0) }
    // Text output shows the sentence; a reason it already states is not repeated beside it.
    for reason in explanation.reasons where format != .text || !explanation.sentence.contains(reason.message)
    {
      standardError("stores: \(reason)")
    }
    return explanation.sentence
  }

  /// Warns on standard error when `point` looks typed as LON,LAT (see `swappedCoordinateHint`).
  /// `nearestDistance` is the distance to the nearest store when the caller already knows it,
  /// which spares a search.
  func warnIfSwapped(_ point: Coordinate, nearestDistance: Distance? = nil) {
    if let hint = swappedCoordinateHint(for: point, nearestDistance: nearestDistance) {
      standardError("stores: warning: \(hint)")
    }
  }

  /// The distance to the store nearest `point`, when `matches` (nearest first, around `point`)
  /// are sure to begin with it: some came back, and no filter or opening requirement could have
  /// passed it over. A distance bound cannot: it leaves out the nearest store only by leaving
  /// out every store.
  static func nearestDistance(
    in matches: [StoreMatch], where filter: StoreFilter, open: OpeningRequirement?
  ) -> Distance? {
    filter.isEmpty && open == nil ? matches.first?.distance : nil
  }
}
