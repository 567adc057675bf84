#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads a feature of a stretch read ahead (`FeatureReadAhead.readStretch`) and writes its row's
/// draft (`RowDraft`) from the input's bytes as it goes, for a reader that does not keep records.
///
/// Most of a store's property values are strings without escapes, which the row keeps as they
/// are written in the input: such a value's unit is its bytes in quotes, copied, and it never
/// becomes a `String`. Only the members the loader reads as text become `JSONValue`s
/// (`isRead`): the id, ref and name, the address keys, the time zone, the hours and the service
/// members. The feature is returned with only those in its `properties`, so the one
/// `GeoJSONReader.readFeature`, `HoursDraft` and `RowDraft.writeNameAndAddress` read it as they
/// read a whole record, and a draft is that of the whole record.
///
/// On 1M stores, turning every property into a `JSONValue` and writing it out again was more than
/// half of a reading thread's time (Benchmarks/README.md, "Drafts from the input's bytes").
///
/// `read` gives up (`nil`) on what is not an ordinary Feature: a syntax error, a repeated member,
/// a type other than `"Feature"`, more than `maximumMembers` properties. The stretch then reads
/// that feature again in full, so what to report about it is decided in one place.
struct FeatureDrafter {
  /// The most properties a feature read here may have; one with more is read in full, where the
  /// scanner's own limit and hashing of keys apply.
  static let maximumMembers = 64

  /// The properties' keys as the draft writes them (a LEB128 length and the UTF-8 of each).
  private var keys = SnapshotWriter()
  /// Where each key's UTF-8 is in `keys`, to find a repeated key.
  private var keyRanges: [Range<Int>] = []
  /// The properties' value units, in the keys' order.
  private var values = SnapshotWriter()
  private var scratch = JSONBytes(capacity: 256)

  init() {
    keyRanges.reserveCapacity(Self.maximumMembers)
  }

  /// Reads the Feature object at the scanner's next value and returns it with only the
  /// properties that `isRead`; `nil` when it is not an ordinary Feature (see the type's
  /// comment), the scanner's offset then anywhere. `writeDraft` writes its row's draft.
  mutating func read(_ scanner: inout JSONScanner) -> JSONValue? {
    keys.removeAll()
    values.removeAll()
    keyRanges.removeAll(keepingCapacity: true)
    do throws(JSONSyntaxError) {
      return try readFeature(&scanner)
    } catch {
      return nil
    }
  }

  /// Writes the draft of the feature `read` returned: `properties` are its properties as
  /// returned, and `address` their address members.
  mutating func writeDraft(
    properties: JSONObject, address: AddressMembers, into draft: inout SnapshotWriter
  ) {
    draft.appendVarint(keyRanges.count)
    draft.append(contentsOf: keys.bytes)
    RowDraft.writeNameAndAddress(properties, address: address, into: &draft, scratch: &scratch)
    draft.append(contentsOf: values.bytes)
  }

