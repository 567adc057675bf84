import ServiceLifecycle
import StoresAPI
import UnixSignals

/// Reloads the data on every SIGHUP until the service shuts down.
struct HangupReloadService: Service {
  let reloader: Reloader

  func run() async throws {
    let hangups = await UnixSignalsSequence(trapping: .sighup)
    for await _ in hangups.cancelOnGracefulShutdown() {
      // Outcome logged and counted by the reloader; a failure keeps the old data.
      _ = await reloader.reload(trigger: "SIGHUP")
    }
  }
}

/// Marks the service as draining when shutdown begins, so `/readyz` answers 503, and keeps
/// answering for `delay` before the listener closes: a load balancer polling `/readyz` sees the
/// 503 and stops sending new requests while the service still takes them. The service group shuts
/// its services down one at a time in reverse order, so the listener waits for this one.
struct DrainingService: Service {
  let store: CatalogStore
  /// `--drain-delay`.
  let delay: Duration

  func run() async throws {
    try? await gracefulShutdown()
    store.beginDraining()
    if delay > .zero {
      // Not cancellable by a second signal on purpose: the delay is short and bounded.
      try? await Task.sleep(for: delay)
    }
  }
}
