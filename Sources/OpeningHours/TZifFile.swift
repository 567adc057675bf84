/// Why TZif bytes could not be read.
struct TZifFormatError: Error, Hashable, Sendable {
  var reason: String
}

/// One local time type of a TZif file: an offset, whether it is daylight time, an abbreviation.
struct LocalTimeType: Hashable, Sendable {
  /// Seconds east of UTC.
  var offset: Int32
  var isDaylight: Bool
  var abbreviation: String
}

/// The contents of a compiled tz database file (RFC 8536, versions 1 to 4) that matter for civil
/// time: transitions, local time types and the footer rule.
///
/// For version 2 and later only the second, 64-bit data block is read (the first one is there for
/// old 32-bit readers and cannot express instants outside 1901...2038).
struct TZifFile: Hashable, Sendable {
  var version: Int
  /// Transition instants, strictly ascending.
  var transitionTimes: [Int64]
  /// Index into `types` of the type in force from the transition at the same index on.
  var transitionTypes: [UInt8]
  var types: [LocalTimeType]
  /// The footer TZ string (version 2 and later); empty when the file has none or it is empty.
  var footer: String

  /// Parses `bytes`.
  /// - Throws: `TZifFormatError` for anything RFC 8536 does not allow, and for leap-second
  ///   records (the `right/` zones), whose transition times count leap seconds and would
  ///   therefore be off by up to half a minute against POSIX instants.
  init(bytes: [UInt8]) throws(TZifFormatError) {
    var reader = ByteReader(bytes: bytes)
    var header = try Self.header(&reader)
    version = header.version
    if header.version >= 2 {
      // Skip the v1 block: 4-byte times and 4-byte leap-second occurrences.
      try reader.skip(header.dataLength(timeSize: 4))
      header = try Self.header(&reader)
      guard header.version >= 2 else { throw TZifFormatError(reason: "second header has version 1") }
    }
    let timeSize = header.version >= 2 ? 8 : 4
    guard header.leapCount == 0 else {
      throw TZifFormatError(
        reason: "it has leap-second records (a right/ zone); use the zone's POSIX name instead")
    }
    var times: [Int64] = []
    times.reserveCapacity(header.timeCount)
    for _ in 0..<header.timeCount {
      let time = timeSize == 8 ? try reader.int64() : Int64(try reader.int32())
      if let last = times.last, time <= last {
        throw TZifFormatError(reason: "transition times are not ascending")
      }
      times.append(time)
    }
    var indices: [UInt8] = []
    indices.reserveCapacity(header.timeCount)
    for _ in 0..<header.timeCount {
      let index = try reader.byte()
      guard Int(index) < header.typeCount else {
        throw TZifFormatError(reason: "transition type \(index) does not exist")
      }
      indices.append(index)
    }
    var rawTypes: [(offset: Int32, isDaylight: Bool, abbreviationIndex: Int)] = []
    for _ in 0..<header.typeCount {
      let offset = try reader.int32()
      // RFC 8536 §3.2: -2^31 is not allowed; real offsets stay within ±26 hours.
      guard (-93_599...93_599).contains(offset) else {
        throw TZifFormatError(reason: "UTC offset \(offset) s is out of range")
      }
      let isDaylight = try reader.byte()
      guard isDaylight <= 1 else { throw TZifFormatError(reason: "isdst is neither 0 nor 1") }
      let abbreviationIndex = Int(try reader.byte())
      guard abbreviationIndex < header.charCount else {
        throw TZifFormatError(reason: "abbreviation index \(abbreviationIndex) is out of range")
      }
      rawTypes.append((offset, isDaylight == 1, abbreviationIndex))
    }
    let characters = try reader.bytes(header.charCount)
    types = rawTypes.map { raw in
      let tail = characters[raw.abbreviationIndex...]
      let end = tail.firstIndex(of: 0) ?? tail.endIndex
      return LocalTimeType(
        offset: raw.offset, isDaylight: raw.isDaylight,
        abbreviation: String(decoding: tail[..<end], as: UTF8.self))
    }
    // Standard/wall and UT/local indicators only matter to POSIX-TZ emulation of old readers.
    try reader.skip(header.standardWallCount + header.utLocalCount)
    transitionTimes = times
    transitionTypes = indices

    footer = ""
    if header.version >= 2 {
      guard try reader.byte() == UInt8(ascii: "\n") else {
        throw TZifFormatError(reason: "the footer does not start with a newline")
      }
      var footerBytes: [UInt8] = []
      while true {
        let byte = try reader.byte()
        if byte == UInt8(ascii: "\n") { break }
        footerBytes.append(byte)
      }
      footer = String(decoding: footerBytes, as: UTF8.self)
    }
  }

