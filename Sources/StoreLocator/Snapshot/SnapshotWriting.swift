import GeoIndex
import OpeningHours

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Catalog {
  /// The catalog as a snapshot file's bytes (`SnapshotFormat`): what `Catalog.load(contentsOf:)`
  /// maps back in without parsing.
  ///
  /// - Complexity: O(n) in the size of the records.
  public func snapshotBytes() -> [UInt8] {
    var sections: [(SnapshotFormat.Section, [UInt8])] = []
    func add(_ section: SnapshotFormat.Section, _ body: (inout SnapshotWriter) -> Void) {
      var writer = SnapshotWriter()
      body(&writer)
      sections.append((section, writer.bytes))
    }

    // Why stores have no schedule: a short list, referred to by index per store.
    var reasons: [String] = []
    var reasonIndex: [String: Int] = [:]
    var states = [UInt8](repeating: 0, count: stores.count)
    var countries = Set<String>()
    for position in stores.indices {
      let store = stores[position]
      if store.openingHours != nil, let country = store.country, country.count == 2 {
        countries.insert(country.uppercased())
      }
      guard schedule(at: position) == nil else { continue }
      let reason = scheduleGap(at: position) ?? "no opening_hours"
      if reasonIndex[reason] == nil {
        reasonIndex[reason] = reasons.count
        reasons.append(reason)
      }
      states[position] = UInt8(1 + min(reasonIndex[reason]!, 254))
    }

    add(.meta) { w in
      w.append(source)
      w.appendVarint(stores.count)
      w.appendVarint(tree.count)
      let window = searchMasks?.hoursWindow
      w.append(UInt8(window == nil ? 0 : 1))
      if let window {
        w.append(window.lowerBound.secondsSinceEpoch)
        w.append(window.upperBound.secondsSinceEpoch)
      }
      w.append(UInt8(searchMasks == nil ? 0 : 1))
      let conditions = searchMasks?.conditions ?? []
      w.appendVarint(conditions.count)
      for condition in conditions { SnapshotFormat.encode(condition, to: &w) }
      for severity in Diagnostic.Severity.allCases { w.appendVarint(diagnosticCount(severity)) }
      w.appendVarint(reasons.count)
      for reason in reasons { w.append(reason) }
      w.appendVarint(countries.count)
      for country in countries.sorted() { w.append(country) }
    }
    let parts = tree.parts
    add(.coordinates) { w in
      for coordinate in tree.coordinates {
        w.append(coordinate.latitude)
        w.append(coordinate.longitude)
      }
    }
    add(.storePositions) { $0.appendRaw(storePositions) }
    add(.treeXs) { $0.appendRaw(parts.xs) }
    add(.treeYs) { $0.appendRaw(parts.ys) }
    add(.treeZs) { $0.appendRaw(parts.zs) }
    add(.treeIDs) { $0.appendRaw(parts.ids) }
    add(.treeBoxes) { w in
      w.append(UInt64(parts.depth))
      w.appendRaw(parts.boxes)
    }
    if let masks = searchMasks?.masks.parts {
      add(.maskPoints) { $0.appendRaw(masks.points) }
      add(.maskNodes) { $0.appendRaw(masks.nodes) }
    }
    var records = SnapshotWriter()
    var table = SnapshotWriter()
    for store in stores {
      let start = records.count
      SnapshotFormat.encode(store, to: &records)
      let length = records.count - start
      let checksum = records.bytes.withUnsafeBytes {
        snapshotChecksum(UnsafeRawBufferPointer(rebasing: $0[start..<start + length]))
      }
      table.append(UInt64(start))
      table.append(UInt32(length))
      table.append(UInt32(truncatingIfNeeded: checksum))
    }
    sections.append((.recordTable, table.bytes))
    sections.append((.records, records.bytes))
    add(.idOrder) { w in
      let ids = stores.map { Array($0.id.utf8) }
      let order = ids.indices.sorted { a, b in
        ids[a] == ids[b] ? a < b : ids[a].lexicographicallyPrecedes(ids[b])
      }
      w.appendRaw(order.map { Int32($0) })
    }
    sections.append((.scheduleStates, states))
    add(.diagnostics) { w in
      w.appendVarint(diagnostics.count)
      for diagnostic in diagnostics { SnapshotFormat.encode(diagnostic, to: &w) }
    }

    // Header, section table, then each section on an 8-byte boundary.
    var file = SnapshotWriter()
    file.appendRaw(SnapshotFormat.magic)
    file.append(SnapshotFormat.version)
    file.append(UInt32(sections.count))
    file.append(UInt64(0))  // file size, below
    file.append(UInt64(0))  // header checksum, below
    file.pad(to: SnapshotFormat.headerSize)
    let tableStart = file.count
    for _ in sections { file.appendRaw([UInt8](repeating: 0, count: SnapshotFormat.sectionEntrySize)) }
    for (i, (section, body)) in sections.enumerated() {
      file.pad(to: 8)
      let offset = file.count
      file.appendRaw(body)
      let entry = tableStart + i * SnapshotFormat.sectionEntrySize
      file.overwrite(section.rawValue, at: entry)
      file.overwrite(UInt64(offset), at: entry + 8)
      file.overwrite(UInt64(body.count), at: entry + 16)
      file.overwrite(body.withUnsafeBytes { snapshotChecksum($0) }, at: entry + 24)
    }
    file.overwrite(UInt64(file.count), at: 16)
    let headerChecksum = file.bytes.withUnsafeBytes {
      snapshotChecksum(UnsafeRawBufferPointer(rebasing: $0[0..<tableStart + sections.count * 32]))
    }
    file.overwrite(headerChecksum, at: 24)
    return file.bytes
  }

  /// Writes `snapshotBytes()` to `path`, through a temporary file renamed into place, so a reader
  /// never sees half a snapshot.
  ///
  /// - Throws: `CatalogError` (`.inputMissing`) when the file cannot be written.
  public func writeSnapshot(to path: String) throws(CatalogError) {
    let bytes = snapshotBytes()
    let temporary = path + ".partial-\(getpid())"
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw CatalogError(
        .inputMissing, source: path, "cannot write: \(String(cString: strerror(errno)))")
    }
    var written = 0
    let failure: Int32? = bytes.withUnsafeBytes { raw in
      while written < raw.count {
        let result = write(descriptor, raw.baseAddress! + written, raw.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          return errno
        }
        written += result
      }
      return nil
    }
    close(descriptor)
    if let failure {
      unlink(temporary)
      throw CatalogError(
        .inputMissing, source: path, "cannot write: \(String(cString: strerror(failure)))")
    }
    guard rename(temporary, path) == 0 else {
      let code = errno
      unlink(temporary)
      throw CatalogError(
        .inputMissing, source: path, "cannot write: \(String(cString: strerror(code)))")
    }
  }
}
