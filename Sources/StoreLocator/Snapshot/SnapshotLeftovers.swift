#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The temporary files of builds that did not finish: found by name, removed once their process
/// is gone, and named for what they were building when one is opened.
extension SnapshotFiles {
  /// The output a temporary file is written for: `OUT` for `OUT.partial-PID`, `nil` for a path
  /// that is not named like one.
  public static func output(ofPartial path: String) -> String? {
    guard let split = splitPartial(lastComponent(of: path)) else { return nil }
    return String(decoding: Array(path.utf8).dropLast(split.suffixLength), as: UTF8.self)
  }

  /// The name a temporary file is for, and the process that writes it, when `name` is named like
  /// one: `NAME.partial-PID` with a process id as `temporaryPath` writes it (no sign, no leading
  /// zero, at least 1).
  private static func splitPartial(_ name: String) -> (output: String, processID: Int32, suffixLength: Int)? {
    let bytes = Array(name.utf8)
    let marker = Array(partialMarker.utf8)
    guard let digitsStart = bytes.lastIndex(of: UInt8(ascii: "-")).map({ $0 + 1 }),
      digitsStart - marker.count > 0, Array(bytes[(digitsStart - marker.count)..<digitsStart]) == marker
    else { return nil }
    let digits = bytes[digitsStart...]
    guard !digits.isEmpty, digits.count <= 10, digits.first != UInt8(ascii: "0"),
      digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
      let processID = Int32(String(decoding: digits, as: UTF8.self))
    else { return nil }
    let outputName = String(decoding: bytes[..<(digitsStart - marker.count)], as: UTF8.self)
    return (outputName, processID, bytes.count - (digitsStart - marker.count))
  }

  /// How to fix an unusable snapshot at `path`, built from `source` when the file still says:
  /// `rebuild it with 'stores snapshot build SOURCE -o FILE'`. For a temporary file of a build
  /// (`OUT.partial-PID`) the command names `OUT`, the file the build was writing, and says the
  /// temporary file can go.
  static func rebuildAdvice(path: String, source: String?) -> String {
    let input = source.flatMap { $0.isEmpty || $0 == "-" ? nil : $0 } ?? "STORES.geojson"
    guard let output = output(ofPartial: path) else {
      return "rebuild it with 'stores snapshot build \(input) -o \(path == "-" ? "FILE" : path)'"
    }
    return "rebuild it with 'stores snapshot build \(input) -o \(output)' (\(path) is the temporary file "
      + "of a build of \(output) that did not finish: delete it)"
  }

  /// A temporary file that `removeLeftovers(of:)` removed.
  public struct Leftover: Hashable, Sendable {
    /// The file's path: the output's path as given, then `.partial-PID`.
    public let path: String
    /// The process that wrote it and is no longer running.
    public let processID: Int32
    /// Its size in bytes when removed.
    public let size: Int
  }

  /// Removes the temporary files that builds of `output` left when they were killed: the
  /// `OUT.partial-PID` files beside it whose process is gone.
  ///
  /// A file is removed only when all of these hold: its process does not exist (`kill(PID, 0)`
  /// fails with `ESRCH`; a process of another user still counts as running), no one holds a lock
  /// on it (a build holds an exclusive `flock` on its temporary file from creating it to the
  /// rename, which covers a build in another PID namespace sharing the directory), it is a
  /// regular file, and it is empty or starts like a snapshot (the magic, or zeros where the data
  /// never reached the disk). A process id reused by a new process keeps the file until that
  /// process ends.
  ///
  /// - Returns: The files removed, for the caller to report.
  @discardableResult
  public static func removeLeftovers(of output: String) -> [Leftover] {
    let name = lastComponent(of: output)
    guard !name.isEmpty, name != ".", name != ".." else { return [] }
    var removed: [Leftover] = []
    for entry in fileNames(in: directory(of: output)) {
      guard let split = splitPartial(entry), split.output == name, split.processID != getpid() else {
        continue
      }
      guard kill(split.processID, 0) != 0, errno == ESRCH else { continue }
      let path = temporaryPath(for: output, processID: split.processID)
      if let size = removeIfUnused(path) {
        removed.append(Leftover(path: path, processID: split.processID, size: size))
      }
    }
    return removed
  }

  /// Removes the temporary file at `path` when it is a regular file no one holds a lock on and
  /// that starts like a snapshot; returns its size, or `nil` when it was left alone.
  private static func removeIfUnused(_ path: String) -> Int? {
    var named = stat()
    guard lstat(path, &named) == 0, (named.st_mode & S_IFMT) == S_IFREG else { return nil }
    let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var opened = stat()
    guard fstat(descriptor, &opened) == 0, Identity(opened) == Identity(named) else { return nil }
    // A live build holds LOCK_EX; a file system without locks (ENOLCK, EOPNOTSUPP) leaves the
    // process check alone to decide.
    if flock(descriptor, LOCK_SH | LOCK_NB) != 0, errno == EWOULDBLOCK || errno == EINTR { return nil }
    var head = [UInt8](repeating: 0, count: SnapshotFormat.magic.count)
    let count = head.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
    guard count >= 0 else { return nil }
    let start = head.prefix(count)
    guard start.elementsEqual(SnapshotFormat.magic.prefix(count)) || start.allSatisfy({ $0 == 0 }) else {
      return nil
    }
    guard unlink(path) == 0 else { return nil }
    return Int(opened.st_size)
  }
}
