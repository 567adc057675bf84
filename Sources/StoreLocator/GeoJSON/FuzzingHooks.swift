/// Entry points for the libFuzzer targets in `Fuzz/` (a separate package, built in release mode,
/// where `@testable import` is not available). They expose internals the fuzzers compare
/// against each other; nothing else should use them, hence the SPI rather than plain `public`
/// (`package` access does not reach another package).
@_spi(Fuzzing) public enum FuzzingHooks {
  /// Reads GeoJSON as `Catalog(geoJSON:source:)` does, without indexing: sequentially when
  /// `readAheadStretches` is nil, else cut into that many stretches read ahead on threads, however
  /// short the input (the automatic plan only reads ahead above 1 MB).
  public static func readGeoJSON(_ bytes: [UInt8], source: String, readAheadStretches: Int?)
    -> Result<(stores: [Store], diagnostics: [Diagnostic]), CatalogError>
  {
    let plan =
      readAheadStretches.map { FeatureReadAhead.Plan(minimumBytes: 0, minimumStretchBytes: 1, stretches: $0) }
      ?? .sequential
    return bytes.withUnsafeBufferPointer { GeoJSONReader.read($0, source: source, readAhead: plan) }
      .map { (stores: $0.stores, diagnostics: $0.diagnostics) }
  }

  /// The checksum every part of a snapshot is sealed with, so a fuzzer can reseal mutated bytes
  /// and reach the code behind the checksum checks.
  public static func snapshotChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    StoreLocator.snapshotChecksum(bytes)
  }
}
