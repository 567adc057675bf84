import OpeningHours
import SQLiteNIO
import StoreLocator
import Synchronization

/// The state in an SQLite file: the embedded default, nothing to run, for one replica (and the
/// command line beside it: SQLite's own locks keep two processes' changes apart).
///
/// Tables (`stores_state_schema` says which version of them the file holds):
/// - `stores_state_stores`: one row per changed store, its state as JSON text, the version and time
///   of its last change;
/// - `stores_state_history`: one row per change, keyed by the version it made;
/// - `stores_reservations` and `stores_slots`: the slots' reservations and each slot's count of
///   them (SQLiteReservations.swift).
///
/// A change is one `BEGIN IMMEDIATE … COMMIT` transaction, and the file is in WAL mode with
/// `synchronous=FULL`, so a change that returned survives a power cut and a process killed in the
/// middle of one leaves it whole or absent.
public final class SQLiteStateStorage: StateStorage {
  /// The schema version this build writes; a file with a higher one is refused, a lower one migrated.
  public static let schemaVersion = migrations.count

  /// The most memory SQLite's page cache takes for the file, in KiB (`PRAGMA cache_size`).
  public static let pageCacheKibibytes = 32 * 1024

  /// `migrations[n]` takes a file from schema version `n` to `n + 1` (0: a new file).
  static let migrations: [[String]] = [
    [
      """
      CREATE TABLE IF NOT EXISTS stores_state_stores (
        store_id TEXT PRIMARY KEY NOT NULL, state TEXT NOT NULL, version INTEGER NOT NULL, changed_at INTEGER)
      """,
      """
      CREATE TABLE IF NOT EXISTS stores_state_history (
        version INTEGER PRIMARY KEY NOT NULL, store_id TEXT NOT NULL, change TEXT NOT NULL,
        actor TEXT NOT NULL, at INTEGER NOT NULL)
      """,
      "CREATE INDEX IF NOT EXISTS stores_state_history_store ON stores_state_history (store_id, version)",
    ],
    // 1 → 2: the slots' reservations (SQLiteReservations.swift).
    reservationsSchema,
  ]

  private let connection: SQLiteConnection
  private let path: String
  /// One transaction at a time on the one connection: SQLite serializes statements, not
  /// transactions, and a read between another task's statements would see its uncommitted rows.
  private let gate = SerialGate()
  /// Set by `close()`; later calls fail instead of touching a closed handle.
  private let isClosed = Mutex(false)
  /// Holds that arrive together, written in one transaction (SQLiteReservations.swift).
  let holdGroups = GroupedWrites<(hold: SlotHold, now: Instant), SlotHoldOutcome>(largestGroup: 128)

  private init(connection: SQLiteConnection, path: String) {
    self.connection = connection
    self.path = path
  }

  deinit {
    // SQLiteNIO asserts that a connection is closed before it goes; a storage dropped without
    // `close()` (a failed start-up, a test) closes it on its way out.
    if !isClosed.withLock({ $0 }) {
      let connection = connection
      Task { try? await connection.close() }
    }
  }

  /// Opens the state in the file at `path`, creating the file and its tables when absent and
  /// migrating an older schema.
  /// - Throws: `StateStorageError`: `.unavailable` when the file cannot be opened or written (no
  ///   such folder, no permission), `.unreadable` when it is not an SQLite database or was written
  ///   by a newer version of stores. The message names the path.
  public static func open(path: String) async throws(StateStorageError) -> SQLiteStateStorage {
    let connection: SQLiteConnection
    do {
      connection = try await SQLiteConnection.open(storage: .file(path: path))
    } catch {
      throw failure(error, path: path)
    }
    let storage = SQLiteStateStorage(connection: connection, path: path)
    do throws(StateStorageError) {
      try await storage.prepare()
    } catch {
      await storage.close()
      throw error
    }
    return storage
  }

  public var location: String { "sqlite:\(path)" }

