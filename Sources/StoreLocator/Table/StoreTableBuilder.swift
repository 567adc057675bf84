import GeoIndex

/// The columns of a store table, laid out as a snapshot stores them (little-endian, each column
/// one section): what the loader turns records into, once, whether the table then stays in memory
/// or is written to disk.
enum StoreTableLayout {
  /// One fixed-size row a store (`rows` section):
  ///
  /// | bytes | field |
  /// |---|---|
  /// | 0..<8 | id: offset and length (UInt32 each) of its UTF-8 in the text arena |
  /// | 8..<16 | properties: first member and member count (UInt32 each) |
  /// | 16..<32 | latitude, longitude (Double); NaN when the store has no location |
  /// | 32..<44 | feature index, line, column (UInt32 each) |
  /// | 44 | id source (0 feature, 1 ref, 2 property, 3 generated) |
  /// | 45 | flags: 1 has a location, 2 its time zone was inferred |
  /// | 46 | hours state: 0 it has a schedule, else 1 + the index of why not in the meta's reasons |
  /// | 47 | reserved, zero |
  /// | 48..<56 | time zone: offset and length of its name (offset `UInt32.max`: none) |
  /// | 56..<60 | inferred-zone entry in `guesses` (`UInt32.max`: none) |
  /// | 60..<64 | schedule group (`UInt32.max`: none): stores of a group share one compiled schedule |
  /// | 64..<72 | `name` as JSON text (a string literal or `null`), pre-escaped for answers |
  /// | 72..<80 | `address` as JSON text, likewise |
  static let rowSize = 80
  /// A property (`members` section): key number, then offset and length of the value's compact
  /// JSON text in the arena (so an answer copies it as it is).
  static let memberSize = 12
  /// A distinct property key (`keys` section): offset and length of its UTF-8.
  static let keySize = 8
  /// An inferred time zone (`guesses` section): zone, place and country texts (offset, length
  /// each), then the place's latitude, longitude and distance in metres (Double).
  static let guessSize = 48
  static let none = UInt32.max
}

/// Why records do not fit a store table.
struct StoreTableOverflow: Error {
  let reason: String
}

/// Builds the columns of a store table from records, interning every text.
struct StoreTableBuilder {
  private var rows: SnapshotWriter
  private var members: SnapshotWriter
  private var guesses = SnapshotWriter()
  private var texts: InternedTexts
  private var keyNumbers: [String: UInt32] = [:]
  private var keyRefs: [TextRef] = []
  private var memberCount = 0
  /// Each row's id, for the id order.
  private var idRefs: [TextRef] = []
  private var scratch = JSONBytes(capacity: 256)
  private(set) var count = 0

  /// - Parameters:
  ///   - expectedCount: The number of rows to come.
  ///   - expectedMembers: The number of properties they have in all.
  init(expectedCount: Int, expectedMembers: Int = 0) {
    rows = SnapshotWriter()
    members = SnapshotWriter()
    rows.reserveCapacity(expectedCount * StoreTableLayout.rowSize)
    members.reserveCapacity(expectedMembers * StoreTableLayout.memberSize)
    idRefs.reserveCapacity(expectedCount)
    texts = InternedTexts(expectedCount: expectedCount * 4)
  }

  private mutating func text(_ value: String) throws(StoreTableOverflow) -> TextRef {
    guard let ref = texts.intern(value) else { throw Self.full }
    return ref
  }

  /// The JSON text of `value` in the arena: looked up first unless `key`'s values have turned out
  /// to be nearly all distinct (`KeyStatistics`), or `unique` says so.
  private mutating func jsonText(_ value: JSONValue, key: UInt32? = nil, unique: Bool = false)
    throws(StoreTableOverflow) -> TextRef
  {
    scratch.bytes.removeAll(keepingCapacity: true)
    scratch.append(value)
    var lookUp = !unique
    if let key, Int(key) < keyStatistics.count { lookUp = keyStatistics[Int(key)].worthLookingUp }
    let before = texts.bytes.count
    let ref = scratch.bytes.withUnsafeBytes { lookUp ? texts.intern($0) : texts.append($0) }
    guard let ref else { throw Self.full }
    if let key, Int(key) < keyStatistics.count {
      keyStatistics[Int(key)].count(isNew: texts.bytes.count > before)
    }
    return ref
  }

  /// How often a key's values repeat: after 512 values of which over 90% were new, its values are
  /// stored without looking them up (phone numbers, street addresses, references).
  struct KeyStatistics {
    var seen = 0
    var new = 0
    var worthLookingUp: Bool { seen < 512 || new * 10 < seen * 9 }
    mutating func count(isNew: Bool) {
      seen += 1
      if isNew { new += 1 }
    }
  }
  private var keyStatistics: [KeyStatistics] = []

  private static let full = StoreTableOverflow(
    reason: "the stores' texts take more than 4 GiB once indexed (docs/limits.md); split the file")

  private static func put(_ ref: TextRef, to writer: inout SnapshotWriter) {
    writer.append(ref.offset)
    writer.append(ref.length)
  }

