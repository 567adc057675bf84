import Foundation
import Logging
import ServiceLifecycle
import StoreLocator

/// Builds the index of place names (`near=Seattle`, `GET /v1/places`) on a thread of its own as
/// the service starts, so the first customer who types a city does not wait for it: about 0.25 s
/// in a release build, seconds in a debug one, where a request could meet its deadline. The
/// index is built once per process: a place query that comes before the build ends waits for
/// the same build rather than starting another.
struct PlaceIndexWarmUpService: Service {
  let logger: Logger

  func run() async throws {
    let logger = logger
    // A thread rather than a task: the build is synchronous CPU work that would hold one of the
    // cooperative pool's few threads for its whole length. Nothing waits for it, so shutdown
    // never does either.
    Thread.detachNewThread {
      let started = ContinuousClock.now
      do throws(PlaceLookupError) {
        let index = try PlaceIndex.bundled()
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
        logger.notice("place names indexed", metadata: ["places": "\(index.count)", "seconds": "\(seconds)"])
      } catch {
        logger.warning("\(error.description); near= takes coordinates only")
      }
    }
    // Ends only when told to, like the record check beside it: a service that ends by itself
    // while another is still stopping is taken for a failure.
    try? await gracefulShutdown()
  }
}
