import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

let usage = """
  usage: stores-benchmarks COMMAND [options]          (build with -c release)

    generate [--points N] [--seed S] [--clustered [--places TSV]] -o FILE
                                                  GeoJSON FeatureCollection, one Feature a line
                                                  (defaults: 200000 points, seed 42); uniform on
                                                  the sphere, or --clustered: a few km around
                                                  towns of Data/timezones/places.tsv
    load FILE [--repeats R]                       time Catalog.load(contentsOf:) and its parts
    tree [--points N] [--seed S] [--queries Q] [--query-seed QS] [--repeats R] [--check]
                                                  KDTree build and queries
                                                  (defaults: 1000000, 42, 10000, 4242, 5)
    catalog [FILE] [--points N] [--seed S] [--queries Q] [--query-seed QS] [--repeats R] [--clustered]
                                                  Catalog.nearest with StoreFilters and opening
                                                  hours, as loaded, indexed and from a snapshot;
                                                  without FILE, generates N stores (default
                                                  200000) in /tmp; --clustered: queries (and a
                                                  generated file) around towns
    scaling [FILE] [--points N] [--queries Q] [--threads T] [--repeats R]
                                                  nearest answers (search, states, JSON) from 1
                                                  thread, then from T threads at once (default 2):
                                                  the speed-up with threads; FILE a .snap or
                                                  GeoJSON (default: N generated stores, 200000)
    batch [--points N] [--seed S] [--clustered] [--repeats R] [--check]
                                                  nearest places of N stores (default 1000000)
                                                  one by one and batched (NearestBatch), as zone
                                                  inference asks: k = 1, then 8
    hours [--queries Q] [--repeats R]             parse, isOpen and nextChange of compiled opening
                                                  hours at Q instants in 2026 (default 100000)
    places [--repeats R]                          the place search: index build from
                                                  Data/timezones/places.tsv, prefix searches
                                                  with and without near, names resolved
    export-points [--points N] [--seed S] [--queries Q] [--query-seed QS] [--instants I] -o DIR
                                                  the data of tree and hours as little-endian
                                                  binary files for other programs (see README)
                                                  (defaults: 1000000, 42, 10000, 4242, 100000)
    smoke                                         everything on 2000 points, with a brute-force
                                                  check; seconds (--smoke works too)

  --json FILE (any command that measures) also writes every figure as one flat JSON object under
  stable keys (tree.k10_us, load.mb_per_s_no_hours, hours.weekly.is_open_ns, ...); FILE "-"
  prints it to standard output at the end.

  Every figure is the best of R runs (default 5); per-query figures are the average over Q queries
  made one at a time on one thread, after a warm-up pass.
  """

struct Arguments {
  var words: [String]
  var positional: [String] = []
  var values: [String: String] = [:]
  var flags: Set<String> = []

  init(_ words: ArraySlice<String>) {
    self.words = Array(words)
    var i = 0
    while i < self.words.count {
      let word = self.words[i]
      if ["--check", "--smoke", "--help", "-h", "--clustered"].contains(word) {
        flags.insert(word)
      } else if word.hasPrefix("-") {
        guard i + 1 < self.words.count else { fail("\(word) needs a value\n\n\(usage)") }
        values[word == "-o" ? "--output" : word] = self.words[i + 1]
        i += 1
      } else {
        positional.append(word)
      }
      i += 1
    }
  }

  func int(_ name: String, _ fallback: Int) -> Int {
    guard let text = values[name] else { return fallback }
    guard let value = Int(text.filter { $0 != "_" && $0 != "," }), value > 0 else {
      fail("\(name) needs a positive integer, not '\(text)'")
    }
    return value
  }
}

func smoke() {
  let path = "/tmp/stores-benchmarks-smoke-\(getpid()).geojson"
  defer { unlink(path) }
  let bytes = generateGeoJSON(count: 2_000, seed: 42, to: path)
  print("generated \(path): 2000 stores, \(bytes) bytes")
  benchmarkLoad(path: path, repeats: 2)
  benchmarkTree(TreeOptions(points: 2_000, queries: 1_000, repeats: 2, check: true))
  // Few queries: the brute-force check covers 200 of them, and snapshot queries with opening
  // hours cost hundreds of µs each on this catalog.
  benchmarkCatalog(
    path: path, queries: uniformSpherePoints(count: 300, seed: 4242), querySeed: 4242, repeats: 1)
  benchmarkHours(instants: 2_000, repeats: 1)
  benchmarkBatch(points: 20_000, seed: 42, clustered: true, repeats: 1, check: true)
}

let arguments = Arguments(CommandLine.arguments.dropFirst())
let command = arguments.flags.contains("--smoke") ? "smoke" : arguments.positional.first ?? "help"
if arguments.flags.contains("--help") || arguments.flags.contains("-h") || command == "help" {
  print(usage)
  exit(0)
}
let known = [
  "--points", "--seed", "--queries", "--query-seed", "--repeats", "--output", "--json", "--instants",
  "--places", "--threads",
]
for name in arguments.values.keys where !known.contains(name) { fail("unknown option \(name)\n\n\(usage)") }
let seed = UInt64(arguments.int("--seed", 42))
let repeats = arguments.int("--repeats", 5)

