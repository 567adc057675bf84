import GeoIndex
import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - load

/// Times `Catalog.load(contentsOf:)` (read + parse + index), then its parts through the public
/// API: reading alone, `Catalog(geoJSON:source:)` (parse + index) and `Catalog(stores:)` (index).
func benchmarkLoad(path: String, repeats: Int) {
  guard let size = fileSize(path) else { fail("no such file: \(path)") }
  var stores = 0
  var diagnostics = 0
  let total = best(of: repeats) {
    do {
      let catalog = try Catalog.load(contentsOf: path)
      stores = catalog.stores.count
      diagnostics = catalog.diagnostics.count
      consume(catalog.indexedCount)
    } catch { fail("\(error)") }
  }
  var bytes: [UInt8] = []
  let read = best(of: repeats) {
    bytes = readFile(path)
    consume(bytes.count)
  }
  var catalog: Catalog? = nil
  // The GeoJSON reader and the index alone: what "loading" measures against other JSON readers.
  let parseAndIndex = best(of: repeats) {
    catalog = nil
    do {
      catalog = try Catalog(geoJSON: bytes, source: path, options: LoadOptions(evaluatesHours: false))
    } catch {
      fail("\(error)")
    }
    consume(catalog!.indexedCount)
  }
  // Everything a default load does: plus parsing and compiling every store's hours, inferring
  // missing time zones (every store of a generated file: none carries `timezone`).
  let withHours = best(of: repeats) {
    do { consume(try Catalog(geoJSON: bytes, source: path).indexedCount) } catch { fail("\(error)") }
  }
  let records = Array(catalog!.stores)
  let index = best(of: repeats) {
    consume(Catalog(stores: records).indexedCount)
  }

  var table = Table(
    "load \(path): \(megabytes(size)), \(stores) stores, \(diagnostics) diagnostics; best of \(repeats)")
  let mb = Double(size) / 1e6
  table.add(
    "Catalog.load(contentsOf:) (read+parse+index+hours)",
    "\(fixed(total, 3)) s   \(fixed(mb / total, 1)) MB/s")
  table.add("  read the file (read(2) into [UInt8])", "\(fixed(read, 3)) s   \(fixed(mb / read, 1)) MB/s")
  table.add(
    "  Catalog(geoJSON:) without hours (parse+index)",
    "\(fixed(parseAndIndex, 3)) s   \(fixed(mb / parseAndIndex, 1)) MB/s")
  table.add(
    "  Catalog(geoJSON:) with hours (+ zones inferred)",
    "\(fixed(withHours, 3)) s   \(fixed(mb / withHours, 1)) MB/s")
  table.add("  Catalog(stores:) (index + id table only)", "\(fixed(index, 3)) s")
  table.add("  bytes per feature", fixed(Double(size) / Double(max(1, stores)), 0))
  table.add("peak RSS (VmHWM)", procStatus("VmHWM").map(megabytes) ?? "n/a")
  table.print()
  record("load.file_bytes", size)
  record("load.stores", stores)
  record("load.total_s", total)
  record("load.mb_per_s", mb / total)
  record("load.read_s", read)
  record("load.no_hours_s", parseAndIndex)
  record("load.mb_per_s_no_hours", mb / parseAndIndex)
  record("load.with_hours_s", withHours)
  record("load.mb_per_s_with_hours", mb / withHours)
  record("load.index_s", index)
  if let peak = procStatus("VmHWM") { record("load.peak_rss_bytes", peak) }
}

func readFile(_ path: String) -> [UInt8] {
  guard let file = fopen(path, "rb"), let size = fileSize(path) else { fail("cannot read \(path)") }
  defer { fclose(file) }
  return [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
    count = fread(buffer.baseAddress, 1, size, file)
  }
}

// MARK: - tree

struct TreeOptions {
  var points = 1_000_000
  var seed: UInt64 = 42
  var queries = 10_000
  var querySeed: UInt64 = 4242
  var flagSeed: UInt64 = 0xF1A9
  var repeats = 5
  var check = false
}

