/// Where the state is kept, as `--state` names it: `memory`, `sqlite:PATH` or `postgres://…`.
public enum StateStorageLocation: Equatable, Sendable, CustomStringConvertible {
  /// In memory only: gone when the process ends (tests, `--state memory`).
  case memory
  /// An SQLite file, created when absent.
  case sqlite(path: String)
  /// A PostgreSQL database shared by several replicas: `postgres://user:password@host:port/database`.
  case postgres(url: String)

  /// The forms `init(parsing:)` accepts, for its error and for help texts.
  public static let acceptedForms =
    "memory, sqlite:PATH (or sqlite://PATH, or a path ending in .sqlite or .db) "
    + "or postgres://USER:PASSWORD@HOST:PORT/DATABASE (or postgresql://…)"

  /// Reads `--state`: `memory`, `sqlite:PATH`, `sqlite://PATH`, a bare path ending in `.sqlite` or
  /// `.db`, or `postgres://…` / `postgresql://…` (checked here, so a misspelt URL fails at start-up).
  /// - Throws: `StateStorageError` (`.badLocation`) with a sentence listing the accepted forms.
  public init(parsing text: String) throws(StateStorageError) {
    if text == "memory" {
      self = .memory
    } else if let path = Self.sqlitePath(text) {
      guard !path.isEmpty else {
        throw StateStorageError(
          .badLocation, "the state location \"\(text)\" names no file; give sqlite:PATH")
      }
      self = .sqlite(path: path)
    } else if PostgresURL.hasScheme(text) {
      _ = try PostgresURL(parsing: text)
      self = .postgres(url: text)
    } else {
      throw StateStorageError(
        .badLocation, "the state location \"\(text)\" is not one this build reads; give \(Self.acceptedForms)"
      )
    }
  }

  /// The path of an SQLite location, or `nil` when `text` is none.
  private static func sqlitePath(_ text: String) -> String? {
    if text.hasPrefix("sqlite://") { return String(text.dropFirst("sqlite://".count)) }
    if text.hasPrefix("sqlite:") { return String(text.dropFirst("sqlite:".count)) }
    // A bare path is taken only with an SQLite-looking extension, so a typo such as `memroy` or
    // `postgre://…` is refused rather than becoming a new file.
    if !text.contains("://") && (text.hasSuffix(".sqlite") || text.hasSuffix(".db")) { return text }
    return nil
  }

  /// For logs and start-up lines: `memory`, `sqlite:PATH`, or the URL without its password.
  public var description: String {
    switch self {
    case .memory: "memory"
    case .sqlite(let path): "sqlite:\(path)"
    case .postgres(let url): (try? PostgresURL(parsing: url))?.redacted ?? "postgres://…"
    }
  }
}

/// Opens the state storage at `location`: memory or an SQLite file (the command line links no
/// PostgreSQL client; `StoresStatePostgres.openStateStorageWithPostgres` opens all three).
/// - Throws: `StateStorageError`: `.badLocation` for PostgreSQL, or what opening the file threw.
public func openStateStorage(_ location: StateStorageLocation) async throws(StateStorageError)
  -> any StateStorage
{
  switch location {
  case .memory:
    return MemoryStateStorage()
  case .sqlite(let path):
    return try await SQLiteStateStorage.open(path: path)
  case .postgres:
    throw StateStorageError(
      .badLocation,
      "this build opens PostgreSQL in stores-server only; give --server URL to change the state through a service"
    )
  }
}

/// The parts of `postgres://user:password@host:port/database?sslmode=…`, read without a network
/// library so that `--state` is checked where it is given.
public struct PostgresURL: Equatable, Sendable {
  public var user: String
  public var password: String?
  public var host: String
  public var port: Int
  public var database: String
  /// libpq's `sslmode`: `disable`; `prefer` (the default: TLS when the server offers it) and
  /// `require` (TLS or nothing), neither checking the server's certificate, as libpq; or
  /// `verify-full` (TLS with the certificate checked against the host name).
  public var sslMode: String

  /// Whether `text` starts with `postgres://` or `postgresql://`.
  static func hasScheme(_ text: String) -> Bool {
    text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
  }

