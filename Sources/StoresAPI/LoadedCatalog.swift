import OpeningHours
import StoreLocator
import Synchronization

/// One loaded, verified catalog and what the service says about it: the unit a reload swaps.
///
/// Immutable once built, so a request that took it keeps a consistent view of the data for its
/// whole life, whatever reloads happen meanwhile.
public final class LoadedCatalog: Sendable {
  /// The stores.
  public let catalog: Catalog
  /// The file they were read from (`--data`): for a snapshot the snapshot itself, where
  /// `catalog.source` names the GeoJSON file it was built from.
  public let path: String
  /// The library's name for this exact data (`Catalog.dataVersion`): the `X-Stores-Data-Version`
  /// header, and the prefix of every `within` cursor.
  public let version: String
  /// When the load finished.
  public let loadedAt: Instant
  /// How long reading and verifying took, in seconds.
  public let loadSeconds: Double

  /// `stores info --format json`, computed on first use: a summary walks every store, which a
  /// service that never answers `/v1/info` should not pay for at startup.
  private let infoCache = Mutex<String?>(nil)
  /// The catalog with the last state version applied (`catalog(applying:)`): made once per
  /// version, then shared by every request.
  private let applied = Mutex<(source: ObjectIdentifier?, catalog: Catalog)?>(nil)

  /// - Parameters:
  ///   - catalog: The stores, already verified (`verifySnapshotRecords()` for a snapshot).
  ///   - path: The file they were read from.
  ///   - loadedAt: When the load finished.
  ///   - loadSeconds: How long it took.
  public init(catalog: Catalog, path: String, loadedAt: Instant, loadSeconds: Double) {
    self.catalog = catalog
    self.path = path
    self.version = catalog.dataVersion
    self.loadedAt = loadedAt
    self.loadSeconds = loadSeconds
  }

  /// The catalog with `states` applied: the stores' closures and special days in their hours,
  /// their paused ordering in the answers.
  /// - Complexity: O(1) for the version last applied; else applying it (O(s) for the s stores
  ///   it names), once.
  /// - Parameter source: Who keeps the state (its `StateKeeper`): a version names a state within
  ///   one keeper's storage, so two services sharing this catalog (tests) never mix theirs.
  public func catalog(applying states: StoreStates, from source: ObjectIdentifier? = nil) -> Catalog {
    if states.stores.isEmpty && states.version == 0 { return catalog }
    if let made = applied.withLock({ $0 }), made.source == source, made.catalog.stateVersion == states.version
    {
      return made.catalog
    }
    // Made outside the lock: two first requests of a version may both make it.
    let made = catalog.applying(states)
    applied.withLock { slot in
      if slot == nil || slot!.source != source || slot!.catalog.stateVersion <= states.version {
        slot = (source, made)
      }
    }
    return made
  }

  /// The body of `GET /v1/info`: exactly what `stores info --format json` prints.
  /// - Complexity: O(n log n) the first time, O(1) after.
  public var infoJSONText: String {
    if let text = infoCache.withLock({ $0 }) { return text }
    // Computed outside the lock: two first requests may both compute it, neither waits.
    let text = JSONValue.object(catalog.summary.jsonObject).jsonText + "\n"
    infoCache.withLock { $0 = text }
    return text
  }
}
