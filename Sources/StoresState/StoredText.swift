import OpeningHours
import StoreLocator

/// How the SQL storages write a state and a change as JSON text, and read them back: shared by
/// SQLite and PostgreSQL so both keep the same columns.
package enum StoredText {
  /// The text kept in a store's `state` column.
  package static func text(of state: StoreState) -> String { JSONValue.object(state.storageJSON).jsonText }

  /// The text kept in a history row's `change` column.
  package static func text(of change: StoreStateChange) -> String {
    JSONValue.object(change.jsonObject).jsonText
  }

  /// Reads a store's `state` column.
  /// - Throws: `StateStorageError` (`.unreadable`) naming the store and `location`.
  package static func state(
    _ text: String, of id: String, version: Int64, changedAt: Int64?, location: String
  ) throws(StateStorageError) -> StoreState {
    do {
      return try StoreState(
        storageJSON: try JSONValue(parsing: text), version: version,
        changedAt: changedAt.map { Instant(secondsSinceEpoch: $0) })
    } catch {
      throw StateStorageError(.unreadable, "the state of store \(id) in \(location) does not read: \(error)")
    }
  }

  /// Reads a history row.
  /// - Throws: `StateStorageError` (`.unreadable`) naming the version and `location`.
  package static func record(
    version: Int64, of id: String, change text: String, actor: String, at: Int64, location: String
  ) throws(StateStorageError) -> StateChangeRecord {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: text)
    } catch {
      throw StateStorageError(
        .unreadable, "the change of version \(version) in \(location) does not read: \(error)")
    }
    guard case .object(let change) = value else {
      throw StateStorageError(
        .unreadable, "the change of version \(version) in \(location) is not a JSON object")
    }
    return StateChangeRecord(
      version: version, storeID: id, change: change, actor: actor, at: Instant(secondsSinceEpoch: at))
  }
}
