import Logging
import OpeningHours
import PostgresNIO
import StoreLocator
import StoresState
import Synchronization

/// The state in a PostgreSQL database that several replicas share.
///
/// Tables (`stores_state_schema` says which version of them the database holds, created or
/// migrated at start-up under an advisory lock so replicas starting together do not race):
/// - `stores_state_stores`: one row per changed store, its state as JSON text, the version and time
///   of its last change;
/// - `stores_state_history`: one row per change, keyed by the version it made;
/// - `stores_state_counter`: one row, the last version made;
/// - `stores_reservations` and `stores_slots`: the slots' reservations and each slot's count of
///   them (PostgresReservations.swift).
///
/// A change is one transaction that locks the store's row, takes the next version from the
/// counter (whose row lock also keeps versions in commit order) and announces it with
/// `NOTIFY stores_state, '<version>'`, delivered to listeners when it commits.
///
/// Every call gives up after `timeout` (5 s), and connections are tried for 2 s: a stopped
/// database makes calls fail `.unavailable` within seconds, never hang. A call that failed for
/// want of a connection starts a new pool, so the first call after the database is back connects
/// (`ClientSlot`); the listener connects again by itself.
public final class PostgresStateStorage: StateStorage {
  /// The schema version this build writes; a database with a higher one is refused.
  public static let schemaVersion = migrations.count

  /// `migrations[n]` takes a database from schema version `n` to `n + 1` (0: a new one).
  static let migrations: [[String]] = [
    [
      """
      CREATE TABLE stores_state_stores (
        store_id TEXT PRIMARY KEY, state TEXT NOT NULL, version BIGINT NOT NULL, changed_at BIGINT)
      """,
      """
      CREATE TABLE stores_state_history (
        version BIGINT PRIMARY KEY, store_id TEXT NOT NULL, change TEXT NOT NULL, actor TEXT NOT NULL,
        at BIGINT NOT NULL)
      """,
      "CREATE INDEX stores_state_history_store ON stores_state_history (store_id, version)",
      // One row (the check keeps it one): `UPDATE … SET version = version + 1` hands versions out.
      """
      CREATE TABLE stores_state_counter (
        single BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (single), version BIGINT NOT NULL)
      """,
      "INSERT INTO stores_state_counter (single, version) VALUES (TRUE, 0)",
    ],
    // 1 → 2: the slots' reservations (PostgresReservations.swift).
    reservationsSchema,
  ]

  /// The LISTEN/NOTIFY channel; a notification's payload is the version committed.
  public static let channel = "stores_state"

  /// The key of the advisory lock held while the schema is created or migrated ("storesst").
  static let migrationLockKey: Int64 = 0x7374_6f72_6573_7374

  /// The URL without its password.
  public let location: String
  private let clients: ClientSlot
  let logger: Logger
  private let timeout: Duration
  private let listeners = Mutex(Listeners())

  private struct Listeners {
    var tasks: [Int: Task<Void, Never>] = [:]
    var nextID = 0
    var isClosed = false
  }

  private init(
    location: String, configuration: PostgresClient.Configuration, logger: Logger, timeout: Duration
  ) {
    self.location = location
    self.clients = ClientSlot(configuration: configuration)
    self.logger = logger
    self.timeout = timeout
  }

  /// Connects to the database at `url` (`postgres://user:password@host:port/database`, or
  /// `postgresql://`; `?sslmode=disable|prefer|require|verify-full`) and creates or migrates the
  /// schema.
  /// - Parameters:
  ///   - logger: Where a lost `LISTEN` connection is reported.
  ///   - timeout: How long any one call may take before it fails `.unavailable`.
  /// - Throws: `StateStorageError`: `.badLocation` for a URL that does not read, `.unavailable` when
  ///   the database cannot be reached, `.unreadable` when its schema is newer than this build's.
  public static func open(
    url: String, logger: Logger = Logger(label: "stores.state.postgres"), timeout: Duration = .seconds(5)
  ) async throws(StateStorageError) -> PostgresStateStorage {
    let parsed = try PostgresURL(parsing: url)
    var configuration = PostgresClient.Configuration(
      host: parsed.host, port: parsed.port, username: parsed.user, password: parsed.password,
      database: parsed.database, tls: tls(parsed.sslMode))
    // A stopped database refuses at once; one that is unreachable must not hold a change for long.
    configuration.options.connectTimeout = .seconds(2)
    // State changes are rare, but every reserve is a statement: at 8 connections 64 concurrent
    // holds queued for them (p99 75–130 ms). 20 a replica: three replicas stay well under
    // PostgreSQL's default max_connections of 100.
    configuration.options.maximumConnections = 20
    let storage = PostgresStateStorage(
      location: parsed.redacted, configuration: configuration, logger: logger,
      timeout: timeout)
    do throws(StateStorageError) {
      try await storage.migrate()
    } catch {
      await storage.close()
      throw error
    }
    return storage
  }

