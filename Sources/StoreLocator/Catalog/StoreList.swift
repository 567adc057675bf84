/// A catalog's records in input order, each made from its row of the store table when read, so
/// a query that returns ten stores of a million makes ten.
public struct StoreList: RandomAccessCollection, Sendable {
  let table: StoreTable

  init(_ table: StoreTable) { self.table = table }

  public var startIndex: Int { 0 }

  public var endIndex: Int { table.storeCount }

  /// The store at `position`.
  ///
  /// - Complexity: O(size of its record): the row's properties are parsed.
  public subscript(position: Int) -> Store { table.store(at: position) }
}
