import GeoIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, fast and the same on every platform.
struct SplitMix64 {
  var state: UInt64
  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// Uniform in [0, 1), 53 bits.
  mutating func nextDouble() -> Double { Double(next() >> 11) * 0x1p-53 }

  /// Uniform in 0..<bound (bound small; the modulo bias is below 2⁻⁵⁰).
  mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

/// Points uniform on the sphere: z uniform in [-1, 1] gives latitude asin(z); longitude uniform.
/// Two draws a point, in this order, so the file and the in-memory points of one seed agree.
func uniformSpherePoints(count: Int, seed: UInt64) -> [Coordinate] {
  var rng = SplitMix64(seed: seed)
  var points: [Coordinate] = []
  points.reserveCapacity(count)
  for _ in 0..<count { points.append(nextSpherePoint(&rng)) }
  return points
}

@inline(__always)
func nextSpherePoint(_ rng: inout SplitMix64) -> Coordinate {
  let z = 2 * rng.nextDouble() - 1
  let lon = rng.nextDouble() * 360 - 180
  return Coordinate(uncheckedLatitude: asin(z) * (180 / .pi), longitude: lon)
}

/// Per-point flags from their own generator (not the point or query generator): `fraction` of
/// the points, independently.
func flags(count: Int, fraction: Double, seed: UInt64) -> [Bool] {
  var rng = SplitMix64(seed: seed)
  return (0..<count).map { _ in rng.nextDouble() < fraction }
}

// MARK: - Defeating dead-code elimination

/// Everything measured feeds this, and it is printed at the end, so no result can be dropped.
nonisolated(unsafe) var sink = 0

@inline(never)
func consume(_ value: Int) { sink &+= value }

// MARK: - Timing

let clock = ContinuousClock()

extension Duration {
  var seconds: Double {
    let (s, atto) = components
    return Double(s) + Double(atto) * 1e-18
  }
}

/// The best (smallest) wall time of `repeats` runs of `body`.
func best(of repeats: Int, _ body: () -> Void) -> Double {
  var bestTime = Double.infinity
  for _ in 0..<max(1, repeats) {
    let start = clock.now
    body()
    bestTime = min(bestTime, (clock.now - start).seconds)
  }
  return bestTime
}

/// Average microseconds per query, one query at a time on this thread: one warm-up pass over all
/// the queries, then the best of `passes` timed passes.
@inline(__always)
func microsecondsPerQuery(
  _ queries: [Coordinate], passes: Int, _ body: (Coordinate) -> Int
) -> Double {
  var checksum = 0
  for q in queries { checksum &+= body(q) }
  let time = best(of: passes) {
    for q in queries { checksum &+= body(q) }
  }
  consume(checksum)
  return time / Double(queries.count) * 1e6
}

// MARK: - Memory

/// A `kB` field of /proc/self/status (`VmHWM`, `VmRSS`), in bytes; nil where there is no /proc.
func procStatus(_ field: String) -> Int? {
  guard let file = fopen("/proc/self/status", "r") else { return nil }
  defer { fclose(file) }
  var line = [CChar](repeating: 0, count: 512)
  while fgets(&line, Int32(line.count), file) != nil {
    let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard text.hasPrefix(field + ":") else { continue }
    let digits = text.dropFirst(field.count + 1).filter(\.isNumber)
    return Int(digits).map { $0 * 1024 }
  }
  return nil
}

func fileSize(_ path: String) -> Int? {
  var info = stat()
  guard stat(path, &info) == 0 else { return nil }
  return Int(info.st_size)
}

// MARK: - Output

func fixed(_ value: Double, _ decimals: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scale = 1.0
  for _ in 0..<decimals { scale *= 10 }
  let scaled = (abs(value) * scale).rounded()
  let whole = Int(scaled / scale)
  let fraction = Int(scaled - Double(whole) * scale)
  let sign = value < 0 && scaled > 0 ? "-" : ""
  if decimals == 0 { return sign + String(whole) }
  let digits = String(fraction)
  return sign + String(whole) + "." + String(repeating: "0", count: decimals - digits.count) + digits
}

func megabytes(_ bytes: Int) -> String { fixed(Double(bytes) / 1e6, 1) + " MB" }

/// A plain two-column table: what, and the figure.
struct Table {
  var title: String
  var rows: [(String, String)] = []

  init(_ title: String) { self.title = title }

  mutating func add(_ label: String, _ value: String) { rows.append((label, value)) }

  func print() {
    let width = rows.map(\.0.count).max() ?? 0
    Swift.print("\n\(title)")
    Swift.print(String(repeating: "-", count: max(title.count, width + 16)))
    for (label, value) in rows {
      Swift.print(label + String(repeating: " ", count: width - label.count + 2) + value)
    }
  }
}

func fail(_ message: String) -> Never {
  var text = "stores-benchmarks: " + message + "\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  exit(1)
}
