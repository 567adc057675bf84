import FuzzSupport
import GeoIndex
import OpeningHours
@_spi(Fuzzing) import StoreLocator

#if canImport(Glibc)
  import Glibc
#endif

/// Snapshot files on any bytes, twice: as they are (the checksums stop nearly every mutation at the
/// door), and with every checksum recomputed (`resealSnapshot`), so that forged offsets, lengths,
/// tree shapes and records reach the reader. Opening must refuse or succeed; what opens and passes
/// `verifySnapshotRecords` must answer every question without a trap.
///
/// `fuzz-snapshot --make-seeds DIR FILE...` writes a snapshot of each GeoJSON file into DIR, as
/// seeds (run.sh does it; snapshots are derived data, not kept in the repository).
@main enum SnapshotFuzz {
  static let scratch = ScratchFile("fuzz.snap")

  static func main() {
    let arguments = CommandLine.arguments
    if arguments.count >= 3, arguments[1] == "--make-seeds" {
      makeSeeds(into: arguments[2], from: Array(arguments.dropFirst(3)))
      exit(0)
    }
    runFuzzer { data, count in
      let input = fuzzInput(data, count)
      SnapshotFuzz.examine(input)
      var resealed = Array(input)
      resealSnapshot(&resealed)
      resealed.withUnsafeBytes { SnapshotFuzz.examine($0) }
      return 0
    }
  }

  static func examine(_ bytes: UnsafeRawBufferPointer) {
    scratch.write(bytes)
    guard let catalog = try? Catalog(snapshotAt: scratch.path), (try? catalog.verifySnapshotRecords()) != nil
    else { return }
    // Everything a query can reach: every record, the diagnostics, lookups by id, the index.
    var located: Coordinate?
    for store in catalog.stores {
      if located == nil { located = store.coordinate }
      fuzzCheck(catalog.store(withID: store.id) != nil, "store \(store.id) is not found by its id")
    }
    _ = catalog.diagnostics.count
    _ = catalog.isValid()
    let center = located ?? Coordinate(uncheckedLatitude: 0, longitude: 0)
    let near = catalog.nearest(5, to: center)
    fuzzCheck(near.count <= 5, "nearest(5) gave \(near.count)")
    _ = catalog.nearest(
      3, to: center, open: OpeningRequirement(time: .instant(Instant(secondsSinceEpoch: 1_781_517_600))))
    _ = catalog.stores(within: Distance(meters: 50_000), of: center)
  }

  static func makeSeeds(into directory: String, from files: [String]) {
    for (index, file) in files.enumerated() {
      do {
        let catalog = try Catalog.load(contentsOf: file)
        let path = "\(directory)/seed-\(index).snap"
        try catalog.writeSnapshot(to: path)
      } catch {
        printError("fuzz-snapshot: no seed from \(file): \(error)")
      }
    }
  }
}
