/// The `generated-id` note of a feature that has no id, and is called `feature-N` after its
/// index. Everything the note says is in the store's row (its id, its id source, its position),
/// so, like the notes of what a location decided (`InferredZoneNotes`), a table keeps only runs
/// of them (`SnapshotFormat` "Diagnostics") and makes them again when the diagnostics are read.
/// A file of a million features without ids made a million of these as text: 1 GB more at the
/// peak of loading than the same file with ids.
enum GeneratedIDNotes {
  static let code = Diagnostic.Code("generated-id")

  /// The id of the store of a feature without one: `feature-` and the feature's index.
  static func storeID(featureIndex: Int) -> String { "feature-\(featureIndex)" }

  /// The note of the store called `storeID` because its feature had no id.
  static func note(storeID: String, position: SourcePosition?) -> Diagnostic {
    Diagnostic(code, .note, at: position, storeID: storeID, message(storeID: storeID))
  }

  static func message(storeID: String) -> String {
    "the feature has no \"id\" and no \"ref\", \"id\", \"@id\" or \"osm_id\" property, so it is called "
      + "\"\(storeID)\"; that name changes when records move, so give the feature an \"id\""
  }

  /// What the loader lists for the note of the feature at `position`: no store id and no message,
  /// so no text is made for it. `SnapshotFormat.diagnosticsSection` turns the stand-ins into runs.
  static func placeholder(at position: SourcePosition) -> Diagnostic {
    Diagnostic(code, .note, at: position, storeID: nil, "")
  }

  /// Whether `diagnostic` is a stand-in made by `placeholder(at:)`: a real note names its store.
  static func isPlaceholder(_ diagnostic: Diagnostic) -> Bool {
    diagnostic.code == code && diagnostic.storeID == nil && diagnostic.message.isEmpty
  }

  /// Whether the row's id was generated (a bare geometry's too: its warning, `bare-geometry`, is
  /// kept whole, so it is never in a run).
  static func isGenerated(row: UnsafeRawBufferPointer) -> Bool {
    row[StoreTableLayout.Row.idSource] == StoreTableLayout.idSourceCode(.generated)
  }

  /// The note made from `row` (`StoreTableLayout`); `nil` when its id was not generated, or its
  /// id points outside the arena or is not UTF-8 (the caller reports it).
  static func note(row: UnsafeRawBufferPointer, texts: UnsafeRawBufferPointer) -> Diagnostic? {
    guard row.count == StoreTableLayout.rowSize, isGenerated(row: row),
      let id = InferredZoneNotes.storeID(row: row, texts: texts)
    else { return nil }
    return note(storeID: id, position: InferredZoneNotes.position(row: row))
  }

  /// `diagnostics` with each stand-in replaced by its note, for a list shown before the table is
  /// built (a strict load's failure): a generated id is made from the feature's index alone.
  static func expanded(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.map { diagnostic in
      guard isPlaceholder(diagnostic), let position = diagnostic.position else { return diagnostic }
      return note(storeID: storeID(featureIndex: position.featureIndex), position: position)
    }
  }
}
