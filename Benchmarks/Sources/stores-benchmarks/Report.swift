import GeoIndex

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The machine-readable output of `--json FILE`: every figure under a stable key
/// (`tree.k10_us`, `load.mb_per_s_no_hours`, `hours.weekly.is_open_ns`, …), in the order
/// measured, written as one flat JSON object when the command ends. `--json -` prints it to
/// standard output after the tables. Units are in the key: `_s` seconds, `_us` microseconds,
/// `_ns` nanoseconds, `_bytes` bytes, `mb_per_s` 10⁶ bytes a second; other keys are counts.
nonisolated(unsafe) var report: [(key: String, value: Double)] = []

/// Records `value` under `key` for `--json`; a key recorded twice keeps the last value.
func record(_ key: String, _ value: Double) {
  if let i = report.firstIndex(where: { $0.key == key }) {
    report[i].value = value
  } else {
    report.append((key, value))
  }
}

func record(_ key: String, _ value: Int) { record(key, Double(value)) }

/// The report as one JSON object, keys in the order recorded; non-finite values become null.
func reportJSON(extra: [(String, String)] = []) -> String {
  var lines: [String] = []
  for (key, text) in extra { lines.append("  \"\(key)\": \"\(text)\"") }
  for (key, value) in report {
    let number: String
    if !value.isFinite {
      number = "null"
    } else if value == value.rounded() && abs(value) < 1e15 {
      number = String(Int64(value))
    } else {
      number = "\(value)"
    }
    lines.append("  \"\(key)\": \(number)")
  }
  return "{\n" + lines.joined(separator: ",\n") + "\n}\n"
}

/// Writes the report to `path` (or standard output for `-`).
func writeReport(to path: String, command: String) {
  let text = reportJSON(extra: [("command", command)])
  if path == "-" {
    print(text, terminator: "")
    return
  }
  writeText(text, to: path)
}

// MARK: - export-points

/// Writes the benchmark's data as raw little-endian binary files, so other programs (the Python
/// anchors of `scripts/compare_anchors.py`) measure on exactly the same points:
///
/// - `points.f64`: `points` × 2 float64, (latitude, longitude) in degrees, interleaved; the
///   points of `tree` (`uniformSpherePoints`, seed `seed`).
/// - `queries.f64`: `queries` × 2 float64, the same layout; the queries of `tree` (`querySeed`).
/// - `flags10.u8`, `flags1.u8`: `points` × uint8 (0 or 1), the predicates of `tree`'s filtered
///   queries (10% and 1% of the points).
/// - `instants.i64`: `instants` × int64, seconds since 1970 UTC; the instants of `hours`.
/// - `hours.tsv`: one line per expression of `hours`: key, tab, label, tab, expression.
/// - `meta.json`: the counts and seeds.
func exportPoints(
  directory: String, points n: Int, seed: UInt64, queries q: Int, querySeed: UInt64, instants count: Int
) {
  mkdir(directory, 0o755)
  let options = TreeOptions(points: n, seed: seed, queries: q, querySeed: querySeed)
  let points = uniformSpherePoints(count: n, seed: seed)
  let queries = uniformSpherePoints(count: q, seed: querySeed)
  let flags10 = flags(count: n, fraction: 0.10, seed: options.flagSeed)
  let flags1 = flags(count: n, fraction: 0.01, seed: options.flagSeed &+ 1)

  func writeBinary<T>(_ values: [T], _ name: String) {
    let path = directory + "/" + name
    guard let file = fopen(path, "wb") else { fail("cannot write \(path)") }
    let written = values.withUnsafeBufferPointer {
      fwrite($0.baseAddress, MemoryLayout<T>.stride, $0.count, file)
    }
    guard written == values.count, fclose(file) == 0 else { fail("cannot write \(path)") }
  }
  // Every platform Swift runs on here is little-endian; the conversions below make it explicit.
  func coordinates(_ list: [Coordinate]) -> [UInt64] {
    var out: [UInt64] = []
    out.reserveCapacity(2 * list.count)
    for c in list {
      out.append(c.latitude.bitPattern.littleEndian)
      out.append(c.longitude.bitPattern.littleEndian)
    }
    return out
  }
  writeBinary(coordinates(points), "points.f64")
  writeBinary(coordinates(queries), "queries.f64")
  writeBinary(flags10.map { UInt8($0 ? 1 : 0) }, "flags10.u8")
  writeBinary(flags1.map { UInt8($0 ? 1 : 0) }, "flags1.u8")
  writeBinary(hoursInstants(count: count).map { $0.secondsSinceEpoch.littleEndian }, "instants.i64")
  var tsv = ""
  for (key, label, text) in hoursExpressions { tsv += "\(key)\t\(label)\t\(text)\n" }
  writeText(tsv, to: directory + "/hours.tsv")
  writeText(
    """
    {"points": \(n), "seed": \(seed), "queries": \(q), "query_seed": \(querySeed), \
    "flag_seed_10": \(options.flagSeed), "flag_seed_1": \(options.flagSeed &+ 1), \
    "flags10_set": \(flags10.count { $0 }), "flags1_set": \(flags1.count { $0 }), \
    "instants": \(count), "instant_seed": 4242, "time_zone": "Europe/Berlin", "holidays": "DE-BE"}

    """, to: directory + "/meta.json")
  print(
    "wrote \(directory): points.f64 (\(n)), queries.f64 (\(q)), flags10.u8 (\(flags10.count { $0 }) set), "
      + "flags1.u8 (\(flags1.count { $0 }) set), instants.i64 (\(count)), hours.tsv, meta.json")
}

func writeText(_ text: String, to path: String) {
  guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
  _ = text.withCString { fputs($0, file) }
  guard fclose(file) == 0 else { fail("cannot write \(path)") }
}
