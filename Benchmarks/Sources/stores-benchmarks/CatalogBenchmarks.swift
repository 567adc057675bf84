import GeoIndex
import OpeningHours
import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// MARK: - catalog

/// One kind of `Catalog.nearest(10, to:where:open:)` query: a stable key for `--json`, a label,
/// the filter and the opening requirement.
struct CatalogQuery {
  var key: String
  var label: String
  var filter: StoreFilter = .all
  var open: OpeningRequirement? = nil
}

/// The fixed instants of the `open` queries: a Wednesday afternoon and the night before, in UTC.
/// Fixed rather than `now`, so runs on different days compare; inside the window the catalog
/// summarises hours for (30 days back, 400 ahead of the load), or the hour bits go unused.
let catalogDayTime = "2026-11-25T15:00Z"
let catalogNightTime = "2026-11-25T03:00Z"

func instant(_ text: String) -> Instant {
  do {
    guard case .instant(let instant) = try TimeQuery(parsing: text) else { fail("\(text) is not an instant") }
    return instant
  } catch { fail("\(error)") }
}

/// The per-query cost of the library API on one file: `Catalog.nearest(10, to:)` plain and with
/// `StoreFilter`s on the catalog as loaded; the same plus `open` at fixed instants on the catalog
/// with the suggested conditions indexed (`indexing(suggestedIndexConditions())`); and all of it
/// again on that catalog written as a snapshot and opened with `Catalog(snapshotAt:)`.
///
/// Before timing, every kind of query is checked: the three catalogs must give the same stores
/// at the same distances, and those must be a brute-force scan's (filter, opening hours, then
/// distance and input order) on the first queries. A mismatch ends the run with exit status 1.
func benchmarkCatalog(path: String, queries: [Coordinate], querySeed: UInt64, repeats: Int) {
  let catalog: Catalog
  do { catalog = try Catalog.load(contentsOf: path) } catch { fail("\(error)") }
  var suggested: [StoreFilter.Condition] = []
  let suggesting = best(of: min(repeats, 3)) { suggested = catalog.suggestedIndexConditions() }
  var indexed = catalog
  let indexing = best(of: min(repeats, 3)) {
    indexed = catalog.indexing(suggested)
    consume(indexed.indexedConditions.count)
  }

  let driveThrough: StoreFilter
  let flag1: StoreFilter
  do {
    driveThrough = try StoreFilter(parsing: ["drive_through=yes"])
    flag1 = try StoreFilter(parsing: ["flag1=yes"])
  } catch { fail("\(error)") }
  let day = OpeningRequirement(time: .instant(instant(catalogDayTime)))
  let night = OpeningRequirement(time: .instant(instant(catalogNightTime)))
  let plainKinds = [
    CatalogQuery(key: "k10", label: "k=10"),
    CatalogQuery(key: "filtered10", label: "k=10 where drive_through=yes", filter: driveThrough),
    CatalogQuery(key: "filtered1", label: "k=10 where flag1=yes", filter: flag1),
  ]
  let openKinds = [
    CatalogQuery(key: "open_day", label: "k=10 open at \(catalogDayTime)", open: day),
    CatalogQuery(key: "open_night", label: "k=10 open at \(catalogNightTime)", open: night),
    CatalogQuery(
      key: "open_day_drive", label: "k=10 open at \(catalogDayTime), drive_through=yes", filter: driveThrough,
      open: day),
    CatalogQuery(
      key: "open_night_drive", label: "k=10 open at \(catalogNightTime), drive_through=yes",
      filter: driveThrough,
      open: night),
  ]
  let kinds = plainKinds + openKinds

  // The snapshot of the indexed catalog, as `stores snapshot build` writes it.
  let snapshotPath = "/tmp/stores-benchmarks-\(getpid()).snap"
  defer { unlink(snapshotPath) }
  let write = best(of: 1) {
    do { try indexed.writeSnapshot(to: snapshotPath) } catch { fail("\(error)") }
  }
  let snapshotSize = fileSize(snapshotPath) ?? 0
  let open = best(of: max(repeats, 10)) {
    do { consume(try Catalog(snapshotAt: snapshotPath).indexedCount) } catch { fail("\(error)") }
  }
  // Opening reads the index only; the first filtered query also reads the subtree summaries.
  let openAndFirstFiltered = best(of: max(repeats, 10)) {
    do {
      let fresh = try Catalog(snapshotAt: snapshotPath)
      consume(fresh.nearest(10, to: queries[0], where: driveThrough, open: day).count)
    } catch { fail("\(error)") }
  }
  let snapshot: Catalog
  do { snapshot = try Catalog(snapshotAt: snapshotPath) } catch { fail("\(error)") }
  guard snapshot.isSnapshot, snapshot.indexedConditions == indexed.indexedConditions else {
    fail("the snapshot of \(path) lost its indexed conditions")
  }

  checkCatalogs(
    [("loaded", catalog), ("indexed", indexed), ("snapshot", snapshot)], kinds: kinds, queries: queries,
    bruteForceQueries: catalog.indexedCount <= 5_000 ? 200 : 5)

  func share(_ kind: CatalogQuery) -> Double {
    let matching = catalog.stores.count { store in
      kind.filter.matches(store) && (kind.open?.isMet(by: catalog.schedule(for: store)) ?? true)
    }
    return Double(matching) / Double(max(1, catalog.stores.count))
  }
  func time(_ catalog: Catalog, _ kind: CatalogQuery) -> Double {
    microsecondsPerQuery(queries, passes: repeats) {
      catalog.nearest(10, to: $0, where: kind.filter, open: kind.open).count
    }
  }

  var table = Table(
    "catalog \(path): \(catalog.indexedCount) stores, \(queries.count) queries (seed \(querySeed)); best of \(repeats)"
  )
  let shares = kinds.map(share)
  func shareText(_ i: Int) -> String { "\(fixed(shares[i] * 100, 2))% match" }
  for (i, kind) in plainKinds.enumerated() {
    let figure = time(catalog, kind)
    table.add(
      "loaded:   \(kind.label)", "\(fixed(figure, 2)) µs/query" + (i == 0 ? "" : " (\(shareText(i)))"))
    record("catalog.\(kind.key)_us", figure)
  }
  let radius = microsecondsPerQuery(queries, passes: repeats) {
    catalog.stores(within: .kilometers(50), of: $0).count
  }
  table.add("loaded:   stores(within: 50 km)", "\(fixed(radius, 2)) µs/query")
  record("catalog.radius50km_us", radius)
  table.add("suggestedIndexConditions()", "\(fixed(suggesting, 3)) s")
  record("catalog.suggesting_s", suggesting)
  table.add("indexing(suggestedIndexConditions())", "\(fixed(indexing, 3)) s (\(suggested.count) conditions)")
  record("catalog.indexing_s", indexing)
  record("catalog.indexed_conditions", suggested.count)
  for (i, kind) in kinds.enumerated() {
    let figure = time(indexed, kind)
    table.add(
      "indexed:  \(kind.label)", "\(fixed(figure, 2)) µs/query" + (i == 0 ? "" : " (\(shareText(i)))"))
    // The open queries exist only on the indexed catalog, so they keep the short key.
    record(kind.open == nil ? "catalog.indexed.\(kind.key)_us" : "catalog.\(kind.key)_us", figure)
  }
  table.add("snapshot: write (indexed catalog)", "\(fixed(write, 3)) s, \(megabytes(snapshotSize))")
  table.add("snapshot: open, Catalog(snapshotAt:)", "\(fixed(open * 1e3, 2)) ms")
  table.add("snapshot: open + first filtered query", "\(fixed(openAndFirstFiltered * 1e3, 2)) ms")
  record("snapshot.bytes", snapshotSize)
  record("snapshot.bytes_per_store", Double(snapshotSize) / Double(max(1, catalog.stores.count)))
  record("snapshot.write_s", write)
  record("snapshot.open_ms", open * 1e3)
  record("snapshot.open_first_filtered_ms", openAndFirstFiltered * 1e3)
  for kind in kinds {
    let figure = time(snapshot, kind)
    table.add("snapshot: \(kind.label)", "\(fixed(figure, 2)) µs/query")
    record("snapshot.\(kind.key)_us", figure)
  }
  // What a service asks: the 10 nearest with their state now, then the answer as JSON. The
  // rendering from rows beside the JSONValue tree of the same matches (the path before issue 12).
  let now = TimeQuery.instant(instant(catalogDayTime))
  for (name, subject) in [("catalog", catalog), ("snapshot", snapshot)] {
    let figure = microsecondsPerQuery(queries, passes: repeats) {
      subject.withStatus(subject.nearest(10, to: $0), at: now).count
    }
    table.add("\(name): k=10 with each store's state", "\(fixed(figure, 2)) µs/query")
    record("\(name).k10_status_us", figure)
  }
  // Rendered from the loaded catalog's rows and from the snapshot's: a snapshot over 64 MB checks
  // each row's digest as it reads it until `verifySnapshotRecords()` has checked them all (what
  // stores-server runs beside serving), so both are measured.
  func render(_ subject: Catalog) -> Double {
    let answers = queries.prefix(2_000).map { subject.withStatus(subject.nearest(10, to: $0), at: now) }
    return best(of: repeats) {
      var bytes = 0
      for matches in answers { bytes &+= StoreMatch.ndjsonText(matches).utf8.count }
      consume(bytes)
    } / Double(answers.count) * 1e6
  }
  let renderUnverified = render(snapshot)
  do { try snapshot.verifySnapshotRecords() } catch { fail("\(error)") }
  let renderRows = render(snapshot)
  let renderLoaded = render(catalog)
  let answers = queries.prefix(2_000).map { snapshot.withStatus(snapshot.nearest(10, to: $0), at: now) }
  let renderTree = best(of: repeats) {
    var bytes = 0
    for matches in answers {
      bytes &+= matches.map { JSONValue.object($0.jsonObject).jsonText + "\n" }.joined().utf8.count
    }
    consume(bytes)
  } / Double(answers.count) * 1e6
  table.add("render 10 stores as JSON, from rows (loaded)", "\(fixed(renderLoaded, 2)) µs/answer")
  table.add("render 10 stores as JSON, from rows (snapshot, verified)", "\(fixed(renderRows, 2)) µs/answer")
  table.add("render 10 stores as JSON, from rows (snapshot, rows checked)", "\(fixed(renderUnverified, 2)) µs/answer")
  table.add("render 10 stores as JSON, JSONValue tree", "\(fixed(renderTree, 2)) µs/answer")
  record("render.json10_rows_us", renderRows)
  record("render.json10_rows_loaded_us", renderLoaded)
  record("render.json10_rows_checked_us", renderUnverified)
  record("render.json10_tree_us", renderTree)
  table.add("peak RSS (VmHWM)", procStatus("VmHWM").map(megabytes) ?? "n/a")
  table.print()
  record("catalog.stores", catalog.indexedCount)
  for (i, kind) in kinds.enumerated() where i > 0 { record("catalog.\(kind.key)_share", shares[i]) }
}

