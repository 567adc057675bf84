import GeoIndex
import OpeningHours

/// "Where are the stores in this box?", as counts on a grid: `stores clusters` and
/// `GET /v1/stores/clusters`. A map zoomed out over thousands of stores draws one marker per
/// cell instead of every store.
public struct ClustersRequest: Sendable {
  public static let parameterNames =
    ["bbox", "columns", "rows", "where"] + OpeningConditions.names + ["now"]
  /// Cells across and down when not given.
  public static let defaultCells = 16
  /// The most cells across or down: 65,536 cells at most, more than a screen has room for.
  public static let maximumCells = 256

  public let box: GeoBox
  public let columns: Int
  public let rows: Int
  public let conditions: [StoreFilter.Condition]
  let opening: OpeningConditions
  let now: Instant?

  /// Reads `bbox` (required), `columns`, `rows`, `where` (repeatable), `open_now`, `open_at`,
  /// `open_for`, `allow_unknown` and `now`.
  /// - Throws: `RequestError` (`.invalid`) naming the first parameter that is missing, malformed,
  ///   out of range or unknown.
  public init(_ parameters: RequestParameters) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    guard let box = try parameters.parse("bbox", GeoBox.init(parsing:)) else {
      throw RequestError(
        .invalid, parameter: parameters.spelling(of: "bbox"),
        "\(parameters.spelling(of: "bbox")) is required: the box to count stores in, W,S,E,N in degrees")
    }
    self.box = box
    columns = try parameters.integer("columns", in: 1...Self.maximumCells) ?? Self.defaultCells
    rows = try parameters.integer("rows", in: 1...Self.maximumCells) ?? Self.defaultCells
    conditions = try parameters.conditions()
    opening = try OpeningConditions(parameters)
    now = try parameters.now()
  }
}

/// The stores of one grid cell: how many, where they are on average, and the box that holds
/// them (what a map zooms to when the cluster is chosen).
public struct StoreCluster: Hashable, Sendable {
  /// The cell: columns from the box's west edge, rows from its south edge, from 0.
  public let column: Int
  public let row: Int
  public let count: Int
  /// The mean position of the stores (longitudes averaged across the antimeridian as the box
  /// runs, so a cell on it is not placed on the other side of the Earth).
  public let center: Coordinate
  /// The smallest box holding the stores; it crosses the antimeridian when they do.
  public let bounds: GeoBox
  /// The store's id when the cluster is one store.
  public let storeID: String?
}

/// The answer to a `ClustersRequest`.
public struct ClustersAnswer: Sendable {
  /// Every cell that holds a store, row by row from the south, west to east within a row.
  public let clusters: [StoreCluster]
  /// The stores in the box that meet the conditions: the sum of the clusters' counts.
  public let count: Int
  public let query: JSONObject

  /// `{"query", "count", "clusters": [{"column", "row", "count", "latitude", "longitude",
  /// "bbox": [W, S, E, N], "id" (a cluster of one)}]}`, ending in a newline.
  public var jsonText: String {
    var document = JSONObject()
    document["query"] = .object(query)
    document["count"] = JSONValue(count)
    document["clusters"] = .array(
      clusters.map { cluster in
        var object = JSONObject()
        object["column"] = JSONValue(cluster.column)
        object["row"] = JSONValue(cluster.row)
        object["count"] = JSONValue(cluster.count)
        object["latitude"] = JSONValue(cluster.center.latitude)
        object["longitude"] = JSONValue(cluster.center.longitude)
        let bounds = cluster.bounds
        object["bbox"] = .array([bounds.west, bounds.south, bounds.east, bounds.north].map { JSONValue($0) })
        if let id = cluster.storeID { object["id"] = .string(id) }
        return .object(object)
      })
    return JSONValue.object(document).jsonText + "\n"
  }
}