  /// Sets the connection up and brings the schema to `schemaVersion`.
  private func prepare() async throws(StateStorageError) {
    try await gate.run { () async throws(StateStorageError) in
      // SQLite's busy handler waits for a lock by sleeping on the thread it runs on, one of the
      // few that every SQLite call in the process shares (NIO's blocking pool, one per core): a
      // long wait there could hold the very thread the connection holding the lock needs (two
      // storages on one file in one process). So it waits 50 ms at most, and `transaction` waits
      // for the write lock in turns, up to `lockWait`, between which the thread is free.
      try await execute("PRAGMA busy_timeout = 50")
      // WAL: a change is appended and fsynced before COMMIT returns (synchronous=FULL), and a
      // reader never sees half of one. The first statement that reads the file: a file that is
      // not a database fails here.
      try await execute("PRAGMA journal_mode = WAL")
      try await execute("PRAGMA synchronous = FULL")
      // Up to 32 MiB of pages kept in memory (SQLite's default is 2 MiB): a hold writes five
      // b-trees at random keys (the reservation's id, its key, its slot and two partial indexes),
      // and with the default a profile of holds spent more time copying pages back from the
      // system's cache than deciding them.
      try await execute("PRAGMA cache_size = -\(Self.pageCacheKibibytes)")
    }
    try await transaction { () async throws(StateStorageError) in
      try await execute("CREATE TABLE IF NOT EXISTS stores_state_schema (version INTEGER NOT NULL)")
      let found = Int(try await integer("SELECT coalesce(max(version), 0) FROM stores_state_schema"))
      guard found <= Self.schemaVersion else {
        throw StateStorageError(
          .unreadable,
          "the state file \(path) has schema version \(found), newer than this build reads "
            + "(\(Self.schemaVersion)): it was written by a newer stores; run that one, or give another --state"
        )
      }
      guard found < Self.schemaVersion else { return }
      for step in Self.migrations[found...] {
        for statement in step { try await execute(statement) }
      }
      try await execute("DELETE FROM stores_state_schema")
      try await execute(
        "INSERT INTO stores_state_schema (version) VALUES (?)", [.integer(Self.schemaVersion)])
    }
  }

  public func load() async throws(StateStorageError) -> StoreStates {
    try await transaction(begin: "BEGIN") { () async throws(StateStorageError) in
      var states = StoreStates(version: try await maximumVersion())
      for row in try await rows("SELECT store_id, state, version, changed_at FROM stores_state_stores") {
        let id = try text(row, "store_id")
        states.stores[id] = try StoredText.state(
          try text(row, "state"), of: id, version: try integer(row, "version"),
          changedAt: row.column("changed_at")?.integer.map(Int64.init), location: location)
      }
      return states
    }
  }

  public func apply(_ change: StoreStateChange, to id: String, by actor: String, at instant: Instant)
    async throws(StateStorageError) -> StoreState
  {
    // IMMEDIATE takes the write lock first: the version read below is still the last one at COMMIT,
    // also when another process (the command line) writes to the same file.
    try await transaction(begin: "BEGIN IMMEDIATE") { () async throws(StateStorageError) in
      var state = StoreState.unchanged
      let found = try await rows(
        "SELECT state, version, changed_at FROM stores_state_stores WHERE store_id = ?", [.text(id)])
      if let row = found.first {
        state = try StoredText.state(
          try text(row, "state"), of: id, version: try integer(row, "version"),
          changedAt: row.column("changed_at")?.integer.map(Int64.init), location: location)
      }
      let version = try await maximumVersion() + 1
      state = change.applied(to: state)
      state.version = version
      state.changedAt = instant
      try await execute(
        "INSERT INTO stores_state_history (version, store_id, change, actor, at) VALUES (?, ?, ?, ?, ?)",
        [
          .integer(Int(version)), .text(id), .text(StoredText.text(of: change)), .text(actor),
          .integer(Int(instant.secondsSinceEpoch)),
        ])
      try await execute(
        """
        INSERT INTO stores_state_stores (store_id, state, version, changed_at) VALUES (?, ?, ?, ?)
        ON CONFLICT (store_id) DO UPDATE
        SET state = excluded.state, version = excluded.version, changed_at = excluded.changed_at
        """,
        [
          .text(id), .text(StoredText.text(of: state)), .integer(Int(version)),
          .integer(Int(instant.secondsSinceEpoch)),
        ])
      return state
    }
  }

  public func history(of id: String, limit: Int) async throws(StateStorageError) -> [StateChangeRecord] {
    guard limit > 0 else { return [] }
    return try await transaction(begin: "BEGIN") { () async throws(StateStorageError) in
      var records: [StateChangeRecord] = []
      let found = try await rows(
        """
        SELECT version, change, actor, at FROM stores_state_history WHERE store_id = ?
        ORDER BY version DESC LIMIT ?
        """, [.text(id), .integer(limit)])
      for row in found {
        records.append(
          try StoredText.record(
            version: try integer(row, "version"), of: id, change: try text(row, "change"),
            actor: try text(row, "actor"), at: try integer(row, "at"), location: location))
      }
      return records
    }
  }

  public func currentVersion() async throws(StateStorageError) -> Int64 {
    try await transaction(begin: "BEGIN") { () async throws(StateStorageError) in try await maximumVersion() }
  }

  /// `nil`: nothing announces another process's change to an SQLite file; `currentVersion()` is polled.
  public func announcements() -> AsyncStream<Int64>? { nil }

  public func close() async {
    // Through the gate, so a transaction under way finishes first.
    await gate.run { () async in
      let wasClosed = isClosed.withLock { closed in
        defer { closed = true }
        return closed
      }
      if !wasClosed { try? await connection.close() }
    }
  }

  // MARK: - Statements

  /// The last version made: the history's largest key (its b-tree's last row, not a scan).
  private func maximumVersion() async throws(StateStorageError) -> Int64 {
    try await integer("SELECT coalesce(max(version), 0) FROM stores_state_history")
  }

