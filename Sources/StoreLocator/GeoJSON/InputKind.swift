/// What a file that is not GeoJSON text seems to be, from its first bytes, so the error can say
/// what to do (decompress it, convert it to UTF-8, rebuild the snapshot) instead of "not GeoJSON".
///
/// Only the first `sniffedLength` bytes are looked at, once per input, before parsing: none of
/// this is on the path of a file that is GeoJSON.
enum InputKind: Equatable {
  case gzip
  case compressed(format: String, tool: String)
  case utf16(bigEndian: Bool)
  /// Shares most of the snapshot magic, or has a snapshot's header past a damaged magic.
  case damagedSnapshot
  /// Control bytes that GeoJSON text cannot hold (JSON allows none unescaped but whitespace).
  case binary

  /// How many leading bytes decide.
  static let sniffedLength = 64

  /// The kind of input `bytes` (its first bytes are enough) seem to be when they are not
  /// JSON text, or `nil` when they may be.
  static func unreadable(_ bytes: UnsafeBufferPointer<UInt8>) -> InputKind? {
    let head = UnsafeBufferPointer(rebasing: bytes.prefix(sniffedLength))
    func starts(with prefix: [UInt8]) -> Bool { head.starts(with: prefix) }
    if starts(with: [0x1F, 0x8B]) { return .gzip }
    for (magic, format, tool) in [
      ([0x50, 0x4B, 0x03, 0x04] as [UInt8], "a zip archive", "unzip"),
      ([0x42, 0x5A, 0x68], "bzip2-compressed data", "bunzip2"),
      ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "xz-compressed data", "unxz"),
      ([0x28, 0xB5, 0x2F, 0xFD], "zstd-compressed data", "unzstd"),
    ] where starts(with: magic) {
      return .compressed(format: format, tool: tool)
    }
    if starts(with: [0xFF, 0xFE]) { return .utf16(bigEndian: false) }
    if starts(with: [0xFE, 0xFF]) { return .utf16(bigEndian: true) }
    // UTF-16 without a byte-order mark: ASCII text with a NUL before (big-endian) or after
    // (little-endian) every character.
    let pairs = head.count / 2
    if pairs >= 2 {
      let evenNUL = (0..<pairs).allSatisfy { head[2 * $0] == 0 }
      let oddNUL = (0..<pairs).allSatisfy { head[2 * $0 + 1] == 0 }
      if evenNUL != oddNUL { return .utf16(bigEndian: evenNUL) }
    }
    if looksLikeSnapshot(head) { return .damagedSnapshot }
    // 0x1E starts the records of an RFC 8142 text sequence; other controls are never JSON text.
    let isControl = { (byte: UInt8) in
      byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D && byte != 0x1E
    }
    if head.contains(where: isControl) { return .binary }
    return nil
  }

  /// At least half of the magic in place, or the version and a plausible section count after it.
  private static func looksLikeSnapshot(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
    let magic = SnapshotFormat.magic
    let matching = zip(head, magic).filter { $0 == $1 }.count
    if matching >= magic.count / 2 { return true }
    guard head.count >= 16 else { return false }
    let version = (0..<4).reduce(UInt32(0)) { $0 | UInt32(head[8 + $1]) << (8 * $1) }
    let sections = (0..<4).reduce(UInt32(0)) { $0 | UInt32(head[12 + $1]) << (8 * $1) }
    return version == SnapshotFormat.version && (1...64).contains(sections)
  }

  /// The error message for the input read from `path` (`CatalogError` puts the path in front);
  /// `snapshotSource` is the GeoJSON a damaged snapshot was built from, when it still says.
  func message(path: String, snapshotSource: String? = nil) -> String {
    let rebuild = SnapshotFiles.rebuildAdvice(path: path, source: snapshotSource)
    switch self {
    case .gzip:
      return "not GeoJSON: this looks like gzip-compressed data: decompress it first (gunzip)"
    case .compressed(let format, let tool):
      return "not GeoJSON: this looks like \(format): decompress it first (\(tool))"
    case .utf16(let bigEndian):
      return "not GeoJSON: this file is UTF-16\(bigEndian ? " (big-endian)" : ""): convert it to "
        + "UTF-8 (iconv -f UTF-16 -t UTF-8)"
    case .damagedSnapshot:
      return "not GeoJSON: this looks like a damaged stores snapshot (its first bytes are not "
        + "the magic STORESNP); \(rebuild)"
    case .binary:
      return "not GeoJSON: it holds binary data, not text; if it is a damaged stores snapshot, "
        + rebuild
    }
  }
}