extension Catalog {
  /// Answers `request`: the stores in its box that meet its conditions, counted per cell of a
  /// `columns` × `rows` grid of equal steps in degrees.
  /// - Parameter now: The current instant, unless the request gives `now`.
  /// - Complexity: O(√n + m + columns × rows) for the m stores in the box (each store's position
  ///   is read from the index, not from its record).
  public func answer(_ request: ClustersRequest, now clock: Instant) -> ClustersAnswer {
    guard request.opening.service == service else {
      return serving(request.opening.service).answer(request, now: clock)
    }
    let now = request.now ?? clock
    let filter = StoreFilter(request.conditions)
    let open = request.opening.requirement(now: now)
    let box = request.box
    // Longitudes east of the west edge, so a box across the antimeridian is one run of degrees.
    let width = box.east >= box.west ? box.east - box.west : box.east + 360 - box.west
    let height = box.north - box.south
    let columns = request.columns
    let rows = request.rows

    struct Cell {
      var count = 0
      var latitudeSum = 0.0
      var eastingSum = 0.0
      var south = Double.infinity
      var north = -Double.infinity
      /// The least and greatest easting, and the longitudes they came from (kept as read, so
      /// the bounds are exactly the stores' values).
      var westEasting = Double.infinity
      var eastEasting = -Double.infinity
      var west = 0.0
      var east = 0.0
      var treeIndex = 0
    }
    // One flat cell per grid position (at most 65,536), filled in the tree's order: the answer is
    // the same whatever the order but for the last bits of the means, and the tree's order is
    // the same on every run.
    var cells = [Cell](repeating: Cell(), count: columns * rows)
    let indices = treeIndices(in: box, where: filter, open: open, ordered: false)
    let coordinates = tree.coordinates
    cells.withUnsafeMutableBufferPointer { cells in
      for index in indices {
        let coordinate = coordinates[index]
        var easting = coordinate.longitude - box.west
        if easting < 0 { easting += 360 }
        // Edges belong to the cell they close: a store on the east or north edge is in the last one.
        let column = width > 0 ? min(columns - 1, Int(easting / width * Double(columns))) : 0
        let row =
          height > 0 ? min(rows - 1, Int((coordinate.latitude - box.south) / height * Double(rows))) : 0
        let key = row * columns + column
        cells[key].count += 1
        cells[key].latitudeSum += coordinate.latitude
        cells[key].eastingSum += easting
        cells[key].south = min(cells[key].south, coordinate.latitude)
        cells[key].north = max(cells[key].north, coordinate.latitude)
        if easting < cells[key].westEasting {
          (cells[key].westEasting, cells[key].west) = (easting, coordinate.longitude)
        }
        if easting > cells[key].eastEasting {
          (cells[key].eastEasting, cells[key].east) = (easting, coordinate.longitude)
        }
        cells[key].treeIndex = index
      }
    }
    func longitude(_ easting: Double) -> Double {
      let value = box.west + easting
      return value > 180 ? value - 360 : value
    }
    // The mean, kept inside the cell's bounds (rounding must not move it out, and a lone store
    // is its own centre exactly).
    func center(of cell: Cell) -> Coordinate {
      let count = Double(cell.count)
      let latitude = min(cell.north, max(cell.south, cell.latitudeSum / count))
      let easting = cell.eastingSum / count
      let longitude =
        easting <= cell.westEasting ? cell.west : easting >= cell.eastEasting ? cell.east : longitude(easting)
      return Coordinate(uncheckedLatitude: latitude, longitude: longitude)
    }
    let clusters = cells.indices.filter { cells[$0].count > 0 }.map { key in
      let cell = cells[key]
      return StoreCluster(
        column: key % columns, row: key / columns, count: cell.count,
        center: center(of: cell),
        bounds: GeoBox(uncheckedWest: cell.west, south: cell.south, east: cell.east, north: cell.north),
        storeID: cell.count == 1 ? id(at: Int(storePositions[cell.treeIndex])) : nil)
    }

    var query = JSONObject()
    query["bbox"] = .array([box.west, box.south, box.east, box.north].map { JSONValue($0) })
    query["columns"] = JSONValue(columns)
    query["rows"] = JSONValue(rows)
    query["where"] = .array(request.conditions.map { .string($0.description) })
    request.opening.describe(into: &query, now: now)
    query["state_version"] = JSONValue(Int(stateVersion))
    return ClustersAnswer(clusters: clusters, count: indices.count, query: query)
  }
}
