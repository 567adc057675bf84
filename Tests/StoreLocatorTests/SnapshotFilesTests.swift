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
}
