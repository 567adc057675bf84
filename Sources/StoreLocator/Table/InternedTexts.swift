/// The text arena of a store table under construction: every distinct byte string once, found
/// again by its hash, so the values chains repeat (brands, hours, countries, `"yes"`) take their
/// bytes once however many stores carry them.
///
/// An open-addressing table over the arena: no `String` or array per lookup.
struct InternedTexts {
  /// The arena: every distinct text, back to back.
  private(set) var bytes: [UInt8] = []
  /// Slot → 1 + entry number, 0 when free. A power of two, at most half full.
  private var slots: [UInt32]
  private var offsets: [UInt32] = []
  private var lengths: [UInt32] = []
  private var hashes: [UInt32] = []

  /// - Parameters:
  ///   - expectedCount: How many texts are to come: the table is made big enough for them.
  ///   - expectedBytes: How many bytes they take: room is made in the arena.
  init(expectedCount: Int = 1024, expectedBytes: Int = 0) {
    var capacity = 1024
    while capacity < expectedCount * 2 { capacity <<= 1 }
    slots = [UInt32](repeating: 0, count: capacity)
    // Room, not pages: the arena and the entries are only touched as texts are added.
    bytes.reserveCapacity(expectedBytes)
    for column in [\InternedTexts.offsets, \.lengths, \.hashes] {
      self[keyPath: column].reserveCapacity(expectedCount)
    }
  }

  /// The largest arena a table can address (offsets and lengths are 32-bit).
  static let capacity = Int(UInt32.max)

  /// Where `text` lies in the arena, adding it when new; `nil` when the arena is full.
  mutating func intern(_ text: UnsafeRawBufferPointer) -> TextRef? {
    let hash = Self.hash(text)
    let mask = slots.count - 1
    var slot = Int(hash) & mask
    while slots[slot] != 0 {
      let entry = Int(slots[slot] - 1)
      if hashes[entry] == hash, Int(lengths[entry]) == text.count,
        bytes.withUnsafeBytes({ arena in
          text.count == 0
            || memcmp(arena.baseAddress! + Int(offsets[entry]), text.baseAddress!, text.count) == 0
        })
      {
        return TextRef(offset: offsets[entry], length: lengths[entry])
      }
      slot = (slot + 1) & mask
    }
    guard bytes.count + text.count <= Self.capacity, offsets.count < Int(UInt32.max - 1) else { return nil }
    let ref = TextRef(offset: UInt32(bytes.count), length: UInt32(text.count))
    bytes.append(contentsOf: text.assumingMemoryBound(to: UInt8.self))
    offsets.append(ref.offset)
    lengths.append(ref.length)
    hashes.append(hash)
    slots[slot] = UInt32(offsets.count)
    if offsets.count * 2 > slots.count { grow() }
    return ref
  }

  /// Adds `text` without looking for it: for texts that seldom repeat (ids, addresses), where the
  /// lookup would cost a cache miss and save nothing.
  mutating func append(_ text: UnsafeRawBufferPointer) -> TextRef? {
    guard bytes.count + text.count <= Self.capacity else { return nil }
    let ref = TextRef(offset: UInt32(bytes.count), length: UInt32(text.count))
    bytes.append(contentsOf: text.assumingMemoryBound(to: UInt8.self))
    return ref
  }

  mutating func intern(_ text: String) -> TextRef? {
    var text = text
    return text.withUTF8 { intern(UnsafeRawBufferPointer($0)) }
  }

  private mutating func grow() {
    slots = [UInt32](repeating: 0, count: slots.count * 2)
    let mask = slots.count - 1
    for entry in hashes.indices {
      var slot = Int(hashes[entry]) & mask
      while slots[slot] != 0 { slot = (slot + 1) & mask }
      slots[slot] = UInt32(entry + 1)
    }
  }

  /// A multiply–rotate hash over 8-byte words, then the tail, folded to 32 bits (a byte at a
  /// time was a tenth of loading).
  private static func hash(_ text: UnsafeRawBufferPointer) -> UInt32 {
    let prime: UInt64 = 0x9E37_79B1_85EB_CA87
    var hash = UInt64(text.count) &* prime
    var offset = 0
    if let base = text.baseAddress {
      while text.count - offset >= 8 {
        let word = base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
        hash = ((hash ^ word) &* prime)
        hash ^= hash >> 29
        offset += 8
      }
      while offset < text.count {
        hash = (hash ^ UInt64(base.load(fromByteOffset: offset, as: UInt8.self))) &* prime
        offset += 1
      }
    }
    hash ^= hash >> 32
    return UInt32(truncatingIfNeeded: hash)
  }
}

/// Where a text lies in a table's arena.
struct TextRef: Hashable {
  var offset: UInt32
  var length: UInt32

  /// The reference a row holds for "no text" (an absent time zone).
  static let none = TextRef(offset: UInt32.max, length: 0)
}

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
