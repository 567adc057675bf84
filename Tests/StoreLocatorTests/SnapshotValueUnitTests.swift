import Foundation
import GeoIndex
import Testing

@_spi(Fuzzing) @testable import StoreLocator

/// Format 6's store columns: a property value is a 4-byte reference to its unit in the text arena
/// (its length as a LEB128 varint, then its JSON text), and a row holds no coordinate (a located
/// store's is its tree point's).
@Suite struct SnapshotValueUnitTests {
  /// Values of every kind and of lengths whose prefix takes 1, 2 and 3 bytes; stores without a
  /// location between located ones (so a store's point is not its position); equal values.
  static let long = String(repeating: "x", count: 200)
  static let longer = String(repeating: "é", count: 9_000)
  static let geoJSON = """
    {"type": "FeatureCollection", "features": [
    {"type": "Feature", "id": "a", "geometry": {"type": "Point", "coordinates": [13.4, 52.5]},
     "properties": {"name": "Shop", "drive_through": "yes", "n": 1.50, "b": true, "z": null,
       "list": [1, "two", {"three": 3}], "obj": {"k": "v\\"q\\u00e9\\n"}, "long": "\(long)"}},
    {"type": "Feature", "id": "b", "geometry": null,
     "properties": {"name": "Shop", "drive_through": "yes", "longer": "\(longer)"}},
    {"type": "Feature", "id": "c", "geometry": {"type": "Point", "coordinates": [-0.12, 51.5]},
     "properties": {"name": "Other", "drive_through": "yes", "emoji": "🏪"}},
    {"type": "Feature", "id": "d", "geometry": null, "properties": {"drive_through": "no"}},
    {"type": "Feature", "id": "e", "geometry": {"type": "Point", "coordinates": [139.69, 35.68]},
     "properties": {"name": "Shop", "drive_through": "yes"}}
    ]}
    """

  static func catalog() throws -> Catalog {
    try Catalog(geoJSON: Array(geoJSON.utf8), source: "units.geojson")
  }

