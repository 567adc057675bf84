import GeoIndex

/// The diagnostics of one feature while its geometry is read.
struct FeatureContext {
  let position: SourcePosition
  let storeID: String
  /// Byte offset of the feature, for ordering diagnostics.
  let order: Int
  var diagnostics: [(order: Int, diagnostic: Diagnostic)] = []

  init(position: SourcePosition, storeID: String, order: Int) {
    self.position = position
    self.storeID = storeID
    self.order = order
  }

  mutating func report(_ code: String, _ severity: Diagnostic.Severity, _ message: String) {
    diagnostics.append(
      (order, Diagnostic(Diagnostic.Code(code), severity, at: position, storeID: storeID, message)))
  }
}

/// The GeoJSON geometry types (RFC 7946 §1.4): the one list of their names.
enum GeoJSONGeometryType: String, CaseIterable, Sendable {
  case point = "Point"
  case multiPoint = "MultiPoint"
  case lineString = "LineString"
  case multiLineString = "MultiLineString"
  case polygon = "Polygon"
  case multiPolygon = "MultiPolygon"
  case geometryCollection = "GeometryCollection"

  /// True for the types that can give a store's location (not the line types).
  var canLocate: Bool { self != .lineString && self != .multiLineString }

  /// The type whose name matches `name` ignoring case, for "GeoJSON names are case-sensitive".
  static func caseInsensitive(_ name: String) -> GeoJSONGeometryType? {
    let lowered = name.lowercased()
    return allCases.first { $0.rawValue.lowercased() == lowered }
  }
}

/// A candidate location: numbers, and how they were written (for messages).
struct GeoJSONPoint {
  var longitude: Double
  var latitude: Double
  /// The numbers as written, for messages; cut when long, so a number of a million digits is
  /// never echoed in full.
  var longitudeText: String
  var latitudeText: String

  init(longitude: Double, latitude: Double, longitudeText: String, latitudeText: String) {
    self.longitude = longitude
    self.latitude = latitude
    self.longitudeText = MessageText.shortened(longitudeText, limit: 24)
    self.latitudeText = MessageText.shortened(latitudeText, limit: 24)
  }
}

extension GeoJSONReader {
  /// The store's location from a GeoJSON geometry object, or `nil` (with a diagnostic saying why).
  ///
  /// Point: itself (altitude ignored). MultiPoint: its first point (a warning when there are
  /// several). Polygon: the area centroid of the outer ring; MultiPolygon: that of the largest
  /// polygon (a note). GeometryCollection: the first Point, MultiPoint, Polygon or MultiPolygon (a
  /// note). LineString and MultiLineString are not store locations (a warning).
  static func locate(geometry: JSONObject, context: inout FeatureContext) -> Coordinate? {
    guard let point = Self.representativePoint(of: geometry, context: &context) else { return nil }
    return Self.validate(point, context: &context)
  }

