import Logging
import StoreLocator

/// Loads the data again beside the data being served and swaps it in; a load that fails leaves
/// the old data in service, logs why and counts it, and so does a load that would lose more than
/// `--max-store-loss` of the stores, unless forced.
///
/// Reloads coalesce: at most one loads and one waits. A reload asked for while none runs starts
/// at once; one asked for while another runs joins the waiting one, which starts when the running
/// one ends, so a file renamed before a caller asked is read for it, and every caller of the
/// waiting reload gets its outcome. Thirty SIGHUPs in a burst make at most two loads.
///
/// Nothing here keeps a catalog once its reload has ended: a catalog replaced by a reload lives as
/// long as the requests that took it, and no longer.
public actor Reloader {
  public let source: CatalogSource
  public let store: CatalogStore
  public let metrics: ServiceMetrics
  /// When a reload is refused for the stores it would lose (`--max-store-loss`).
  public let storeLossGuard: StoreLossGuard
  private let logger: Logger
  /// Reads the data: `source.loadOffEventLoops()`, or a stand-in in tests.
  private let load: @Sendable () async throws(CatalogError) -> LoadedCatalog

  /// The callers of one load, and what they asked for.
  private struct Batch {
    var callers: [CheckedContinuation<ReloadOutcome, Never>] = []
    /// What asked, in order, each once (`SIGHUP`, `POST /admin/reload`), for the log.
    var triggers: [String] = []
    /// True when any caller asked to accept a loss of stores.
    var force = false

    mutating func join(
      _ caller: CheckedContinuation<ReloadOutcome, Never>, trigger: String, force: Bool
    ) {
      callers.append(caller)
      if !triggers.contains(trigger) { triggers.append(trigger) }
      self.force = self.force || force
    }
  }

  /// The reload loading now, `nil` when none is.
  private var running: Batch?
  /// The reload that starts when the running one ends, `nil` when none waits.
  private var waiting: Batch?

  /// - Parameters:
  ///   - storeLossGuard: When to refuse new data for the stores it lacks; by default, more than
  ///     10% fewer stores than served.
  public init(
    source: CatalogSource, store: CatalogStore, metrics: ServiceMetrics, logger: Logger,
    storeLossGuard: StoreLossGuard = StoreLossGuard()
  ) {
    self.init(
      source: source, store: store, metrics: metrics, logger: logger, storeLossGuard: storeLossGuard,
      load: { () async throws(CatalogError) -> LoadedCatalog in try await source.loadOffEventLoops() })
  }

  /// A reloader whose loads are `load` (tests stand in for the file this way).
  init(
    source: CatalogSource, store: CatalogStore, metrics: ServiceMetrics, logger: Logger,
    storeLossGuard: StoreLossGuard, load: @escaping @Sendable () async throws(CatalogError) -> LoadedCatalog
  ) {
    self.source = source
    self.store = store
    self.metrics = metrics
    self.logger = logger
    self.storeLossGuard = storeLossGuard
    self.load = load
  }

  /// Reloads `source` and swaps it in when it loads and loses no more stores than allowed.
  /// - Parameters:
  ///   - trigger: What asked (`SIGHUP`, `POST /admin/reload`), for the log.
  ///   - force: Swap the new data in whatever share of the stores it lacks. A forced caller that
  ///     joins a waiting reload makes that reload forced, for its other callers too.
  /// - Returns: What happened; a failure or a refusal is an outcome, not an error: the service
  ///   goes on.
  public func reload(trigger: String, force: Bool = false) async -> ReloadOutcome {
    await withCheckedContinuation { caller in
      if running == nil {
        var batch = Batch()
        batch.join(caller, trigger: trigger, force: force)
        start(batch)
      } else {
        if waiting != nil { metrics.recordReloadCoalesced() }
        waiting = waiting ?? Batch()
        waiting?.join(caller, trigger: trigger, force: force)
      }
    }
  }

  /// The callers waiting for a reload that has not started (tests watch a burst arrive).
  var waitingCallers: Int { waiting?.callers.count ?? 0 }

  /// Runs `batch`'s load, then the waiting one's, if any.
  private func start(_ batch: Batch) {
    running = batch
    Task { await self.runLoad(force: batch.force, triggers: batch.triggers, callers: batch.callers.count) }
  }

  /// Loads, answers every caller of the running batch, and starts the waiting one.
  private func runLoad(force: Bool, triggers: [String], callers count: Int) async {
    let outcome = await perform(force: force, trigger: triggers.joined(separator: ", "), callers: count)
    let callers = running?.callers ?? []
    running = nil
    if let next = waiting {
      waiting = nil
      start(next)
    }
    for caller in callers { caller.resume(returning: outcome) }
  }

  /// One load, checked, swapped in or refused; logged and counted.
  private func perform(force: Bool, trigger: String, callers: Int) async -> ReloadOutcome {
    var context: Logger.Metadata = ["trigger": "\(trigger)"]
    if callers > 1 { context["requests"] = "\(callers)" }
    let loaded: LoadedCatalog
    do throws(CatalogError) { loaded = try await load() } catch {
      // Versions and counts only: the outcome keeps no catalog but the one swapped in.
      let served = store.current.map { ServedData($0) }
      metrics.recordReloadFailure()
      context["error"] = "\(error.description)"
      context["version"] = "\(served?.version ?? "none")"
      logger.error("reload failed; still serving the data loaded before", metadata: context)
      return ReloadOutcome(loaded: nil, served: served, error: error, refusal: nil)
    }
    let served = store.current.map { ServedData($0) }
    let stores = loaded.catalog.stores.count
    if let served, let share = storeLossGuard.lossBeyondLimit(newStores: stores, servedStores: served.stores)
    {
      let refusal = ReloadRefusal(
        path: loaded.path, newVersion: loaded.version, newStores: stores, servedStores: served.stores,
        lossPercent: share, limitPercent: storeLossGuard.maximumLossPercent, remedy: storeLossGuard.remedy)
      context["version"] = "\(served.version)"
      context["stores"] = "\(served.stores)"
      context["new_version"] = "\(loaded.version)"
      context["new_stores"] = "\(stores)"
      guard force else {
        metrics.recordReloadRefused()
        context["error"] = "\(refusal.description)"
        logger.error("reload refused; still serving the data loaded before", metadata: context)
        return ReloadOutcome(loaded: nil, served: served, error: nil, refusal: refusal)
      }
      logger.warning(
        "reload forced: \(refusal.shareSentence), swapped in as asked", metadata: context)
    }
    let previousVersion = store.replace(with: loaded)?.version
    metrics.recordServing(loaded)
    metrics.recordReloadSuccess()
    context["stores"] = "\(stores)"
    context["version"] = "\(loaded.version)"
    context["previous_version"] = "\(previousVersion ?? "none")"
    context["load_seconds"] = "\(loaded.loadSeconds)"
    // The success line names the data now served as `version` and `stores`.
    context["new_version"] = nil
    context["new_stores"] = nil
    if force {
      context["forced"] = "true"
      context["previous_stores"] = "\(served?.stores ?? 0)"
    }
    logger.notice("reloaded the data", metadata: context)
    return ReloadOutcome(loaded: loaded, served: served, error: nil, refusal: nil)
  }
}

