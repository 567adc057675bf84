import Foundation
import Testing

@testable import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The files around a snapshot: inputs it must not replace (by identity, not name), temporary
/// files of killed builds (removed once their process is gone, never a live build's), the rebuild
/// advice for a temporary file, and the syncs that make the rename durable.
@Suite struct SnapshotFilesTests {
  /// A fresh directory, removed by the caller.
  static func scratchDirectory() throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-snapfiles-\(UUID().uuidString)"
    ).path
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
  }

  /// The id of a process that has ended and been reaped: no process has it (until it is reused).
  static func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    let processID = process.processIdentifier
    errno = 0
    try #require(kill(processID, 0) != 0 && errno == ESRCH, "process \(processID) is still there")
    return processID
  }

  @Test func theOutputIsComparedWithTheInputsByIdentity() throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let input = directory + "/x.geojson"
    let holidays = directory + "/h.json"
    try Data("{}".utf8).write(to: URL(fileURLWithPath: input))
    try Data("{}".utf8).write(to: URL(fileURLWithPath: holidays))
    try FileManager.default.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/link.geojson", withDestinationPath: "x.geojson")
    try FileManager.default.linkItem(atPath: input, toPath: directory + "/hard.geojson")

    for output in [
      input, directory + "/./x.geojson", directory + "/sub/../x.geojson", directory + "/link.geojson",
      directory + "/hard.geojson",
    ] {
      let conflict = try #require(SnapshotFiles.inputConflict(output: output, input: input), "\(output)")
      #expect(conflict.input == "the input file \(input)")
      #expect(
        conflict.description.hasPrefix("-o \(output) is the input file \(input) (the same ")
          && conflict.description.hasSuffix("); write the snapshot elsewhere"))
    }
    // The input reached through a link is still the input.
    #expect(SnapshotFiles.inputConflict(output: input, input: directory + "/link.geojson") != nil)
    let conflict = try #require(
      SnapshotFiles.inputConflict(
        output: directory + "/sub/../h.json", input: input, holidayFiles: [directory + "/./h.json"]))
    #expect(conflict.input == "the --holidays file \(directory)/./h.json" && !conflict.samePath)
    // A bundled file the build may read.
    #expect(
      SnapshotFiles.inputConflict(output: TimeZoneLocator.bundledPath, input: input)?.input
        == "the bundled data file \(TimeZoneLocator.bundledPath)")
    // Other files, and outputs that do not exist yet, are not inputs; the same spelling is.
    #expect(SnapshotFiles.inputConflict(output: directory + "/other.snap", input: input) == nil)
    try Data("{}".utf8).write(to: URL(fileURLWithPath: directory + "/copy.geojson"))
    #expect(SnapshotFiles.inputConflict(output: directory + "/copy.geojson", input: input) == nil)
    #expect(
      SnapshotFiles.inputConflict(output: "missing.geojson", input: "missing.geojson")?.samePath == true)
    #expect(SnapshotFiles.Identity(path: directory + "/missing") == nil)
  }

  @Test func leftoversOfEndedBuildsAreRemovedAndLiveOnesKept() throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let output = directory + "/out.snap"
    let dead = try Self.deadProcessID()
    let neverAProcess: Int32 = 2_147_483_646  // above any pid_max (at most 2^22 on Linux)
    let partial = Array(SnapshotTests.bytes.prefix(5_000))
    func make(_ name: String, _ bytes: [UInt8] = partial) throws -> String {
      let path = directory + "/" + name
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      return path
    }
    let removable = [
      try make("out.snap.partial-\(dead)"), try make("out.snap.partial-\(neverAProcess)", []),
    ]
    let kept = [
      try make("out.snap.partial-\(getpid())"),  // this process
      try make("out.snap.partial-\(getppid())"),  // another running process: the one that started this
      try make("out.snap.partial-1"),  // init: running, and not this user's to signal
      try make("other.snap.partial-\(dead)"),  // another output's
      try make("out.snap.partial-0\(dead)"),  // not a name a build writes
      try make("out.snap.partial-+\(dead)"),
      try make("out.snap.partial-\(dead)x"),
      try make("out.snap.partial-99999999999"),
    ]
    // Named like a leftover of an ended process, but not a snapshot: left alone.
    let foreign = try make("out.snap.partial-\(neverAProcess - 1)", Array("not a snapshot".utf8))
    // Named like one, but locked as a live build (in another PID namespace) locks its file.
    let locked = try make("out.snap.partial-\(neverAProcess - 2)")
    let lock = open(locked, O_RDONLY)
    #expect(flock(lock, LOCK_EX) == 0)
    defer { close(lock) }
    // A symbolic link is never followed nor removed.
    try FileManager.default.createSymbolicLink(
      atPath: directory + "/out.snap.partial-\(neverAProcess - 3)", withDestinationPath: kept[0])

    let removed = SnapshotFiles.removeLeftovers(of: output)
    #expect(
      Set(removed) == [
        SnapshotFiles.Leftover(path: removable[0], processID: dead, size: 5_000),
        SnapshotFiles.Leftover(path: removable[1], processID: neverAProcess, size: 0),
      ])
    for path in removable { #expect(!FileManager.default.fileExists(atPath: path), "\(path)") }
    for path in kept + [foreign, locked, directory + "/out.snap.partial-\(neverAProcess - 3)"] {
      #expect((try? FileManager.default.attributesOfItem(atPath: path)) != nil, "\(path)")
    }
    // A directory that is not there has no leftovers.
    #expect(SnapshotFiles.removeLeftovers(of: "no-such-dir/out.snap").isEmpty)
  }

  @Test func aTemporaryFileIsTracedToItsOutput() throws {
    #expect(SnapshotFiles.output(ofPartial: "dir/out.snap.partial-123") == "dir/out.snap")
    #expect(SnapshotFiles.output(ofPartial: "/a/b.c.partial-7") == "/a/b.c")
    for other in [
      "out.snap", "out.snap.partial-", "out.snap.partial-012", "dir.partial-1/out.snap", ".partial-5",
    ] {
      #expect(SnapshotFiles.output(ofPartial: other) == nil, "\(other)")
    }
    // What a build killed mid-write leaves, opened as a snapshot or as --data.
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let partial = directory + "/out.snap.partial-4242"
    let advice =
      "rebuild it with 'stores snapshot build \(DefaultData.bundledPath) -o \(directory)/out.snap' "
      + "(\(partial) is the temporary file of a build of \(directory)/out.snap that did not finish: delete it)"
    try Data(SnapshotTests.bytes.prefix(SnapshotTests.bytes.count / 2)).write(
      to: URL(fileURLWithPath: partial))
    for error in [Self.refusal(opening: partial), Self.refusal(loading: partial)] {
      let message = error?.message ?? "opened"
      #expect(message.contains("it is truncated") && message.hasSuffix(advice), "\(message)")
      #expect(!message.contains("-o \(partial)"))
    }
    // Cut inside the magic: read as a damaged snapshot by the GeoJSON reader.
    try Data(Array("STORE".utf8) + [0, 0, 0, 2, 0, 0, 0, 17]).write(to: URL(fileURLWithPath: partial))
    do {
      _ = try Catalog.load(contentsOf: partial)
      Issue.record("loaded a partial snapshot")
    } catch {
      #expect(
        error.message.contains("damaged stores snapshot")
          && error.message.contains("-o \(directory)/out.snap' (\(partial) is the temporary file"),
        "\(error.message)")
    }
  }

  /// The error of `Catalog(snapshotAt:)` for the file at `path`, `nil` when it opens.
  static func refusal(opening path: String) -> CatalogError? {
    do {
      _ = try Catalog(snapshotAt: path)
      return nil
    } catch { return error }
  }

  /// The error of `Catalog.load(contentsOf:)` for the file at `path`, `nil` when it loads.
  static func refusal(loading path: String) -> CatalogError? {
    do {
      _ = try Catalog.load(contentsOf: path)
      return nil
    } catch { return error }
  }

  @Test func aWrittenSnapshotIsWholeAndNoTemporaryFileRemains() throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let path = directory + "/out.snap"
    try Data("old".utf8).write(to: URL(fileURLWithPath: path))
    try SnapshotTests.original.writeSnapshot(to: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(SnapshotTests.bytes))
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["out.snap"])
    // A temporary file left by an earlier process with this id is replaced, not written through.
    let target = directory + "/target"
    try Data("keep".utf8).write(to: URL(fileURLWithPath: target))
    try FileManager.default.createSymbolicLink(
      atPath: SnapshotFiles.temporaryPath(for: path), withDestinationPath: target)
    try SnapshotTests.original.writeSnapshot(to: path)
    #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == Data("keep".utf8))
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["out.snap", "target"])
    // A file of this name that a build holds locked (the same process id in another PID
    // namespace) is left alone, and so is the output.
    let written = try Data(contentsOf: URL(fileURLWithPath: path))
    let temporary = SnapshotFiles.temporaryPath(for: path)
    try Data("busy".utf8).write(to: URL(fileURLWithPath: temporary))
    let lock = open(temporary, O_RDONLY)
    #expect(flock(lock, LOCK_EX) == 0 && SnapshotFiles.isLocked(temporary))
    do {
      try SnapshotTests.original.writeSnapshot(to: path)
      Issue.record("wrote through a locked temporary file")
    } catch {
      #expect(error.kind == .inputMissing && error.message.contains("is being written by another build"))
    }
    #expect(try Data(contentsOf: URL(fileURLWithPath: temporary)) == Data("busy".utf8))
    #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
    close(lock)
    #expect(!SnapshotFiles.isLocked(temporary))
    try SnapshotTests.original.writeSnapshot(to: path)
    #expect(!FileManager.default.fileExists(atPath: temporary))

    // No directory: the file cannot be created.
    #expect(throws: CatalogError.self) {
      try SnapshotTests.original.writeSnapshot(to: directory + "/no/out.snap")
    }
    do { try SnapshotTests.original.writeSnapshot(to: directory + "/no/out.snap") } catch {
      #expect(error.kind == .inputMissing && error.message.hasPrefix("cannot write: No such file"))
    }
    // The rename fails (the output is a directory that is not empty): a write error, and the
    // temporary file is gone.
    try FileManager.default.createDirectory(
      atPath: directory + "/full/inside", withIntermediateDirectories: true)
    do {
      try SnapshotTests.original.writeSnapshot(to: directory + "/full")
      Issue.record("renamed over a directory")
    } catch {
      #expect(error.kind == .writeFailed && error.message.hasPrefix("cannot write: "), "\(error.message)")
      #expect(error.message.contains("(renaming \(directory)/full.partial-\(getpid()) to it)"))
    }
    #expect(!FileManager.default.fileExists(atPath: directory + "/full.partial-\(getpid())"))
  }

  @Test func directoriesAreSyncedAndFailuresReported() throws {
    let directory = try Self.scratchDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    try SnapshotFiles.syncDirectory(directory)
    try SnapshotFiles.syncDirectory(".")
    #expect(throws: SnapshotFiles.SyncFailure(code: ENOENT)) {
      try SnapshotFiles.syncDirectory(directory + "/missing")
    }
    try Data().write(to: URL(fileURLWithPath: directory + "/file"))
    #expect(throws: SnapshotFiles.SyncFailure(code: ENOTDIR)) {
      try SnapshotFiles.syncDirectory(directory + "/file")
    }
    #expect(SnapshotFiles.sync(-1) == EBADF)
    let descriptor = open(directory + "/file", O_RDONLY)
    defer { close(descriptor) }
    #expect(SnapshotFiles.sync(descriptor) == nil)
    #expect(SnapshotFiles.directory(of: "out.snap") == ".")
    #expect(SnapshotFiles.directory(of: "/out.snap") == "/")
    #expect(SnapshotFiles.directory(of: "a/b/out.snap") == "a/b")
  }
}