  /// libpq's meaning of `sslmode`: only `verify-full` checks the server's certificate.
  private static func tls(_ mode: String) -> PostgresClient.Configuration.TLS {
    var configuration = TLSConfiguration.makeClientConfiguration()
    switch mode {
    case "disable":
      return .disable
    case "verify-full":
      return .require(configuration)
    case "require":
      configuration.certificateVerification = .none
      return .require(configuration)
    default:
      configuration.certificateVerification = .none
      return .prefer(configuration)
    }
  }

  /// Creates the tables or brings them to `schemaVersion`, in one transaction under an advisory
  /// lock: a second replica starting at the same moment waits, then finds the schema made.
  private func migrate() async throws(StateStorageError) {
    try await withDeadline("creating the schema") { [logger, location] client in
      try await client.withTransaction(logger: logger) { connection in
        try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))", logger: logger)
        try await connection.query(
          "CREATE TABLE IF NOT EXISTS stores_state_schema (version INTEGER NOT NULL)", logger: logger)
        let found = try await Self.integer(
          connection.query(
            "SELECT coalesce(max(version), 0)::BIGINT FROM stores_state_schema", logger: logger))
        guard found <= Self.schemaVersion else {
          throw StateStorageError(
            .unreadable,
            "the state database \(location) has schema version \(found), newer than this build reads "
              + "(\(Self.schemaVersion)): it was written by a newer stores; run that one, or give another --state"
          )
        }
        guard found < Self.schemaVersion else { return }
        for step in Self.migrations[Int(found)...] {
          for statement in step {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
          }
        }
        try await connection.query("DELETE FROM stores_state_schema", logger: logger)
        try await connection.query(
          "INSERT INTO stores_state_schema (version) VALUES (\(Self.schemaVersion))", logger: logger)
      }
    }
  }

  public func load() async throws(StateStorageError) -> StoreStates {
    try await withDeadline("loading the state") { [logger, location] client in
      try await client.withTransaction(logger: logger) { connection in
        // One snapshot for the version and the rows, so they agree.
        try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ", logger: logger)
        var states = StoreStates(
          version: try await Self.integer(
            connection.query("SELECT version FROM stores_state_counter", logger: logger)))
        let rows = try await connection.query(
          "SELECT store_id, state, version, changed_at FROM stores_state_stores WHERE version > 0",
          logger: logger
        ).collect()
        for row in rows {
          let (id, text, version, changedAt) = try row.decode((String, String, Int64, Int64?).self)
          states.stores[id] = try StoredText.state(
            text, of: id, version: version, changedAt: changedAt, location: location)
        }
        return states
      }
    }
  }

  public func apply(_ change: StoreStateChange, to id: String, by actor: String, at instant: Instant)
    async throws(StateStorageError) -> StoreState
  {
    try await withDeadline("applying a change to store \(id)") { [logger, location] client in
      try await client.withTransaction(logger: logger) { connection in
        // A blank row first, so that the store has a row to lock even on its first change; it
        // never outlives the transaction as blank.
        try await connection.query(
          """
          INSERT INTO stores_state_stores (store_id, state, version, changed_at) VALUES (\(id), '{}', 0, NULL)
          ON CONFLICT (store_id) DO NOTHING
          """, logger: logger)
        let rows = try await connection.query(
          "SELECT state, version, changed_at FROM stores_state_stores WHERE store_id = \(id) FOR UPDATE",
          logger: logger
        ).collect()
        guard let row = rows.first else {
          throw StateStorageError(.unavailable, "the state database \(location) lost the row of store \(id)")
        }
        let (text, oldVersion, changedAt) = try row.decode((String, Int64, Int64?).self)
        var state =
          oldVersion == 0
          ? StoreState.unchanged
          : try StoredText.state(text, of: id, version: oldVersion, changedAt: changedAt, location: location)
        // The counter's row stays locked until COMMIT: the next change waits here, so versions
        // commit in order and a replica that saw version n has seen every change up to n.
        let version = try await Self.integer(
          connection.query(
            "UPDATE stores_state_counter SET version = version + 1 RETURNING version", logger: logger))
        state = change.applied(to: state)
        state.version = version
        state.changedAt = instant
        try await connection.query(
          """
          INSERT INTO stores_state_history (version, store_id, change, actor, at)
          VALUES (\(version), \(id), \(StoredText.text(of: change)), \(actor), \(instant.secondsSinceEpoch))
          """, logger: logger)
        try await connection.query(
          """
          UPDATE stores_state_stores
          SET state = \(StoredText.text(of: state)), version = \(version), changed_at = \(instant.secondsSinceEpoch)
          WHERE store_id = \(id)
          """, logger: logger)
        // Sent to the listeners when the transaction commits, and not at all if it does not.
        try await connection.query("SELECT pg_notify(\(Self.channel), \(String(version)))", logger: logger)
        return state
      }
    }
  }

  public func history(of id: String, limit: Int) async throws(StateStorageError) -> [StateChangeRecord] {
    guard limit > 0 else { return [] }
    return try await withDeadline("reading the history of store \(id)") { [logger, location] client in
      let rows = try await client.query(
        """
        SELECT version, change, actor, at FROM stores_state_history WHERE store_id = \(id)
        ORDER BY version DESC LIMIT \(limit)
        """, logger: logger
      ).collect()
      return try Self.records(rows, of: id, location: location)
    }
  }

  /// The history rows as records. Apart from the closure above: with the loop inside it, swift
  /// 6.3.1 crashes building the module for release (signal 11 in LLVM's CoroSplit, splitting that
  /// closure).
  private static func records(_ rows: [PostgresRow], of id: String, location: String) throws
    -> [StateChangeRecord]
  {
    var records: [StateChangeRecord] = []
    for row in rows {
      let (version, change, actor, at) = try row.decode((Int64, String, String, Int64).self)
      records.append(
        try StoredText.record(
          version: version, of: id, change: change, actor: actor, at: at, location: location))
    }
    return records
  }

  public func currentVersion() async throws(StateStorageError) -> Int64 {
    try await withDeadline("reading the version") { [logger] client in
      try await Self.integer(client.query("SELECT version FROM stores_state_counter", logger: logger))
    }
  }

  /// The versions other writers (and this one) commit, from `LISTEN stores_state`.
  ///
  /// Each time listening (re)starts, after a connection was lost, the current version is given
  /// too, so a change made while nobody listened is not missed. The stream keeps the newest 64
  /// versions when its reader is slow, and finishes on `close()`. Each stream holds one of the
  /// pool's 8 connections: a process opens one and shares what it hears.
  public func announcements() -> AsyncStream<Int64>? {
    let (stream, continuation) = AsyncStream.makeStream(of: Int64.self, bufferingPolicy: .bufferingNewest(64))
    let (clients, logger) = (clients, logger)
    listeners.withLock { listeners in
      guard !listeners.isClosed else { return continuation.finish() }
      let id = listeners.nextID
      listeners.nextID += 1
      let task = Task { await Self.listen(clients: clients, logger: logger, into: continuation) }
      listeners.tasks[id] = task
      // A reader that stops reading stops the listening.
      continuation.onTermination = { _ in task.cancel() }
    }
    return stream
  }

  /// Listens until cancelled, listening again after a short pause whenever the connection is lost.
  private static func listen(
    clients: ClientSlot, logger: Logger, into continuation: AsyncStream<Int64>.Continuation
  ) async {
    var pause = Duration.milliseconds(250)
    while !Task.isCancelled, let client = clients.current {
      do {
        try await client.withConnection { connection in
          try await connection.listen(on: channel) { notifications in
            // LISTEN is in effect: the version now covers whatever was committed before it.
            continuation.yield(
              try await integer(connection.query("SELECT version FROM stores_state_counter", logger: logger)))
            pause = .milliseconds(250)
            for try await notification in notifications {
              if let version = Int64(notification.payload) { continuation.yield(version) }
            }
          }
        }
      } catch {
        if Task.isCancelled { break }
        // A pool replaced after another call's failure closed this connection: listen on the new
        // one at once. Otherwise the connection broke here: a new pool, after a pause.
        if clients.current !== client { continue }
        clients.replace(client)
        logger.warning(
          "listening for state changes failed; listening again",
          metadata: ["error": "\(describe(error))", "pause": "\(pause)"])
      }
      try? await Task.sleep(for: pause)
      pause = min(pause * 2, .seconds(2))
    }
    continuation.finish()
  }

  /// Stops listening (the announcement streams finish) and closes the connections.
  public func close() async {
    let tasks = listeners.withLock { listeners in
      listeners.isClosed = true
      defer { listeners.tasks = [:] }
      return Array(listeners.tasks.values)
    }
    for task in tasks { task.cancel() }
    for task in tasks { await task.value }
    await clients.close()
  }

  // MARK: - Helpers

  /// The first column of the first row, as a number.
  static func integer(_ rows: PostgresRowSequence) async throws -> Int64 {
    for try await value in rows.decode(Int64.self) { return value }
    throw StateStorageError(.unavailable, "the state database answered no row where one was expected")
  }

  /// `work`'s outcome, or `.timedOut` once `timeout` has passed, whichever comes first, without
  /// waiting for `work` to end: a query whose connection hangs (PostgreSQL stopping) may not notice
  /// its cancellation for seconds, and a task group would wait for it, past the deadline (seen:
  /// reserves answered at the 10 s request deadline instead of 503 state-unavailable at 5 s).
  /// `work` is cancelled and left to end by itself.
  private static func race<T: Sendable>(
    _ timeout: Duration, _ work: @escaping @Sendable () async throws -> Outcome<T>
  ) async throws -> Outcome<T> {
    let race = Race<Outcome<T>>()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        race.begin(
          continuation,
          Task {
            do { race.settle(.success(try await work())) } catch { race.settle(.failure(error)) }
          },
          Task {
            try? await Task.sleep(for: timeout)
            race.settle(.success(.timedOut))
          })
      }
    } onCancel: {
      race.settle(.failure(CancellationError()))
    }
  }

  /// The first of several tasks to settle resumes the waiter; the others are cancelled.
  private final class Race<Value: Sendable>: Sendable {
    private struct State {
      var waiter: CheckedContinuation<Value, any Error>?
      var tasks: [Task<Void, Never>] = []
      var early: Result<Value, any Error>?
    }
    private let state = Mutex(State())

    func begin(_ waiter: CheckedContinuation<Value, any Error>, _ tasks: Task<Void, Never>...) {
      let early = state.withLock { state -> Result<Value, any Error>? in
        if let early = state.early { return early }
        state.waiter = waiter
        state.tasks = tasks
        return nil
      }
      if let early {
        for task in tasks { task.cancel() }
        waiter.resume(with: early)
      }
    }

    func settle(_ result: Result<Value, any Error>) {
      let (waiter, tasks) = state.withLock { state in
        if state.waiter == nil, state.early == nil { state.early = result }
        defer {
          state.waiter = nil
          state.tasks = []
        }
        return (state.waiter, state.tasks)
      }
      for task in tasks { task.cancel() }
      waiter?.resume(with: result)
    }
  }

  private enum Outcome<T: Sendable>: Sendable {
    case done(T)
    case timedOut
  }

  /// Runs `body` with the current pool, giving up after `timeout`: the pool keeps a request
  /// waiting while it retries a lost database, and a change must fail quickly then (HTTP 503), not
  /// hang. After a failure that is not the server's answer, the pool is replaced (`ClientSlot`).
  func withDeadline<T: Sendable>(
    _ doing: String, _ body: @escaping @Sendable (PostgresClient) async throws -> T
  ) async throws(StateStorageError) -> T {
    guard let client = clients.current else {
      throw StateStorageError(.unavailable, "the state database \(location) is closed")
    }
    let timeout = timeout
    let outcome: Outcome<T>
    do {
      outcome = try await Self.race(timeout) { .done(try await body(client)) }
    } catch {
      if Self.isConnectionFailure(error) { clients.replace(client) }
      throw failure(error, doing)
    }
    guard case .done(let value) = outcome else {
      clients.replace(client)
      throw StateStorageError(
        .unavailable, "the state database \(location) did not answer within \(timeout) (\(doing)); try again")
    }
    return value
  }

  /// A `StateStorageError` thrown inside as it is; anything else from the database as `.unavailable`.
  private func failure(_ error: any Error, _ doing: String) -> StateStorageError {
    if let error = error as? StateStorageError { return error }
    if let error = error as? PostgresTransactionError, let inner = error.closureError as? StateStorageError {
      return inner
    }
    return StateStorageError(
      .unavailable, "the state database \(location) is unavailable (\(doing)): \(Self.describe(error))")
  }

  /// Whether `error` says the database could not be reached or the connection broke (rather than
  /// the server refusing a statement, or a stored value that does not read).
  static func isConnectionFailure(_ error: any Error) -> Bool {
    if error is StateStorageError { return false }
    if let error = error as? PostgresTransactionError {
      guard let inner = error.beginError ?? error.closureError ?? error.commitError else { return false }
      return isConnectionFailure(inner)
    }
    guard let error = error as? PSQLError else { return true }
    guard error.code == .server else { return true }
    // The server's own word that the connection ends: 08 connection exception, 57 operator
    // intervention (shutting down, terminated by an administrator).
    let state = error.serverInfo?[.sqlState] ?? ""
    return state.hasPrefix("08") || state.hasPrefix("57")
  }

  /// A sentence about a PostgresNIO error: its own description hides everything, on purpose.
  static func describe(_ error: any Error) -> String {
    if let error = error as? PostgresTransactionError {
      if let inner = error.beginError ?? error.closureError ?? error.commitError { return describe(inner) }
      return "the transaction failed"
    }
    guard let error = error as? PSQLError else { return "\(error)" }
    var text = "\(error.code)"
    if let message = error.serverInfo?[.message] { text += ": \(message)" }
    if let underlying = error.underlying { text += ": \(underlying)" }
    return text
  }
}