/// Every catalog gives the same answers (store ids and distances) to every kind of query, and
/// on the first `bruteForceQueries` queries those are a brute-force scan's. Exits on a mismatch.
func checkCatalogs(
  _ catalogs: [(name: String, catalog: Catalog)], kinds: [CatalogQuery], queries: [Coordinate],
  bruteForceQueries: Int
) {
  let reference = catalogs[0].catalog
  let checked = min(queries.count, 200)
  for kind in kinds {
    let admitted = reference.stores.indices.filter { position in
      let store = reference.stores[position]
      return store.coordinate != nil && kind.filter.matches(store)
        && (kind.open?.isMet(by: reference.schedule(for: store)) ?? true)
    }
    for (n, q) in queries.prefix(checked).enumerated() {
      let answers = catalogs.map { entry in
        entry.catalog.nearest(10, to: q, where: kind.filter, open: kind.open).map {
          "\($0.store.id)@\($0.distance?.meters ?? -1)"
        }
      }
      for (i, answer) in answers.enumerated().dropFirst() where answer != answers[0] {
        fail(
          "catalog check: \(catalogs[i].name) and \(catalogs[0].name) differ on \(kind.label) at \(q):\n"
            + "  \(answer)\n  \(answers[0])")
      }
      guard n < bruteForceQueries else { continue }
      let expected =
        admitted
        .map { (distance: q.distance(to: reference.stores[$0].coordinate!).meters, position: $0) }
        .sorted { ($0.distance, $0.position) < ($1.distance, $1.position) }
        .prefix(10).map { "\(reference.stores[$0.position].id)@\($0.distance)" }
      guard answers[0] == Array(expected) else {
        fail(
          "catalog check: \(kind.label) at \(q) is not brute force's:\n  \(answers[0])\n  \(Array(expected))")
      }
    }
  }
  print(
    "check: \(catalogs.map(\.name).joined(separator: ", ")) agree on \(kinds.count) kinds of query × \(checked) "
      + "queries, and with brute force on the first \(min(checked, bruteForceQueries))")
}
