import Foundation
import Logging
import StoreLocator

/// Builds the index of place names (`near=Seattle`, `GET /v1/places`) on a thread of its own as
/// the service starts, so the first customer who types a city does not wait for it: about 0.2 s
/// in a release build, seconds in a debug one, where a request could meet its deadline. The
/// index is built once per process: a place query that comes before the build ends waits for
/// the same build rather than starting another.
enum PlaceIndexWarmUp {
  /// Starts the build and returns at once. A thread rather than a task: the build is synchronous
  /// CPU work that would hold one of the cooperative pool's few threads for its whole length.
  /// Nothing waits for it, and it is no service of the service group, so shutdown never waits
  /// for it either.
  static func start(logger: Logger) {
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
  }
}
