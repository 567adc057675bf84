import GeoIndex
import OpeningHours

/// The layout of a snapshot file: a built catalog (records, k-d tree, subtree summaries, the
/// state of every store's hours, diagnostics) that a later run maps in without parsing GeoJSON.
///
/// All numbers are little-endian. The file is a 64-byte header, a section table, then the
/// sections, each starting on an 8-byte boundary so arrays can be read in place:
///
/// | bytes | header field |
/// |---|---|
/// | 0..<8 | magic `STORESNP` |
/// | 8..<12 | format version (`SnapshotFormat.version`) |
/// | 12..<16 | number of sections |
/// | 16..<24 | size of the whole file, to detect truncation |
/// | 24..<32 | checksum of the header (this field zeroed) and the section table |
/// | 32..<64 | reserved, zero |
///
/// A section-table entry is 32 bytes: kind (UInt32), reserved (UInt32), offset, length and
/// checksum (UInt64 each). Every section's checksum is verified on open except the records',
/// which are verified one record at a time as they are decoded (each has its own checksum in the
/// record table), so opening a snapshot of a million stores stays fast; `stores snapshot verify`
/// checks them all.
enum SnapshotFormat {
  static let magic: [UInt8] = Array("STORESNP".utf8)
  /// Bump when the layout or the meaning of any section changes: older files are refused with a
  /// message saying how to rebuild them.
  static let version: UInt32 = 1
  static let headerSize = 64
  static let sectionEntrySize = 32
  /// Record sections up to this size are verified whole on open.
  static let recordsVerifiedOnOpen = 64 << 20

  enum Section: UInt32, CaseIterable {
    case meta = 1
    case coordinates
    case storePositions
    case treeXs
    case treeYs
    case treeZs
    case treeIDs
    case treeBoxes
    case maskPoints
    case maskNodes
    /// Per store: offset (UInt64) into `records`, length and checksum (UInt32 each).
    case recordTable
    case records
    /// Store positions sorted by the UTF-8 bytes of their ids, then by position.
    case idOrder
    /// Per store, one byte: 0 when its hours compile, else 1 + the index of why not in the meta's
    /// list of reasons.
    case scheduleStates
    case diagnostics

    var name: String {
      switch self {
      case .meta: "meta"
      case .coordinates: "coordinates"
      case .storePositions: "store positions"
      case .treeXs, .treeYs, .treeZs: "tree points"
      case .treeIDs: "tree ids"
      case .treeBoxes: "tree boxes"
      case .maskPoints, .maskNodes: "subtree summaries"
      case .recordTable: "record table"
      case .records: "records"
      case .idOrder: "id order"
      case .scheduleStates: "hours states"
      case .diagnostics: "diagnostics"
      }
    }
  }

  static let recordTableEntrySize = 16

  // MARK: - Records

  static func encode(_ store: Store, to writer: inout SnapshotWriter) {
    writer.append(store.id)
    writer.append(UInt8(idSourceCode(store.idSource)))
    var flags: UInt8 = 0
    if store.coordinate != nil { flags |= 1 }
    if store.inferredTimezone != nil { flags |= 2 }
    writer.append(flags)
    if let coordinate = store.coordinate {
      writer.append(coordinate.latitude)
      writer.append(coordinate.longitude)
    }
    writer.appendVarint(store.position.featureIndex)
    writer.appendVarint(store.position.line)
    writer.appendVarint(store.position.column)
    writer.append(optional: store.timezone)
    if let guess = store.inferredTimezone {
      writer.append(guess.identifier)
      writer.append(guess.placeName)
      writer.append(guess.countryCode)
      writer.append(guess.placeCoordinate.latitude)
      writer.append(guess.placeCoordinate.longitude)
      writer.append(guess.distance.meters)
    }
    encode(store.properties, to: &writer)
  }

  static func decodeStore(_ reader: inout SnapshotReader) throws(SnapshotDecodingError) -> Store {
    let id = try reader.readString()
    let idSource = try idSource(code: reader.read(UInt8.self))
    let flags = try reader.read(UInt8.self)
    var coordinate: Coordinate?
    if flags & 1 != 0 {
      let latitude = try reader.readDouble()
      let longitude = try reader.readDouble()
      coordinate = try self.coordinate(latitude, longitude)
    }
    let position = SourcePosition(
      featureIndex: try reader.readVarint(), line: try reader.readVarint(), column: try reader.readVarint())
    let timezone = try reader.readOptionalString()
    var guess: TimeZoneGuess?
    if flags & 2 != 0 {
      let identifier = try reader.readString()
      let placeName = try reader.readString()
      let countryCode = try reader.readString()
      let latitude = try reader.readDouble()
      let longitude = try reader.readDouble()
      let meters = try reader.readDouble()
      guess = TimeZoneGuess(
        identifier: identifier, placeName: placeName, countryCode: countryCode,
        placeCoordinate: try self.coordinate(latitude, longitude), distance: Distance(meters: meters))
    }
    guard case .object(let properties) = try decodeValue(&reader, depth: 0) else {
      throw SnapshotDecodingError(reason: "a record's properties are not an object")
    }
    var store = Store(
      id: id, idSource: idSource, coordinate: coordinate, properties: properties, timezone: timezone,
      position: position)
    store.inferredTimezone = guess
    return store
  }

  /// Only the id, for lookups: the first field of a record.
  static func decodeID(_ reader: inout SnapshotReader) throws(SnapshotDecodingError) -> String {
    try reader.readString()
  }

