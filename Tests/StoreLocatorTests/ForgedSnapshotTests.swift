import Foundation
import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// A snapshot taken apart into its sections so a test can forge one: change a section's bytes or
/// a field of the file, then put it back together with every checksum recomputed (each section's
/// and the header's), so the reader gets past the checksums to the forged value. Checksums catch
/// accidents, not forgery: these are the files an attacker can make.
struct SnapshotForgery {
  /// The sections in file order: kind and bytes.
  var sections: [(kind: SnapshotFormat.Section, body: [UInt8])]

  init(_ bytes: [UInt8]) throws {
    let count = Int(Self.word(bytes, at: 12, size: 4))
    sections = try (0..<count).map { i in
      let entry = SnapshotFormat.headerSize + i * SnapshotFormat.sectionEntrySize
      let kind = try #require(SnapshotFormat.Section(rawValue: UInt32(Self.word(bytes, at: entry, size: 4))))
      let offset = Int(Self.word(bytes, at: entry + 8, size: 8))
      let length = Int(Self.word(bytes, at: entry + 16, size: 8))
      return (kind, Array(bytes[offset..<offset + length]))
    }
  }

  /// The bytes of `section`.
  subscript(section: SnapshotFormat.Section) -> [UInt8] {
    get { sections.first { $0.kind == section }!.body }
    set { sections[sections.firstIndex { $0.kind == section }!].body = newValue }
  }

  /// The file, laid out as the writer lays it out, with every checksum recomputed. `edit` then
  /// changes the assembled bytes (a table field, padding); the header checksum is computed after
  /// it, so only the edit's own bytes are forged.
  ///
  /// `misaligning`: the point and node masks start 8 bytes past a 32-byte boundary, as a writer
  /// that aligned every section to 8 bytes would put them.
  func bytes(misaligning: Bool = false, _ edit: (inout [UInt8]) -> Void = { _ in }) -> [UInt8] {
    var file = SnapshotWriter()
    file.appendRaw(SnapshotFormat.magic)
    file.append(SnapshotFormat.version)
    file.append(UInt32(sections.count))
    file.append(UInt64(0))
    file.append(UInt64(0))
    file.pad(to: SnapshotFormat.headerSize)
    let tableStart = file.count
    file.appendRaw([UInt8](repeating: 0, count: sections.count * SnapshotFormat.sectionEntrySize))
    for (i, (kind, body)) in sections.enumerated() {
      file.pad(to: misaligning ? 8 : kind.alignment)
      if misaligning, kind.alignment == 32, file.count % 32 == 0 {
        file.appendRaw([UInt8](repeating: 0, count: 8))
      }
      let entry = tableStart + i * SnapshotFormat.sectionEntrySize
      file.overwrite(kind.rawValue, at: entry)
      file.overwrite(UInt64(file.count), at: entry + 8)
      file.overwrite(UInt64(body.count), at: entry + 16)
      file.overwrite(body.withUnsafeBytes { snapshotChecksum($0) }, at: entry + 24)
      file.appendRaw(body)
    }
    file.overwrite(UInt64(file.count), at: 16)
    var bytes = file.bytes
    edit(&bytes)
    Self.recomputeHeaderChecksum(&bytes)
    return bytes
  }

  /// The header checksum (over the header with the field zeroed, and the section table).
  static func recomputeHeaderChecksum(_ bytes: inout [UInt8]) {
    let tableEnd =
      SnapshotFormat.headerSize + Int(word(bytes, at: 12, size: 4)) * SnapshotFormat.sectionEntrySize
    store(UInt64(0), in: &bytes, at: 24)
    let checksum = bytes.withUnsafeBytes {
      snapshotChecksum(UnsafeRawBufferPointer(rebasing: $0[0..<tableEnd]))
    }
    store(checksum, in: &bytes, at: 24)
  }