  struct Header {
    var version: Int
    var utLocalCount: Int
    var standardWallCount: Int
    var leapCount: Int
    var timeCount: Int
    var typeCount: Int
    var charCount: Int

    func dataLength(timeSize: Int) -> Int {
      timeCount * timeSize + timeCount + typeCount * 6 + charCount + leapCount * (timeSize + 4)
        + standardWallCount + utLocalCount
    }
  }

  static func header(_ reader: inout ByteReader) throws(TZifFormatError) -> Header {
    guard try reader.bytes(4) == Array("TZif".utf8) else {
      throw TZifFormatError(reason: "it is not a TZif file (no 'TZif' magic)")
    }
    let versionByte = try reader.byte()
    let version: Int
    switch versionByte {
    case 0: version = 1
    case UInt8(ascii: "2")...UInt8(ascii: "9"): version = Int(versionByte - UInt8(ascii: "0"))
    default: throw TZifFormatError(reason: "unknown TZif version byte \(versionByte)")
    }
    try reader.skip(15)
    var counts: [Int] = []
    for _ in 0..<6 {
      let count = try reader.int32()
      guard count >= 0 else { throw TZifFormatError(reason: "negative count in header") }
      counts.append(Int(count))
    }
    let header = Header(
      version: version, utLocalCount: counts[0], standardWallCount: counts[1], leapCount: counts[2],
      timeCount: counts[3], typeCount: counts[4], charCount: counts[5])
    guard header.typeCount >= 1, header.typeCount <= 256, header.charCount >= 1 else {
      throw TZifFormatError(reason: "it has no local time types")
    }
    guard header.utLocalCount == 0 || header.utLocalCount == header.typeCount,
      header.standardWallCount == 0 || header.standardWallCount == header.typeCount
    else { throw TZifFormatError(reason: "indicator counts do not match the type count") }
    return header
  }
}

/// Big-endian reads with bounds checks; every overrun becomes a `TZifFormatError`.
struct ByteReader {
  let bytes: [UInt8]
  var position = 0

  mutating func bytes(_ count: Int) throws(TZifFormatError) -> [UInt8] {
    guard count >= 0, count <= bytes.count - position else {
      throw TZifFormatError(reason: "the file is truncated")
    }
    defer { position += count }
    return Array(bytes[position..<(position + count)])
  }

  mutating func skip(_ count: Int) throws(TZifFormatError) {
    guard count >= 0, count <= bytes.count - position else {
      throw TZifFormatError(reason: "the file is truncated")
    }
    position += count
  }

  mutating func byte() throws(TZifFormatError) -> UInt8 {
    guard position < bytes.count else { throw TZifFormatError(reason: "the file is truncated") }
    defer { position += 1 }
    return bytes[position]
  }

  mutating func int32() throws(TZifFormatError) -> Int32 {
    var value: UInt32 = 0
    for _ in 0..<4 { value = value << 8 | UInt32(try byte()) }
    return Int32(bitPattern: value)
  }

  mutating func int64() throws(TZifFormatError) -> Int64 {
    var value: UInt64 = 0
    for _ in 0..<8 { value = value << 8 | UInt64(try byte()) }
    return Int64(bitPattern: value)
  }
}
