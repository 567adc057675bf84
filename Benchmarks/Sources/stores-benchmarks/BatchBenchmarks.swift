import GeoIndex

/// Nearest places for many stores at once (`NearestBatch`), as zone inference asks for them,
/// against the same searches one store at a time, on one thread: the places of
/// `Data/timezones/places.tsv` (those with coordinates and a population), and per store the
/// nearest place, or the eight nearest (what a store whose nearest place is not in its
/// `addr:country` needs, as in the generated files, whose countries are drawn apart from their
/// positions). Zone inference searches for the nearest one by one and batches the eight: the
/// rows say why.
func benchmarkBatch(points count: Int, seed: UInt64, clustered: Bool, repeats: Int, check: Bool) {
  let places = ClusteredPlacement(contentsOf: ClusteredPlacement.defaultPath)
  let tree = KDTree(
    coordinates: (0..<places.count).map {
      Coordinate(uncheckedLatitude: places.latitudes[$0], longitude: places.longitudes[$0])
    })
  var rng = SplitMix64(seed: seed)
  let stores =
    clustered
    ? (0..<count).map { _ in places.nextPoint(&rng) } : uniformSpherePoints(count: count, seed: seed)

  var checksum = 0
  var neighbors: [Neighbor] = []
  func oneByOne(_ ks: [Int]) -> Double {
    best(of: repeats) {
      for store in stores {
        for k in ks { checksum &+= tree.nearest(k, to: store)[k - 1].index }
      }
    }
  }
  func batched(_ ks: [Int]) -> Double {
    best(of: repeats) {
      let batch = NearestBatch(tree: tree, k: 8, queries: stores)
      batch.answer(0..<batch.count) { _, search in
        for k in ks {
          search.nearest(k, into: &neighbors)
          checksum &+= neighbors[k - 1].index
        }
      }
    }
  }
  let rows = [("k = 1", [1]), ("k = 8", [8])].map { name, ks in
    (name, ks, oneByOne(ks), batched(ks))
  }
  consume(checksum)
  if check {
    let batch = NearestBatch(tree: tree, k: 8, queries: stores)
    var mismatches = 0
    batch.answer(0..<batch.count) { position, search in
      for k in [1, 8] {
        search.nearest(k, into: &neighbors)
        if neighbors != tree.nearest(k, to: stores[batch.query(at: position)]) { mismatches += 1 }
      }
    }
    guard mismatches == 0 else { fail("batch: \(mismatches) answers differ from the tree's") }
    print("batch: every answer of \(count) stores (k = 1 and 8) is the tree's")
  }
  let kind = clustered ? "clustered" : "uniform"
  print("batch (\(count) \(kind) stores, \(tree.count) places, best of \(repeats)), µs a store:")
  for (name, ks, alone, together) in rows {
    let perStore = 1e6 / Double(count)
    print(
      "  \(name): one by one \(fixed(alone * perStore, 3)), batched \(fixed(together * perStore, 3))"
        + " (÷ one by one \(fixed(together / alone, 2)))")
    let key = "k\(ks[0])"
    record("batch.\(kind).\(key).one_by_one_us", alone * perStore)
    record("batch.\(kind).\(key).batched_us", together * perStore)
  }
}