switch command {
case "generate":
  guard let output = arguments.values["--output"] else { fail("generate needs -o FILE") }
  let count = arguments.int("--points", 200_000)
  let start = clock.now
  var places: ClusteredPlacement? = nil
  if arguments.flags.contains("--clustered") {
    let path = arguments.values["--places"] ?? ClusteredPlacement.defaultPath
    places = ClusteredPlacement(contentsOf: path)
    print(
      "clustered around \(places!.count) places of \(path), "
        + (places!.usesPopulation
          ? "weighted by population" : "each place weighted the same (no population column)"))
  }
  let bytes = generateGeoJSON(count: count, seed: seed, to: output, places: places)
  print(
    "wrote \(output): \(count) features, \(megabytes(bytes)), \(fixed(Double(bytes) / Double(count), 0)) bytes a feature, "
      + "\(fixed((clock.now - start).seconds, 2)) s")
case "load":
  guard arguments.positional.count == 2 else { fail("load needs one FILE\n\n\(usage)") }
  benchmarkLoad(path: arguments.positional[1], repeats: repeats)
case "tree":
  benchmarkTree(
    TreeOptions(
      points: arguments.int("--points", 1_000_000), seed: seed, queries: arguments.int("--queries", 10_000),
      querySeed: UInt64(arguments.int("--query-seed", 4242)), repeats: repeats,
      check: arguments.flags.contains("--check")))
case "batch":
  benchmarkBatch(
    points: arguments.int("--points", 1_000_000), seed: seed,
    clustered: arguments.flags.contains("--clustered"),
    repeats: repeats, check: arguments.flags.contains("--check"))
case "catalog":
  let clustered = arguments.flags.contains("--clustered")
  // Queries where the stores are: around towns for clustered data, anywhere for uniform data.
  let places =
    clustered
    ? ClusteredPlacement(contentsOf: arguments.values["--places"] ?? ClusteredPlacement.defaultPath) : nil
  var path = arguments.positional.dropFirst().first
  if path == nil {
    let count = arguments.int("--points", 200_000)
    let generated = "/tmp/stores-benchmarks-\(clustered ? "clustered-" : "")\(count)-\(seed).geojson"
    if fileSize(generated) == nil {
      _ = generateGeoJSON(count: count, seed: seed, to: generated, places: places)
    }
    path = generated
  }
  let querySeed = UInt64(arguments.int("--query-seed", 4242))
  let count = arguments.int("--queries", 10_000)
  var rng = SplitMix64(seed: querySeed)
  let queries =
    places.map { places in (0..<count).map { _ in places.nextPoint(&rng) } }
    ?? uniformSpherePoints(count: count, seed: querySeed)
  benchmarkCatalog(path: path!, queries: queries, querySeed: querySeed, repeats: repeats)
case "scaling":
  // A snapshot (.snap) opens at once; a GeoJSON file, or a generated one, is loaded first.
  var path = arguments.positional.dropFirst().first
  if path == nil {
    let count = arguments.int("--points", 200_000)
    let generated = "/tmp/stores-benchmarks-\(count)-\(seed).geojson"
    if fileSize(generated) == nil { _ = generateGeoJSON(count: count, seed: seed, to: generated) }
    path = generated
  }
  let catalog: Catalog
  do {
    catalog =
      path!.hasSuffix(".snap")
      ? try Catalog(snapshotAt: path!) : try Catalog.load(contentsOf: path!)
    // A large snapshot checks each row's digest on its first read until this has checked them
    // all (the server runs it beside serving): checked first, so no run pays it.
    try catalog.verifySnapshotRecords()
  } catch { fail("\(path!): \(error)") }
  let queries = uniformSpherePoints(
    count: arguments.int("--queries", 20_000), seed: UInt64(arguments.int("--query-seed", 4242)))
  benchmarkScaling(
    catalog: catalog, source: path!, queries: queries, threads: arguments.int("--threads", 2),
    repeats: repeats)
case "hours":
  benchmarkHours(instants: arguments.int("--queries", 100_000), repeats: repeats)
case "places":
  benchmarkPlaces(repeats: repeats)
case "export-points":
  guard let output = arguments.values["--output"] else { fail("export-points needs -o DIR") }
  exportPoints(
    directory: output, points: arguments.int("--points", 1_000_000), seed: seed,
    queries: arguments.int("--queries", 10_000), querySeed: UInt64(arguments.int("--query-seed", 4242)),
    instants: arguments.int("--instants", 100_000))
  exit(0)
case "smoke":
  smoke()
default:
  fail("unknown command \(command)\n\n\(usage)")
}
print("\n(sink \(sink))")
if let path = arguments.values["--json"] { writeReport(to: path, command: command) }
