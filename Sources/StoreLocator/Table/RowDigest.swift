/// The check of one store's bytes in a table: its row, its property entries, and every text they
/// refer to, folded into 32 bits (`rowChecksums` section, one a store).
///
/// A large snapshot is opened without reading all of it; its rows are then checked one at a time
/// when they are read (rendered, made into a `Store`, tested by a filter, asked for hours), so a
/// flipped bit is found before it becomes an answer, not after.
enum RowDigest {
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
    guard fold(word(row, 0), word(row, 4)), fold(word(row, 64), word(row, 68)),
      fold(word(row, 72), word(row, 76))
    else { return nil }
    if word(row, 48) != StoreTableLayout.none, !fold(word(row, 48), word(row, 52)) { return nil }
    let first = UInt64(word(row, 8))
    let shape = UInt64(word(row, 12))
    guard (shape + 1) * UInt64(StoreTableLayout.shapeSize) <= UInt64(shapes.count) else { return nil }
    let count = UInt64(word(shapes, Int(shape) * StoreTableLayout.shapeSize + 4))
    let size = UInt64(StoreTableLayout.memberSize)
    guard (first + count) * size <= UInt64(members.count) else { return nil }
    let entries = UnsafeRawBufferPointer(rebasing: members[Int(first * size)..<Int((first + count) * size)])
    hash = (hash ^ snapshotChecksum(entries)) &* 0x9E37_79B1_85EB_CA87
    for member in 0..<Int(count) {
      guard fold(word(entries, member * 8), word(entries, member * 8 + 4)) else { return nil }
    }
    let guess = word(row, 56)
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
