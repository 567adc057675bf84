import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// `Catalog.answer(ClustersRequest)` against brute force over the same stores: every store in the
/// box that meets the conditions is counted once, in the cell its position falls in, and each
/// cluster's centre, bounds and id follow from its stores.
@Suite struct ClustersTests {
  let catalog = CatalogQueryTests.makeCatalog()
  static let now = Instant(secondsSinceEpoch: 1_790_000_000)

  func request(_ box: String, columns: Int, rows: Int, where conditions: [String] = []) throws
    -> ClustersRequest
  {
    var pairs = [("bbox", box), ("columns", "\(columns)"), ("rows", "\(rows)")]
    pairs += conditions.map { ("where", $0) }
    return try ClustersRequest(
      RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: .queryString))
  }

  /// The cell of `coordinate` in `box`: the fraction of the way across (eastward from the west
  /// edge, around the antimeridian when the box crosses it) and up, the last cell closed.
  func cell(of coordinate: Coordinate, in box: GeoBox, columns: Int, rows: Int) -> (column: Int, row: Int) {
    let width = box.crossesAntimeridian ? box.east + 360 - box.west : box.east - box.west
    let across =
      coordinate.longitude >= box.west
      ? coordinate.longitude - box.west : coordinate.longitude + 360 - box.west
    let column = width == 0 ? 0 : min(columns - 1, Int((across / width) * Double(columns)))
    let height = box.north - box.south
    let row = height == 0 ? 0 : min(rows - 1, Int((coordinate.latitude - box.south) / height * Double(rows)))
    return (column, row)
  }

  @Test(arguments: [
    ("-180,-85,180,85", 16, 16), ("-180,-90,180,90", 1, 1), ("-30,-40,60,50", 7, 3),
    ("170,-50,-150,50", 5, 9),
    ("100,10,100.5,10.5", 256, 256), ("-10,0,10,0", 4, 4),
  ])
  func everyStoreInTheBoxIsInItsCell(box text: String, columns: Int, rows: Int) throws {
    for conditions in [[], ["drive_through=yes"]] {
      let request = try request(text, columns: columns, rows: rows, where: conditions)
      let answer = catalog.answer(request, now: Self.now)
      let box = request.box
      let filter = StoreFilter(request.conditions)
      var expected: [Int: [Store]] = [:]
      for store in catalog.stores {
        guard let coordinate = store.coordinate, box.contains(coordinate), filter.matches(store) else {
          continue
        }
        let cell = cell(of: coordinate, in: box, columns: columns, rows: rows)
        expected[cell.row * columns + cell.column, default: []].append(store)
      }
      #expect(answer.count == expected.values.reduce(0) { $0 + $1.count })
      #expect(answer.clusters.reduce(0) { $0 + $1.count } == answer.count)
      #expect(answer.clusters.map { $0.row * columns + $0.column } == expected.keys.sorted())
      for cluster in answer.clusters {
        let stores = try #require(expected[cluster.row * columns + cluster.column])
        #expect(cluster.count == stores.count)
        let latitudes = stores.map { $0.coordinate!.latitude }
        #expect(cluster.bounds.south == latitudes.min() && cluster.bounds.north == latitudes.max())
        let meanLatitude: Double = latitudes.reduce(0, +) / Double(stores.count)
        #expect(abs(cluster.center.latitude - meanLatitude) < 1e-9)
        // Every store inside the cluster's bounds, and the centre too.
        #expect(stores.allSatisfy { cluster.bounds.contains($0.coordinate!) })
        #expect(cluster.bounds.contains(cluster.center))
        #expect(cluster.storeID == (stores.count == 1 ? stores[0].id : nil))
      }
    }
  }

  @Test func aClusterAcrossTheAntimeridianStaysThere() throws {
    var stores: [Store] = []
    for (index, longitude) in [179.5, 179.9, -179.9, -179.5].enumerated() {
      stores.append(
        Store(
          id: "s\(index)", idSource: .feature,
          coordinate: Coordinate(uncheckedLatitude: -17, longitude: longitude),
          properties: JSONObject(), timezone: nil,
          position: SourcePosition(featureIndex: index, line: index + 2, column: 1)))
    }
    let answer = Catalog(stores: stores, source: "generated")
      .answer(try request("170,-20,-170,-10", columns: 1, rows: 1), now: Self.now)
    let cluster = try #require(answer.clusters.first)
    #expect(answer.clusters.count == 1 && cluster.count == 4)
    // The mean of 179.5, 179.9, 180.1 and 180.5 degrees east: on the antimeridian, not at 0.
    #expect(abs(abs(cluster.center.longitude) - 180) < 1e-9)
    #expect(cluster.bounds.west == 179.5 && cluster.bounds.east == -179.5)
    #expect(cluster.bounds.crossesAntimeridian)
  }

  @Test func theRequestIsReadWithTheLibrarysSentences() {
    func refusal(_ pairs: [(String, String)]) -> String? {
      do {
        _ = try ClustersRequest(
          RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: .queryString))
        return nil
      } catch { return error.message }
    }
    #expect(refusal([]) == "bbox is required: the box to count stores in, W,S,E,N in degrees")
    #expect(refusal([("bbox", "0,0,1,1"), ("columns", "257")]) == "columns must be 1...256 (got 257)")
    #expect(refusal([("bbox", "0,0,1,1"), ("rows", "0")]) == "rows must be 1...256 (got 0)")
    #expect(refusal([("bbox", "0,0,1,1"), ("limit", "3")])?.hasPrefix("unknown parameter 'limit'") == true)
    #expect(refusal([("bbox", "0,0,1,1")]) == nil)
  }
}