  static func representativePoint(of geometry: JSONObject, context: inout FeatureContext) -> GeoJSONPoint? {
    guard case .string(let type)? = geometry["type"] else {
      context.report(
        "invalid-geometry", .error,
        geometry["type"] == nil
          ? "the geometry has no \"type\"; expected \"Point\" or another GeoJSON geometry type; the store is kept "
            + "out of the index"
          : "the geometry's \"type\" is \(kind(of: geometry["type"]!)), expected a name such as \"Point\"; the "
            + "store is kept out of the index")
      return nil
    }
    switch type {
    case "Point":
      guard let coordinates = coordinatesMember(of: geometry, type: type, context: &context) else {
        return nil
      }
      if case .array(let items) = coordinates, items.isEmpty {
        context.report(
          "missing-geometry", .warning,
          "the Point has empty coordinates (RFC 7946 §3.1: an empty geometry); the store is kept but cannot be "
            + "found by location")
        return nil
      }
      return readPosition(coordinates, of: "Point", context: &context)

    case "MultiPoint":
      guard let coordinates = coordinatesMember(of: geometry, type: type, context: &context) else {
        return nil
      }
      guard case .array(let points) = coordinates else {
        context.report(
          "invalid-coordinates", .error,
          "the MultiPoint's coordinates are \(kind(of: coordinates)), expected an array of [longitude, latitude] "
            + "positions; the store is kept out of the index")
        return nil
      }
      guard let first = points.first else {
        context.report(
          "missing-geometry", .warning,
          "the MultiPoint has no points; the store is kept but cannot be found by location")
        return nil
      }
      guard let point = readPosition(first, of: "MultiPoint", context: &context) else { return nil }
      if points.count > 1 {
        context.report(
          "multiple-points", .warning,
          "the MultiPoint has \(points.count) points; the first, [\(point.longitudeText), \(point.latitudeText)], "
            + "is used as the store's location — give each store its own Feature")
      }
      return point

    case "Polygon", "MultiPolygon":
      guard let coordinates = coordinatesMember(of: geometry, type: type, context: &context) else {
        return nil
      }
      let polygons: [JSONValue]
      switch coordinates {
      case .array(let items) where type == "Polygon": polygons = [.array(items)]
      case .array(let items): polygons = items
      default:
        context.report(
          "invalid-coordinates", .error,
          "the \(type)'s coordinates are \(kind(of: coordinates)), expected an array of linear rings; the store is "
            + "kept out of the index")
        return nil
      }
      var best: RingPoint?
      for (polygonIndex, polygon) in polygons.enumerated() {
        guard case .array(let rings) = polygon else {
          context.report(
            "invalid-coordinates", .error,
            "the \(type) holds \(kind(of: polygon)) where a polygon (an array of rings) belongs; the store is kept "
              + "out of the index")
          return nil
        }
        guard let outer = rings.first else { continue }
        guard let vertices = ringPositions(outer) else {
          context.report(
            "invalid-coordinates", .error,
            "the \(type)'s outer ring is not an array of [longitude, latitude] number pairs; the store is kept "
              + "out of the index")
          return nil
        }
        guard !vertices.isEmpty else { continue }
        // Every vertex must be a finite, in-range position before the ring is unwrapped and averaged:
        // 1e300 or 1e400 (infinity) are not degrees, and a centroid of them would mean nothing.
        let ringName =
          type == "Polygon"
          ? "the Polygon's outer ring" : "the outer ring of the MultiPolygon's polygon \(polygonIndex + 1)"
        for (vertexIndex, vertex) in vertices.enumerated() {
          guard checkRange(vertex, in: "vertex \(vertexIndex + 1) of \(ringName)", context: &context) else {
            return nil
          }
        }
        let point = ringPoint(vertices.map { (x: $0.longitude, y: $0.latitude) })
        if point.placement == .fallback {
          context.report(
            "geometry-self-intersecting", .warning,
            "\(ringName) crosses itself: its centroid, [\(format(point.centroid.x)), \(format(point.centroid.y))], "
              + "lies outside the ring's bounding box; [\(format(point.x)), \(format(point.y))], inside the ring's "
              + "bounding box, is used instead — fix the geometry")
        }
        if best == nil || point.area > best!.area { best = point }
      }
      guard let best else {
        context.report(
          "missing-geometry", .warning,
          "the \(type) has no coordinates; the store is kept but cannot be found by location")
        return nil
      }
      let longitude = format(best.x)
      let latitude = format(best.y)
      let ring = type == "Polygon" ? "its outer ring" : "its largest polygon's outer ring"
      context.report(
        "polygon-representative-point", .note,
        "the store is mapped as a \(type) (a building outline); "
          + (best.placement == .centroid
            ? "the centroid of \(ring), [\(longitude), \(latitude)], is used as its location"
            : "the centroid of \(ring) lies outside it, so a point inside it, [\(longitude), \(latitude)], is "
              + "used as its location"))
      return GeoJSONPoint(
        longitude: best.x, latitude: best.y, longitudeText: longitude, latitudeText: latitude)

    case "LineString", "MultiLineString":
      context.report(
        "unsupported-geometry", .warning,
        "a \(type) is not a store location; the store is kept but cannot be found by location — map it as a Point"
      )
      return nil

    case "GeometryCollection":
      guard case .array(let members)? = geometry["geometries"] else {
        context.report(
          "invalid-geometry", .error,
          "the GeometryCollection has no \"geometries\" array; the store is kept out of the index")
        return nil
      }
      for member in members {
        guard case .object(let inner) = member, case .string(let innerType)? = inner["type"],
          GeoJSONGeometryType(rawValue: innerType)?.canLocate == true
        else { continue }
        var innerContext = FeatureContext(
          position: context.position, storeID: context.storeID, order: context.order)
        if let point = representativePoint(of: inner, context: &innerContext) {
          context.diagnostics.append(contentsOf: innerContext.diagnostics)
          context.report(
            "geometry-collection", .note,
            "the geometry is a GeometryCollection of \(members.count); its first usable member, a \(innerType), "
              + "gives the store's location")
          return point
        }
        context.diagnostics.append(contentsOf: innerContext.diagnostics)
      }
      context.report(
        "missing-geometry", .warning,
        "the GeometryCollection has no usable Point, MultiPoint, Polygon or MultiPolygon; the store is kept but "
          + "cannot be found by location")
      return nil

    default:
      if let proper = GeoJSONGeometryType.caseInsensitive(type)?.rawValue {
        context.report(
          "invalid-geometry", .error,
          "the geometry type is \"\(type)\", but GeoJSON names are case-sensitive: expected \"\(proper)\"; the "
            + "store is kept out of the index")
      } else {
        context.report(
          "invalid-geometry", .error,
          "\"\(type)\" is not a GeoJSON geometry type (expected Point, MultiPoint, Polygon, MultiPolygon, …); the "
            + "store is kept out of the index")
      }
      return nil
    }
  }

