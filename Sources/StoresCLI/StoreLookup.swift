import ArgumentParser
import StoreLocator

extension Catalog {
  /// The one store `id` names, for the commands that take a store id (`show`, `hours`, `open`,
  /// `pickup --store`).
  ///
  /// Never picks one silently: an unknown id says so with the most similar ids and exits 66; an
  /// id that several stores share (the data repeats it) lists them, with where each is in the
  /// file, and exits 64, since the argument does not name one store.
  func uniqueStore(withID id: String) throws -> Store {
    let found = stores(withID: id)
    if found.count == 1 { return found[0] }
    guard !found.isEmpty else { throw reportUnknownID(id, suggestions: ids(resembling: id, limit: 3)) }
    throw reportRepeatedID(id, stores: found)
  }

  /// Says on standard error that no store has `id`, naming `suggestions` (the most similar ids),
  /// and returns the exit code for it (66).
  func reportUnknownID(_ id: String, suggestions: [String]) -> ExitCode {
    standardError(
      "stores: no store with id '\(id)' in \(source)"
        + (suggestions.isEmpty
          ? "" : "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?"))
    return ExitCode.inputMissing
  }

  /// Says on standard error that `id` names all of `found`, listing where each is in the file,
  /// and returns the exit code for it (64).
  func reportRepeatedID(_ id: String, stores found: [Store]) -> ExitCode {
    standardError(
      "stores: the id '\(id)' names \(found.count) stores in \(source), so it does not say which one; "
        + "ids must be unique ('stores validate' lists the repeats):")
    let rows = found.map { store in
      [
        "line \(store.position.line):\(store.position.column)", "feature \(store.position.featureIndex)",
        store.name ?? "(no name)", store.coordinate?.description ?? "no location",
      ]
    }
    let columns = [
      TextTable.Column("", width: 16), TextTable.Column("", width: 16), TextTable.Column("", width: 40),
      TextTable.Column("", width: 40),
    ]
    // The header row is blank here, and splitting leaves blank lines out.
    for line in TextTable(columns: columns, rows: rows).rendered.split(separator: "\n") {
      standardError("  " + line)
    }
    return ExitCode.usage
  }
}
