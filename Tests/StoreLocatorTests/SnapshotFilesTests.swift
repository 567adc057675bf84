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