  private static func coordinatesMember(of geometry: JSONObject, type: String, context: inout FeatureContext)
    -> JSONValue?
  {
    switch geometry["coordinates"] {
    case nil, .null:
      context.report(
        "missing-geometry", .warning,
        "the \(type) has no coordinates; the store is kept but cannot be found by location")
      return nil
    case let value?: return value
    }
  }

  /// Reads `[longitude, latitude, altitude?]`, reporting what is wrong with it.
  private static func readPosition(_ value: JSONValue, of type: String, context: inout FeatureContext)
    -> GeoJSONPoint?
  {
    guard case .array(let items) = value else {
      context.report(
        "invalid-coordinates", .error,
        "the \(type)'s coordinates are \(kind(of: value)), expected [longitude, latitude]; the store is kept out "
          + "of the index")
      return nil
    }
    guard items.count >= 2 else {
      context.report(
        "invalid-coordinates", .error,
        "the \(type)'s position has \(items.count) value\(items.count == 1 ? "" : "s"), expected [longitude, "
          + "latitude]; the store is kept out of the index")
      return nil
    }
    // The first two values, as numbers and as written; not an array, which would cost an allocation.
    var numbers: ((Double, String), (Double, String)) = ((0, ""), (0, ""))
    for (index, item) in items.prefix(2).enumerated() {
      switch item {
      case .number(let literal):
        let number = (JSONNumber.double(literal), literal)
        if index == 0 { numbers.0 = number } else { numbers.1 = number }
      case .string(let text):
        context.report(
          "invalid-coordinates", .error,
          "the \(type)'s coordinates are strings (\"\(MessageText.shortened(text))\"); GeoJSON positions are numbers, so write "
            + "\(text) without quotes; the store is kept out of the index")
        return nil
      default:
        context.report(
          "invalid-coordinates", .error,
          "the \(type)'s position holds \(kind(of: item)), expected numbers [longitude, latitude]; the store is "
            + "kept out of the index")
        return nil
      }
    }
    if items.count > 3 {
      context.report(
        "extra-coordinate-values", .warning,
        "the \(type)'s position has \(items.count) values; GeoJSON positions are [longitude, latitude] or "
          + "[longitude, latitude, altitude] (RFC 7946 §3.1.1), so the first two are used")
    }
    return GeoJSONPoint(
      longitude: numbers.0.0, latitude: numbers.1.0, longitudeText: numbers.0.1, latitudeText: numbers.1.1)
  }

  /// The positions of a ring, or `nil` when one is not a pair of numbers.
  private static func ringPositions(_ value: JSONValue) -> [GeoJSONPoint]? {
    guard case .array(let items) = value else { return nil }
    var ring: [GeoJSONPoint] = []
    ring.reserveCapacity(items.count)
    for item in items {
      guard case .array(let pair) = item, pair.count >= 2, case .number(let x) = pair[0],
        case .number(let y) = pair[1]
      else { return nil }
      ring.append(
        GeoJSONPoint(
          longitude: JSONNumber.double(x), latitude: JSONNumber.double(y), longitudeText: x, latitudeText: y))
    }
    return ring
  }