/// Builds `KDTree(coordinates:)` and times each kind of query, one at a time on this thread.
func benchmarkTree(_ o: TreeOptions) {
  let rssStart = procStatus("VmRSS")
  let points = uniformSpherePoints(count: o.points, seed: o.seed)
  let queries = uniformSpherePoints(count: o.queries, seed: o.querySeed)
  let flags10 = flags(count: o.points, fraction: 0.10, seed: o.flagSeed)
  let flags1 = flags(count: o.points, fraction: 0.01, seed: o.flagSeed &+ 1)

  // Memory first, in a fresh heap: what one built tree keeps beyond the points it was given.
  let rssBefore = procStatus("VmRSS")
  var tree = KDTree(coordinates: points)
  let rssAfter = procStatus("VmRSS")
  consume(tree.count)

  let build = best(of: o.repeats) {
    let fresh = KDTree(coordinates: points)
    consume(fresh.count)
  }
  tree = KDTree(coordinates: points)

  let passes = o.repeats
  let k1 = microsecondsPerQuery(queries, passes: passes) { tree.nearest(1, to: $0)[0].index }
  let k10 = microsecondsPerQuery(queries, passes: passes) { tree.nearest(10, to: $0)[9].index }
  let k100 = microsecondsPerQuery(queries, passes: passes) { tree.nearest(100, to: $0)[99].index }
  var radiusResults = 0
  let radius = microsecondsPerQuery(queries, passes: passes) {
    let found = tree.within(.kilometers(50), of: $0)
    radiusResults &+= found.count
    return found.count
  }
  let f10 = microsecondsPerQuery(queries, passes: passes) { q in
    tree.nearest(10, to: q) { flags10[$0] }[9].index
  }
  let f1 = microsecondsPerQuery(queries, passes: passes) { q in
    tree.nearest(10, to: q) { flags1[$0] }[9].index
  }
  let lazy = microsecondsPerQuery(queries, passes: passes) { q in
    var last = 0
    for neighbor in tree.byDistance(from: q).prefix(10) { last = neighbor.index }
    return last
  }
  let boxes = queries.map { oneDegreeBox(around: $0) }
  var boxResults = 0
  var boxIndex = 0
  let box = microsecondsPerQuery(queries, passes: passes) { _ in
    let found = tree.within(boxes[boxIndex])
    boxIndex = boxIndex + 1 == boxes.count ? 0 : boxIndex + 1
    boxResults &+= found.count
    return found.count
  }

  // The layout in KDTree.swift: xs, ys, zs (Double), ids (Int32) per point; six Floats per node
  // of a complete tree whose leaves hold at most 32 points (the default leaf size).
  let n = o.points
  var depth = 0
  while (n + (1 << depth) - 1) >> depth > 32 { depth += 1 }
  let nodes = (2 << depth) - 1
  let layoutBytes = 28 * n + 24 * nodes

  let timedPasses = Double(passes + 1)
  var table = Table(
    "tree: \(n) points uniform on the sphere (seed \(o.seed)), \(o.queries) queries (seed \(o.querySeed)); "
      + "best of \(o.repeats)")
  table.add("build KDTree(coordinates:)", "\(fixed(build, 3)) s")
  table.add("nearest k=1", "\(fixed(k1, 2)) µs/query")
  table.add("nearest k=10", "\(fixed(k10, 2)) µs/query")
  table.add("nearest k=100", "\(fixed(k100, 2)) µs/query")
  table.add(
    "within 50 km",
    "\(fixed(radius, 2)) µs/query (\(fixed(Double(radiusResults) / timedPasses / Double(o.queries), 1)) found on average)"
  )
  table.add("nearest k=10 where 10% match", "\(fixed(f10, 2)) µs/query")
  table.add("nearest k=10 where 1% match", "\(fixed(f1, 2)) µs/query")
  table.add("byDistance(from:), first 10", "\(fixed(lazy, 2)) µs/query")
  table.add(
    "within 1°×1° box",
    "\(fixed(box, 2)) µs/query (\(fixed(Double(boxResults) / timedPasses / Double(o.queries), 1)) found on average)"
  )
  table.add(
    "index bytes/point (layout: 28/pt + 24/node)",
    "\(fixed(Double(layoutBytes) / Double(n), 2)) B (\(nodes) nodes; + 16 B/point of kept coordinates)")
  if let before = rssBefore, let after = rssAfter {
    table.add("RSS growth of the first build", "\(fixed(Double(after - before) / Double(n), 2)) B/point")
  }
  if let start = rssStart {
    table.add("RSS at start", megabytes(start))
  }
  table.add("peak RSS (VmHWM)", procStatus("VmHWM").map(megabytes) ?? "n/a")
  table.print()
  record("tree.points", n)
  record("tree.queries", o.queries)
  record("tree.build_s", build)
  record("tree.k1_us", k1)
  record("tree.k10_us", k10)
  record("tree.k100_us", k100)
  record("tree.radius50km_us", radius)
  record("tree.radius50km_found", Double(radiusResults) / timedPasses / Double(o.queries))
  record("tree.filtered10_us", f10)
  record("tree.filtered1_us", f1)
  record("tree.by_distance10_us", lazy)
  record("tree.box1deg_us", box)
  record("tree.box1deg_found", Double(boxResults) / timedPasses / Double(o.queries))
  record("tree.bytes_per_point", Double(layoutBytes) / Double(n))
  if let before = rssBefore, let after = rssAfter {
    record("tree.rss_bytes_per_point", Double(after - before) / Double(n))
  }
  if let peak = procStatus("VmHWM") { record("tree.peak_rss_bytes", peak) }

  if o.check {
    checkAgainstBruteForce(tree: tree, points: points, queries: queries, flags: [flags10, flags1])
  }
}