  /// Adds `store` as the next row.
  /// - Parameters:
  ///   - hoursState: 0 when the store has a schedule, else 1 + the index of why not.
  ///   - scheduleGroup: The group whose compiled schedule it shares, or `nil`.
  mutating func append(_ store: Store, hoursState: UInt8, scheduleGroup: UInt32?) throws(StoreTableOverflow) {
    guard memberCount + store.properties.count < Int(UInt32.max) else { throw Self.full }
    var storeID = store.id
    let appended = storeID.withUTF8 { texts.append(UnsafeRawBufferPointer($0)) }
    guard let id = appended else { throw Self.full }
    idRefs.append(id)
    Self.put(id, to: &rows)
    rows.append(UInt32(memberCount))
    rows.append(UInt32(store.properties.count))
    rows.append(store.coordinate?.latitude ?? .nan)
    rows.append(store.coordinate?.longitude ?? .nan)
    rows.append(UInt32(clamping: store.position.featureIndex))
    rows.append(UInt32(clamping: store.position.line))
    rows.append(UInt32(clamping: store.position.column))
    rows.append(StoreTableLayout.idSourceCode(store.idSource))
    rows.append(UInt8((store.coordinate == nil ? 0 : 1) | (store.inferredTimezone == nil ? 0 : 2)))
    rows.append(hoursState)
    rows.append(UInt8(0))
    Self.put(try store.timezone.map { zone throws(StoreTableOverflow) in try text(zone) } ?? .none, to: &rows)
    if let guess = store.inferredTimezone {
      rows.append(UInt32(guesses.count / StoreTableLayout.guessSize))
      Self.put(try text(guess.identifier), to: &guesses)
      Self.put(try text(guess.placeName), to: &guesses)
      Self.put(try text(guess.countryCode), to: &guesses)
      guesses.append(guess.placeCoordinate.latitude)
      guesses.append(guess.placeCoordinate.longitude)
      guesses.append(guess.distance.meters)
    } else {
      rows.append(StoreTableLayout.none)
    }
    rows.append(scheduleGroup ?? StoreTableLayout.none)
    Self.put(try jsonText(store.name.map(JSONValue.string) ?? .null), to: &rows)
    let address = store.address
    Self.put(try jsonText(address.map(JSONValue.string) ?? .null, unique: address != nil), to: &rows)

    for member in store.properties {
      let key: UInt32
      if let known = keyNumbers[member.key] {
        key = known
      } else {
        key = UInt32(keyRefs.count)
        keyNumbers[member.key] = key
        keyRefs.append(try text(member.key))
        keyStatistics.append(KeyStatistics())
      }
      members.append(key)
      Self.put(try jsonText(member.value, key: key), to: &members)
    }
    memberCount += store.properties.count
    count += 1
  }

  /// The ids of the rows, in row order, joined by newlines: what names data built from records.
  var joinedIDs: [UInt8] {
    var joined: [UInt8] = []
    texts.bytes.withUnsafeBytes { arena in
      for (row, ref) in idRefs.enumerated() {
        if row > 0 { joined.append(UInt8(ascii: "\n")) }
        joined.append(contentsOf: arena[Int(ref.offset)..<Int(ref.offset + ref.length)])
      }
    }
    return joined
  }

  /// The columns as snapshot sections; the builder is used up, so that the sections hold the
  /// only references to the columns and `SnapshotImage.assemble(taking:)` can let each go.
  /// - Parameter groupLeaders: Per schedule group, the first store of the group.
  consuming func sections(groupLeaders: [UInt32]) -> [(SnapshotFormat.Section, [UInt8])] {
    var keys = SnapshotWriter()
    for ref in keyRefs {
      keys.append(ref.offset)
      keys.append(ref.length)
    }
    var order = SnapshotWriter()
    // Sorted by the ids' bytes, then by row: compared in the arena, no string made.
    let sorted: [Int32] = texts.bytes.withUnsafeBytes { arena in
      func id(_ row: Int32) -> UnsafeRawBufferPointer {
        let ref = idRefs[Int(row)]
        return UnsafeRawBufferPointer(rebasing: arena[Int(ref.offset)..<Int(ref.offset + ref.length)])
      }
      return (0..<Int32(count)).sorted { a, b in
        let order = StoreTable.compare(id(a), id(b))
        return order == 0 ? a < b : order < 0
      }
    }
    order.appendRaw(sorted)
    var digests = SnapshotWriter()
    rows.bytes.withUnsafeBytes { rows in
      members.bytes.withUnsafeBytes { members in
        guesses.bytes.withUnsafeBytes { guesses in
          texts.bytes.withUnsafeBytes { texts in
            for position in 0..<count {
              let start = position * StoreTableLayout.rowSize
              let row = UnsafeRawBufferPointer(rebasing: rows[start..<start + StoreTableLayout.rowSize])
              digests.append(
                RowDigest.digest(row: row, members: members, guesses: guesses, texts: texts) ?? 0)
            }
          }
        }
      }
    }
    var groups = SnapshotWriter()
    groups.appendRaw(groupLeaders)
    return [
      (.rows, rows.bytes), (.rowChecksums, digests.bytes), (.members, members.bytes), (.keys, keys.bytes),
      (.texts, texts.bytes), (.guesses, guesses.bytes), (.scheduleGroups, groups.bytes),
      (.idOrder, order.bytes),
    ]
  }
}

extension StoreTableLayout {
  static func idSourceCode(_ source: StoreIDSource) -> UInt8 {
    switch source {
    case .feature: 0
    case .ref: 1
    case .property: 2
    case .generated: 3
    }
  }

  static func idSource(code: UInt8) -> StoreIDSource? {
    switch code {
    case 0: .feature
    case 1: .ref
    case 2: .property
    case 3: .generated
    default: nil
    }
  }
}