  /// Where a ring's store is placed, and how that point was found.
  struct RingPoint {
    enum Placement: Equatable {
      /// The area centroid, inside the ring (or the vertex average of a ring without area).
      case centroid
      /// The centroid lies outside the ring (a concave outline, or one that crosses itself) but
      /// inside its bounding box: a point inside the ring is used instead.
      case inside
      /// The centroid lies outside the ring's bounding box, which only a ring that crosses
      /// itself can do (a simple ring's centroid lies in its convex hull): a point inside the ring
      /// is used when one is found, else the centre of the bounding box.
      case fallback
    }

    var x: Double
    var y: Double
    var area: Double
    var placement: Placement
    /// The area centroid, for messages.
    var centroid: (x: Double, y: Double)
  }

  /// A point for a store mapped as a ring: its area centroid when that lies inside it, else a
  /// point inside it (the middle of the widest stretch of a horizontal line through it), else the
  /// centre of its bounding box. Always inside the ring's bounding box: a bow-tie or zig-zag ring
  /// (whose signed areas nearly cancel) once put a store near Berlin in Vancouver.
  ///
  /// - Complexity: O(n) in the vertices, plus O(k log k) for k crossings of the line.
  static func ringPoint(_ ring: [(x: Double, y: Double)]) -> RingPoint {
    let centroid = ringCentroid(ring)
    var points = ring
    if points.count > 1, points.first! == points.last! { points.removeLast() }
    unwrapLongitudes(&points)
    // The centroid in the ring's unwrapped longitudes (it was put back into -180...180).
    let anchor = points[0].x
    let centroidX = anchor + (centroid.x - anchor).remainder(dividingBy: 360)
    let minX = points.map(\.x).min()!
    let maxX = points.map(\.x).max()!
    let minY = points.map(\.y).min()!
    let maxY = points.map(\.y).max()!
    func result(_ x: Double, _ y: Double, _ placement: RingPoint.Placement) -> RingPoint {
      RingPoint(
        x: x.remainder(dividingBy: 360), y: min(max(y, -90), 90), area: centroid.area, placement: placement,
        centroid: (centroid.x, centroid.y))
    }
    // A ring without area has no inside: its vertex average is inside its bounding box anyway.
    guard centroid.area > 0, points.count >= 3 else { return result(centroidX, centroid.y, .centroid) }
    // Rounding can put the centroid of a thin ring a hair outside its box.
    let slack = 1e-9 * max(1, maxX - minX, maxY - minY)
    let inBox =
      centroidX >= minX - slack && centroidX <= maxX + slack && centroid.y >= minY - slack
      && centroid.y <= maxY + slack
    if inBox && contains(points, x: centroidX, y: centroid.y) {
      return result(centroidX, centroid.y, .centroid)
    }
    let placement: RingPoint.Placement = inBox ? .inside : .fallback
    let lineY = inBox && centroid.y > minY && centroid.y < maxY ? centroid.y : (minY + maxY) / 2
    if let x = widestInsideStretch(points, y: lineY) { return result(x, lineY, placement) }
    return result((minX + maxX) / 2, (minY + maxY) / 2, .fallback)
  }

  /// Each longitude within 180° of the previous one, so a ring across the antimeridian is one
  /// piece (IEEE remainder: one operation a vertex, no loop).
  private static func unwrapLongitudes(_ points: inout [(x: Double, y: Double)]) {
    for index in points.indices.dropFirst() {
      let previous = points[index - 1].x
      points[index].x = previous + (points[index].x - previous).remainder(dividingBy: 360)
    }
  }

  /// Even–odd point-in-polygon test (a closed ring without its repeated last vertex).
  private static func contains(_ ring: [(x: Double, y: Double)], x: Double, y: Double) -> Bool {
    var inside = false
    var previous = ring[ring.count - 1]
    for point in ring {
      if (point.y > y) != (previous.y > y) {
        let crossing = point.x + (y - point.y) * (previous.x - point.x) / (previous.y - point.y)
        if x < crossing { inside.toggle() }
      }
      previous = point
    }
    return inside
  }

