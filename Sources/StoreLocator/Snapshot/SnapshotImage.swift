import GeoIndex
import OpeningHours

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Puts a catalog's sections together as a snapshot image (`SnapshotFormat`): the bytes the loader
/// opens in memory and `stores snapshot build` writes to disk.
enum SnapshotImage {
  /// What the meta section says.
  struct Meta {
    var source: String
    var storeCount: Int
    var indexedCount: Int
    var masks: SearchMasks?
    var diagnosticCounts: [Diagnostic.Severity: Int]
    var reasons: [String]
    var countries: Set<String>
  }

  static func metaSection(_ meta: Meta) -> [UInt8] {
    var w = SnapshotWriter()
    w.append(meta.source)
    w.appendVarint(meta.storeCount)
    w.appendVarint(meta.indexedCount)
    let window = meta.masks?.hoursWindow
    w.append(UInt8(window == nil ? 0 : 1))
    if let window {
      w.append(window.lowerBound.secondsSinceEpoch)
      w.append(window.upperBound.secondsSinceEpoch)
    }
    w.append(UInt8(meta.masks == nil ? 0 : 1))
    let conditions = meta.masks?.conditions ?? []
    w.appendVarint(conditions.count)
    for condition in conditions { SnapshotFormat.encode(condition, to: &w) }
    for severity in Diagnostic.Severity.allCases { w.appendVarint(meta.diagnosticCounts[severity] ?? 0) }
    w.appendVarint(meta.reasons.count)
    for reason in meta.reasons { w.append(reason) }
    w.appendVarint(meta.countries.count)
    for country in meta.countries.sorted() { w.append(country) }
    return w.bytes
  }

  static func treeSections(_ tree: KDTree, storePositions: [Int32]) -> [(SnapshotFormat.Section, [UInt8])] {
    let parts = tree.parts
    var coordinates = SnapshotWriter()
    for coordinate in tree.coordinates {
      coordinates.append(coordinate.latitude)
      coordinates.append(coordinate.longitude)
    }
    func raw<T: BitwiseCopyable>(_ array: [T]) -> [UInt8] {
      var w = SnapshotWriter()
      w.appendRaw(array)
      return w.bytes
    }
    var boxes = SnapshotWriter()
    boxes.append(UInt64(parts.depth))
    boxes.appendRaw(parts.boxes)
    return [
      (.coordinates, coordinates.bytes), (.storePositions, raw(storePositions)), (.treeXs, raw(parts.xs)),
      (.treeYs, raw(parts.ys)), (.treeZs, raw(parts.zs)), (.treeIDs, raw(parts.ids)),
      (.treeBoxes, boxes.bytes),
    ]
  }

  /// The point masks, the node masks and the leaves' digests (`SubtreeMasks.leafDigests`).
  static func maskSections(_ masks: SearchMasks?) -> [(SnapshotFormat.Section, [UInt8])] {
    guard let masks = masks?.masks else { return [] }
    let parts = masks.parts
    var points = SnapshotWriter()
    points.appendRaw(parts.points)
    var nodes = SnapshotWriter()
    nodes.appendRaw(parts.nodes)
    var digests = SnapshotWriter()
    digests.appendRaw(masks.leafDigests.map(\.littleEndian))
    return [(.maskPoints, points.bytes), (.maskNodes, nodes.bytes), (.maskDigests, digests.bytes)]
  }

  /// Header, section table, then each section on its boundary (`Section.alignment`), in one
  /// page-aligned allocation of the image's exact size.
  static func assemble(_ sections: [(SnapshotFormat.Section, UnsafeRawBufferPointer)]) -> TableMemory {
    let image = ImageWriter(sections: sections.map { ($0.0, $0.1.count) })
    for (number, (_, body)) in sections.enumerated() { image.copy(body, number: number) }
    return image.finished()
  }

