import Foundation
import Logging
import PostgresNIO
import SQLiteNIO
import StoresState
import StoresStatePostgres
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// One place a storage keeps its data (a temporary SQLite file, a PostgreSQL database made for
/// the test), and how to open it: each behaviour in `StateStorageBehaviours` runs against both.
struct Backend: Sendable {
  let name: String
  /// Opens a storage on the data; a second call gives a second storage on the same data (a
  /// restart, another replica, the command line beside the service).
  let open: @Sendable () async throws(StateStorageError) -> any StateStorage
  /// Writes `version` into the schema table behind the storage's back, as a newer build would.
  let setSchemaVersion: @Sendable (Int) async throws -> Void
  /// Removes the data.
  let remove: @Sendable () async -> Void

  /// Runs `body` with a new backend of the kind `make` makes, removing its data afterwards.
  static func with(_ make: () async throws -> Backend, _ body: (Backend) async throws -> Void) async throws {
    let backend = try await make()
    do {
      try await body(backend)
    } catch {
      await backend.remove()
      throw error
    }
    await backend.remove()
  }

  /// A new SQLite file in a new temporary folder.
  static func sqlite() throws -> Backend {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-state-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let path = folder.appendingPathComponent("state.sqlite").path
    return Backend(
      name: "sqlite",
      open: { () async throws(StateStorageError) in try await SQLiteStateStorage.open(path: path) },
      setSchemaVersion: { version in
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        do {
          _ = try await connection.query("UPDATE stores_state_schema SET version = ?", [.integer(version)])
        } catch {
          try await connection.close()
          throw error
        }
        try await connection.close()
      },
      remove: { try? FileManager.default.removeItem(at: folder) }
    )
  }

  /// `STORES_TEST_POSTGRES_URL`: a database the tests may create databases beside
  /// (`scripts/state/postgres.sh start DIR` prints one).
  static let postgresURL = ProcessInfo.processInfo.environment["STORES_TEST_POSTGRES_URL"].flatMap {
    $0.isEmpty ? nil : $0
  }

  /// A new database on the server `STORES_TEST_POSTGRES_URL` names, dropped by `remove`.
  static func postgres() async throws -> Backend {
    let base = try #require(postgresURL, "STORES_TEST_POSTGRES_URL is not set")
    let database = "stores_test_\(UInt64.random(in: 0...UInt64.max))"
    try await administer(base, "CREATE DATABASE \(database)")
    let url = replacingDatabase(of: base, with: database)
    return Backend(
      name: "postgres",
      open: { () async throws(StateStorageError) in try await PostgresStateStorage.open(url: url) },
      setSchemaVersion: { version in
        try await administer(url, "UPDATE stores_state_schema SET version = \(version)")
      },
      remove: { try? await administer(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
    )
  }

  /// `url` with its database (the path) replaced.
  static func replacingDatabase(of url: String, with database: String) -> String {
    let query = url.firstIndex(of: "?").map { String(url[$0...]) } ?? ""
    let withoutQuery = url.firstIndex(of: "?").map { String(url[..<$0]) } ?? url
    let authorityStart = withoutQuery.firstRange(of: "://")!.upperBound
    let pathStart = withoutQuery[authorityStart...].firstIndex(of: "/") ?? withoutQuery.endIndex
    return String(withoutQuery[..<pathStart]) + "/" + database + query
  }

  /// Runs one statement (no binds) on the database at `url`, on a connection of its own; a
  /// failure says PostgreSQL's own words (`PSQLError`'s description hides them).
  static func administer(_ url: String, _ sql: String) async throws {
    do {
      try await administerQuietly(url, sql)
    } catch {
      throw AdministrationFailed(description: "\(sql): \(String(reflecting: error))")
    }
  }

  struct AdministrationFailed: Error, CustomStringConvertible {
    let description: String
  }

  private static func administerQuietly(_ url: String, _ sql: String) async throws {
    let parsed = try PostgresURL(parsing: url)
    let connection = try await PostgresConnection.connect(
      configuration: .init(
        host: parsed.host, port: parsed.port, username: parsed.user, password: parsed.password,
        database: parsed.database, tls: .disable),
      id: 1, logger: Logger(label: "stores.state.tests"))
    do {
      try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "stores.state.tests"))
    } catch {
      try? await connection.close()
      throw error
    }
    try await connection.close()
  }
}

/// A PostgreSQL server of a test's own (`scripts/state/postgres.sh` in a new folder), to stop and
/// start again without disturbing the server the other tests share.
struct PrivateCluster {
  let folder: String
  let url: String

  static let script = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("scripts/state/postgres.sh").path

  /// Makes and starts a cluster; under /tmp, where the `postgres` user may go when tests run as root.
  static func start() throws -> PrivateCluster {
    let folder = "/tmp/stores-state-pg-\(UInt64.random(in: 0...UInt64.max))"
    return PrivateCluster(folder: folder, url: try run("start", folder))
  }

  func stop() throws { _ = try Self.run("stop", folder) }

  /// Starts the stopped cluster again, on the same port and with its data.
  func restart() throws { _ = try Self.run("start", folder) }

  func remove() {
    try? stop()
    try? FileManager.default.removeItem(atPath: folder)
  }

  /// Runs the script, answering what it printed (to a file: the server it starts inherits the
  /// descriptor, and a pipe would never close).
  private static func run(_ command: String, _ folder: String) throws -> String {
    let printed = "\(folder).out"
    defer { unlink(printed) }
    let pid = try spawn(["/bin/bash", script, command, folder], output: printed)
    let status = wait(for: pid)
    guard status == 0 else {
      throw ScriptFailed(description: "\(script) \(command) \(folder) exited with status \(status)")
    }
    return try String(contentsOfFile: printed, encoding: .utf8).trimmingCharacters(
      in: .whitespacesAndNewlines)
  }

  struct ScriptFailed: Error, CustomStringConvertible {
    let description: String
  }
}

/// Starts `arguments[0]` with `arguments`, its output to the file `output`, and `environment`
/// added to this process's. POSIX calls rather than Foundation's `Process`, which was seen never
/// to notice a child's end here.
/// - Parameter quiet: Whether its standard error goes to /dev/null too (rather than this process's).
func spawn(_ arguments: [String], output: String, environment: [String] = [], quiet: Bool = false) throws
  -> pid_t
{
  var actions = posix_spawn_file_actions_t()
  posix_spawn_file_actions_init(&actions)
  defer { posix_spawn_file_actions_destroy(&actions) }
  posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  if quiet { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
  var argv = arguments.map { strdup($0) } + [nil]
  defer { argv.forEach { free($0) } }
  var inherited: [String] = []
  var entry = environ
  while let variable = entry.pointee {
    inherited.append(String(cString: variable))
    entry += 1
  }
  var envp = (inherited + environment).map { strdup($0) } + [nil]
  defer { envp.forEach { free($0) } }
  var pid = pid_t()
  let result = posix_spawn(&pid, arguments[0], &actions, nil, &argv, &envp)
  guard result == 0 else {
    throw PrivateCluster.ScriptFailed(description: "\(arguments[0]) could not be started (error \(result))")
  }
  return pid
}

/// Waits for the child `pid` to end, answering its wait status (0: exited 0).
func wait(for pid: pid_t) -> Int32 {
  var status: Int32 = 0
  while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
  return status
}
