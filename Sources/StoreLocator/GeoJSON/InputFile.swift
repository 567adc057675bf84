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
/// and at most `maximumLength` bytes long. A longer line is reported as soon as it passes the
/// limit and its remaining bytes are dropped while reading, so an endless line can neither fill
/// memory nor keep the reader from answering; one that goes on for `maximumSkip` bytes without
/// a line break ends the input with an error.
public struct InputLines {
  public enum Line: Equatable, Sendable {
    /// A line without its `\n` (or `\r\n`); invalid UTF-8 is repaired with U+FFFD.
    case text(String)
    /// A line longer than the limit; the rest of it is skipped.
    case tooLong
  }

  let descriptor: Int32
  public let maximumLength: Int
  /// How far past the limit a line is skipped looking for its end: 64 times the limit.
  public var maximumSkip: Int { maximumLength * 64 }
  private var buffer: [UInt8]
  private var position = 0
  private var filled = 0
  private var reachedEnd = false
  /// Set after a line was reported too long: its rest is still to be skipped.
  private var skippingLine = false

  /// - Parameters:
  ///   - descriptor: Where to read; the caller keeps it open.
  ///   - maximumLength: The longest line accepted, in bytes.
  /// - Throws: `CatalogError` with `.badData` when the descriptor is a device other than a terminal
  ///   (`/dev/zero`): it never ends and never holds lines.
  public init(descriptor: Int32, maximumLength: Int = InputLimits.batchLineBytes) throws(CatalogError) {
    try FileBytes.refuseDevice(descriptor, source: "-", what: "batch")
    self.descriptor = descriptor
    self.maximumLength = maximumLength
    self.buffer = [UInt8](repeating: 0, count: 1 << 16)
  }

  /// The next line, or `nil` at the end of the input.
  ///
  /// - Throws: `CatalogError` with `.inputMissing` when reading fails, `.badData` when a line goes
  ///   on for `maximumSkip` bytes past the limit without a line break.
  public mutating func next() throws(CatalogError) -> Line? {
    if skippingLine { try skipRestOfLine() }
    var line: [UInt8] = []
    var started = false
    while true {
      if position == filled {
        try refill()
        if filled == 0 { return started ? finish(line) : nil }
      }
      started = true
      let newline = buffer[position..<filled].firstIndex(of: UInt8(ascii: "\n"))
      let stop = newline ?? filled
      guard line.count + (stop - position) <= maximumLength else {
        // Report it now: the line may never end.
        position = stop
        skippingLine = newline == nil
        if let newline { position = newline + 1 }
        return .tooLong
      }
      line.append(contentsOf: buffer[position..<stop])
      position = newline.map { $0 + 1 } ?? filled
      if newline != nil { return finish(line) }
    }
  }

  /// Drops bytes up to and including the next line break (or the end of the input).
  private mutating func skipRestOfLine() throws(CatalogError) {
    var skipped = 0
    while true {
      if position == filled {
        try refill()
        if filled == 0 { break }
      }
      if let newline = buffer[position..<filled].firstIndex(of: UInt8(ascii: "\n")) {
        position = newline + 1
        break
      }
      skipped += filled - position
      position = filled
      if skipped > maximumSkip {
        throw CatalogError(
          .badData, source: "-",
          "a line goes on for more than \(InputLimits.describe(bytes: maximumSkip)) without a line break; "
            + "the input stops there")
      }
    }
    skippingLine = false
  }

  private func finish(_ line: [UInt8]) -> Line {
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
      throw CatalogError(.inputMissing, source: "-", "cannot read: \(String(cString: strerror(errno)))")
    }
  }
}
