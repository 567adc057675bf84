import OpeningHours
import StoreLocator

/// Where the stores' state (paused ordering, closures, special days, capacity) and the slots'
/// reservations (`ReservationStorage`) are kept: one protocol, an
/// SQLite file for one replica (`SQLiteStateStorage`, the default) and PostgreSQL for several
/// (`PostgresStateStorage`, in `StoresStatePostgres`).
///
/// The answer path never calls it: a replica answers from the `StoreStates` value it last loaded,
/// and only changes (and the history) reach the database. Every change is one transaction: its
/// history row and the store's new state are written together or not at all.
public protocol StateStorage: ReservationStorage {
  /// Where the state is, for logs and `/readyz`: `sqlite:/var/lib/stores/state.sqlite`,
  /// `postgres://stores@db:5432/stores` (never a password).
  var location: String { get }

  /// Every store's state, at the current version.
  /// - Throws: `StateStorageError` (`.unavailable` when the database cannot be reached).
  func load() async throws(StateStorageError) -> StoreStates

  /// Applies `change` to the state of store `id` in one transaction, and records it in the history.
  /// - Parameters:
  ///   - actor: Who made the change (the admin token's name), kept in the history.
  ///   - instant: When.
  /// - Returns: The store's new state; its `version` is the new version of the whole state.
  func apply(_ change: StoreStateChange, to id: String, by actor: String, at instant: Instant)
    async throws(StateStorageError) -> StoreState

  /// The history of store `id`, newest first, at most `limit` entries.
  func history(of id: String, limit: Int) async throws(StateStorageError) -> [StateChangeRecord]

  /// The current version, cheaply: what a replica polls to notice changes made by others.
  func currentVersion() async throws(StateStorageError) -> Int64

  /// Versions announced by other writers as they commit (PostgreSQL's LISTEN/NOTIFY), or `nil`
  /// when the storage announces nothing and `currentVersion()` is polled instead.
  func announcements() -> AsyncStream<Int64>?

  /// Lets the connections go.
  func close() async
}

/// One change in the history: `GET /v1/stores/{id}/state/history`.
public struct StateChangeRecord: Sendable, Equatable {
  /// The version the change made.
  public let version: Int64
  public let storeID: String
  /// The change as it was given (`StoreStateChange.jsonObject`).
  public let change: JSONObject
  /// Who made it: the admin token's name, or `cli` for `stores state --state`.
  public let actor: String
  public let at: Instant

  public init(version: Int64, storeID: String, change: JSONObject, actor: String, at: Instant) {
    self.version = version
    self.storeID = storeID
    self.change = change
    self.actor = actor
    self.at = at
  }

  /// `{"version", "id", "change", "by", "at"}`.
  public var jsonObject: JSONObject {
    JSONObject([
      .init(key: "version", value: .number(String(version))),
      .init(key: "id", value: .string(storeID)),
      .init(key: "change", value: .object(change)),
      .init(key: "by", value: .string(actor)),
      .init(key: "at", value: .string(at.description)),
    ])
  }
}

/// Why the state storage could not answer.
public struct StateStorageError: Error, Sendable, CustomStringConvertible {
  public enum Kind: String, Sendable {
    /// The database cannot be reached or refused the work: try again later (HTTP 503).
    case unavailable
    /// What is stored cannot be read: a newer schema, or a damaged file.
    case unreadable
    /// The location is not one this build can open (`--state` misspelt).
    case badLocation
  }

  public let kind: Kind
  /// The sentence, naming the location.
  public let message: String

  public init(_ kind: Kind, _ message: String) {
    self.kind = kind
    self.message = message
  }

  public var description: String { message }
}