  private static func coordinate(_ latitude: Double, _ longitude: Double) throws(SnapshotDecodingError)
    -> Coordinate
  {
    do {
      return try Coordinate(latitude: latitude, longitude: longitude)
    } catch {
      throw SnapshotDecodingError(reason: "a record's coordinate is out of range")
    }
  }

  private static func idSourceCode(_ source: StoreIDSource) -> Int {
    switch source {
    case .feature: 0
    case .ref: 1
    case .property: 2
    case .generated: 3
    }
  }

  private static func idSource(code: UInt8) throws(SnapshotDecodingError) -> StoreIDSource {
    switch code {
    case 0: .feature
    case 1: .ref
    case 2: .property
    case 3: .generated
    default: throw SnapshotDecodingError(reason: "unknown id source \(code)")
    }
  }

  private static func encode(_ object: JSONObject, to writer: inout SnapshotWriter) {
    writer.append(UInt8(6))
    writer.appendVarint(object.count)
    for member in object {
      writer.append(member.key)
      encode(member.value, to: &writer)
    }
  }

  private static func encode(_ value: JSONValue, to writer: inout SnapshotWriter) {
    switch value {
    case .null: writer.append(UInt8(0))
    case .bool(let flag): writer.append(UInt8(flag ? 2 : 1))
    case .number(let literal):
      writer.append(UInt8(3))
      writer.append(literal)
    case .string(let text):
      writer.append(UInt8(4))
      writer.append(text)
    case .array(let elements):
      writer.append(UInt8(5))
      writer.appendVarint(elements.count)
      for element in elements { encode(element, to: &writer) }
    case .object(let object): encode(object, to: &writer)
    }
  }

  private static func decodeValue(_ reader: inout SnapshotReader, depth: Int) throws(SnapshotDecodingError)
    -> JSONValue
  {
    guard depth < 512 else { throw SnapshotDecodingError(reason: "values nest too deeply") }
    switch try reader.read(UInt8.self) {
    case 0: return .null
    case 1: return .bool(false)
    case 2: return .bool(true)
    case 3: return .number(try reader.readString())
    case 4: return .string(try reader.readString())
    case 5:
      let count = try reader.readVarint()
      guard count >= 0, count <= reader.end - reader.offset else {
        throw SnapshotDecodingError(reason: "an array of \(count) elements runs past the end")
      }
      var elements: [JSONValue] = []
      elements.reserveCapacity(count)
      for _ in 0..<count { elements.append(try decodeValue(&reader, depth: depth + 1)) }
      return .array(elements)
    case 6:
      let count = try reader.readVarint()
      guard count >= 0, count <= reader.end - reader.offset else {
        throw SnapshotDecodingError(reason: "an object of \(count) members runs past the end")
      }
      var members: [JSONObject.Member] = []
      members.reserveCapacity(count)
      for _ in 0..<count {
        let key = try reader.readString()
        members.append(JSONObject.Member(key: key, value: try decodeValue(&reader, depth: depth + 1)))
      }
      return .object(JSONObject(members))
    case let tag:
      throw SnapshotDecodingError(reason: "unknown value tag \(tag) at byte \(reader.offset - 1)")
    }
  }

  // MARK: - Diagnostics

  static func encode(_ diagnostic: Diagnostic, to writer: inout SnapshotWriter) {
    writer.append(diagnostic.code.rawValue)
    writer.append(UInt8(Diagnostic.Severity.allCases.firstIndex(of: diagnostic.severity)!))
    writer.append(UInt8(diagnostic.position == nil ? 0 : 1))
    if let position = diagnostic.position {
      writer.appendVarint(position.featureIndex)
      writer.appendVarint(position.line)
      writer.appendVarint(position.column)
    }
    writer.append(optional: diagnostic.storeID)
    writer.append(diagnostic.message)
  }

  static func decodeDiagnostic(_ reader: inout SnapshotReader) throws(SnapshotDecodingError) -> Diagnostic {
    let code = try reader.readString()
    let severityIndex = Int(try reader.read(UInt8.self))
    guard severityIndex < Diagnostic.Severity.allCases.count else {
      throw SnapshotDecodingError(reason: "unknown severity \(severityIndex)")
    }
    var position: SourcePosition?
    if try reader.read(UInt8.self) == 1 {
      position = SourcePosition(
        featureIndex: try reader.readVarint(), line: try reader.readVarint(), column: try reader.readVarint())
    }
    let storeID = try reader.readOptionalString()
    let message = try reader.readString()
    return Diagnostic(
      Diagnostic.Code(code), Diagnostic.Severity.allCases[severityIndex], at: position, storeID: storeID,
      message)
  }

  // MARK: - Conditions

  static func encode(_ condition: StoreFilter.Condition, to writer: inout SnapshotWriter) {
    writer.append(condition.key)
    switch condition.test {
    case .present: writer.append(UInt8(0))
    case .equals(let value):
      writer.append(UInt8(1))
      writer.append(value)
    case .notEquals(let value):
      writer.append(UInt8(2))
      writer.append(value)
    }
  }

  static func decodeCondition(_ reader: inout SnapshotReader) throws(SnapshotDecodingError)
    -> StoreFilter.Condition
  {
    let key = try reader.readString()
    switch try reader.read(UInt8.self) {
    case 0: return StoreFilter.Condition(key: key, test: .present)
    case 1: return StoreFilter.Condition(key: key, test: .equals(try reader.readString()))
    case 2: return StoreFilter.Condition(key: key, test: .notEquals(try reader.readString()))
    case let tag: throw SnapshotDecodingError(reason: "unknown condition test \(tag)")
    }
  }
}
