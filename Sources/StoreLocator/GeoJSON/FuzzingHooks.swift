/// Entry points for the libFuzzer targets in `Fuzz/` (a separate package, built in release mode,
/// where `@testable import` is not available). They expose internals the fuzzers compare
/// against each other; nothing else should use them, hence the SPI rather than plain `public`
/// (`package` access does not reach another package).
@_spi(Fuzzing) public enum FuzzingHooks {
  /// Reads GeoJSON as `Catalog(geoJSON:source:)` does, without indexing: sequentially when
  /// `readAheadStretches` is nil, else in two windows, each cut into that many stretches read
  /// ahead on threads, however short the input (the automatic plan only reads ahead above 1 MB).
  public static func readGeoJSON(_ bytes: [UInt8], source: String, readAheadStretches: Int?)
    -> Result<(stores: [Store], diagnostics: [Diagnostic]), CatalogError>
  {
    let plan = plan(readAheadStretches, bytes: bytes.count)
    return bytes.withUnsafeBufferPointer {
      GeoJSONReader.read($0, source: source, readAhead: plan, keepingRecords: true)
    }
    .map { (stores: $0.stores, diagnostics: GeneratedIDNotes.expanded($0.diagnostics)) }
  }

  /// Reads GeoJSON as the loader does, its records let go once their rows are drafted (read ahead,
  /// from the input's bytes by `FeatureDrafter`), and returns the stores and diagnostics of the
  /// catalog made from those rows, without hours: what `readGeoJSON` gives for the same plan.
  public static func readGeoJSONRows(_ bytes: [UInt8], source: String, readAheadStretches: Int?)
    -> Result<(stores: [Store], diagnostics: [Diagnostic]), CatalogError>
  {
    let plan = plan(readAheadStretches, bytes: bytes.count)
    let read = bytes.withUnsafeBufferPointer { GeoJSONReader.read($0, source: source, readAhead: plan) }
    return read.map { output in
      var output = output
      do throws(StoreTableOverflow) {
        let catalog = try Catalog(
          assembling: &output.assembly, diagnostics: output.diagnostics, source: source, hours: nil)
        return (Array(catalog.stores), catalog.diagnostics)
      } catch {
        // A fuzzer's input is far below the table's limits.
        preconditionFailure(error.reason)
      }
    }
  }

  /// Reading alone when `stretches` is nil, else in two windows of `bytes`, each cut into that
  /// many stretches however short: reading ahead again where a window ends is fuzzed too.
  private static func plan(_ stretches: Int?, bytes: Int) -> FeatureReadAhead.Plan {
    stretches.map {
      FeatureReadAhead.Plan(
        minimumBytes: 0, minimumStretchBytes: 1, stretches: $0, windowBytes: max(1, bytes / 2))
    } ?? .sequential
  }

  /// The checksum every part of a snapshot is sealed with, so a fuzzer can reseal mutated bytes
  /// and reach the code behind the checksum checks.
  public static func snapshotChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    StoreLocator.snapshotChecksum(bytes)
  }

  /// Recomputes the digest of every row of snapshot bytes (`RowDigest`), before the section
  /// checksums are resealed, so forged rows reach the reader's bounds checks. Sections whose
  /// entries point outside the bytes, and rows whose references do, are left as they are.
  public static func resealRowDigests(_ bytes: inout [UInt8]) {
    func word<T: FixedWidthInteger>(_: T.Type, _ at: Int) -> T {
      bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: T.self)) }
    }
    guard bytes.count >= SnapshotFormat.headerSize else { return }
    let count = Int(word(UInt32.self, 12))
    guard count <= 64, SnapshotFormat.headerSize + count * SnapshotFormat.sectionEntrySize <= bytes.count
    else {
      return
    }
    var ranges: [SnapshotFormat.Section: Range<Int>] = [:]
    for index in 0..<count {
      let entry = SnapshotFormat.headerSize + index * SnapshotFormat.sectionEntrySize
      let offset = word(UInt64.self, entry + 8)
      let length = word(UInt64.self, entry + 16)
      guard let section = SnapshotFormat.Section(rawValue: word(UInt32.self, entry)),
        offset <= UInt64(bytes.count), length <= UInt64(bytes.count) - offset
      else { continue }
      ranges[section] = Int(offset)..<Int(offset + length)
    }
    guard let rows = ranges[.rows], let digests = ranges[.rowChecksums], let members = ranges[.members],
      let shapes = ranges[.shapes], let guesses = ranges[.guesses], let texts = ranges[.texts]
    else { return }
    let rowCount = min(rows.count / StoreTableLayout.rowSize, digests.count / 4)
    let computed: [UInt32?] = bytes.withUnsafeBytes { all in
      (0..<rowCount).map { position in
        let start = rows.lowerBound + position * StoreTableLayout.rowSize
        return RowDigest.digest(
          row: UnsafeRawBufferPointer(rebasing: all[start..<start + StoreTableLayout.rowSize]),
          members: UnsafeRawBufferPointer(rebasing: all[members]),
          shapes: UnsafeRawBufferPointer(rebasing: all[shapes]),
          guesses: UnsafeRawBufferPointer(rebasing: all[guesses]),
          texts: UnsafeRawBufferPointer(rebasing: all[texts]))
      }
    }
    bytes.withUnsafeMutableBytes { all in
      for (position, digest) in computed.enumerated() {
        guard let digest else { continue }
        all.storeBytes(
          of: digest.littleEndian, toByteOffset: digests.lowerBound + 4 * position, as: UInt32.self)
      }
    }
  }
}
