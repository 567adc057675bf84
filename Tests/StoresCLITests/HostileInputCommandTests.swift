import Foundation
import Testing

/// Inputs that never end, outputs that cannot be written: the commands stop with a clear error.
@Suite struct HostileInputCommandTests {
  @Test(arguments: [
    (["pickup", "--order", "/dev/zero"], "/dev/zero: a device, not a file: no order to read"),
    (
      ["nearest", "--near", "1,1", "--data", "/dev/zero"],
      "/dev/zero: a device, not a file: no store file to read"
    ),
    (
      [
        "hours", "--expression", "Mo-Fr 09:00-17:00", "--timezone", "Europe/Berlin", "--country", "DE",
        "--holidays", "/dev/zero",
      ],
      "larger than 16 MiB"
    ),
  ])
  func endlessInputsAreRefusedAtTheirLimit(arguments: [String], complaint: String) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 65)
    #expect(outcome.standardError.contains(complaint))
  }

  @Test func aFullDiskIsAnErrorNotSuccess() throws {
    let outcome = try runWritingTo(
      "/dev/full", ["nearest", "--near", "47.6062,-122.3321", "--data", StoresProcess.bundledData])
    #expect(outcome.status == 74)
    #expect(outcome.standardError.contains("cannot write the output: No space left on device"))
  }

  @Test func aBatchWhoseReaderWentAwayStops() throws {
    // 20,000 lines answer in far more than a pipe holds; `head` reads one line and leaves. With
    // SIGPIPE ignored (as under many supervisors), the write fails with EPIPE instead of killing.
    var lines = ""
    for index in 0..<20_000 {
      lines +=
        #"{"id":\#(index),"oh":"Mo-Fr 09:00-17:00","tz":"Europe/Berlin","at":"2026-03-29T10:00:00Z"}"# + "\n"
    }
    let input = try StoresProcess.temporaryFile(lines, suffix: ".jsonl")
    defer { try? FileManager.default.removeItem(atPath: input) }
    let script = #"trap '' PIPE; "$0" hours --batch < "$1" | head -n 1 > /dev/null; echo "${PIPESTATUS[0]}""#
    let outcome = try StoresProcess.runShell(script, arguments: [StoresProcess.executable.path, input])
    #expect(outcome.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == "74")
    #expect(outcome.standardError.contains("cannot write the output: Broken pipe"))
  }

  /// Runs `stores` with its standard output sent to `path` (a device such as /dev/full).
  private func runWritingTo(_ path: String, _ arguments: [String]) throws -> StoresProcess.Outcome {
    let errorURL = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-\(UUID().uuidString)")
    _ = FileManager.default.createFile(atPath: errorURL.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorURL) }
    let process = Process()
    process.executableURL = StoresProcess.executable
    process.arguments = arguments
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    process.standardError = try FileHandle(forWritingTo: errorURL)
    try process.run()
    process.waitUntilExit()
    return StoresProcess.Outcome(
      status: process.terminationStatus, standardOutput: "",
      standardError: try String(contentsOf: errorURL, encoding: .utf8))
  }
}

extension StoresProcess {
  /// Runs `script` with bash (`$0`, `$1`, … are `arguments`), capturing what it prints.
  static func runShell(_ script: String, arguments: [String]) throws -> Outcome {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/bash")
    process.arguments = ["-c", script] + arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    // The script prints little; read both to the end before waiting.
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}

@Suite struct ManyErrorsCommandTests {
  @Test func aStrictLoadSaysHowManyErrorsItDidNotPrint() throws {
    var features: [String] = []
    for index in 0..<45 {
      features.append(
        #"{"type":"Feature","id":"s\#(index)","geometry":{"type":"Point","coordinates":[200,10]},"properties":{}}"#
      )
    }
    let path = try StoresProcess.temporaryFile(
      #"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let outcome = try StoresProcess.run(["nearest", "--near", "1,1", "--data", path, "--strict"])
    #expect(outcome.status == 65)
    #expect(outcome.standardError.split(separator: "\n").count { $0.hasPrefix("  error[") } == 20)
    #expect(outcome.standardError.contains("… and 25 more errors"))
  }
}

@Suite struct TimeBoundCommandTests {
  @Test func anOrderOfAMillionYearsIsRefused() throws {
    let order = try StoresProcess.temporaryFile(
      #"{"id": "o1", "customer": {"latitude": 51.5074, "longitude": -0.1278}, "#
        + #""items": [{"name": "Flat white", "quantity": 999999999, "prep_minutes": 4}]}"#, suffix: ".json")
    defer { try? FileManager.default.removeItem(atPath: order) }
    let outcome = try StoresProcess.run(["pickup", "--order", order, "--now", "2026-12-24T15:50:00Z"])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("the items take 1902 years to prepare"))
  }

  @Test func aReadyTimeInTheYear9999IsRefused() throws {
    let outcome = try StoresProcess.run([
      "pickup", "--near", "51.5074,-0.1278", "--ready-at", "9999-12-31T23:59:59-18:00",
    ])
    #expect(outcome.status == 64)
    #expect(outcome.standardError.contains("outside the years 1900–9997"))
  }
}

@Suite struct ControlCharacterCommandTests {
  @Test func controlCharactersInTheDataAreShownNotSentToTheTerminal() throws {
    let path = try StoresProcess.temporaryFile(
      #"{"type":"Feature","id":"a\u0000b\u001b[31m","geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
        + #""properties":{"name":"Bad\u0007name"}}"#)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let text = try StoresProcess.run(["nearest", "--near", "52.5,13.4", "--data", path])
    #expect(text.status == 0)
    #expect(text.standardOutput.contains(#"a\u0000b\u001B[31m"#))
    #expect(text.standardOutput.contains(#"Bad\u0007name"#))
    #expect(!text.standardOutput.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    let messages = try StoresProcess.run(["show", "a", "--data", path])
    #expect(messages.status == 66)
    #expect(messages.standardError.contains(#"did you mean 'a\u0000b\u001B[31m'"#))
    #expect(!messages.standardError.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    let json = try StoresProcess.run(["nearest", "--near", "52.5,13.4", "--data", path, "--format", "json"])
    let stores = try #require((try json.json() as? [String: Any])?["stores"] as? [[String: Any]])
    #expect(stores.first?["id"] as? String == "a\u{0}b\u{1B}[31m")
  }
}

@Suite struct EndlessBatchCommandTests {
  @Test func aDeviceAsBatchInputIsRefused() throws {
    let outcome = try StoresProcess.runShell(
      #""$0" hours --batch < /dev/zero"#, arguments: [StoresProcess.executable.path])
    #expect(outcome.status == 65)
    #expect(outcome.standardError.contains("a device, not a file"))
  }

  @Test func aLineWithoutEndIsAnsweredThenEndsTheBatch() throws {
    // 8 MiB without a line break, through a pipe: answered at once, then refused, never hung.
    let outcome = try StoresProcess.runShell(
      #"head -c 8388608 /dev/zero | tr '\0' x | "$0" hours --batch"#,
      arguments: [StoresProcess.executable.path])
    #expect(outcome.status == 65)
    #expect(outcome.standardOutput.contains("line 1 is longer than 64 KiB"))
    #expect(outcome.standardError.contains("without a line break"))
  }
}