/// A 1°×1° box centred on `center`, clamped at the poles, wrapped across the antimeridian.
func oneDegreeBox(around center: Coordinate) -> GeoBox {
  let south = max(-90, center.latitude - 0.5)
  let north = min(90, center.latitude + 0.5)
  var west = center.longitude - 0.5
  var east = center.longitude + 0.5
  if west < -180 { west += 360 }
  if east > 180 { east -= 360 }
  do { return try GeoBox(west: west, south: south, east: east, north: north) } catch {
    fail("bad box: \(error)")
  }
}

/// For the smoke run: the k=10 answers (plain, and filtered by each of `flags`) and the first ten
/// of `byDistance` equal a brute-force sort by (haversine distance, index): the same indices in the
/// same order and the same distances, bit for bit.
func checkAgainstBruteForce(tree: KDTree, points: [Coordinate], queries: [Coordinate], flags: [[Bool]]) {
  for q in queries.prefix(200) {
    let byDistance: [(distance: Double, index: Int)] = points.indices
      .map { (distance: q.distance(to: points[$0]).meters, index: $0) }
      .sorted { $0.distance < $1.distance || ($0.distance == $1.distance && $0.index < $1.index) }
    func same(_ found: some Sequence<Neighbor>, _ expected: some Sequence<(distance: Double, index: Int)>)
      -> Bool
    {
      found.map { [$0.index, Int(truncatingIfNeeded: $0.distance.meters.bitPattern)] }
        == expected.map { [$0.index, Int(truncatingIfNeeded: $0.distance.bitPattern)] }
    }
    guard same(tree.nearest(10, to: q), byDistance.prefix(10)),
      flags.allSatisfy({ flags in
        same(
          tree.nearest(10, to: q, where: { flags[$0] }), byDistance.lazy.filter { flags[$0.index] }.prefix(10)
        )
      }),
      same(tree.byDistance(from: q).prefix(10), byDistance.prefix(10))
    else { fail("k-d tree disagrees with brute force at \(q)") }
  }
  print(
    "check: k=10, filtered k=10 (10% and 1%) and byDistance agree with brute force on 200 queries "
      + "(indices, order and distances)")
}
