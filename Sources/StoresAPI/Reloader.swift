import Logging
import StoreLocator

/// Loads the data again beside the data being served and swaps it in; a load that fails leaves
/// the old data in service, logs why and counts it.
///
/// Reloads run one after another: a reload asked for while one runs starts when it ends, so a
/// file replaced during a reload is still read afterwards.
public actor Reloader {
  public let source: CatalogSource
  public let store: CatalogStore
  public let metrics: ServiceMetrics
  private let logger: Logger
  /// The last reload asked for; the next one waits for it.
  private var last: Task<ReloadOutcome, Never>?

  public init(source: CatalogSource, store: CatalogStore, metrics: ServiceMetrics, logger: Logger) {
    self.source = source
    self.store = store
    self.metrics = metrics
    self.logger = logger
  }

  /// Reloads `source` and swaps it in when it loads.
  /// - Parameter trigger: What asked (`SIGHUP`, `POST /admin/reload`), for the log.
  /// - Returns: What happened; a failure is an outcome, not an error: the service goes on.
  public func reload(trigger: String) async -> ReloadOutcome {
    let previous = last
    let task = Task { [source, store, metrics, logger] in
      _ = await previous?.value
      let before = store.current
      do throws(CatalogError) {
        let loaded = try await source.loadOffEventLoops()
        store.replace(with: loaded)
        metrics.recordServing(loaded)
        metrics.recordReloadSuccess()
        logger.notice(
          "reloaded the data",
          metadata: [
            "trigger": "\(trigger)", "stores": "\(loaded.catalog.stores.count)",
            "version": "\(loaded.version)",
            "previous_version": "\(before?.version ?? "none")", "load_seconds": "\(loaded.loadSeconds)",
          ])
        return ReloadOutcome(loaded: loaded, previous: before, error: nil)
      } catch {
        metrics.recordReloadFailure()
        logger.error(
          "reload failed; still serving the data loaded before",
          metadata: [
            "trigger": "\(trigger)", "error": "\(error.description)",
            "version": "\(before?.version ?? "none")",
          ])
        return ReloadOutcome(loaded: nil, previous: before, error: error)
      }
    }
    last = task
    return await task.value
  }
}

/// What a reload did.
public struct ReloadOutcome: Sendable {
  /// The data swapped in; `nil` when the load failed.
  public let loaded: LoadedCatalog?
  /// The data served before (and still served when the load failed).
  public let previous: LoadedCatalog?
  /// Why the load failed.
  public let error: CatalogError?

  /// True when new data is served.
  public var reloaded: Bool { loaded != nil }
}