  /// The middle of the widest stretch of the line at latitude `y` that lies inside the ring
  /// (even–odd), or `nil` when the line meets no inside.
  private static func widestInsideStretch(_ ring: [(x: Double, y: Double)], y: Double) -> Double? {
    var crossings: [Double] = []
    var previous = ring[ring.count - 1]
    for point in ring {
      if (point.y > y) != (previous.y > y) {
        crossings.append(point.x + (y - point.y) * (previous.x - point.x) / (previous.y - point.y))
      }
      previous = point
    }
    crossings.sort()
    var best: (width: Double, middle: Double)?
    for pair in stride(from: 0, to: crossings.count - 1, by: 2) {
      let width = crossings[pair + 1] - crossings[pair]
      if width > 0, width.isFinite, best == nil || width > best!.width {
        best = (width, (crossings[pair] + crossings[pair + 1]) / 2)
      }
    }
    return best?.middle
  }

  /// The area centroid of a ring (planar, in degrees), with its area; the vertex average when the
  /// area is zero.
  ///
  /// Longitudes are unwrapped along the ring first (each vertex within 180° of the previous one), so
  /// a ring across the antimeridian gets a centroid near it, not near Greenwich; the result is put
  /// back into -180...180. The caller checks the vertices first (`checkRange`); here, without loops,
  /// a non-finite vertex gives a NaN centroid rather than a hang.
  static func ringCentroid(_ ring: [(x: Double, y: Double)]) -> (x: Double, y: Double, area: Double) {
    var points = ring
    if points.count > 1, points.first! == points.last! { points.removeLast() }
    unwrapLongitudes(&points)
    let origin = points[0]
    var doubleArea = 0.0
    var sumX = 0.0
    var sumY = 0.0
    for index in points.indices {
      let next = index + 1 == points.count ? 0 : index + 1
      let x0 = points[index].x - origin.x
      let y0 = points[index].y - origin.y
      let x1 = points[next].x - origin.x
      let y1 = points[next].y - origin.y
      let cross = x0 * y1 - x1 * y0
      doubleArea += cross
      sumX += (x0 + x1) * cross
      sumY += (y0 + y1) * cross
    }
    var x: Double
    var y: Double
    if doubleArea != 0, (sumX / (3 * doubleArea)).isFinite {
      x = sumX / (3 * doubleArea) + origin.x
      y = sumY / (3 * doubleArea) + origin.y
    } else {
      x = points.reduce(0) { $0 + $1.x } / Double(points.count)
      y = points.reduce(0) { $0 + $1.y } / Double(points.count)
    }
    // Back into -180...180 (remainder keeps ±180 as it is); rounding cannot push y past the poles.
    x = x.remainder(dividingBy: 360)
    y = min(max(y, -90), 90)
    return (x, y, abs(doubleArea) / 2)
  }

  /// Checks the ranges and the usual mistakes; `nil` (with an error or warning) when unusable.
  static func validate(_ point: GeoJSONPoint, context: inout FeatureContext) -> Coordinate? {
    guard checkRange(point, context: &context) else { return nil }
    let longitude = point.longitude
    let latitude = point.latitude
    if longitude == 0, latitude == 0 {
      context.report(
        "null-island", .warning,
        "the coordinates are [0, 0] (\"null island\" in the Gulf of Guinea), almost always a missing location "
          + "written as zeros; the store is kept out of the index")
      return nil
    }
    do {
      return try Coordinate(latitude: latitude, longitude: longitude)
    } catch {
      context.report("coordinates-out-of-range", .error, "\(error); the store is kept out of the index")
      return nil
    }
  }

