import GeoIndex

/// The notes of what a store's location decided: `timezone-inferred` (which zone, from which
/// place) and `holidays-inferred` (which country's or region's public holidays, from which place),
/// in that order, one of each a store at most. A table does not store them as diagnostics:
/// everything they say is in the store's row and its guess, so the diagnostics section keeps only
/// runs of them (`SnapshotFormat` "Diagnostics") and they are made again, the same values in the
/// same order, when the diagnostics are read. On 1M stores without zones they were 122 of the 622
/// bytes a store of the snapshot.
enum InferredZoneNotes {
  static let code = Diagnostic.Code("timezone-inferred")
  static let holidayCode = Diagnostic.Code("holidays-inferred")

  /// Whether `code` is one of the notes made from the rows.
  static func isInferredNote(_ code: Diagnostic.Code) -> Bool { code == Self.code || code == holidayCode }

  /// The note for `store`, whose zone was inferred as `guess`: what the loader reports.
  static func note(for store: Store, guess: TimeZoneGuess) -> Diagnostic {
    note(storeID: store.id, position: store.position, guess: guess)
  }

  static func note(storeID: String, position: SourcePosition, guess: TimeZoneGuess) -> Diagnostic {
    Diagnostic(
      code, .note, at: position, storeID: storeID,
      "no usable \"timezone\": \(guess.identifier), \(guess.note)")
  }

  /// The `holidays-inferred` note for `store`, or `nil` when its holidays were not inferred.
  static func holidayNote(for store: Store) -> Diagnostic? {
    store.inferredHolidays.map { holidayNote(storeID: store.id, position: store.position, inferred: $0) }
  }

  static func holidayNote(storeID: String, position: SourcePosition, inferred: InferredHolidays) -> Diagnostic
  {
    Diagnostic(holidayCode, .note, at: position, storeID: storeID, inferred.note)
  }

  /// The notes of the store whose row is `row` (`StoreTableLayout`), made from the row and its
  /// guess: its zone's, then its holidays'; `nil` when the row has no guess, or a reference points
  /// outside its column or to a text that is not UTF-8 (the caller reports it).
  /// - Parameters:
  ///   - guesses: The whole guesses column; `places` the whole places column, `texts` the arena.
  static func notes(
    row: UnsafeRawBufferPointer, guesses: UnsafeRawBufferPointer, places: UnsafeRawBufferPointer,
    texts: UnsafeRawBufferPointer
  ) -> [Diagnostic]? {
    func word(_ at: Int) -> UInt32 {
      UInt32(littleEndian: row.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    typealias Row = StoreTableLayout.Row
    guard row.count == StoreTableLayout.rowSize, word(Row.guess) != StoreTableLayout.none,
      let place = StoreTableLayout.guess(word(Row.guess), guesses: guesses, places: places, texts: texts)
    else { return nil }
    let offset = UInt64(word(Row.id))
    let length = UInt64(word(Row.id + 4))
    guard offset + length <= UInt64(texts.count),
      let id = CompactJSONReader.validUTF8(
        UnsafeRawBufferPointer(rebasing: texts[Int(offset)..<Int(offset + length)]))
    else { return nil }
    let position = SourcePosition(
      featureIndex: Int(word(Row.featureIndex)), line: Int(word(Row.line)), column: Int(word(Row.column)))
    let inferred = StoreTableLayout.inferred(flags: row[Row.flags], place: place)
    var notes: [Diagnostic] = []
    if let zone = inferred.zone { notes.append(note(storeID: id, position: position, guess: zone)) }
    if let holidays = inferred.holidays {
      notes.append(holidayNote(storeID: id, position: position, inferred: holidays))
    }
    return notes.isEmpty ? nil : notes
  }

  /// Whether the row has a guess (and so, when built by the loader, one or two notes).
  static func hasGuess(row: UnsafeRawBufferPointer) -> Bool {
    UInt32(littleEndian: row.loadUnaligned(fromByteOffset: StoreTableLayout.Row.guess, as: UInt32.self))
      != StoreTableLayout.none
  }
}
