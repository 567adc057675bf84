/// The check of one store's bytes in a table: its row, its property entries, and every text they
/// refer to (a property value's whole unit, length prefix and text), folded into 32 bits (`rowChecksums` section, one a store).
///
/// A large snapshot is opened without reading all of it; its rows are then checked one at a time
/// when they are read (rendered, made into a `Store`, tested by a filter, asked for hours), so a
/// flipped bit is found before it becomes an answer, not after.
enum RowDigest {
  /// A table's columns, and the digests being written, shared by the threads that take the
  /// digests of a table's rows: each reads the columns, which nobody writes, and writes its own
  /// part of `output`.
  struct Columns: @unchecked Sendable {
    let rows: UnsafeRawBufferPointer
    let members: UnsafeRawBufferPointer
    let shapes: UnsafeRawBufferPointer
    let guesses: UnsafeRawBufferPointer
    let texts: UnsafeRawBufferPointer
    let output: UnsafeMutableBufferPointer<UInt32>
  }

  /// The digest, or `nil` when a reference points outside its column (the caller reports it).
  /// - Parameters:
  ///   - row: The store's `StoreTableLayout.rowSize` bytes.
  ///   - members: The whole members column; `shapes` the whole shapes column, `guesses` the
  ///     whole guesses column.
  ///   - texts: The whole text arena.
  static func digest(
    row: UnsafeRawBufferPointer, members: UnsafeRawBufferPointer, shapes: UnsafeRawBufferPointer,
    guesses: UnsafeRawBufferPointer,
    texts: UnsafeRawBufferPointer
  ) -> UInt32? {
    func word(_ bytes: UnsafeRawBufferPointer, _ at: Int) -> UInt32 {
      UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: at, as: UInt32.self))
    }
    var hash = snapshotChecksum(row)
    func fold(_ offset: UInt32, _ length: UInt32) -> Bool {
      guard UInt64(offset) + UInt64(length) <= UInt64(texts.count) else { return false }
      hash =
        (hash ^ snapshotChecksum(UnsafeRawBufferPointer(rebasing: texts[Int(offset)..<Int(offset + length)])))
        &* 0x9E37_79B1_85EB_CA87
      return true
    }
    typealias Row = StoreTableLayout.Row
    guard fold(word(row, Row.id), word(row, Row.id + 4)), fold(word(row, Row.name), word(row, Row.name + 4)),
      fold(word(row, Row.address), word(row, Row.address + 4))
    else { return nil }
    if word(row, Row.timeZone) != StoreTableLayout.none,
      !fold(word(row, Row.timeZone), word(row, Row.timeZone + 4))
    {
      return nil
    }
    let first = UInt64(word(row, Row.firstMember))
    let shape = UInt64(word(row, Row.shape))
    guard (shape + 1) * UInt64(StoreTableLayout.shapeSize) <= UInt64(shapes.count) else { return nil }
    let count = UInt64(word(shapes, Int(shape) * StoreTableLayout.shapeSize + 4))
    let size = UInt64(StoreTableLayout.memberSize)
    guard (first + count) * size <= UInt64(members.count) else { return nil }
    let entries = UnsafeRawBufferPointer(rebasing: members[Int(first * size)..<Int((first + count) * size)])
    hash = (hash ^ snapshotChecksum(entries)) &* 0x9E37_79B1_85EB_CA87
    // Each value's unit: its length prefix and its text.
    for member in 0..<Int(count) {
      let offset = word(entries, member * StoreTableLayout.memberSize)
      guard let text = StoreTableLayout.valueText(at: offset, in: texts),
        fold(offset, UInt32(text.upperBound) - offset)
      else { return nil }
    }
    let guess = word(row, Row.guess)
    if guess != StoreTableLayout.none {
      let at = UInt64(guess) * UInt64(StoreTableLayout.guessSize)
      guard at + UInt64(StoreTableLayout.guessSize) <= UInt64(guesses.count) else { return nil }
      let entry = UnsafeRawBufferPointer(rebasing: guesses[Int(at)..<Int(at) + StoreTableLayout.guessSize])
      // Its place and the place's texts are not folded in: the places column is verified whole
      // on every open.
      hash = (hash ^ snapshotChecksum(entry)) &* 0x9E37_79B1_85EB_CA87
    }
    return UInt32(truncatingIfNeeded: hash ^ (hash >> 32))
  }
}