  /// Runs `body` between `begin` and `COMMIT`, rolling back when it throws, with no other call in between.
  func transaction<T: Sendable>(
    begin: String = "BEGIN IMMEDIATE", _ body: () async throws(StateStorageError) -> T
  ) async throws(StateStorageError) -> T {
    try await gate.run { () async throws(StateStorageError) -> T in
      guard !isClosed.withLock({ $0 }) else {
        throw StateStorageError(.unavailable, "the state file \(path) is closed")
      }
      try await beginWhenFree(begin)
      do throws(StateStorageError) {
        let value = try await body()
        try await execute("COMMIT")
        return value
      } catch {
        _ = try? await connection.query("ROLLBACK")
        throw error
      }
    }
  }

  /// How long a transaction waits for another connection's write lock (another process's, or
  /// another storage's on the same file) before it fails `.unavailable`.
  static let lockWait = Duration.seconds(5)

  /// Runs `begin`, trying again while another connection holds the lock, until `lockWait`.
  private func beginWhenFree(_ begin: String) async throws(StateStorageError) {
    let clock = ContinuousClock()
    let deadline = clock.now + Self.lockWait
    while true {
      do {
        _ = try await connection.query(begin)
        return
      } catch let error as SQLiteError
        where [.busy, .busyTimeout].contains(error.reason) && clock.now < deadline
      {
        try? await Task.sleep(for: .milliseconds(1))
      } catch {
        throw Self.failure(error, path: path)
      }
    }
  }

  func execute(_ sql: String, _ binds: [SQLiteData] = []) async throws(StateStorageError) {
    _ = try await rows(sql, binds)
  }

  func rows(_ sql: String, _ binds: [SQLiteData] = []) async throws(StateStorageError) -> [SQLiteRow] {
    do {
      return try await connection.query(sql, binds)
    } catch {
      throw Self.failure(error, path: path)
    }
  }

  func integer(_ sql: String) async throws(StateStorageError) -> Int64 {
    guard let value = try await rows(sql).first?.columns.first?.data.integer else {
      throw StateStorageError(.unreadable, "the state file \(path) answered no number to \(sql)")
    }
    return Int64(value)
  }

  func integer(_ row: SQLiteRow, _ column: String) throws(StateStorageError) -> Int64 {
    guard let value = row.column(column)?.integer else {
      throw StateStorageError(.unreadable, "the state file \(path) has a row without a number in \(column)")
    }
    return Int64(value)
  }

  func text(_ row: SQLiteRow, _ column: String) throws(StateStorageError) -> String {
    guard case .text(let value) = row.column(column) else {
      throw StateStorageError(.unreadable, "the state file \(path) has a row without text in \(column)")
    }
    return value
  }

  /// What went wrong, as a sentence naming the file: a file that is not a database (or is damaged)
  /// is unreadable; anything else (no such folder, no permission, a full disk, a lock held too
  /// long) is unavailable, to try again.
  private static func failure(_ error: any Error, path: String) -> StateStorageError {
    guard let error = error as? SQLiteError else {
      return StateStorageError(.unavailable, "the state file \(path) cannot be used: \(error)")
    }
    switch error.reason {
    case .notADatabase:
      return StateStorageError(
        .unreadable,
        "the state file \(path) is not an SQLite database (\(error.message)); give another --state")
    case .corrupt, .corruptIndex, .corruptSequenceSchema, .corruptVirtualTable:
      return StateStorageError(.unreadable, "the state file \(path) is damaged (\(error.message))")
    case .cantOpen, .cantOpenDirectory, .cantOpenInvalidPath, .cantOpenCygwinPath, .cantOpenUnfollowedSymlink,
      .permission, .readOnly, .readonlyDirectory, .readonlyCantLock:
      return StateStorageError(
        .unavailable,
        "the state file \(path) cannot be opened for writing (\(error.message)); check that its folder exists "
          + "and this user may write there")
    case .busy, .busyTimeout, .locked:
      return StateStorageError(
        .unavailable, "the state file \(path) is locked by another process (\(error.message)); try again")
    default:
      return StateStorageError(
        .unavailable, "the state file \(path) failed: \(error.message) (\(error.reason))")
    }
  }
}

/// Runs one body at a time, in the order they came: an async lock (an actor would let a second
/// call in at every `await`).
final class SerialGate: Sendable {
  private struct State {
    var isBusy = false
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = Mutex(State())

  func run<T: Sendable, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T {
    await acquire()
    defer { release() }
    return try await body()
  }

  private func acquire() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      let enter = state.withLock { state in
        if state.isBusy {
          state.waiters.append(continuation)
          return false
        }
        state.isBusy = true
        return true
      }
      if enter { continuation.resume() }
    }
  }

  private func release() {
    // The gate passes straight to the next waiter (it stays busy), so none can jump the queue.
    let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
      if state.waiters.isEmpty {
        state.isBusy = false
        return nil
      }
      return state.waiters.removeFirst()
    }
    next?.resume()
  }
}
