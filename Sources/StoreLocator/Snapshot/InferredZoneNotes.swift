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

  /// What the loader puts in its list of diagnostics for one of these notes (`code` says which)
  /// of the store at `position`: no store id and no message, so no text is made for it. Only
  /// `SnapshotFormat.diagnosticsSection` reads it, turning the stand-ins of consecutive rows into
  /// runs; the notes themselves are made from the rows when the diagnostics are read.
  static func placeholder(_ code: Diagnostic.Code, at position: SourcePosition) -> Diagnostic {
    Diagnostic(code, .note, at: position, storeID: nil, "")
  }

  /// Whether `diagnostic` is a stand-in made by `placeholder(_:at:)`: a real note always names its
  /// store and says something.
  static func isPlaceholder(_ diagnostic: Diagnostic) -> Bool {
    diagnostic.message.isEmpty && diagnostic.storeID == nil && isInferredNote(diagnostic.code)
  }

  /// How many notes the row makes (`notes(row:…)`), from its flags alone: 0, 1 or 2.
  static func noteCount(row: UnsafeRawBufferPointer) -> Int {
    guard hasGuess(row: row) else { return 0 }
    let flags = row[StoreTableLayout.Row.flags]
    let holidays = StoreTableLayout.holidayCountryInferredFlag | StoreTableLayout.holidayRegionInferredFlag
    return (flags & StoreTableLayout.zoneInferredFlag != 0 ? 1 : 0) + (flags & holidays != 0 ? 1 : 0)
  }

  static func note(storeID: String, position: SourcePosition, guess: TimeZoneGuess) -> Diagnostic {
    Diagnostic(
      code, .note, at: position, storeID: storeID,
      "no usable \"timezone\": \(guess.identifier), \(guess.note)")
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
    guard let id = storeID(row: row, texts: texts) else { return nil }
    let position = Self.position(row: row)
    let inferred = StoreTableLayout.inferred(flags: row[Row.flags], place: place)
    var notes: [Diagnostic] = []
    if let zone = inferred.zone { notes.append(note(storeID: id, position: position, guess: zone)) }
    if let holidays = inferred.holidays {
      notes.append(holidayNote(storeID: id, position: position, inferred: holidays))
    }
    return notes.isEmpty ? nil : notes
  }

  /// The row's store id, read from the arena `texts`; `nil` when it points outside it or is not
  /// UTF-8. (The generated-id notes read it too.)
  static func storeID(row: UnsafeRawBufferPointer, texts: UnsafeRawBufferPointer) -> String? {
    let offset = UInt64(
      row.loadUnaligned(fromByteOffset: StoreTableLayout.Row.id, as: UInt32.self).littleEndian)
    let length = UInt64(
      row.loadUnaligned(fromByteOffset: StoreTableLayout.Row.id + 4, as: UInt32.self).littleEndian)
    guard offset + length <= UInt64(texts.count) else { return nil }
    return CompactJSONReader.validUTF8(
      UnsafeRawBufferPointer(rebasing: texts[Int(offset)..<Int(offset + length)]))
  }

  /// Where the row's feature starts.
  static func position(row: UnsafeRawBufferPointer) -> SourcePosition {
    func word(_ at: Int) -> Int {
      Int(UInt32(littleEndian: row.loadUnaligned(fromByteOffset: at, as: UInt32.self)))
    }
    let at = StoreTableLayout.Row.self
    return SourcePosition(featureIndex: word(at.featureIndex), line: word(at.line), column: word(at.column))
  }

  /// Whether the row has a guess (and so, when built by the loader, one or two notes).
  static func hasGuess(row: UnsafeRawBufferPointer) -> Bool {
    UInt32(littleEndian: row.loadUnaligned(fromByteOffset: StoreTableLayout.Row.guess, as: UInt32.self))
      != StoreTableLayout.none
  }
}
