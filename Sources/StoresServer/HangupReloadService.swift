import Logging
import ServiceLifecycle
import StoreLocator
import StoresAPI
import UnixSignals

/// Reloads the data on every SIGHUP until the service shuts down.
///
/// Each signal asks the reloader at once, without waiting for the reload before: the reloader
/// coalesces them (one load running, one waiting), so a burst of signals makes at most two loads.
struct HangupReloadService: Service {
  let reloader: Reloader
  /// SIGHUP, trapped from the moment this service was made.
  let hangups: UnixSignalsSequence

  /// Traps SIGHUP now: made before the port opens, no SIGHUP after the startup line can end the
  /// process (the signal's default action) before the service listens for it.
  static func trapping(reloader: Reloader) async -> HangupReloadService {
    HangupReloadService(reloader: reloader, hangups: await UnixSignalsSequence(trapping: .sighup))
  }

  func run() async throws {
    await withDiscardingTaskGroup { group in
      for await _ in hangups.cancelOnGracefulShutdown() {
        // Outcome logged and counted by the reloader; a failure or refusal keeps the old data.
        group.addTask { _ = await reloader.reload(trigger: "SIGHUP") }
      }
    }
  }
}

/// Marks the service as draining when shutdown begins, so `/readyz` answers 503, and keeps
/// answering for `delay` before the listener closes: a load balancer polling `/readyz` sees the
/// 503 and stops sending new requests while the service still takes them. The service group shuts
/// its services down one at a time in reverse order, so the listener waits for this one.
struct DrainingService: Service {
  let store: CatalogStore
  /// Told when shutdown begins: an answer cut from then on makes the exit status non-zero.
  let connections: ConnectionLimiter
  /// `--drain-delay`.
  let delay: Duration

  func run() async throws {
    try? await gracefulShutdown()
    store.beginDraining()
    connections.beginStopping()
    if delay > .zero {
      // Not cancellable by a second signal on purpose: the delay is short and bounded.
      try? await Task.sleep(for: delay)
    }
  }
}

/// Checks every record of the snapshot served first while the service already answers, so a
/// replica is ready in milliseconds rather than after seconds of checksums. Records are checked
/// one by one as queries read them too; a record forged together with its checksum is found here
/// (or by the query that reads it first) and ends the process with exit 65, as `stores` does:
/// there is no honest answer from it. Reloads check everything before the swap instead.
///
/// Takes the data from `store` when it starts rather than holding it: the service group keeps its
/// services until the process ends, and the first catalog must be released once a reload has
/// replaced it and its last request has ended.
struct RecordVerificationService: Service {
  let store: CatalogStore
  let logger: Logger

  func run() async throws {
    try await checkFirstSnapshot()
    // Ends only when told to: the service group shuts its services down one at a time, and one
    // that ends by itself while an earlier one is still stopping (the drain delay) is taken for a
    // failure, which ended the process with exit 70 instead of draining. The catalog checked is
    // out of scope by now: waiting here must not keep it (and its mapping) alive after a reload.
    try? await gracefulShutdown()
  }

  /// Checks every record of the snapshot served first; throws `DataRefused` when one is damaged
  /// and that snapshot is still served.
  private func checkFirstSnapshot() async throws {
    guard let loaded = store.current, loaded.catalog.isSnapshot else { return }
    // The check blocks a thread of NIO's pool for seconds and cannot be interrupted: on shutdown
    // the service stops waiting for it (the process ends, and the thread with it).
    let (outcomes, continuation) = AsyncStream.makeStream(of: Result<Double, any Error>.self)
    Task {
      do { continuation.yield(.success(try await CatalogSource.verifyRecords(of: loaded))) } catch {
        continuation.yield(.failure(error))
      }
      continuation.finish()
    }
    var outcome: Result<Double, any Error>?
    for await result in outcomes.cancelOnGracefulShutdown() { outcome = result }
    switch outcome {
    case nil:
      logger.debug("shutting down before every record of the snapshot was checked")
    case .success(let seconds):
      logger.notice(
        "every record of the snapshot is intact",
        metadata: ["seconds": "\(seconds)", "version": "\(loaded.version)"])
    case .failure(let error):
      let description = (error as? CatalogError)?.description ?? "\(error)"
      guard store.current === loaded else {
        logger.error("the data served before the last reload is corrupted: \(description)")
        return
      }
      logger.critical("\(description); stopping, as nothing else can be served")
      throw DataRefused(message: description)
    }
  }
}

/// The data being served turned out to be corrupted: the process exits 65.
struct DataRefused: Error {
  let message: String
}

/// Keeps the replica's copy of the stores' state fresh (`StateKeeper.run()`) until shutdown, then
/// lets the storage's connections go.
struct StateRefreshService: Service {
  let keeper: StateKeeper

  func run() async throws {
    await cancelWhenGracefulShutdown { await keeper.run() }
    await keeper.storage.close()
  }
}
