import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `stores-server` executable as an operator runs it: the startup line, SIGHUP, SIGTERM with
/// a request in flight, and the exit codes.
@Suite struct ServerProcessTests {
  /// A running `stores-server` and the port its startup line names.
  final class RunningServer {
    let process = Process()
    let port: Int
    let startupLine: String

    init(_ arguments: [String]) throws {
      process.executableURL = URL(fileURLWithPath: BuiltBinaries.server)
      process.arguments = arguments + ["--hostname", "127.0.0.1", "--port", "0", "--log-level", "warning"]
      var environment = ProcessInfo.processInfo.environment
      environment["STORES_ADMIN_TOKEN"] = nil
      process.environment = environment
      let output = Pipe()
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
      var text = ""
      // The first line; an empty read is the end of the output (the server exited).
      while !text.contains("\n") {
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { break }
        text += String(decoding: chunk, as: UTF8.self)
      }
      startupLine = String(text.prefix { $0 != "\n" })
      port = Int(startupLine.split(separator: ":").last ?? "") ?? 0
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits for the process to end and returns its exit status; a server still running after
    /// 30 seconds is killed and reported as -1, so a server that fails to stop fails the test
    /// instead of hanging it.
    func exitStatus() -> Int32 {
      guard ServerProcessTests.eventually(attempts: 1500, { !process.isRunning }) else {
        process.terminate()
        process.waitUntilExit()
        return -1
      }
      process.waitUntilExit()
      return process.terminationStatus
    }

    deinit {
      if process.isRunning { process.terminate() }
    }
  }

  /// Polls `condition` up to `attempts` times, 20 ms apart: for a state the server reaches on
  /// its own (a reload done, a request started), never as a measure of speed.
  static func eventually(attempts: Int = 500, _ condition: () throws -> Bool) rethrows -> Bool {
    for _ in 0..<attempts {
      if try condition() { return true }
      usleep(20_000)
    }
    return false
  }

  @Test func startsReloadsOnHangupAndFinishesARequestInFlightOnTerminate() throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let server = try RunningServer(["--data", path])
    #expect(server.startupLine.hasPrefix("stores-server: serving 5 stores from \(path) (version "))
    #expect(server.startupLine.contains("on http://127.0.0.1:\(server.port)"))
    try #require(server.port > 0, "startup line: \(server.startupLine)")

    let first = try RawHTTPConnection.get(port: server.port, "/v1/stores/a-1")
    #expect(first.status == 200)
    let firstVersion = try #require(first.headers["x-stores-data-version"])
    #expect(server.startupLine.contains("version \(firstVersion)"))

    // SIGHUP: the new file is served once the reload is done.
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("b").utf8))
    server.signal(SIGHUP)
    #expect(
      try Self.eventually {
        try RawHTTPConnection.get(port: server.port, "/readyz").headers["x-stores-data-version"]
          != firstVersion
      })
    #expect(try RawHTTPConnection.get(port: server.port, "/v1/stores/b-1").status == 200)

    // A pickup whose body has not all arrived is in flight; SIGTERM lets it finish.
    let body = #"{"near": "52.52,13.405", "ready_in": "10m", "now": "2026-11-25T10:00:00Z"}"#
    let inFlight = try RawHTTPConnection(port: server.port)
    try inFlight.send(
      "POST /v1/pickup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body.prefix(10))
    #expect(
      try Self.eventually {
        try RawHTTPConnection.get(port: server.port, "/metrics").body.contains(
          "http_server_active_requests{http_request_method=\"POST\"} 1")
      })
    server.signal(SIGTERM)
    // Shutdown has begun once new connections are refused; only then does the body complete.
    #expect(Self.eventually { (try? RawHTTPConnection(port: server.port)) == nil })
    try inFlight.send(String(body.dropFirst(10)))
    let answer = try inFlight.readResponse()
    #expect(answer.status == 200, "\(answer.body)")
    #expect(answer.body.contains("\"status\":\"assigned\""))
    #expect(server.exitStatus() == 0)
  }

  @Test func dataItCannotServeEndsTheProcessWithTheCLIsCodes() throws {
    let missing = try RunningServer(["--data", "/nonexistent/stores.geojson"])
    #expect(missing.startupLine.isEmpty)
    #expect(missing.exitStatus() == 66)

    let path = try TestService.temporaryFile("not json")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let bad = try RunningServer(["--data", path])
    #expect(bad.exitStatus() == 65)

    let usage = try RunningServer(["--max-body-bytes", "0"])
    #expect(usage.exitStatus() == 64)
  }
}