  private mutating func readFeature(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> JSONValue? {
    scanner.skipWhitespace()
    guard !scanner.isAtEnd, scanner.current == UInt8(ascii: "{") else { return nil }
    try scanner.enter()
    scanner.offset += 1
    var members: [JSONObject.Member] = []
    members.reserveCapacity(5)
    while true {
      scanner.skipWhitespace()
      guard !scanner.isAtEnd, scanner.current == UInt8(ascii: "\""), members.count < Self.maximumMembers
      else {
        return nil
      }
      let key = try scanner.parseString()
      guard skipColon(&scanner), !members.contains(where: { $0.key.hasSameBytes(as: key) }) else {
        return nil
      }
      let value: JSONValue
      if key.hasSameBytes(as: "properties"), scanner.current == UInt8(ascii: "{") {
        guard let read = try readProperties(&scanner) else { return nil }
        value = .object(read)
      } else {
        value = try scanner.parseValue()
      }
      members.append(JSONObject.Member(key: key, value: value))
      guard let more = nextMember(&scanner) else { return nil }
      if !more { break }
    }
    scanner.leave()
    let feature = JSONObject(members)
    guard feature["type"] == .string("Feature") else { return nil }
    return .object(feature)
  }

  /// Reads a properties object, `offset` at its `{`: the keys and value units into `keys` and
  /// `values`, and returns the members that `isRead`; `nil` when a key repeats or there are too
  /// many.
  private mutating func readProperties(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> JSONObject? {
    try scanner.enter()
    scanner.offset += 1
    var read: [JSONObject.Member] = []
    read.reserveCapacity(12)
    scanner.skipWhitespace()
    if !scanner.isAtEnd, scanner.current == UInt8(ascii: "}") {
      scanner.offset += 1
      scanner.leave()
      return JSONObject()
    }
    while true {
      scanner.skipWhitespace()
      guard !scanner.isAtEnd, scanner.current == UInt8(ascii: "\""), keyRanges.count < Self.maximumMembers
      else {
        return nil
      }
      let key = try readKey(&scanner)
      guard !isRepeated(key.inKeys), skipColon(&scanner) else { return nil }
      let isReadKey = keys.bytes.withUnsafeBufferPointer {
        Self.isRead(UnsafeBufferPointer(rebasing: $0[key.inKeys]))
      }
      let value: JSONValue?
      if scanner.current == UInt8(ascii: "\""), let text = try scanner.plainString() {
        // The unit is the string's bytes in quotes, as they are in the input.
        values.appendVarint(text.count + 2)
        values.append(
          contentsOf: UnsafeBufferPointer(start: scanner.base + text.lowerBound - 1, count: text.count + 2))
        value = isReadKey ? .string(scanner.text(text)) : nil
      } else {
        let parsed = try scanner.parseValue()
        RowDraft.writeUnit(parsed, into: &values, scratch: &scratch)
        value = parsed
      }
      if isReadKey, let value {
        let text = key.inInput.map { scanner.text($0) } ?? keyText(key.inKeys)
        read.append(JSONObject.Member(key: text, value: value))
      }
      guard let more = nextMember(&scanner) else { return nil }
      if !more { break }
    }
    scanner.leave()
    return JSONObject(read)
  }

  /// Reads a key into `keys` and returns where its UTF-8 is there, and in the input when it has
  /// no escape.
  private mutating func readKey(_ scanner: inout JSONScanner) throws(JSONSyntaxError) -> (
    inKeys: Range<Int>, inInput: Range<Int>?
  ) {
    let text = try scanner.plainString()
    if let text {
      keys.appendVarint(text.count)
      let start = keys.count
      keys.append(contentsOf: UnsafeBufferPointer(start: scanner.base + text.lowerBound, count: text.count))
      keyRanges.append(start..<keys.count)
    } else {
      let key = try scanner.parseString()
      keys.append(key)
      keyRanges.append(keys.count - key.utf8.count..<keys.count)
    }
    return (keyRanges[keyRanges.count - 1], text)
  }

  /// Whether the key just read in `range` is one read before in the same object: its bytes equal
  /// another's (as the scanner tells keys apart).
  private func isRepeated(_ range: Range<Int>) -> Bool {
    keys.bytes.withUnsafeBufferPointer { bytes in
      for earlier in keyRanges.dropLast() where earlier.count == range.count {
        if memcmp(bytes.baseAddress! + earlier.lowerBound, bytes.baseAddress! + range.lowerBound, range.count)
          == 0
        {
          return true
        }
      }
      return false
    }
  }

  private func keyText(_ range: Range<Int>) -> String {
    keys.bytes.withUnsafeBufferPointer {
      String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self)
    }
  }

  /// Moves past the `:` after a key and the spaces after it; false when there is none, or no value
  /// follows.
  private func skipColon(_ scanner: inout JSONScanner) -> Bool {
    scanner.skipWhitespace()
    guard !scanner.isAtEnd, scanner.current == UInt8(ascii: ":") else { return false }
    scanner.offset += 1
    scanner.skipWhitespace()
    return !scanner.isAtEnd
  }

  /// Moves past the `,` or `}` after a member: true after `,`, false after `}`, `nil` for
  /// anything else.
  private func nextMember(_ scanner: inout JSONScanner) -> Bool? {
    scanner.skipWhitespace()
    guard !scanner.isAtEnd else { return nil }
    let byte = scanner.current
    scanner.offset += 1
    if byte == UInt8(ascii: ",") { return true }
    return byte == UInt8(ascii: "}") ? false : nil
  }

  /// Whether the loader reads the property `key` as text, beyond putting it in the row: `name`,
  /// `branch`, `brand`, `ref`, `id`, `@id`, `osm_id`, `timezone`, `full_address`, and every key
  /// starting `addr` (the address keys, their ogr2ogr spellings, `address`), `opening_hours` or
  /// `pickup:`. More keys than are read is harmless (they are read as before); fewer would lose
  /// what the reader reads, so these are the bytes each reader compares (`JSONObject`'s
  /// subscript, `AddressMembers`, `HoursSubject.isServiceMember`).
  static func isRead(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let first = key.first else { return false }
    func starts(_ prefix: StaticString) -> Bool {
      let count = prefix.utf8CodeUnitCount
      return key.count >= count && memcmp(key.baseAddress!, prefix.utf8Start, count) == 0
    }
    func equals(_ word: StaticString) -> Bool { key.count == word.utf8CodeUnitCount && starts(word) }
    switch first {
    case UInt8(ascii: "n"): return equals("name")
    case UInt8(ascii: "b"): return equals("branch") || equals("brand")
    case UInt8(ascii: "r"): return equals("ref")
    case UInt8(ascii: "i"): return equals("id")
    case UInt8(ascii: "@"): return equals("@id")
    case UInt8(ascii: "t"): return equals("timezone")
    case UInt8(ascii: "f"): return equals("full_address")
    case UInt8(ascii: "a"): return starts("addr")
    case UInt8(ascii: "o"): return equals("osm_id") || starts("opening_hours")
    case UInt8(ascii: "p"): return starts("pickup:")
    default: return false
    }
  }
}
