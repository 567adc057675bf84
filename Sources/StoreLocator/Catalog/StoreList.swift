/// A catalog's records in input order: an array for a catalog built from GeoJSON, or records
/// decoded one at a time from a mapped snapshot, so opening a snapshot of a million stores
/// decodes only the stores a query returns.
public struct StoreList: RandomAccessCollection, Sendable {
  enum Storage: Sendable {
    case array([Store])
    case snapshot(SnapshotCatalog)
  }

  let storage: Storage

  init(_ stores: [Store]) { storage = .array(stores) }

  init(_ snapshot: SnapshotCatalog) { storage = .snapshot(snapshot) }

  public var startIndex: Int { 0 }

  public var endIndex: Int {
    switch storage {
    case .array(let stores): stores.count
    case .snapshot(let snapshot): snapshot.storeCount
    }
  }

  /// The store at `position`.
  ///
  /// - Complexity: O(1) for an array; decoding one record (its size) for a snapshot.
  public subscript(position: Int) -> Store {
    switch storage {
    case .array(let stores): stores[position]
    case .snapshot(let snapshot): snapshot.store(at: position)
    }
  }
}
