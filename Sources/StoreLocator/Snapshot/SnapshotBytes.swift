/// Little-endian encoding for snapshot files: a growing byte buffer to write, a bounds-checked
/// cursor to read, and the checksum both sides agree on.
struct SnapshotWriter {
  private(set) var bytes: [UInt8] = []

  var count: Int { bytes.count }

  /// Room for `count` bytes in all, so that a column of known size is not copied as it grows.
  mutating func reserveCapacity(_ count: Int) { bytes.reserveCapacity(count) }

  /// Empties it, keeping its room: for a scratch writer used again and again.
  mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

  /// Appends bytes as they are.
  mutating func append(contentsOf other: [UInt8]) { bytes.append(contentsOf: other) }

  /// Appends bytes as they are.
  mutating func append(contentsOf other: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: other) }

  mutating func append<T: FixedWidthInteger>(_ value: T) {
    withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
  }

  mutating func append(_ value: Double) { append(value.bitPattern) }

  /// LEB128: small numbers (lines, columns, lengths) take one or two bytes.
  mutating func appendVarint(_ value: Int) {
    var rest = UInt64(bitPattern: Int64(value))
    while rest >= 0x80 {
      bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
      rest >>= 7
    }
    bytes.append(UInt8(rest))
  }

  mutating func append(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in
      appendVarint(utf8.count)
      bytes.append(contentsOf: utf8)
    }
  }

  mutating func append(optional text: String?) {
    append(UInt8(text == nil ? 0 : 1))
    if let text { append(text) }
  }

  /// The elements' bytes as they lie in memory (all our arrays are of little-endian scalars).
  mutating func appendRaw<T: BitwiseCopyable>(_ array: [T]) {
    array.withUnsafeBytes { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
  }

  /// Zero bytes up to a multiple of `alignment`, so a section can be read in place.
  mutating func pad(to alignment: Int) {
    while bytes.count % alignment != 0 { bytes.append(0) }
  }

  mutating func overwrite<T: FixedWidthInteger>(_ value: T, at offset: Int) {
    withUnsafeBytes(of: value.littleEndian) { raw in
      for (i, byte) in raw.enumerated() { bytes[offset + i] = byte }
    }
  }
}

/// What is wrong with a snapshot's bytes, in words for the message.
struct SnapshotDecodingError: Error {
  let reason: String
}

/// Reads what `SnapshotWriter` wrote, checking every length against the bytes that are there.
struct SnapshotReader {
  let base: UnsafeRawPointer
  let end: Int
  var offset: Int

  init(_ buffer: UnsafeRawBufferPointer, from offset: Int = 0) {
    base = buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
    end = buffer.count
    self.offset = offset
  }

  init(base: UnsafeRawPointer, range: Range<Int>) {
    self.base = base
    self.end = range.upperBound
    self.offset = range.lowerBound
  }

  mutating func read<T: FixedWidthInteger>(_: T.Type) throws(SnapshotDecodingError) -> T {
    let size = MemoryLayout<T>.size
    guard offset >= 0, end - offset >= size else {
      throw SnapshotDecodingError(reason: "a \(size)-byte number runs past the end at byte \(offset)")
    }
    let value = base.loadUnaligned(fromByteOffset: offset, as: T.self)
    offset += size
    return T(littleEndian: value)
  }

  mutating func readDouble() throws(SnapshotDecodingError) -> Double {
    Double(bitPattern: try read(UInt64.self))
  }

  mutating func readVarint() throws(SnapshotDecodingError) -> Int {
    var value: UInt64 = 0
    var shift: UInt64 = 0
    while true {
      guard offset < end, shift < 64 else {
        throw SnapshotDecodingError(reason: "a number is cut off at byte \(offset)")
      }
      let byte = base.load(fromByteOffset: offset, as: UInt8.self)
      offset += 1
      value |= UInt64(byte & 0x7F) << shift
      if byte < 0x80 { return Int(Int64(bitPattern: value)) }
      shift += 7
    }
  }

  /// A varint that counts something, checked to lie in `0...limit` so a loop over it can
  /// neither trap (a negative count) nor run for ever.
  mutating func readCount(atMost limit: Int, of what: String) throws(SnapshotDecodingError) -> Int {
    let count = try readVarint()
    guard count >= 0, count <= limit else {
      throw SnapshotDecodingError(reason: "\(count) \(what) is not a count in 0...\(limit)")
    }
    return count
  }

  mutating func readString() throws(SnapshotDecodingError) -> String {
    let count = try readVarint()
    guard count >= 0, end - offset >= count else {
      throw SnapshotDecodingError(reason: "a text of \(count) bytes runs past the end at byte \(offset)")
    }
    let bytes = UnsafeRawBufferPointer(start: base + offset, count: count).bindMemory(to: UInt8.self)
    offset += count
    guard let text = String(validating: bytes, as: UTF8.self) else {
      throw SnapshotDecodingError(reason: "a text at byte \(offset - count) is not UTF-8")
    }
    return text
  }

  mutating func readOptionalString() throws(SnapshotDecodingError) -> String? {
    switch try read(UInt8.self) {
    case 0: return nil
    case 1: return try readString()
    case let tag: throw SnapshotDecodingError(reason: "unexpected tag \(tag) at byte \(offset - 1)")
    }
  }
}

/// A 64-bit checksum of bytes: four interleaved multiply–rotate lanes over 8-byte words, then the
/// tail. Not cryptographic: it detects truncation, flipped bits and stray edits, fast enough to run
/// over a snapshot's index sections on every open.
func snapshotChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
  let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
  let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
  var lanes: (UInt64, UInt64, UInt64, UInt64) = (prime1, prime2, prime1 ^ prime2, ~prime1)
  @inline(__always) func mix(_ lane: UInt64, _ word: UInt64) -> UInt64 {
    let value = lane &+ word &* prime2
    return ((value << 31) | (value >> 33)) &* prime1
  }
  guard let base = bytes.baseAddress else { return 0 }
  let count = bytes.count
  var offset = 0
  while count - offset >= 32 {
    lanes.0 = mix(lanes.0, base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
    lanes.1 = mix(lanes.1, base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
    lanes.2 = mix(lanes.2, base.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
    lanes.3 = mix(lanes.3, base.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
    offset += 32
  }
  var hash = mix(lanes.0, lanes.1) ^ mix(lanes.2, lanes.3) ^ UInt64(count)
  while offset < count {
    hash = mix(hash, UInt64(base.load(fromByteOffset: offset, as: UInt8.self)))
    offset += 1
  }
  hash ^= hash >> 29
  return hash &* prime1
}
