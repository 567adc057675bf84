#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whole input files as the commands read them: a path, or `-` for standard input.
public enum InputFile {
  /// The bytes of `path`, or of standard input when `path` is `-`, refusing more than
  /// `maximumBytes` while reading.
  ///
  /// - Parameters:
  ///   - what: What the file is, for the too-large error ("order", "store file").
  /// - Throws: `CatalogError` with `.inputMissing` when the file cannot be opened or read, `.badData`
  ///   when it holds more than `maximumBytes`.
  public static func bytes(at path: String, maximumBytes: Int, what: String) throws(CatalogError) -> [UInt8] {
    try FileBytes.read(path, maximumBytes: maximumBytes, what: what)
  }
}

/// The size limits on what the tool reads from outside, so that no input (a device such as
/// /dev/zero, an endless pipe, a hostile request) can make it grow without bound. Each is checked
/// while reading, and docs/limits.md lists them with their errors.
public enum InputLimits {
  /// A GeoJSON store file: 2 GiB, about four million All The Places records; the largest chains
  /// are a few hundred thousand. (A snapshot is mapped, not read, and has no such limit.)
  public static let storeFileBytes = 2 << 30
  /// An order document (`stores pickup --order`): 1 MiB, thousands of items.
  public static let orderBytes = 1 << 20
  /// One line of `stores hours --batch`: 64 KiB; an opening_hours value is rarely over 1 kB.
  public static let batchLineBytes = 64 << 10

  /// `2 GiB`, `1 MiB`, `64 KiB`, or a number of bytes.
  static func describe(bytes: Int) -> String {
    for (shift, unit) in [(30, "GiB"), (20, "MiB"), (10, "KiB")]
    where bytes >= 1 << shift && bytes % (1 << shift) == 0 {
      return "\(bytes >> shift) \(unit)"
    }
    return "\(bytes) bytes"
  }
}

/// The lines of a descriptor (standard input for `stores hours --batch`), each cut at a newline
/// and at most `maximumLength` bytes long: a longer line is reported as such and its bytes are
/// dropped while reading, so an endless line cannot fill memory.
public struct InputLines {
  public enum Line: Equatable, Sendable {
    /// A line without its `\n` (or `\r\n`); invalid UTF-8 is repaired with U+FFFD.
    case text(String)
    /// A line longer than the limit; `byteCount` is its length in bytes.
    case tooLong(byteCount: Int)
  }

  let descriptor: Int32
  public let maximumLength: Int
  private var buffer: [UInt8]
  private var position = 0
  private var filled = 0
  private var reachedEnd = false

  /// - Parameters:
  ///   - descriptor: Where to read; the caller keeps it open.
  ///   - maximumLength: The longest line accepted, in bytes.
  public init(descriptor: Int32, maximumLength: Int = InputLimits.batchLineBytes) {
    self.descriptor = descriptor
    self.maximumLength = maximumLength
    self.buffer = [UInt8](repeating: 0, count: 1 << 16)
  }

  /// The next line, or `nil` at the end of the input.
  ///
  /// - Throws: `CatalogError` with `.inputMissing` when reading fails.
  public mutating func next() throws(CatalogError) -> Line? {
    var line: [UInt8] = []
    var length = 0
    var started = false
    while true {
      if position == filled {
        try refill()
        if filled == 0 { return started ? finish(line, length: length) : nil }
      }
      started = true
      let newline = buffer[position..<filled].firstIndex(of: UInt8(ascii: "\n"))
      let stop = newline ?? filled
      let piece = stop - position
      if length + piece <= maximumLength { line.append(contentsOf: buffer[position..<stop]) }
      length += piece
      position = newline.map { $0 + 1 } ?? filled
      if newline != nil { return finish(line, length: length) }
    }
  }

  private func finish(_ line: [UInt8], length: Int) -> Line {
    guard length <= maximumLength else { return .tooLong(byteCount: length) }
    let end = line.last == UInt8(ascii: "\r") ? line.count - 1 : line.count
    return .text(String(decoding: line[..<end], as: UTF8.self))
  }

  private mutating func refill() throws(CatalogError) {
    position = 0
    filled = 0
    guard !reachedEnd else { return }
    while true {
      let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress!, $0.count) }
      if count > 0 {
        filled = count
        return
      }
      if count == 0 {
        reachedEnd = true
        return
      }
      if errno == EINTR { continue }
      throw CatalogError(
        .inputMissing, source: "-", "cannot read standard input: \(String(cString: strerror(errno)))")
    }
  }
}
