import Foundation
import Testing

@testable import StoreLocator

/// `stores snapshot build` and `verify`, and every command reading a snapshot through `--data`.
@Suite struct SnapshotCommandTests {
  static func temporaryPath(_ suffix: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("stores-\(UUID().uuidString)\(suffix)").path
  }

  @Test func aSnapshotAnswersLikeItsGeoJSON() throws {
    let snapshot = Self.temporaryPath(".snap")
    defer { try? FileManager.default.removeItem(atPath: snapshot) }
    let build = try StoresProcess.run(["snapshot", "build", StoresProcess.bundledData, "-o", snapshot])
    #expect(build.status == 0, "\(build.standardError)")
    #expect(build.standardOutput.hasPrefix("wrote \(snapshot): 2000 stores"))
    let now = "2026-11-25T09:00:00Z"
    for arguments in [
      ["nearest", "--near", "35.68,139.69", "-k", "5", "--format", "json", "--now", now],
      [
        "nearest", "--near", "-18.14,178.44", "--where", "drive_through=yes", "--open-now", "--now", now,
        "--format", "json",
      ],
      ["within", "--bbox", "177,-20,-178,-16", "--format", "csv"],
      ["show", "nw-0001", "--format", "json", "--now", now],
      ["hours", "nw-0001", "--at", now, "--format", "json"],
    ] {
      let fromGeoJSON = try StoresProcess.run(arguments)
      let fromSnapshot = try StoresProcess.run(arguments + ["--data", snapshot])
      #expect(fromSnapshot.status == fromGeoJSON.status, "\(arguments)")
      #expect(fromSnapshot.standardOutput == fromGeoJSON.standardOutput, "\(arguments)")
    }
    let verify = try StoresProcess.run(["snapshot", "verify", snapshot])
    #expect(verify.status == 0 && verify.standardOutput.contains("sound"))
    let info = try StoresProcess.run(["info", "--data", snapshot])
    #expect(info.standardOutput.contains("\(snapshot) (snapshot of \(StoresProcess.bundledData))"))
  }