/// The connection pool in use, and its `run()` task.
///
/// PostgresNIO's pool retries a lost database with a backoff that grows to a minute, failing
/// every request at once after a minute of failures: after a long outage a replica would take up
/// to a minute more to write again. So a call that fails for want of a connection replaces the
/// pool with a new one, which connects at the next call.
final class ClientSlot: Sendable {
  private struct Running: Sendable {
    let client: PostgresClient
    let runTask: Task<Void, Never>
  }

  private let configuration: PostgresClient.Configuration
  /// `nil` once closed.
  private let running: Mutex<Running?>

  init(configuration: PostgresClient.Configuration) {
    self.configuration = configuration
    running = Mutex(Self.start(configuration))
  }

  private static func start(_ configuration: PostgresClient.Configuration) -> Running {
    let client = PostgresClient(configuration: configuration)
    return Running(client: client, runTask: Task { await client.run() })
  }

  /// The pool to use, or `nil` once closed.
  var current: PostgresClient? { running.withLock { $0?.client } }

  /// Replaces `failed` with a new pool, unless it was replaced already (by another failed call)
  /// or the slot is closed. Calls still using the old pool fail, as they were failing anyway.
  func replace(_ failed: PostgresClient) {
    running.withLock { running in
      guard let old = running, old.client === failed else { return }
      old.runTask.cancel()
      running = Self.start(configuration)
    }
  }

  /// Stops the pool, waiting for its connections to close.
  func close() async {
    let last = running.withLock { running in
      defer { running = nil }
      return running
    }
    last?.runTask.cancel()
    await last?.runTask.value
  }
}

/// Opens the state storage at `location`: memory, an SQLite file, or PostgreSQL (the service's
/// `--state`).
/// - Throws: `StateStorageError`, as `SQLiteStateStorage.open` and `PostgresStateStorage.open` do.
public func openStateStorageWithPostgres(_ location: StateStorageLocation) async throws(StateStorageError)
  -> any StateStorage
{
  switch location {
  case .memory, .sqlite: try await openStateStorage(location)
  case .postgres(let url): try await PostgresStateStorage.open(url: url)
  }
}
