import GeoIndex

extension Distance {
  /// `0.4 km`, `12.3 km`, `1520 km`: one decimal below 100 km, none above; for library messages
  /// (the CLI formats its own columns in the units asked for).
  var kilometersText: String {
    let km = kilometers
    guard km.isFinite, km >= 0 else { return "? km" }
    // Beyond what an Int holds (a `within` of 1e30 m is accepted: it covers the Earth), as the
    // number prints.
    guard km < 1e15 else { return "\(km) km" }
    if km >= 100 { return "\(Int(km.rounded())) km" }
    let tenths = Int((km * 10).rounded())
    return "\(tenths / 10).\(tenths % 10) km"
  }
}
