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

/// Marks the service as draining when shutdown begins, so `/readyz` answers 503 while the
/// requests in flight complete.
struct DrainingService: Service {
  let store: CatalogStore

  func run() async throws {
    try? await gracefulShutdown()
    store.beginDraining()
  }
}
