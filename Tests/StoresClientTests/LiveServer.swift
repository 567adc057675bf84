import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stores-server` and `stores` as `swift build` put them beside the test bundle, and a running
/// server on 127.0.0.1 for the client to call. (Tests/StoresAPITests has a fuller harness for
/// signals and logs; this one only needs a server up and down.)
enum Binaries {
  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let bundledData = repositoryRoot.appendingPathComponent("Data/stores.geojson").path

  /// The directory holding `name`, found upward from the test bundle.
  static func path(of name: String) -> String {
    let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBundle.deletingLastPathComponent()
    while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent(name).path
  }

  static let stores = path(of: "stores")
  static let server = path(of: "stores-server")

  /// `stores ARGUMENTS --data <bundled data>`'s standard output; an exit status not in
  /// `exitStatuses` throws (`stores open` exits 1 for closed, 2 for unknown).
  /// Blocks its thread: call it through `onThread`.
  static func runStores(_ arguments: [String], exitStatuses: Set<Int32> = [0]) throws -> Data {
    let outputPath = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-client-cli-\(UUID().uuidString)").path
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: stores)
    // `places` reads the bundled places, not store data: it has no --data.
    process.arguments = arguments + (arguments.first == "places" ? [] : ["--data", bundledData])
    var environment = ProcessInfo.processInfo.environment
    environment["STORES_DATA"] = nil
    process.environment = environment
    // A file, not a pipe: a large answer cannot fill it and stall the command.
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard exitStatuses.contains(process.terminationStatus) else { throw CommandFailed(arguments: arguments) }
    return try Data(contentsOf: URL(fileURLWithPath: outputPath))
  }

  struct CommandFailed: Error { let arguments: [String] }

  /// Runs `body` on a thread of its own: waiting for a process must not hold one of the few
  /// threads of Swift's cooperative pool (two on a two-core machine), which other tests run on.
  static func onThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws
    -> Result
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
    }
  }
}

/// A `stores-server` on 127.0.0.1 and a port the system picks, serving the bundled data, killed
/// when released. `@unchecked Sendable`: after `init` nothing changes but the process's end.
final class LiveServer: @unchecked Sendable {
  static let adminToken = "client-test-token"

  private let process = Process()
  private let assets: URL
  let url: URL

  /// Starts the server with `STORES_ADMIN_TOKEN` set and a Leaflet directory of its own (two small
  /// files the test wrote), so `/assets/{name}` answers whatever is installed. Blocks: `onThread`.
  /// - Parameters:
  ///   - data: the store data (default the bundled data).
  ///   - environment: more variables for the server (`STORES_ORDER_TOKENS`).
  init(data: String = Binaries.bundledData, environment extra: [String: String] = [:]) throws {
    assets = FileManager.default.temporaryDirectory.appendingPathComponent("stores-client-assets-\(UUID())")
    try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
    try Data("/* leaflet for the client tests */\n".utf8).write(
      to: assets.appendingPathComponent("leaflet.min.js"))
    try Data("/* leaflet.css */\n".utf8).write(to: assets.appendingPathComponent("leaflet.css"))
    process.executableURL = URL(fileURLWithPath: Binaries.server)
    process.arguments = [
      "--data", data, "--hostname", "127.0.0.1", "--port", "0", "--log-level", "warning",
      "--assets", assets.path,
      // The place index is built by the first place query: a quarter of a second in a release
      // build, but seconds in a debug build while every suite runs, past the default 10 s.
      "--request-timeout", "120",
      // The state in memory: never a file beside the repository's data, nor one shared by runs.
      "--state", "memory",
    ]
    var environment = ProcessInfo.processInfo.environment
    environment["STORES_ADMIN_TOKEN"] = Self.adminToken
    environment["STORES_DATA"] = nil
    environment.merge(extra) { $1 }
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let line = Self.firstLine(of: output.fileHandleForReading.fileDescriptor, within: 60)
    // "stores-server: serving N stores from PATH on 127.0.0.1:PORT"
    guard line.hasPrefix("stores-server: serving"), let port = Int(line.split(separator: ":").last ?? "")
    else {
      kill(process.processIdentifier, SIGKILL)
      throw NoStartupLine(line: line)
    }
    url = URL(string: "http://127.0.0.1:\(port)")!
  }

  struct NoStartupLine: Error { let line: String }

  deinit {
    kill(process.processIdentifier, SIGKILL)
    try? FileManager.default.removeItem(at: assets)
  }

  /// The first line written to `descriptor`, or what there is when it ends or `seconds` pass.
  private static func firstLine(of descriptor: Int32, within seconds: Double) -> String {
    let deadline = Date(timeIntervalSinceNow: seconds)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !bytes.contains(UInt8(ascii: "\n")) {
      let remaining = Int32(max(0, deadline.timeIntervalSinceNow * 1000))
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      guard remaining > 0, poll(&request, 1, remaining) > 0 else { break }
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
  }
}