  /// `assemble` for sections held in arrays, each let go as soon as it is copied (`sections` is
  /// left with empty bodies): the sections and the image are never both whole in memory, which
  /// on 1M stores keeps about 400 MB off the loader's peak.
  static func assemble(taking sections: inout [(SnapshotFormat.Section, [UInt8])]) -> TableMemory {
    let image = ImageWriter(sections: sections.map { ($0.0, $0.1.count) })
    for number in sections.indices {
      sections[number].1.withUnsafeBytes { image.copy($0, number: number) }
      sections[number].1 = []
    }
    return image.finished()
  }

  /// Lays out an image of sections of known sizes, copies them in one at a time, then seals them.
  ///
  /// Both steps use every processor: a section's bytes are copied in parts at once, and the
  /// sections are checksummed from the image together, each by the thread with the fewest bytes so
  /// far. On one processor, the 357 MB of 1M stores (copies, the faults of the image's fresh pages,
  /// checksums) were the last quarter second of a load with the other processor idle. Sections
  /// are still copied one after another, so that each is let go before the next (copying two at
  /// once kept both whole beside their copies: 50 MB more at the loader's peak).
  private struct ImageWriter: @unchecked Sendable {
    private let image: UnsafeMutableRawPointer
    private let size: Int
    private let offsets: [Int]
    private let sections: [(SnapshotFormat.Section, Int)]

    init(sections: [(SnapshotFormat.Section, Int)]) {
      var size = SnapshotFormat.headerSize + sections.count * SnapshotFormat.sectionEntrySize
      var offsets: [Int] = []
      for (section, count) in sections {
        let alignment = section.alignment
        size = (size + alignment - 1) & ~(alignment - 1)
        offsets.append(size)
        size += count
      }
      self.size = size
      self.offsets = offsets
      self.sections = sections
      image = UnsafeMutableRawPointer.allocate(byteCount: max(size, 1), alignment: 4096)
      // Only the header, the section table and the padding before each section are zeroed here;
      // a section's bytes are touched when it is copied in. Zeroing the whole image first would
      // make it resident while the sections are still whole (on 1M stores, 330 MB on the peak).
      var zeroFrom = 0
      for (offset, (_, count)) in zip(offsets, sections) {
        (image + zeroFrom).initializeMemory(as: UInt8.self, repeating: 0, count: offset - zeroFrom)
        zeroFrom = offset + count
      }
      (image + zeroFrom).initializeMemory(as: UInt8.self, repeating: 0, count: size - zeroFrom)
      for (i, byte) in SnapshotFormat.magic.enumerated() { put(byte, at: i) }
      put(SnapshotFormat.version, at: 8)
      put(UInt32(sections.count), at: 12)
      put(UInt64(size), at: 16)
    }

    private func put<T: FixedWidthInteger>(_ value: T, at offset: Int) {
      image.storeBytes(of: value.littleEndian, toByteOffset: offset, as: T.self)
    }

    /// Copies `body`, the `number`th section, into its place: from a few megabytes on, in parts
    /// on every processor.
    func copy(_ body: UnsafeRawBufferPointer, number: Int) {
      guard let base = body.baseAddress else { return }
      let copying = Copying(from: base, to: image + offsets[number], count: body.count)
      let parts = ActiveProcessors.parts(forBytes: body.count)
      ActiveProcessors.run(parts: parts) { part in
        let range = ActiveProcessors.range(part, of: parts, in: copying.count)
        (copying.to + range.lowerBound).copyMemory(
          from: copying.from + range.lowerBound, byteCount: range.count)
      }
    }

    /// Where a section's parts are copied from and to: each thread writes only its own part.
    private struct Copying: @unchecked Sendable {
      let from: UnsafeRawPointer
      let to: UnsafeMutableRawPointer
      let count: Int
    }

