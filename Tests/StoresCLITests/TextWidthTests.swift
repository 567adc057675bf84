import Foundation
import Testing

/// Text tables never cut an id, and fit the line width when one is known (issue 9, item 13).
@Suite struct TextWidthTests {
  static let longID = "bvFuKm_HGd0hrrdnoRnFh_l63-w=-and-then-some-more"
  static let longName = "Northwind Coffee at the Far End of a Very Long Shopping Arcade"
  static let longAddress =
    "242820, Брянская обл, Клетнянский р-н, Клетнянское городское поселение тер, Заозерная ул, д.24"

  /// A one-store file whose id, name and address are all longer than any column used to allow.
  static func longFile() throws -> String {
    try StoresProcess.temporaryFile(
      #"{"type":"Feature","id":"\#(longID)","properties":{"name":"\#(longName)","addr:full":"\#(longAddress)","opening_hours":"24/7","timezone":"Europe/Moscow"},"geometry":{"type":"Point","coordinates":[32.0,53.0]}}"#
    )
  }

  @Test func withoutAKnownWidthNothingIsCut() throws {
    let path = try Self.longFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    // The tests' standard output is a file, not a terminal, and COLUMNS is unset.
    let outcome = try StoresProcess.run(
      ["nearest", "--near", "53,32", "--data", path], environment: ["COLUMNS": ""])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    #expect(outcome.standardOutput.contains(Self.longID))
    #expect(outcome.standardOutput.contains(Self.longName))
    #expect(outcome.standardOutput.contains(Self.longAddress))
    #expect(!outcome.standardOutput.contains("…"))
  }

  @Test(arguments: [60, 80, 120])
  func columnsCutsNamesAndAddressesNeverIds(_ columns: Int) throws {
    let path = try Self.longFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(
      ["within", "--near", "53,32", "--radius", "1km", "--data", path], environment: ["COLUMNS": "\(columns)"]
    )
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let lines = outcome.standardOutput.split(separator: "\n")
    let row = try #require(lines.last)
    #expect(row.contains(Self.longID), "the id is whole: \(row)")
    #expect(row.contains("…"))
    #expect(row.hasSuffix("open 24 hours"))
    // Everything but the id, the distance and the answer gave way, down to a floor of 12 a column.
    let unshrinkable = "1".count + "DISTANCE".count + Self.longID.count + "open 24 hours".count + 2 * 5
    for line in lines {
      #expect(line.count <= max(columns, unshrinkable + 2 * 12), "\(line)")
    }
    // The header's columns line up with the row's.
    let header = try #require(lines.first)
    let nameColumn = header.distance(
      from: header.startIndex, to: try #require(header.range(of: "NAME")).lowerBound)
    #expect(row.dropFirst(nameColumn).hasPrefix(Self.longName.prefix(3)), "\(header)\n\(row)")
  }

  @Test func aTerminalsWidthIsUsedWhenColumnsIsUnset() throws {
    // script(1) runs the command on a pseudo-terminal, as a person's shell would.
    let script = URL(fileURLWithPath: "/usr/bin/script")
    guard FileManager.default.isExecutableFile(atPath: script.path) else {
      print("skipped: /usr/bin/script is absent, so no terminal to test with")
      return
    }
    let path = try Self.longFile()
    defer { try? FileManager.default.removeItem(atPath: path) }
    let process = Process()
    process.executableURL = script
    process.arguments = [
      "-qc", "stty cols 110; '\(StoresProcess.executable.path)' nearest --near 53,32 --data '\(path)'",
      "/dev/null",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["COLUMNS"] = nil
    environment["STORES_DATA"] = nil
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    let lines = text.split(whereSeparator: \.isNewline).filter { !$0.isEmpty }
    #expect(lines.count == 2, "\(text)")
    #expect(lines.allSatisfy { $0.count <= 110 }, "\(text)")
    #expect(text.contains(Self.longID))
    #expect(text.contains("…"))
  }

  @Test func wideCharactersCountTwice() throws {
    let path = try StoresProcess.temporaryFile(
      """
      {"type":"Feature","id":"jp-1","properties":{"name":"スターバックス 渋谷","opening_hours":"24/7","timezone":"Asia/Tokyo"},"geometry":{"type":"Point","coordinates":[139.70,35.66]}}
      {"type":"Feature","id":"jp-2","properties":{"name":"Starbucks Shibuya","opening_hours":"24/7","timezone":"Asia/Tokyo"},"geometry":{"type":"Point","coordinates":[139.71,35.66]}}
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(["nearest", "--near", "35.66,139.70", "--data", path])
    let lines = outcome.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.count == 3)
    // "スターバックス 渋谷" is 19 columns wide on a terminal, "Starbucks Shibuya" 17: the column
    // after them starts at the same place on the screen.
    let openColumns = lines.dropFirst().map { line -> Int in
      let prefix = line[..<line.range(of: "open 24 hours")!.lowerBound]
      return prefix.unicodeScalars.reduce(0) { $0 + ($1.value >= 0x3000 ? 2 : 1) }
    }
    #expect(Set(openColumns).count == 1, "\(lines)")
  }

  @Test func theCorpusIDsPasteIntoShow() throws {
    guard let corpus = StoresProcess.corpusDirectory else {
      print("skipped: ../shared/corpus/geojson is absent")
      return
    }
    let path = corpus.appendingPathComponent("atp_dixy_ru.ndgeojson").path
    let outcome = try StoresProcess.run(
      ["nearest", "--near", "53.38,32.0", "-k", "3", "--data", path], environment: ["COLUMNS": "80"])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    for line in outcome.standardOutput.split(separator: "\n").dropFirst() {
      let id = String(line.split(separator: " ", omittingEmptySubsequences: true)[3])
      #expect(!id.contains("…"))
      let show = try StoresProcess.run(["show", id, "--data", path, "--format", "json"])
      #expect(show.status == 0, "\(id): \(show.standardError)")
    }
  }
}