/// What a reload did.
///
/// Holds the data it swapped in, if any, and only versions and counts of the data it replaced:
/// an outcome kept somewhere never keeps replaced data alive.
public struct ReloadOutcome: Sendable {
  /// The data swapped in; `nil` when the load failed or was refused.
  public let loaded: LoadedCatalog?
  /// The version served before the reload (and still served when it failed or was refused).
  public let previousVersion: String?
  /// How many stores that data has.
  public let previousStores: Int?
  /// Why the load failed.
  public let error: CatalogError?
  /// Why the new data was not swapped in although it loaded.
  public let refusal: ReloadRefusal?

  init(loaded: LoadedCatalog?, served: ServedData?, error: CatalogError?, refusal: ReloadRefusal?) {
    self.loaded = loaded
    previousVersion = served?.version
    previousStores = served?.stores
    self.error = error
    self.refusal = refusal
  }

  /// True when new data is served.
  public var reloaded: Bool { loaded != nil }
}

/// The version and store count of the data served, without the data.
struct ServedData: Sendable {
  let version: String
  let stores: Int

  init(_ loaded: LoadedCatalog) {
    version = loaded.version
    stores = loaded.catalog.stores.count
  }
}

/// When a reload is refused for the stores the new data lacks: All The Places spiders, like other
/// upstreams, now and then publish an empty or truncated file, which parses.
public struct StoreLossGuard: Sendable {
  /// The largest share of the served stores, in percent, that new data may lack
  /// (`--max-store-loss`, 0…100); 100 takes any data.
  public let maximumLossPercent: Double
  /// How to accept refused data, the end of the refusal's sentence.
  public let remedy: String

