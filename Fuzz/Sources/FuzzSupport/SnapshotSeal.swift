@_spi(Fuzzing) import StoreLocator

/// Recomputes every checksum of snapshot bytes after a mutation (and the file size in the header),
/// so that the fuzzer's changes reach the code behind the checksum checks: offsets, lengths, tree
/// shape, rows. The layout is SnapshotFormat.swift's: a 64-byte header (size at 16, checksum at
/// 24 over the header with that field zeroed and the section table), 32-byte section entries
/// (kind, reserved, offset, length, checksum), and a digest per row of the store table
/// (`FuzzingHooks.resealRowDigests`). Entries that point outside the bytes are left as they are:
/// the reader must refuse them anyway.
public func resealSnapshot(_ bytes: inout [UInt8]) {
  let headerSize = 64
  let entrySize = 32
  guard bytes.count >= headerSize else { return }
  let sectionCount = Int(load(UInt32.self, bytes, at: 12))
  guard sectionCount <= 64, headerSize + sectionCount * entrySize <= bytes.count else { return }
  let tableEnd = headerSize + sectionCount * entrySize

  // Row digests first: they are inside a section, which has a section checksum.
  FuzzingHooks.resealRowDigests(&bytes)
  // The ranges of the sections whose entries are inside the file.
  var ranges: [(entry: Int, kind: UInt32, range: Range<Int>)] = []
  for index in 0..<sectionCount {
    let entry = headerSize + index * entrySize
    let offset = load(UInt64.self, bytes, at: entry + 8)
    let length = load(UInt64.self, bytes, at: entry + 16)
    guard offset <= UInt64(bytes.count), length <= UInt64(bytes.count) - offset else { continue }
    let range = Int(offset)..<Int(offset + length)
    ranges.append((entry, load(UInt32.self, bytes, at: entry), range))
  }
  for section in ranges {
    store(checksum(bytes, section.range), &bytes, at: section.entry + 24)
  }
  store(UInt64(bytes.count), &bytes, at: 16)
  store(UInt64(0), &bytes, at: 24)
  store(checksum(bytes, 0..<tableEnd), &bytes, at: 24)
}

private func checksum(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 {
  bytes.withUnsafeBytes { FuzzingHooks.snapshotChecksum(UnsafeRawBufferPointer(rebasing: $0[range])) }
}

private func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], at offset: Int) -> T {
  bytes.withUnsafeBytes { T(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: T.self)) }
}

private func store<T: FixedWidthInteger>(_ value: T, _ bytes: inout [UInt8], at offset: Int) {
  bytes.withUnsafeMutableBytes { $0.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self) }
}