  /// True when `point` is finite and within -180...180, -90...90; otherwise reports why (too large,
  /// projected, swapped or out of range) and returns false. `place` names a vertex of a ring, such
  /// as "vertex 2 of the Polygon's outer ring".
  static func checkRange(_ point: GeoJSONPoint, in place: String? = nil, context: inout FeatureContext)
    -> Bool
  {
    let longitude = point.longitude
    let latitude = point.latitude
    // Checked before any message text is built: nearly every point is in range.
    if longitude.isFinite, latitude.isFinite, abs(longitude) <= 180, abs(latitude) <= 90 { return true }
    let pair = "[\(point.longitudeText), \(point.latitudeText)]" + (place.map { " (\($0))" } ?? "")
    guard longitude.isFinite, latitude.isFinite else {
      context.report(
        "coordinates-out-of-range", .error,
        "the coordinates \(pair) are too large to be degrees; the store is kept out of the index")
      return false
    }
    guard abs(longitude) > 180 || abs(latitude) > 90 else { return true }
    let at = place.map { " (\($0))" } ?? ""
    if max(abs(longitude), abs(latitude)) >= 1000 {
      context.report(
        "projected-coordinates", .error,
        "the coordinates \(pair) look like projected coordinates (metres), not degrees; GeoJSON needs WGS 84 "
          + "[longitude, latitude] — reproject the data (ogr2ogr -t_srs EPSG:4326); the store is kept out of the "
          + "index")
    } else if abs(latitude) > 90, abs(latitude) <= 180, abs(longitude) <= 90 {
      context.report(
        "coordinates-swapped", .error,
        "latitude \(point.latitudeText) is out of range -90...90\(at); coordinates look swapped: GeoJSON is "
          + "[longitude, latitude], so this is probably [\(point.latitudeText), \(point.longitudeText)]; the store "
          + "is kept out of the index")
    } else if abs(latitude) > 90 {
      context.report(
        "coordinates-out-of-range", .error,
        "latitude \(point.latitudeText) is out of range -90...90 in \(pair) (GeoJSON is [longitude, latitude]); "
          + "the store is kept out of the index")
    } else {
      context.report(
        "coordinates-out-of-range", .error,
        "longitude \(point.longitudeText) is out of range -180...180 in \(pair) (GeoJSON is [longitude, "
          + "latitude]); the store is kept out of the index")
    }
    return false
  }

  private static func format(_ value: Double) -> String {
    // Seven decimals is about a centimetre; enough for a message.
    let scaled = (value * 1e7).rounded() / 1e7
    return "\(scaled)"
  }
}

/// Converting number literals to `Double`.
enum JSONNumber {
  private static let powersOfTen: [Double] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
    1e19,
    1e20, 1e21, 1e22,
  ]

  /// The nearest `Double` to a JSON number literal.
  ///
  /// Fast path (Clinger): when the digits fit in 53 bits and the power of ten is at most 22, one
  /// multiplication or division of two exact values gives the correctly rounded result. Anything
  /// else goes to the standard library's parser.
  static func double(_ literal: String) -> Double {
    var text = literal
    if let value = text.withUTF8({ fastPath($0) }) { return value }
    return Double(literal) ?? .nan
  }

  static func fastPath(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
    var index = 0
    let count = bytes.count
    guard count > 0 else { return nil }
    var negative = false
    if bytes[0] == UInt8(ascii: "-") {
      negative = true
      index = 1
    }
    var mantissa: UInt64 = 0
    var exponent = 0
    var digits = 0
    while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
      if mantissa != 0 || bytes[index] != UInt8(ascii: "0") { digits += 1 }
      guard digits <= 18 else { return nil }
      mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- UInt8(ascii: "0"))
      index += 1
    }
    if index < count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
        if mantissa != 0 || bytes[index] != UInt8(ascii: "0") { digits += 1 }
        guard digits <= 18 else { return nil }
        mantissa = mantissa &* 10 &+ UInt64(bytes[index] &- UInt8(ascii: "0"))
        exponent -= 1
        index += 1
      }
    }
    if index < count, bytes[index] | 0x20 == UInt8(ascii: "e") {
      index += 1
      var exponentNegative = false
      if index < count, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
        exponentNegative = bytes[index] == UInt8(ascii: "-")
        index += 1
      }
      var value = 0
      while index < count, bytes[index] &- UInt8(ascii: "0") < 10 {
        value = value * 10 + Int(bytes[index] &- UInt8(ascii: "0"))
        guard value < 10_000 else { return nil }
        index += 1
      }
      exponent += exponentNegative ? -value : value
    }
    guard index == count else { return nil }
    if mantissa == 0 { return negative ? -0.0 : 0.0 }
    guard mantissa <= 1 << 53, exponent >= -22, exponent <= 22 else { return nil }
    var value = Double(mantissa)
    if exponent < 0 {
      value /= powersOfTen[-exponent]
    } else if exponent > 0 {
      value *= powersOfTen[exponent]
    }
    return negative ? -value : value
  }
}
