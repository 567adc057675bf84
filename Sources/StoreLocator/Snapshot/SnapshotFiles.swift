#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files around a snapshot besides its bytes: the inputs a build must not replace, the
/// temporary file it writes first, and the temporary files of builds that did not finish.
///
/// `Catalog.writeSnapshot(to:)` writes `OUT.partial-PID` beside `OUT` (the same directory, so the
/// rename is atomic) under an exclusive `flock`, fsyncs it, renames it over `OUT` and fsyncs the
/// directory: a reader sees the old snapshot or the new one, never part of one, and after a power
/// loss the name holds one of them whole. A build killed before the rename leaves its
/// `OUT.partial-PID`; `removeLeftovers(of:)` recognises it by that name and removes it once the
/// process is gone.
public enum SnapshotFiles {
  /// What a file is, whatever name reaches it: the device and inode `stat` reports.
  public struct Identity: Hashable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The file `path` names, following symbolic links; `nil` when there is none (or it cannot
    /// be examined).
    public init?(path: String) {
      var status = stat()
      guard stat(path, &status) == 0 else { return nil }
      self.init(status)
    }

    /// The file open on `descriptor` (standard input is 0); `nil` when it is not open, or not a
    /// regular file (a pipe or a terminal is not a file a snapshot could replace).
    public init?(descriptor: Int32) {
      var status = stat()
      guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
      self.init(status)
    }

    init(_ status: stat) {
      device = UInt64(status.st_dev)
      inode = UInt64(status.st_ino)
    }
  }

  /// An input of a build that its output would replace.
  public struct InputConflict: Hashable, Sendable, CustomStringConvertible {
    /// The output, as given.
    public let output: String
    /// The input, in words: `the input file stores.geojson`, `the --holidays file extra.json`.
    public let input: String
    /// True when the two were told apart by name only: the paths are the same string (and
    /// nothing is there yet to compare by identity).
    public let samePath: Bool

    /// `-o ./x.geojson is the input file x.geojson (the same file by device and inode); write
    /// the snapshot elsewhere`.
    public var description: String {
      "-o \(output) is \(input) (\(samePath ? "the same path" : "the same file by device and inode")); "
        + "write the snapshot elsewhere"
    }
  }

  /// The first input of a build from `input` (a path, or `-` for standard input) and
  /// `holidayFiles` that writing `output` would replace, or `nil` when there is none.
  ///
  /// Files are compared by identity (`Identity`): `./x`, `dir/../x`, a symbolic link to `x` and a
  /// hard link to `x` are all `x`. An output that does not exist yet is no input, unless it is
  /// spelled exactly like one. Besides the files given, the bundled files a build may read (the
  /// holiday files, the time-zone places) are inputs too.
  public static func inputConflict(output: String, input: String, holidayFiles: [String] = [])
    -> InputConflict?
  {
    if output == input {
      return InputConflict(output: output, input: "the input file \(input)", samePath: true)
    }
    if let holiday = holidayFiles.first(where: { $0 == output }) {
      return InputConflict(output: output, input: "the --holidays file \(holiday)", samePath: true)
    }
    guard let target = Identity(path: output) else { return nil }
    let given = input == "-" ? Identity(descriptor: 0) : Identity(path: input)
    if given == target {
      let name = input == "-" ? "the file standard input reads" : "the input file \(input)"
      return InputConflict(output: output, input: name, samePath: false)
    }
    for holiday in holidayFiles where Identity(path: holiday) == target {
      return InputConflict(output: output, input: "the --holidays file \(holiday)", samePath: false)
    }
    var bundled = [TimeZoneLocator.bundledPath]
    bundled += fileNames(in: HoursResources.bundledHolidayDirectory).map {
      HoursResources.bundledHolidayDirectory + "/" + $0
    }
    for path in bundled where Identity(path: path) == target {
      return InputConflict(output: output, input: "the bundled data file \(path)", samePath: false)
    }
    return nil
  }

  // MARK: - Paths

  /// The directory holding `path`'s last component: `.` for a bare name, `/` for `/x`.
  static func directory(of path: String) -> String {
    let bytes = Array(path.utf8)
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "." }
    return slash == 0 ? "/" : String(decoding: bytes[..<slash], as: UTF8.self)
  }

  /// The last component of `path`, as written.
  static func lastComponent(of path: String) -> String {
    let bytes = Array(path.utf8)
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return path }
    return String(decoding: bytes[(slash + 1)...], as: UTF8.self)
  }

  /// The names in `directory` (without `.` and `..`); none when it cannot be read.
  static func fileNames(in directory: String) -> [String] {
    guard let stream = opendir(directory) else { return [] }
    defer { closedir(stream) }
    var names: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
        String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      if name != ".", name != ".." { names.append(name) }
    }
    return names
  }
}
