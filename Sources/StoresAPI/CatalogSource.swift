import NIOPosix
import OpeningHours
import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the service's data comes from: a GeoJSON file or a snapshot, read as `stores` reads it.
public struct CatalogSource: Sendable {
  /// The file (`--data`).
  public let path: String
  /// `--strict` and `--holidays`.
  public let options: LoadOptions

  public init(path: String, options: LoadOptions = LoadOptions()) {
    self.path = path
    self.options = options
  }

  /// Reads and verifies the data: every record of a snapshot is checked against its checksum
  /// before it is served, since a forged record found later, in a query, would end the process.
  ///
  /// Blocks for as long as the load takes (seconds for a large GeoJSON file); `loadOffEventLoops`
  /// runs it on a thread of its own.
  /// - Throws: `CatalogError`, with the sentence `stores` prints for the same file.
  /// - Parameter verifyingRecords: Whether to check every record of a snapshot now (seconds for
  ///   a million stores). A reload does, since the old data serves meanwhile; the first load
  ///   may leave it to `verifyRecords(of:)` running beside the service, as `stores` does for a
  ///   large snapshot, so a replica is ready in milliseconds.
  public func load(verifyingRecords: Bool = true) throws(CatalogError) -> LoadedCatalog {
    let start = Self.monotonicSeconds()
    let catalog = try Catalog.load(contentsOf: path, options: options)
    if verifyingRecords { try catalog.verifySnapshotRecords() }
    return LoadedCatalog(
      catalog: catalog, path: path, loadedAt: .now(), loadSeconds: Self.monotonicSeconds() - start)
  }

  /// `load()` on NIO's blocking-work pool, so neither an event loop nor a thread of Swift's
  /// cooperative pool (two on a two-core machine) is held while a large file is read.
  /// - Throws: `CatalogError`.
  public func loadOffEventLoops(verifyingRecords: Bool = true) async throws(CatalogError) -> LoadedCatalog {
    let result: Result<LoadedCatalog, CatalogError>
    do {
      result = try await NIOThreadPool.singleton.runIfActive {
        do throws(CatalogError) { return .success(try load(verifyingRecords: verifyingRecords)) } catch {
          return .failure(error)
        }
      }
    } catch {
      // The pool is shut down only as the process ends.
      result = .failure(CatalogError(.inputMissing, source: path, "the service is shutting down"))
    }
    return try result.get()
  }

  /// Checks every record of `loaded` (a snapshot; nothing to do for GeoJSON) on NIO's
  /// blocking-work pool, and says how long it took.
  /// - Throws: `CatalogError` naming what is corrupted.
  public static func verifyRecords(of loaded: LoadedCatalog) async throws -> Double {
    let start = monotonicSeconds()
    let result: Result<Void, CatalogError> = try await NIOThreadPool.singleton.runIfActive {
      do throws(CatalogError) { return .success(try loaded.catalog.verifySnapshotRecords()) } catch {
        return .failure(error)
      }
    }
    try result.get()
    return monotonicSeconds() - start
  }

  static func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }
}
