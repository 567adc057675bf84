import OpeningHours
import StoreLocator
import Synchronization

/// State kept in memory only, for tests and for a service started with `--state memory`: gone
/// when the process ends.
public final class MemoryStateStorage: StateStorage {
  struct Contents {
    var states = StoreStates()
    var history: [StateChangeRecord] = []
    /// While set, every call fails as a database that cannot be reached would (tests).
    var isUnavailable = false
    var reservations = MemoryReservations()
  }

  let contents = Mutex(Contents())

  public init() {}

  public var location: String { "memory" }

  /// Makes every call fail (`true`) or work again, as a database that goes away and comes back.
  public func setUnavailable(_ unavailable: Bool) { contents.withLock { $0.isUnavailable = unavailable } }

  func withReservations<T>(_ body: (inout MemoryReservations) -> T) -> T {
    contents.withLock { body(&$0.reservations) }
  }

  func reachable() throws(StateStorageError) {
    if contents.withLock({ $0.isUnavailable }) {
      throw StateStorageError(.unavailable, "the state storage (memory) is unavailable")
    }
  }

  public func load() async throws(StateStorageError) -> StoreStates {
    try reachable()
    return contents.withLock { $0.states }
  }

  public func apply(_ change: StoreStateChange, to id: String, by actor: String, at instant: Instant)
    async throws(StateStorageError) -> StoreState
  {
    try reachable()
    return contents.withLock { contents in
      let version = contents.states.version + 1
      var state = change.applied(to: contents.states[id])
      state.version = version
      state.changedAt = instant
      contents.states.version = version
      contents.states.stores[id] = state
      contents.history.append(
        StateChangeRecord(version: version, storeID: id, change: change.jsonObject, actor: actor, at: instant)
      )
      return state
    }
  }

  public func history(of id: String, limit: Int) async throws(StateStorageError) -> [StateChangeRecord] {
    try reachable()
    return contents.withLock { Array($0.history.filter { $0.storeID == id }.reversed().prefix(limit)) }
  }

  public func currentVersion() async throws(StateStorageError) -> Int64 {
    try reachable()
    return contents.withLock { $0.states.version }
  }

  public func announcements() -> AsyncStream<Int64>? { nil }

  public func close() async {}
}
