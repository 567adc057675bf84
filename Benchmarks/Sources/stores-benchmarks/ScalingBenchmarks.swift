import Foundation
import GeoIndex
import StoreLocator

/// Whether the answer path scales with threads: the same questions answered by one thread, then
/// by `threads` threads at once in one process, each with its own share.
///
/// Every question is what `GET /v1/stores/nearest` does without the HTTP: read the request from
/// its parameters, `Catalog.answer(_:now:)` (search, each store's state) and the JSON body's bytes
/// (`SearchAnswer.jsonUTF8`, what the route sends).
/// A lock, a cache written by every question or reference counts on shared objects make the
/// threads wait for each other: the speed-up stays below the number of cores however fast one
/// thread is. Run it on a quiet machine; the figure is throughput with N threads over one.
func benchmarkScaling(catalog: Catalog, source: String, queries: [Coordinate], threads: Int, repeats: Int) {
  let now = "2026-11-25T15:00:00Z"
  let kinds: [(key: String, name: String, extra: [(String, String)])] = [
    ("nearest", "nearest k=10 with states", []),
    ("open", "nearest k=10 open_at (each store's hours)", [("open_at", now)]),
  ]
  var table = Table("Scaling: \(catalog.indexedCount) stores (\(source)), \(queries.count) questions")
  for kind in kinds {
    let requests: [NearestRequest] = queries.map { point in
      let pairs = [("near", "\(point.latitude),\(point.longitude)"), ("k", "10"), ("now", now)] + kind.extra
      do {
        return try NearestRequest(
          RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: .queryString))
      } catch { fail("\(error)") }
    }
    let clock = instant(catalogDayTime)
    @Sendable func answer(_ range: Range<Int>) -> Int {
      var bytes = 0
      for index in range { bytes &+= catalog.answer(requests[index], now: clock).jsonUTF8.count }
      return bytes
    }
    consume(answer(0..<min(requests.count, 1_000)))  // warm-up: pages, painted days
    // Alternated, best of each: a slow moment of a shared machine hits both alike.
    var one = Double.infinity
    var many = Double.infinity
    for _ in 0..<max(1, repeats) {
      one = min(one, best(of: 1) { consume(answer(0..<requests.count)) })
      many = min(many, best(of: 1) { consume(inParallel(threads: threads, count: requests.count, answer)) })
    }
    let oneRate = Double(requests.count) / one
    let manyRate = Double(requests.count) / many
    table.add("\(kind.name), 1 thread", "\(fixed(oneRate, 0)) answers/s")
    table.add(
      "\(kind.name), \(threads) threads", "\(fixed(manyRate, 0)) answers/s, ×\(fixed(manyRate / oneRate, 2))")
    record("scaling.\(kind.key)_1_per_s", oneRate)
    record("scaling.\(kind.key)_\(threads)_per_s", manyRate)
    record("scaling.\(kind.key)_speedup", manyRate / oneRate)
  }
  table.print()
}

/// `body` over `count` indices cut into `threads` contiguous shares, each on a thread of its own,
/// started together; the sum of what they return.
func inParallel(threads: Int, count: Int, _ body: @escaping @Sendable (Range<Int>) -> Int) -> Int {
  let results = Results(count: threads)
  let start = DispatchSemaphore(value: 0)
  let done = DispatchGroup()
  for thread in 0..<threads {
    let range = (count * thread / threads)..<(count * (thread + 1) / threads)
    done.enter()
    Thread.detachNewThread {
      start.wait()
      results.set(thread, body(range))
      done.leave()
    }
  }
  for _ in 0..<threads { start.signal() }
  done.wait()
  return results.sum
}

/// The threads' results, each written once by its own thread.
final class Results: @unchecked Sendable {
  private var values: [Int]
  private let lock = NSLock()
  init(count: Int) { values = Array(repeating: 0, count: count) }
  func set(_ index: Int, _ value: Int) { lock.withLock { values[index] = value } }
  var sum: Int { lock.withLock { values.reduce(0, &+) } }
}