  /// Reads a PostgreSQL URL. The user defaults to `postgres`, the port to 5432, the database to
  /// the user's name; user, password and database may be percent-encoded.
  /// - Throws: `StateStorageError` (`.badLocation`) saying which part is wrong (never the password).
  public init(parsing text: String) throws(StateStorageError) {
    let shown = Self.redact(text)
    func bad(_ problem: String) -> StateStorageError {
      StateStorageError(
        .badLocation,
        "the state location \(shown) \(problem); give postgres://USER:PASSWORD@HOST:PORT/DATABASE")
    }
    guard Self.hasScheme(text), let schemeEnd = text.firstRange(of: "://") else {
      throw bad("is not a PostgreSQL URL")
    }
    var rest = Substring(text[schemeEnd.upperBound...])
    var query: Substring = ""
    if let mark = rest.firstIndex(of: "?") {
      query = rest[rest.index(after: mark)...]
      rest = rest[..<mark]
    }
    var path: Substring = ""
    if let slash = rest.firstIndex(of: "/") {
      path = rest[rest.index(after: slash)...]
      rest = rest[..<slash]
    }
    // The password may hold an `@`: the host starts after the last one.
    var userInfo: Substring?
    if let at = rest.lastIndex(of: "@") {
      userInfo = rest[..<at]
      rest = rest[rest.index(after: at)...]
    }
    user = "postgres"
    password = nil
    if let userInfo {
      let name = userInfo.firstIndex(of: ":").map { userInfo[..<$0] } ?? userInfo
      guard let decoded = Self.percentDecoded(name) else { throw bad("has a badly percent-encoded user") }
      if !decoded.isEmpty { user = decoded }
      if let colon = userInfo.firstIndex(of: ":") {
        guard let decoded = Self.percentDecoded(userInfo[userInfo.index(after: colon)...]) else {
          throw bad("has a badly percent-encoded password")
        }
        password = decoded
      }
    }
    // The host: a name, an IPv4 address, or an IPv6 address in brackets; then an optional port.
    var portText: Substring?
    if rest.hasPrefix("[") {
      guard let close = rest.firstIndex(of: "]") else { throw bad("has an IPv6 host without its closing ]") }
      host = String(rest[rest.index(after: rest.startIndex)..<close])
      let after = rest[rest.index(after: close)...]
      if !after.isEmpty {
        guard after.hasPrefix(":") else { throw bad("has something other than :PORT after the host") }
        portText = after.dropFirst()
      }
    } else if let colon = rest.firstIndex(of: ":") {
      host = String(rest[..<colon])
      portText = rest[rest.index(after: colon)...]
    } else {
      host = String(rest)
    }
    guard !host.isEmpty else { throw bad("names no host") }
    port = 5432
    if let portText {
      guard let number = Int(portText), (1...65535).contains(number) else {
        throw bad("has port \"\(portText)\", not a number from 1 to 65535")
      }
      port = number
    }
    guard let name = Self.percentDecoded(path) else { throw bad("has a badly percent-encoded database name") }
    database = name.isEmpty ? user : name
    sslMode = "prefer"
    for parameter in query.split(separator: "&") {
      let parts = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      let value = parts.count == 2 ? String(parts[1]) : ""
      switch parts[0] {
      case "sslmode":
        guard ["disable", "prefer", "require", "verify-full"].contains(value) else {
          throw bad("has sslmode=\(value); give disable, prefer, require or verify-full")
        }
        sslMode = value
      default:
        throw bad("has the parameter \(parts[0]), which this build does not read (only sslmode)")
      }
    }
  }

  /// The URL without its password: `postgres://stores@db:5432/stores`.
  public var redacted: String {
    let shownHost = host.contains(":") ? "[\(host)]" : host
    return "postgres://\(user)@\(shownHost):\(port)/\(database)"
      + (sslMode == "prefer" ? "" : "?sslmode=\(sslMode)")
  }

  /// `text` with the password (between the user's `:` and the host's `@`) replaced by `…`, for
  /// messages about a URL that did not read.
  static func redact(_ text: String) -> String {
    guard let schemeEnd = text.firstRange(of: "://") else { return text }
    let authorityEnd =
      text[schemeEnd.upperBound...].firstIndex(where: { $0 == "/" || $0 == "?" }) ?? text.endIndex
    let authority = text[schemeEnd.upperBound..<authorityEnd]
    guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
      return text
    }
    return String(text[..<authority.index(after: colon)]) + "…" + String(text[at...])
  }

  /// `%XX` escapes decoded as UTF-8, or `nil` when an escape is malformed.
  static func percentDecoded(_ text: Substring) -> String? {
    var bytes: [UInt8] = []
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
        return nil
      }
      bytes.append(high << 4 | low)
    }
    return String(validating: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