    /// Writes each section's entry of the section table, with the checksum of its copy.
    private func sealSections() {
      let shares = ActiveProcessors.shares(ofSizes: sections.map(\.1))
      ActiveProcessors.run(parts: shares.count) { part in
        for number in shares[part] {
          let (section, count) = sections[number]
          let entry = SnapshotFormat.headerSize + number * SnapshotFormat.sectionEntrySize
          put(section.rawValue, at: entry)
          put(UInt64(offsets[number]), at: entry + 8)
          put(UInt64(count), at: entry + 16)
          put(
            snapshotChecksum(UnsafeRawBufferPointer(start: image + offsets[number], count: count)),
            at: entry + 24)
        }
      }
    }

    /// The image, its header sealed by the checksum of header and section table.
    func finished() -> TableMemory {
      sealSections()
      let headerEnd = SnapshotFormat.headerSize + offsets.count * SnapshotFormat.sectionEntrySize
      put(snapshotChecksum(UnsafeRawBufferPointer(start: image, count: headerEnd)), at: 24)
      return TableMemory(adopting: UnsafeRawPointer(image), size: size)
    }
  }
}

extension Catalog {
  /// The catalog as a snapshot file's bytes (`SnapshotFormat`): what `Catalog.load(contentsOf:)`
  /// maps back in and reads in place.
  ///
  /// The store table, tree and diagnostics are the catalog's own bytes, copied as they are; only
  /// the meta and the subtree summaries are written anew (`indexing(_:)` may have added conditions).
  /// - Complexity: O(size of the table).
  public func snapshotBytes() -> [UInt8] {
    let image = snapshotImage()
    return Array(image.bytes)
  }

  private func snapshotImage() -> TableMemory {
    let meta = SnapshotImage.metaSection(
      SnapshotImage.Meta(
        source: source, storeCount: stores.count, indexedCount: tree.count, masks: searchMasks,
        diagnosticCounts: table.diagnosticCounts, reasons: table.reasons, countries: table.countries))
    // Diagnostics last: never empty, so the image never ends in padding before an empty section.
    let kept: [SnapshotFormat.Section] = [
      .coordinates, .storePositions, .treeXs, .treeYs, .treeZs, .treeIDs, .treeBoxes, .rows, .rowChecksums,
      .members, .keys, .texts, .guesses, .scheduleGroups, .idOrder, .shapes, .shapeKeys, .places,
      .diagnostics,
    ]
    let masks = SnapshotImage.maskSections(searchMasks)
    return meta.withUnsafeBytes { meta in
      let copied = kept.map { section in
        (section, UnsafeRawBufferPointer(rebasing: table.memory.bytes[table.sections[section]!]))
      }
      func withMasks(_ index: Int, _ done: [(SnapshotFormat.Section, UnsafeRawBufferPointer)]) -> TableMemory
      {
        guard index < masks.count else { return SnapshotImage.assemble([(.meta, meta)] + copied + done) }
        return masks[index].1.withUnsafeBytes { withMasks(index + 1, done + [(masks[index].0, $0)]) }
      }
      return withMasks(0, [])
    }
  }

  /// Writes `snapshotBytes()` to `path` so that a reader never sees half a snapshot, even after a
  /// power loss: to `PATH.partial-PID` beside it, fsynced, renamed over `path`, then the
  /// directory fsynced (`SnapshotFiles`). It does not check that `path` is not one of the files
  /// the catalog was read from: `SnapshotFiles.inputConflict(output:input:holidayFiles:)` does.
  ///
  /// - Parameter progress: Told how many bytes are written, then that they are being synced to
  ///   disk; for a caller that shows progress.
  /// - Throws: `CatalogError`: `.inputMissing` when the file cannot be created, `.writeFailed`
  ///   when writing, syncing or renaming it fails.
  public func writeSnapshot(to path: String, progress: WorkProgress? = nil) throws(CatalogError) {
    let image = snapshotImage()
    try withExtendedLifetime(image) { () throws(CatalogError) in
      try SnapshotFiles.writeDurably(image.bytes, to: path, progress: progress)
    }
  }
}