  @Test func buildCountsTheDataErrors() throws {
    let record =
      #"{"type":"Feature","id":"ID","properties":{},"geometry":{"type":"Point","coordinates":COORDINATES}}"#
    func collection(_ records: [(String, String)]) throws -> String {
      try StoresProcess.temporaryFile(
        #"{"type":"FeatureCollection","features":["#
          + records.map {
            record.replacingOccurrences(of: "ID", with: $0.0).replacingOccurrences(
              of: "COORDINATES", with: $0.1)
          }.joined(separator: ",") + "]}")
    }
    let one = try collection([("good", "[1,2]"), ("swapped", "[39.7,-465.3]")])
    let two = try collection([("good", "[1,2]"), ("bad1", "[39.7,-465.3]"), ("bad2", "[39.7,-465.3]")])
    let snapshot = Self.temporaryPath(".snap")
    defer { for path in [one, two, snapshot] { try? FileManager.default.removeItem(atPath: path) } }
    let singular = try StoresProcess.run(["snapshot", "build", one, "-o", snapshot])
    #expect(
      singular.standardOutput.contains(", 1 data error (see 'stores validate \(one)')"),
      "\(singular.standardOutput)\(singular.standardError)")
    let plural = try StoresProcess.run(["snapshot", "build", two, "-o", snapshot])
    #expect(
      plural.standardOutput.contains(", 2 data errors (see 'stores validate \(two)')"),
      "\(plural.standardOutput)\(plural.standardError)")
  }

  @Test func badSnapshotsAreRefusedWithTheRebuildCommand() throws {
    let snapshot = Self.temporaryPath(".snap")
    defer { try? FileManager.default.removeItem(atPath: snapshot) }
    _ = try StoresProcess.run(["snapshot", "build", StoresProcess.bundledData, "-o", snapshot])
    let bytes = try Data(contentsOf: URL(fileURLWithPath: snapshot))
    try bytes.prefix(bytes.count / 3).write(to: URL(fileURLWithPath: snapshot))
    for arguments in [["nearest", "--near", "1,1", "--data", snapshot], ["snapshot", "verify", snapshot]] {
      let outcome = try StoresProcess.run(arguments)
      #expect(outcome.status == 65, "\(arguments)")
      #expect(outcome.standardError.contains("truncated"))
      #expect(
        outcome.standardError.contains(
          "rebuild it with 'stores snapshot build \(StoresProcess.bundledData) -o \(snapshot)'"))
    }
    let missing = try StoresProcess.run(["snapshot", "verify", Self.temporaryPath(".snap")])
    #expect(missing.status == 66)
    let again = try StoresProcess.run([
      "snapshot", "build", StoresProcess.bundledData, "-o", "/nonexistent/dir/x.snap",
    ])
    #expect(again.status == 66 && again.standardError.contains("cannot write"))
    let badCondition = try StoresProcess.run(
      ["snapshot", "build", StoresProcess.bundledData, "-o", snapshot, "--index-where", "=yes"])
    #expect(badCondition.status == 64)
  }

  /// A fresh directory holding `x.geojson` (the bundled stores), `h.json` (a bundled holiday
  /// file), a symbolic and a hard link to `x.geojson`, and an empty `sub/`.
  static func inputDirectory() throws -> String {
    let directory = temporaryPath("")
    let files = FileManager.default
    try files.createDirectory(atPath: directory + "/sub", withIntermediateDirectories: true)
    try files.copyItem(atPath: StoresProcess.bundledData, toPath: directory + "/x.geojson")
    try files.copyItem(
      atPath: StoresProcess.repositoryRoot.appendingPathComponent("Data/holidays/DE.json").path,
      toPath: directory + "/h.json")
    try files.createSymbolicLink(atPath: directory + "/link.geojson", withDestinationPath: "x.geojson")
    try files.linkItem(atPath: directory + "/x.geojson", toPath: directory + "/hard.geojson")
    return directory
  }

  /// The output named as the input by another path, a symbolic link or a hard link is refused
  /// as the same path always was (exit 64), and the input keeps its bytes.
  @Test func anOutputThatIsAnInputByIdentityIsRefused() throws {
    let directory = try Self.inputDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let geojson = try Data(contentsOf: URL(fileURLWithPath: directory + "/x.geojson"))
    let holidays = try Data(contentsOf: URL(fileURLWithPath: directory + "/h.json"))
    for (arguments, refusal) in [
      (["x.geojson", "-o", "x.geojson"], "-o x.geojson is the input file x.geojson (the same path)"),
      (
        ["./x.geojson", "-o", "x.geojson"],
        "-o x.geojson is the input file ./x.geojson (the same file by device"
      ),
      (
        ["x.geojson", "-o", "./x.geojson"],
        "-o ./x.geojson is the input file x.geojson (the same file by device"
      ),
      (
        ["x.geojson", "-o", "sub/../x.geojson"],
        "-o sub/../x.geojson is the input file x.geojson (the same file"
      ),
      (
        ["x.geojson", "-o", "\(directory)/x.geojson"],
        "is the input file x.geojson (the same file by device and"
      ),
      (["x.geojson", "-o", "link.geojson"], "-o link.geojson is the input file x.geojson (the same file by"),
      (["link.geojson", "-o", "x.geojson"], "-o x.geojson is the input file link.geojson (the same file by"),
      (["x.geojson", "-o", "hard.geojson"], "-o hard.geojson is the input file x.geojson (the same file by"),
      (
        ["x.geojson", "-o", "sub/../h.json", "--holidays", "h.json"],
        "-o sub/../h.json is the --holidays file h.json"
      ),
      (
        ["-", "-o", "x.geojson"],
        "-o x.geojson is the file standard input reads (the same file by device and inode)"
      ),
    ] {
      let outcome = try StoresProcess.run(
        ["snapshot", "build"] + arguments, inputFile: directory + "/x.geojson", currentDirectory: directory)
      #expect(outcome.status == 64, "\(arguments): \(outcome.standardOutput)\(outcome.standardError)")
      #expect(
        outcome.standardError.contains(refusal)
          && outcome.standardError.contains("; write the snapshot elsewhere"),
        "\(arguments): \(outcome.standardError)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/x.geojson")) == geojson, "\(arguments)")
      #expect(try Data(contentsOf: URL(fileURLWithPath: directory + "/h.json")) == holidays, "\(arguments)")
      #expect(
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
          == ["h.json", "hard.geojson", "link.geojson", "sub", "x.geojson"], "\(arguments)")
    }
    // Another file beside it is written.
    let other = try StoresProcess.run(
      ["snapshot", "build", "./x.geojson", "-o", "sub/../x.snap", "--holidays", "h.json"],
      currentDirectory: directory)
    #expect(other.status == 0, "\(other.standardError)")
  }

  /// A build killed with -9 leaves OUT.partial-PID; the next build removes it and says so, and
  /// leaves the file of a running build alone.
  @Test func theNextBuildRemovesLeftoversOfEndedBuilds() throws {
    let directory = try Self.inputDirectory()
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let ended = Process()
    ended.executableURL = URL(fileURLWithPath: "/bin/true")
    try ended.run()
    ended.waitUntilExit()
    let dead = ended.processIdentifier
    let live = ProcessInfo.processInfo.processIdentifier  // this test process
    let half = Data("STORESNP".utf8) + Data(repeating: 7, count: 992)
    for processID in [dead, live] {
      try half.write(to: URL(fileURLWithPath: directory + "/out.snap.partial-\(processID)"))
    }
    let build = try StoresProcess.run(
      ["snapshot", "build", "x.geojson", "-o", "out.snap"], currentDirectory: directory)
    #expect(build.status == 0, "\(build.standardError)")
    #expect(
      build.standardError
        == "stores: removed a leftover partial snapshot out.snap.partial-\(dead) (1000 bytes) from a build "
        + "that did not finish (process \(dead))\n")
    let names = try FileManager.default.contentsOfDirectory(atPath: directory)
    #expect(!names.contains("out.snap.partial-\(dead)") && names.contains("out.snap.partial-\(live)"))
    #expect(names.filter { $0.hasPrefix("out.snap") }.sorted() == ["out.snap", "out.snap.partial-\(live)"])
    let verify = try StoresProcess.run(["snapshot", "verify", "out.snap"], currentDirectory: directory)
    #expect(verify.status == 0, "\(verify.standardError)")
    // The leftover opened as a snapshot names the output to rebuild, not itself.
    let partial = try StoresProcess.run(
      ["snapshot", "verify", "out.snap.partial-\(live)"], currentDirectory: directory)
    #expect(partial.status == 65)
    #expect(
      partial.standardError.contains(
        "rebuild it with 'stores snapshot build STORES.geojson -o out.snap' (out.snap.partial-\(live) is the "
          + "temporary file of a build of out.snap that did not finish: delete it)"),
      "\(partial.standardError)")
  }
}

/// Without a terminal on standard error (a file here, as in a pipe or CI), long work draws no
/// progress line: nothing but the command's own messages (issue 26 §5).
@Suite struct NoProgressWithoutATerminalTests {
  @Test func buildValidateAndLoadWriteNoProgress() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "progress-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let snapshot = directory.appendingPathComponent("stores.snap").path
    let build = try StoresProcess.run(["snapshot", "build", StoresProcess.bundledData, "-o", snapshot])
    #expect(build.status == 0)
    #expect(build.standardError.isEmpty, "\(build.standardError)")
    #expect(build.standardOutput.hasPrefix("wrote \(snapshot): "))
    let validate = try StoresProcess.run(["validate", StoresProcess.bundledData])
    #expect(validate.standardError.isEmpty, "\(validate.standardError)")
    #expect(!validate.standardOutput.contains("\r"))
    let nearest = try StoresProcess.run([
      "nearest", "--near", "47.6,-122.3", "--data", StoresProcess.bundledData,
    ])
    #expect(nearest.standardError.isEmpty, "\(nearest.standardError)")
    #expect(!nearest.standardOutput.contains("\r"))
  }
}