  /// - Parameters:
  ///   - maximumLossPercent: 0…100 (clamped); 10 by default.
  ///   - remedy: What the refusal tells the operator to do to accept the data.
  public init(maximumLossPercent: Double = 10, remedy: String = Self.forceRemedy) {
    self.maximumLossPercent = maximumLossPercent.isNaN ? 10 : min(100, max(0, maximumLossPercent))
    self.remedy = remedy
  }

  /// The remedy where `POST /admin/reload` exists.
  public static let forceRemedy = "to accept it, POST /admin/reload?force=true"
  /// The remedy where only SIGHUP reloads.
  public static let restartRemedy = "to accept it, restart the service (a startup loads without this check)"

  /// The share of `servedStores`, in percent, that `newStores` lacks, when it is over the limit;
  /// `nil` when the new data may be served (as many stores or more, a loss within the limit, or
  /// nothing served to compare with).
  public func lossBeyondLimit(newStores: Int, servedStores: Int) -> Double? {
    guard servedStores > 0, newStores < servedStores else { return nil }
    let lost = Double(servedStores - newStores)
    // Compared as products, so 1 store lost of 10 is exactly 10%, within a limit of 10.
    guard lost * 100 > maximumLossPercent * Double(servedStores) else { return nil }
    return lost * 100 / Double(servedStores)
  }
}

/// New data not swapped in for the stores it lacks.
public struct ReloadRefusal: Sendable, CustomStringConvertible {
  /// The file read (`--data`).
  public let path: String
  public let newVersion: String
  public let newStores: Int
  public let servedStores: Int
  /// The share of the served stores the new data lacks, in percent.
  public let lossPercent: Double
  /// `--max-store-loss`.
  public let limitPercent: Double
  /// How to accept the data anyway.
  public let remedy: String

  /// `the new data has 0 stores, 100% fewer than the 12345 served (the limit is 10%, --max-store-loss)`.
  public var shareSentence: String {
    let limit = Self.percentText(limitPercent)
    return "the new data has \(newStores) store\(newStores == 1 ? "" : "s"), "
      + "\(Self.percentText(lossPercent, unlike: limit))% fewer than the \(servedStores) served "
      + "(the limit is \(limit)%, --max-store-loss)"
  }

  /// The sentence of the log and of the admin answer: the file, the counts, the share lost, the
  /// limit, and how to accept the data.
  public var description: String { "\(path): \(shareSentence); \(remedy)" }

  /// The share lost, rounded to 0.01, for the admin answer.
  public var roundedLossPercent: Double { (lossPercent * 100).rounded() / 100 }

  /// `value` with one decimal at most, `.0` dropped; with more (up to 4) when one would print the
  /// same text as `limit`, so a loss just over the limit never reads as the limit itself.
  static func percentText(_ value: Double, unlike limit: String? = nil) -> String {
    var text = ""
    for decimals in 1...4 {
      var scale = 1.0
      for _ in 0..<decimals { scale *= 10 }
      text = "\((value * scale).rounded() / scale)"
      if text.hasSuffix(".0") { text.removeLast(2) }
      if text != limit { break }
    }
    return text
  }
}
