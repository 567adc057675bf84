import GeoIndex

/// The `timezone-inferred` notes: one a store whose zone was inferred from its location, saying
/// which zone and from which place. A table does not store them as diagnostics: everything they
/// say is in the store's row and its time-zone guess, so the diagnostics section keeps only runs
/// of them (`SnapshotFormat` "Diagnostics") and they are made again, the same values in the same
/// order, when the diagnostics are read. On 1M stores without zones they were 122 of the 622
/// bytes a store of the snapshot.
enum InferredZoneNotes {
  static let code = Diagnostic.Code("timezone-inferred")

  /// The note for `store`, whose zone was inferred as `guess`: what the loader reports.
  static func note(for store: Store, guess: TimeZoneGuess) -> Diagnostic {
    note(storeID: store.id, position: store.position, guess: guess)
  }

  static func note(storeID: String, position: SourcePosition, guess: TimeZoneGuess) -> Diagnostic {
    Diagnostic(
      code, .note, at: position, storeID: storeID,
      "no usable \"timezone\": \(guess.identifier), \(guess.note)")
  }

  /// The note of the store whose row is `row` (`StoreTableLayout`), made from the row and its
  /// guess; `nil` when the row has no guess, or a reference points outside its column or to a
  /// text that is not UTF-8 (the caller reports it).
  /// - Parameters:
  ///   - guesses: The whole guesses column; `places` the whole places column, `texts` the arena.
  static func note(
    row: UnsafeRawBufferPointer, guesses: UnsafeRawBufferPointer, places: UnsafeRawBufferPointer,
    texts: UnsafeRawBufferPointer
  ) -> Diagnostic? {
    func word(_ at: Int) -> UInt32 {
      UInt32(littleEndian: row.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    guard row.count == StoreTableLayout.rowSize, word(56) != StoreTableLayout.none,
      let guess = StoreTableLayout.guess(word(56), guesses: guesses, places: places, texts: texts)
    else { return nil }
    let offset = UInt64(word(0))
    let length = UInt64(word(4))
    guard offset + length <= UInt64(texts.count),
      let id = CompactJSONReader.validUTF8(
        UnsafeRawBufferPointer(rebasing: texts[Int(offset)..<Int(offset + length)]))
    else { return nil }
    let position = SourcePosition(featureIndex: Int(word(32)), line: Int(word(36)), column: Int(word(40)))
    return note(storeID: id, position: position, guess: guess)
  }

  /// Whether the row has a time-zone guess (and so, when built by the loader, a note).
  static func hasGuess(row: UnsafeRawBufferPointer) -> Bool {
    UInt32(littleEndian: row.loadUnaligned(fromByteOffset: 56, as: UInt32.self)) != StoreTableLayout.none
  }
}
