import Logging
import OpeningHours
import StoreLocator
import StoresState
import Synchronization

/// The replica's copy of the stores' state, and the way changes reach the storage.
///
/// Answers read `current` (one lock, no database): the state as last loaded. Changes go to the
/// storage first and are read back whole, so a replica never shows a change the database does not
/// hold. `run()` keeps the copy fresh: it reloads when the storage announces a version (PostgreSQL's
/// NOTIFY) or when the version it polls every `pollInterval` moved (another replica, the command
/// line, a missed announcement); while the storage cannot be reached the copy stays as it was and
/// its age grows, which `/readyz` and the `X-Stores-State-Age` header tell.
public final class StateKeeper: Sendable {
  public let storage: any StateStorage
  /// How often the version is polled.
  public let pollInterval: Duration
  private let logger: Logger
  private let copy: Mutex<Copy>
  private let metrics: ServiceMetrics?

  /// What the replica knows.
  public struct Copy: Sendable {
    /// The state answers are computed with.
    public var states: StoreStates
    /// When the storage last answered (a load or a poll); `nil` before it ever did.
    public var confirmedAt: ContinuousClock.Instant?
    /// Why the last call to the storage failed, while it fails.
    public var failure: String?
    /// What the slots not yet over hold, as last read, with the slots the storage refused a hold
    /// in since.
    public var bookings = SlotBookings.empty
  }

  /// The most slots a replica's copy of the bookings keeps (`StateStorageLimits.bookingsCopied`).
  public static let bookingsLimit = StateStorageLimits.bookingsCopied
  /// Expired holds are marked in the storage every this many polls (they stop counting at their
  /// expiry without it).
  static let pollsPerSweep = 30

  public init(
    storage: any StateStorage, pollInterval: Duration = .seconds(1), metrics: ServiceMetrics? = nil,
    logger: Logger = Logger(label: "stores-server")
  ) {
    self.storage = storage
    self.pollInterval = pollInterval
    self.logger = logger
    self.metrics = metrics
    copy = Mutex(Copy(states: .empty, confirmedAt: nil, failure: nil))
  }

  /// The state answers use now.
  /// - Complexity: O(1); one uncontended lock.
  public var current: Copy { copy.withLock { $0 } }

  /// Seconds since the storage last confirmed the copy, or `nil` when it never did.
  public var ageSeconds: Double? {
    guard let confirmed = copy.withLock({ $0.confirmedAt }) else { return nil }
    let age = ContinuousClock.now - confirmed
    return Double(age.components.seconds) + Double(age.components.attoseconds) / 1e18
  }

  /// Whether the copy is older than two polls: the storage is not answering.
  public var isStale: Bool { (ageSeconds ?? .infinity) > 2 * Self.seconds(pollInterval) + 1 }

  /// Reads the whole state from the storage; on failure keeps the copy and notes why.
  /// - Returns: Whether the storage answered.
  @discardableResult
  public func refresh() async -> Bool {
    do throws(StateStorageError) {
      let states = try await storage.load()
      let previous = copy.withLock { copy in
        defer {
          // A slower load must not replace a newer one.
          if states.version >= copy.states.version { copy.states = states }
          copy.confirmedAt = .now
          copy.failure = nil
        }
        return copy.states.version
      }
      if states.version != previous {
        logger.info("state version \(states.version)", metadata: ["stores": "\(states.stores.count)"])
      }
      metrics?.recordState(version: states.version, healthy: true)
      return true
    } catch {
      noteFailure(error)
      return false
    }
  }

  /// Applies `change` to store `id` through the storage, then reads the state back.
  /// - Throws: `StateStorageError` when the storage cannot take it (the copy is unchanged).
  public func apply(_ change: StoreStateChange, to id: String, by actor: String, at instant: Instant)
    async throws(StateStorageError) -> StoreState
  {
    let state: StoreState
    do throws(StateStorageError) {
      state = try await storage.apply(change, to: id, by: actor, at: instant)
    } catch {
      noteFailure(error)
      throw error
    }
    metrics?.recordStateChange(change)
    // The whole state, not this store alone: a change made elsewhere in between is read too.
    if !(await refresh()) {
      copy.withLock { copy in
        if state.version > copy.states.version {
          copy.states.stores[id] = state
          copy.states.version = state.version
        }
      }
    }
    return state
  }

  /// Reads what the slots not yet over hold; on failure keeps the copy and notes why.
  public func refreshBookings(at now: Instant = .now()) async {
    do throws(StateStorageError) {
      let bookings = try await storage.bookings(endingAfter: now, limit: Self.bookingsLimit)
      copy.withLock { $0.bookings = bookings }
    } catch {
      noteFailure(error)
    }
  }

  /// Holds a place in a slot through the storage; a refusal marks the slot full in the copy.
  public func hold(_ hold: SlotHold, at now: Instant) async throws(StateStorageError) -> SlotHoldOutcome {
    let outcome: SlotHoldOutcome
    do throws(StateStorageError) {
      outcome = try await storage.hold(hold, at: now)
    } catch {
      noteFailure(error)
      throw error
    }
    // A refusal marks the slot full in the copy at once (a small dictionary of its own). A hold
    // made is not added: requests in flight share the copy's slot table, so adding one would copy
    // the whole table (up to `bookingsLimit` slots) on every hold: 11–13% of a reserve's CPU. The
    // next read of the storage (within `pollInterval`) counts it; meanwhile a plan for a slot it
    // filled is refused by the storage and marked here.
    if case .full(let taken) = outcome {
      copy.withLock { $0.bookings.refused(hold.slot, taken: taken) }
    }
    metrics?.recordHold(outcome)
    return outcome
  }

  /// Counts a confirmation or release in the metrics.
  func metricsRecord(_ update: String) { metrics?.recordReservationUpdate(update) }

  /// Keeps the copy fresh until cancelled: on each announcement, and on each poll that finds
  /// another version (or after a failure, to reconnect).
  public func run() async {
    await refresh()
    await refreshBookings()
    await withTaskGroup(of: Void.self) { group in
      if let announcements = storage.announcements() {
        group.addTask { [self] in
          for await version in announcements where version > current.states.version {
            await refresh()
          }
        }
      }
      group.addTask { [self] in
        var polls = 0
        while !Task.isCancelled {
          try? await Task.sleep(for: pollInterval)
          if Task.isCancelled { break }
          polls += 1
          if polls % Self.pollsPerSweep == 0 { _ = try? await storage.sweepExpiredHolds(at: .now()) }
          await refreshBookings()
          do throws(StateStorageError) {
            let version = try await storage.currentVersion()
            let stale = copy.withLock { copy in
              copy.confirmedAt = .now
              if copy.failure != nil { copy.failure = nil }
              return version != copy.states.version
            }
            if stale { await refresh() } else { metrics?.recordState(version: version, healthy: true) }
          } catch {
            noteFailure(error)
          }
        }
      }
      await group.next()
      group.cancelAll()
    }
  }

  private func noteFailure(_ error: StateStorageError) {
    let first = copy.withLock { copy in
      defer { copy.failure = error.message }
      return copy.failure == nil
    }
    metrics?.recordState(version: current.states.version, healthy: false)
    if first { logger.warning("state storage failing: \(error.message); answers go on from the last copy") }
  }

  static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
}