  /// Where the table entry of `section` starts in `bytes`.
  static func entry(of section: SnapshotFormat.Section, in bytes: [UInt8]) -> Int {
    let count = Int(word(bytes, at: 12, size: 4))
    return (0..<count).map { SnapshotFormat.headerSize + $0 * SnapshotFormat.sectionEntrySize }
      .first { word(bytes, at: $0, size: 4) == UInt64(section.rawValue) }!
  }

  static func word(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
    (0..<size).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
  }

  static func store<T: FixedWidthInteger>(_ value: T, in bytes: inout [UInt8], at offset: Int) {
    withUnsafeBytes(of: value.littleEndian) { for (i, byte) in $0.enumerated() { bytes[offset + i] = byte } }
  }
}

/// Snapshots forged with their checksums recomputed: opening refuses every out-of-range number,
/// `verify` every broken invariant the reader relies on, always with a `CatalogError` that says
/// how to rebuild, never a trap.
@Suite struct ForgedSnapshotTests {
  static let bytes = SnapshotTests.bytes
  static let forgery = try! SnapshotForgery(bytes)

  /// Opening succeeds (the forgery is not one opening can see), `verifySnapshotRecords()`
  /// refuses with `reason` and the rebuild command.
  static func expectVerifyRefuses(
    _ bytes: [UInt8], _ reason: String, sourceLocation: SourceLocation = #_sourceLocation
  ) throws {
    let path = try SnapshotTests.write(bytes, name: "forged")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog(snapshotAt: path)
    do {
      try catalog.verifySnapshotRecords()
      Issue.record("verify passed a forged snapshot", sourceLocation: sourceLocation)
    } catch {
      #expect(error.kind == .badData, sourceLocation: sourceLocation)
      #expect(error.message.contains(reason), "\(error.message)", sourceLocation: sourceLocation)
      #expect(
        error.message.contains("rebuild it with 'stores snapshot build \(DefaultData.bundledPath)"),
        sourceLocation: sourceLocation)
    }
  }

  @Test func theForgeryRebuildsTheFileByteForByte() throws {
    #expect(Self.forgery.bytes() == Self.bytes)
    try Self.expectOpensAndVerifies(Self.forgery.bytes())
  }

  static func expectOpensAndVerifies(_ bytes: [UInt8]) throws {
    let path = try SnapshotTests.write(bytes, name: "forged")
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Catalog(snapshotAt: path).verifySnapshotRecords()
  }

  /// Offsets and lengths of 2^63 and more trapped in `Int(_:)`; any outside the file is refused.
  @Test func hugeSectionOffsetsAndLengthsAreRefused() throws {
    let size = UInt64(Self.bytes.count)
    for section in [SnapshotFormat.Section.meta, .coordinates, .treeBoxes, .texts, .rows, .diagnostics] {
      for (field, value) in [
        (8, 1 << 63), (8, UInt64.max), (8, size + 8), (16, 1 << 63), (16, UInt64.max), (16, size),
      ] {
        let forged = Self.forgery.bytes { bytes in
          SnapshotForgery.store(value, in: &bytes, at: SnapshotForgery.entry(of: section, in: bytes) + field)
        }
        try SnapshotTests.expectRefused(forged, "its section table is corrupted")
        try SnapshotTests.expectRefused(forged, "lies outside the \(size)-byte file")
      }
    }
  }

  /// The depth is a UInt64 in the file; out of range it trapped, and a depth that the builder
  /// cannot give the points is refused even when the box count matches it.
  @Test func treeDepthsOutOfRangeAreRefused() throws {
    let boxes = Self.forgery[.treeBoxes]
    let depth = SnapshotForgery.word(boxes, at: 0, size: 8)
    for forgedDepth: UInt64 in [1 << 63, .max, 64, 40, 32, depth + 1] {
      var forgery = Self.forgery
      SnapshotForgery.store(forgedDepth, in: &forgery[.treeBoxes], at: 0)
      try SnapshotTests.expectRefused(forgery.bytes(), forgedDepth >= 64 ? "tree depth" : "it is corrupted")
    }
    // As deep as a leaf a point and one more level: the boxes fit, the points do not.
    let points = Self.forgery[.treeIDs].count / 4
    let tooDeep = UInt64(Int.bitWidth - (2 * points - 1).leadingZeroBitCount)
    var forgery = Self.forgery
    let nodeCount = (2 << tooDeep) - 1
    var body = [UInt8](repeating: 0, count: 8 + 24 * nodeCount)
    SnapshotForgery.store(tooDeep, in: &body, at: 0)
    forgery[.treeBoxes] = body
    if !forgery.sections.contains(where: { $0.kind == .maskNodes }) {
      Issue.record("the bundled snapshot has no summaries")
    }
    forgery.sections.removeAll { $0.kind == .maskNodes || $0.kind == .maskPoints }
    try SnapshotTests.expectRefused(
      forgery.bytes(), "the tree depth \(tooDeep) does not fit \(points) points")
  }

  /// A row's references (texts, properties, guesses, schedule groups, hours states) are checked
  /// on open when the table is verified whole: one out of range is refused, never read, and never
  /// traps however large (2^32 - 1 offsets and lengths).
  @Test func rowReferencesOutOfRangeAreRefused() throws {
    let textsLength = UInt32(Self.forgery[.texts].count)
    let membersCount = UInt32(Self.forgery[.members].count / StoreTableLayout.memberSize)
    let forgeries: [(position: Int, byte: Int, value: UInt32, message: String)] = [
      (0, 0, .max, "its row 0 refers to text outside the arena"),
      (5, 4, .max, "its row 5 refers to text outside the arena"),
      (7, 0, textsLength, "its row 7 refers to text outside the arena"),
      (3, StoreTableLayout.Row.name, textsLength - 1, "its row 3 refers to text outside the arena"),
      (2, 8, membersCount, "its row 2 refers to properties outside the members column"),
      (1, 12, .max, "its row 1 names a shape that is not there"),
      (4, StoreTableLayout.Row.guess, 1 << 30, "its row 4 names a time-zone guess that is not there"),
      (6, StoreTableLayout.Row.scheduleGroup, 1 << 30, "its row 6 names a schedule group that is not there"),
    ]
    for forged in forgeries {
      var forgery = Self.forgery
      SnapshotForgery.store(
        forged.value, in: &forgery[.rows], at: forged.position * StoreTableLayout.rowSize + forged.byte)
      try SnapshotTests.expectRefused(forgery.bytes(), forged.message)
    }
    // A property value outside the arena.
    var forgery = Self.forgery
    SnapshotForgery.store(UInt32.max, in: &forgery[.members], at: 0)
    try SnapshotTests.expectRefused(forgery.bytes(), "its property 0 is out of range")
    // A shape naming a key that is not there, and one whose keys lie outside its column.
    var key = Self.forgery
    SnapshotForgery.store(UInt32.max, in: &key[.shapeKeys], at: 0)
    try SnapshotTests.expectRefused(key.bytes(), "its shape key 0 names key \(UInt32.max)")
    var shape = Self.forgery
    SnapshotForgery.store(UInt32.max, in: &shape[.shapes], at: 0)
    try SnapshotTests.expectRefused(shape.bytes(), "its shape 0 lies outside the shape keys")
  }

  /// Counts in the meta section (conditions, reasons, countries, diagnostics) are bounded; a
  /// negative one made an empty range `0..<-1`, which traps.
  @Test func negativeAndHugeMetaCountsAreRefused() throws {
    let meta = Self.forgery[.meta]
    // The count of indexed conditions comes after the source, two counts, the hours window and
    // the summaries flag.
    let conditionsAt = try meta.withUnsafeBytes { raw in
      var reader = SnapshotReader(raw)
      _ = try reader.readString()
      _ = try reader.readVarint()
      _ = try reader.readVarint()
      if try reader.read(UInt8.self) == 1 { reader.offset += 16 }
      _ = try reader.read(UInt8.self)
      return reader.offset
    }
    for count in [-1, Int.min, 65, Int.max] {
      var forgery = Self.forgery
      var writer = SnapshotWriter()
      writer.appendVarint(count)
      forgery[.meta] = Array(meta[..<conditionsAt]) + writer.bytes
      try SnapshotTests.expectRefused(forgery.bytes(), "\(count) indexed conditions is not a count in 0...64")
    }
  }

  /// The id order must be sorted for the binary search of `store(withID:)`: forged, it passed
  /// `verify` and lookups missed stores.
  @Test func anUnsortedIDOrderFailsVerify() throws {
    var forgery = Self.forgery
    let order = forgery[.idOrder]
    forgery[.idOrder] = Array(order[4..<8] + order[0..<4] + order[8...])
    try Self.expectVerifyRefuses(forgery.bytes(), "its id order is not sorted at entry 1")

    // An entry naming no store: refused on open (the table is small enough to be checked whole),
    // so no lookup reads outside the table.
    forgery[.idOrder] = order
    SnapshotForgery.store(Int32.max, in: &forgery[.idOrder], at: 4 * (order.count / 4 - 1))
    try SnapshotTests.expectRefused(forgery.bytes(), "its id order refers to store 2147483647")
  }

  /// The tree's shape: points that are not their coordinates, boxes that do not hold their
  /// points, store positions that are not the located stores. Searches would miss stores.
  @Test func aWrongTreeShapeFailsVerify() throws {
    var swappedIDs = Self.forgery
    let ids = swappedIDs[.treeIDs]
    swappedIDs[.treeIDs] = Array(ids[4..<8] + ids[0..<4] + ids[8...])
    try Self.expectVerifyRefuses(swappedIDs.bytes(), "its tree is inconsistent: the unit vector of point")

    var repeatedID = Self.forgery
    repeatedID[.treeIDs] = Array(ids[0..<4] + ids[0..<4] + ids[8...])
    try Self.expectVerifyRefuses(repeatedID.bytes(), "its tree is inconsistent: the tree holds point")

    var shrunkRoot = Self.forgery
    SnapshotForgery.store(Float(0.5).bitPattern, in: &shrunkRoot[.treeBoxes], at: 8)
    try Self.expectVerifyRefuses(shrunkRoot.bytes(), "its tree is inconsistent: the box of node 0")

    var nanBox = Self.forgery
    let lastLeafBox = nanBox[.treeBoxes].count - 24
    SnapshotForgery.store(Float.nan.bitPattern, in: &nanBox[.treeBoxes], at: lastLeafBox + 12)
    try Self.expectVerifyRefuses(nanBox.bytes(), "its tree is inconsistent: the box of node")

    // A store's coordinate is its point's (rows hold none since format 6): store positions that
    // are not the located stores in order are refused on open when the table is checked whole.
    var swappedPositions = Self.forgery
    let positions = swappedPositions[.storePositions]
    swappedPositions[.storePositions] = Array(positions[4..<8] + positions[0..<4] + positions[8...])
    try SnapshotTests.expectRefused(
      swappedPositions.bytes(), "its row 0 has a location but is not the store of tree point 0")
  }

  /// Padding is the only part of a file no checksum covers: it must be zero, and nothing may
  /// hide between or after sections.
  @Test func nonZeroPaddingIsRefused() throws {
    let sized = Self.forgery.bytes()
    var gaps: [Int] = []
    var end = SnapshotFormat.headerSize + Self.forgery.sections.count * SnapshotFormat.sectionEntrySize
    for (kind, body) in Self.forgery.sections {
      let start = Int(
        SnapshotForgery.word(sized, at: SnapshotForgery.entry(of: kind, in: sized) + 8, size: 8))
      gaps += Array(end..<start)
      end = start + body.count
    }
    #expect(!gaps.isEmpty, "the bundled snapshot has no padding to forge")
    for gap in gaps {
      try SnapshotTests.expectRefused(Self.forgery.bytes { $0[gap] = 1 }, "is not zero")
    }
    try SnapshotTests.expectRefused(
      Self.forgery.bytes { $0[40] = 7 }, "its header's reserved bytes are not zero")
    let longer = Self.forgery.bytes { bytes in
      bytes += [UInt8](repeating: 0, count: 16)
      SnapshotForgery.store(UInt64(bytes.count), in: &bytes, at: 16)
    }
    try SnapshotTests.expectRefused(longer, "it has 16 bytes after its last section")
    let overlapping = Self.forgery.bytes { bytes in
      let storePositions = SnapshotForgery.word(
        bytes, at: SnapshotForgery.entry(of: .storePositions, in: bytes) + 8, size: 8)
      SnapshotForgery.store(
        storePositions, in: &bytes, at: SnapshotForgery.entry(of: .treeIDs, in: bytes) + 8)
    }
    try SnapshotTests.expectRefused(overlapping, "its sections overlap")
  }

  /// The point and node masks are read in place as 32-byte vectors: a file whose masks are not
  /// on 32-byte boundaries (as a writer aligning every section to 8 would lay them out) is
  /// refused on open, with the rebuild command, not read misaligned.
  @Test func misalignedSummariesAreRefused() throws {
    let bytes = Self.forgery.bytes(misaligning: true)
    #expect(bytes != Self.forgery.bytes())
    try SnapshotTests.expectRefused(bytes, "not on a 32-byte boundary")
    try SnapshotTests.expectRefused(
      bytes, "its section table is corrupted (the subtree summaries section starts at byte")
  }

  /// Point masks forged with their section checksum recomputed but not their leaf's digest:
  /// opening and first use do not read them whole; the leaf's digest finds them (a search that
  /// read them would end the process), and verify refuses the file.
  @Test func forgedPointMasksFailTheirLeafDigest() throws {
    var forgery = Self.forgery
    forgery[.maskPoints][forgery[.maskPoints].count / 2] ^= 0x04
    let path = try SnapshotTests.write(forgery.bytes(), name: "forged")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog(snapshotAt: path)
    let masks = try #require(catalog.searchMasks)
    #expect(masks.masks.firstDamagedLeaf() != nil)
    try Self.expectVerifyRefuses(forgery.bytes(), "do not match their digest")
  }

  /// Sections read after opening: forged, they are refused or set aside when read, never trap.
  @Test func lazilyReadSectionsCannotTrap() throws {
    // A diagnostic count of 2^62 over an empty section.
    var diagnostics = Self.forgery
    var writer = SnapshotWriter()
    writer.appendVarint(1 << 62)
    diagnostics[.diagnostics] = writer.bytes
    let path = try SnapshotTests.write(diagnostics.bytes(), name: "forged")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let catalog = try Catalog(snapshotAt: path)
    #expect(catalog.diagnostics.map(\.code.rawValue) == ["snapshot-corrupted"])
    #expect(catalog.diagnostics.first?.message.contains("is not a count") == true)
    try Self.expectVerifyRefuses(diagnostics.bytes(), "its diagnostics section is corrupted")

    // Summaries whose root no longer holds its subtree's bits: searches stay safe, verify refuses.
    var masks = Self.forgery
    masks[.maskNodes] = [UInt8](repeating: 0, count: 32) + Array(masks[.maskNodes].dropFirst(32))
    try Self.expectVerifyRefuses(masks.bytes(), "its subtree summaries are not the unions of their subtrees")

    // An hours state naming a reason the meta section does not list.
    var states = Self.forgery
    states[.rows][3 * StoreTableLayout.rowSize + StoreTableLayout.Row.hoursState] = 255
    try SnapshotTests.expectRefused(states.bytes(), "its hours state of store 3 names no known reason")

    // A property value whose section checksum is recomputed but which is not JSON: refused on
    // open, since a table this small is checked whole (verify finds it in a large one).
    var value = Self.forgery
    // The value's first byte, after its one-byte length prefix.
    let valueOffset = Int(SnapshotForgery.word(value[.members], at: 0, size: 4)) + 1
    value[.texts][valueOffset] = UInt8(ascii: "}")
    try SnapshotTests.expectRefused(value.bytes(), "its property 0 is not JSON")
  }
}