  /// Every store, its properties and coordinate come back from the snapshot as loaded, and each
  /// value's text is the compact JSON of its value.
  @Test func valuesAndCoordinatesRoundTrip() throws {
    let loaded = try Self.catalog()
    #expect(loaded.stores.count == 5)
    #expect(loaded.tree.count == 3, "stores b and d have no location")
    let snapshot = try SnapshotTests.reopened(loaded)
    #expect(Array(snapshot.stores) == Array(loaded.stores))
    for position in 0..<loaded.stores.count {
      #expect(snapshot.table.coordinate(at: position) == loaded.stores[position].coordinate)
      var values: [String: JSONValue] = [:]
      snapshot.table.forEachMember(at: position) { key, value in
        values[String(decoding: key, as: UTF8.self)] = CompactJSONReader.value(of: value)
      }
      let expected = Dictionary(
        uniqueKeysWithValues: loaded.stores[position].properties.map { ($0.key, $0.value) })
      #expect(values == expected, "store \(position)")
    }
    #expect(snapshot.table.coordinate(at: 1) == nil)
    #expect(snapshot.table.coordinate(at: 4) == (try Coordinate(latitude: 35.68, longitude: 139.69)))
    #expect(snapshot.table.value("longer", at: 1) == .string(Self.longer))
    #expect(snapshot.table.value("long", at: 0) == .string(Self.long))
    #expect(
      snapshot.table.value("obj", at: 0) == .object(JSONObject([.init(key: "k", value: .string("v\"qé\n"))])))
    let near = try Coordinate(latitude: 52.5, longitude: 13.4)
    #expect(snapshot.nearest(5, to: near).map(\.store.id) == loaded.nearest(5, to: near).map(\.store.id))
    try snapshot.verifySnapshotRecords()
  }

  /// Equal values are one unit in the arena, whichever stores and keys carry them, and a row's
  /// name is the text of the `name` property's unit.
  @Test func equalValuesAreStoredOnce() throws {
    let table = try Self.catalog().table
    let arena = UnsafeRawBufferPointer(rebasing: table.memory.bytes[table.sections[.texts]!])
    let members = UnsafeRawBufferPointer(rebasing: table.memory.bytes[table.sections[.members]!])
    #expect(members.count % StoreTableLayout.memberSize == 0)
    func occurrences(_ needle: [UInt8]) -> Int {
      guard arena.count >= needle.count else { return 0 }
      return (0...arena.count - needle.count).filter { start in
        arena[start..<start + needle.count].elementsEqual(needle)
      }.count
    }
    // A unit is the text's length (one byte below 128) and the text.
    let yes = [5] + Array(#""yes""#.utf8)
    #expect(occurrences(yes) == 1)
    let shop = [6] + Array(#""Shop""#.utf8)
    #expect(occurrences(shop) == 1)
    #expect(occurrences(Array(#""Shop""#.utf8)) == 1, "the rows' names share the property's text")
    // The stores carrying "yes" refer to one offset.
    var offsets = Set<Int>()
    let driveThrough = try #require(table.keyNumber(of: "drive_through"))
    let longerKey = try #require(table.keyNumber(of: "longer"))
    for position in [0, 1, 2, 4] {
      let value = try #require(
        table.valueJSON(key: driveThrough, at: position))
      offsets.insert(value.baseAddress! - arena.baseAddress!)
      #expect(value.elementsEqual(Array(#""yes""#.utf8)))
    }
    #expect(offsets.count == 1)
    // A 9,000 × 2-byte string takes a 3-byte prefix (18,002 bytes with its quotes).
    let longer = try #require(table.valueJSON(key: longerKey, at: 1))
    let start = longer.baseAddress! - arena.baseAddress!
    #expect(longer.count == 18_002)
    #expect(Array(arena[start - 3..<start]) == [0xD2, 0x8C, 0x01])
  }

  /// The offset in the arena of the unit of property value `index`, in a forgery.
  static func unit(_ index: Int, in forgery: SnapshotForgery) -> Int {
    Int(SnapshotForgery.word(forgery[.members], at: StoreTableLayout.memberSize * index, size: 4))
  }

  /// `forgery` with its row digests and checksums recomputed, as a forger would.
  static func resealed(_ forgery: SnapshotForgery) throws -> [UInt8] {
    var bytes = forgery.bytes()
    FuzzingHooks.resealRowDigests(&bytes)
    return try SnapshotForgery(bytes).bytes()
  }

  /// A damaged unit (digests and checksums resealed) is refused with what is wrong, on open of a
  /// table checked whole and by `verify` for any size, and never read past the arena: a reference
  /// past the arena, a length prefix running past it, one longer than 5 bytes, a length of 0, a
  /// text running past the arena; a text that is not UTF-8 is not JSON. Property 2 is store a's
  /// `n`, `1.50`, a unit no other value or row text shares.
  @Test func damagedUnitsAreRefused() throws {
    let clean = try SnapshotForgery(try Self.catalog().snapshotBytes())
    let unit = Self.unit(2, in: clean)
    let arenaSize = clean[.texts].count
    #expect(Array(clean[.texts][unit..<unit + 5]) == [4] + Array("1.50".utf8))
    var forgeries: [(String, SnapshotForgery)] = []
    var pastArena = clean
    SnapshotForgery.store(UInt32(arenaSize), in: &pastArena[.members], at: 8)
    forgeries.append(("a reference past the arena", pastArena))
    var endless = clean
    endless[.texts] += [0x80, 0x80]
    SnapshotForgery.store(UInt32(arenaSize), in: &endless[.members], at: 8)
    forgeries.append(("a length prefix running past the arena", endless))
    var tooLong = clean
    for i in 0..<6 { tooLong[.texts][unit + i] = 0x81 }
    forgeries.append(("a length prefix of 6 bytes", tooLong))
    var empty = clean
    empty[.texts][unit] = 0
    forgeries.append(("a length of 0", empty))
    var huge = clean
    huge[.texts].replaceSubrange(unit..<unit + 3, with: [0xFF, 0xFF, 0x7F])
    forgeries.append(("a text running past the arena", huge))
    for (what, forgery) in forgeries {
      let bytes = try Self.resealed(forgery)
      try SnapshotTests.expectRefused(bytes, "its property 2 is out of range (the length prefix or the text")
      // A large table checks rows as they are read: the digest of a row with such a unit cannot
      // be made, and `verify` refuses the file.
      let path = try SnapshotTests.write(bytes, name: "unit")
      defer { try? FileManager.default.removeItem(atPath: path) }
      let opened = try StoreTable.map(path, options: LoadOptions(), verifiedOnOpen: 0)
      #expect(opened.table.checksRows, "\(what)")
      #expect(!opened.table.rowIsIntact(0), "\(what)")
      #expect(opened.table.rowIsIntact(3), "\(what)")
      let catalog = Catalog(table: opened.table, tree: opened.tree, storePositions: opened.storePositions)
      do {
        try catalog.verifySnapshotRecords()
        Issue.record("verify passed \(what)")
      } catch {
        #expect(error.message.contains("its row 0 fails its checksum"), "\(what): \(error.message)")
      }
    }
    // Not UTF-8 inside a string value (store a's `obj`, property 6): not JSON.
    var notUTF8 = clean
    let obj = Self.unit(6, in: clean)
    let accent = try #require(notUTF8[.texts][obj...].firstIndex(of: 0xC3))
    notUTF8[.texts][accent + 1] = 0xFF
    try SnapshotTests.expectRefused(try Self.resealed(notUTF8), "its property 6 is not JSON")
  }

  /// The tree point of a store when not every store is located: its rank among the located ones.
  @Test func pointRanks() throws {
    let positions: [Int32] = [0, 2, 3, 63, 64, 65, 130, 199]
    let bytes = positions.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
    let ranks = try #require(bytes.withUnsafeBytes { PointRanks(positions: $0, storeCount: 200) })
    for position in -1...201 {
      #expect(ranks.point(of: position) == positions.firstIndex(of: Int32(position)), "\(position)")
    }
    for bad: [Int32] in [[1, 1], [2, 1], [-1], [200]] {
      let bytes = bad.flatMap { withUnsafeBytes(of: $0.littleEndian, Array.init) }
      #expect(bytes.withUnsafeBytes { PointRanks(positions: $0, storeCount: 200) } == nil, "\(bad)")
    }
  }

  /// The rows are 64 bytes and hold no coordinate: 16 bytes a store fewer than format 5, the
  /// members 4 a value instead of 8.
  @Test func rowAndMemberSizes() throws {
    #expect(SnapshotFormat.version >= 6)
    #expect(StoreTableLayout.rowSize == 64)
    #expect(StoreTableLayout.memberSize == 4)
    let table = try Self.catalog().table
    #expect(table.sections[.rows]!.count == 5 * 64)
    #expect(table.sections[.coordinates]!.count == 3 * 16)
  }
}
