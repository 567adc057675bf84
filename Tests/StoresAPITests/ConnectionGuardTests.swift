import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real `stores-server` over a socket, at the edges of HTTP/1.1 and of its own bounds: what
/// `HTTP1ConnectionGuard` and `ConnectionLimiter` do.
@Suite(.serialized) struct ConnectionGuardTests {
  /// Every store of `heavyData` as one page: 12 MB, more than the kernel's socket buffers on
  /// both sides hold (4 MB to send, the client's receive buffer kept small), so most of it waits
  /// in the server for the client to read.
  static let largeAnswer = "/v1/stores/within?bbox=-180,-90,180,90&limit=1000"

  /// 1,000 stores, each with a 12 KB description.
  static let heavyData: String = {
    let description = String(repeating: "A long description of the store. ", count: 375)
    let features = (0..<1000).map { index in
      """
      {"type": "Feature", "id": "h-\(index)", "geometry": {"type": "Point", "coordinates": [\(Double(index % 100) * 0.01 + 13), \(Double(index / 100) * 0.01 + 52)]},
       "properties": {"name": "Store \(index)", "description": "\(description)", "opening_hours": "24/7", "timezone": "Europe/Berlin"}}
      """
    }
    // One file for every run, written when missing: a file per run (12 MB) piled up in /tmp.
    let text = "{\"type\": \"FeatureCollection\", \"features\": [\(features.joined(separator: ",\n"))]}"
    let path = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-api-heavy-\(text.utf8.count).geojson").path
    if (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) == text.utf8.count {
      return path
    }
    do {
      let staging = try TestService.temporaryFile(text)
      guard rename(staging, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
      return path
    } catch { fatalError("cannot write the heavy test data: \(error)") }
  }()

  /// A connection that asked for `largeAnswer`, whose first bytes have arrived, and that has read
  /// nothing of it half a second later: with its small receive buffer, most of the answer waits
  /// in the server.
  static func stalledLargeAnswer(port: Int) throws -> RawHTTPConnection {
    let connection = try RawHTTPConnection(port: port, timeout: 20, receiveBufferBytes: 4096)
    try connection.send("GET \(largeAnswer) HTTP/1.1\r\nHost: a\r\n\r\n")
    // Until the answer's status line arrives, so it is being written when the test goes on, and
    // is the answer asked for: on a machine busy with every other suite (CI), a debug build once
    // took past the 10 s deadline to make it, answered a short 503, and the cut-answer test saw
    // a clean exit (the servers of these tests now have no deadline).
    guard connection.waitUntilReadable(seconds: 300) else {
      throw RawHTTPConnection.Failure(description: "no byte of the large answer within 300 s")
    }
    let status = try connection.statusLine()
    guard status.hasPrefix("HTTP/1.1 200") else {
      throw RawHTTPConnection.Failure(description: "the large answer began \(status)")
    }
    usleep(500_000)
    return connection
  }

  /// A server on `heavyData` without a request deadline: making `largeAnswer` takes seconds in a
  /// debug build, more while every other suite runs.
  static func heavyServer(_ arguments: [String] = [], logLevel: String = "warning") async throws
    -> RunningServer
  {
    let server = try await ServerProcess.onThread {
      try RunningServer(["--data", heavyData, "--request-timeout", "0"] + arguments, logLevel: logLevel)
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)")
    return server
  }

  /// A server on the bundled data, started off the cooperative pool (a startup blocks its thread
  /// for as long as the load takes, and the other suites' tests run on those few threads).
  static func bundledServer(_ arguments: [String] = []) async throws -> RunningServer {
    let server = try await ServerProcess.onThread {
      try RunningServer(["--data", TestService.bundledData] + arguments)
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)")
    return server
  }

  @Test func requestsHTTP11RefusesAreAnsweredAsProblemsAndClosed() async throws {
    let server = try await Self.bundledServer()
    let port = server.port
    let cases: [(request: String, status: Int, detail: String)] = [
      ("GET /healthz HTTP/1.1\r\n\r\n", 400, "needs a Host header"),
      ("GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "2 Host headers"),
      ("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n", 405, "not a proxy"),
      (
        "POST /v1/pickup HTTP/1.1\r\nHost: a\r\nExpect: later\r\nContent-Length: 2\r\n\r\n{}", 417,
        "Expect: later"
      ),
      (
        "POST /v1/pickup HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
          + "Transfer-Encoding: chunked\r\n\r\nzz\r\n", 400, "not valid HTTP/1.1"
      ),
      // A number read through C's strtod would stop at the NUL and take 47.6.
      ("GET /v1/stores/nearest?near=47.6%00abc,-122.3 HTTP/1.1\r\nHost: a\r\n\r\n", 400, "is not a location"),
      ("GET /v1/stores/within?bbox=-123%00x,47,-122,48 HTTP/1.1\r\nHost: a\r\n\r\n", 400, "is not a box"),
    ]
    for item in cases {
      let (response, closed) = try await ServerProcess.onThread {
        let connection = try RawHTTPConnection(port: port)
        try connection.send(item.request)
        let response = try connection.readResponse()
        return (response, response.headers["connection"] == "close" ? connection.isClosedByServer() : true)
      }
      let summary = item.request.prefix { $0 != "\r" }
      #expect(response.status == item.status, "\(summary): \(response.body)")
      #expect(response.headers["content-type"] == "application/problem+json", "\(summary)")
      #expect(response.body.contains(item.detail), "\(summary): \(response.body)")
      #expect(Int(response.headers["content-length"] ?? "") == response.body.utf8.count, "\(summary)")
      #expect(closed, "\(summary): the connection stays open")
    }
    // Not one of them is the service's fault.
    #expect(!server.log.contains("unexpected error"))
  }

  @Test func expectContinueIsAnsweredBeforeTheBody() async throws {
    let server = try await Self.bundledServer()
    let port = server.port
    let body = #"{"near": "47.6062,-122.3321", "ready_in": "12m", "now": "2026-11-25T18:00:00Z"}"#
    let (interim, final) = try await ServerProcess.onThread {
      let connection = try RawHTTPConnection(port: port)
      try connection.send(
        "POST /v1/pickup HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
      // The client waits for this before it sends the body.
      let interim = try connection.readResponse()
      try connection.send(body)
      return (interim.status, try connection.readResponse().status)
    }
    #expect(interim == 100)
    #expect(final == 200)
  }

  @Test func http10WithoutKeepAliveIsAnsweredAndClosed() async throws {
    let server = try await Self.bundledServer()
    let port = server.port
    let (plain, plainClosed, kept, keptOpen) = try await ServerProcess.onThread {
      let plain = try RawHTTPConnection(port: port, timeout: 5)
      try plain.send("GET /healthz HTTP/1.0\r\n\r\n")
      let plainResponse = try plain.readResponse()
      let plainClosed = plain.isClosedByServer()
      let kept = try RawHTTPConnection(port: port, timeout: 5)
      try kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
      let keptResponse = try kept.readResponse()
      // Still open: a second request on it is answered.
      try kept.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
      return (plainResponse, plainClosed, keptResponse, try kept.readResponse().status == 200)
    }
    #expect(plain.status == 200)
    #expect(plain.headers["connection"] == "close")
    #expect(plainClosed)
    #expect(kept.status == 200)
    #expect(kept.headers["connection"] == "keep-alive")
    #expect(keptOpen)
  }

  @Test func connectionsPastTheBoundAreClosedAtOnceAndCounted() async throws {
    let server = try await Self.bundledServer(["--max-connections", "3"])
    let port = server.port
    let (refusedAtOnce, metrics) = try await ServerProcess.onThread { () -> (Bool, String?) in
      var held = try (0..<3).map { _ in
        let connection = try RawHTTPConnection(port: port, timeout: 5)
        _ = try connection.get("/healthz")
        return connection
      }
      // The fourth is closed without an answer, not left waiting in the listen queue.
      let extra = try RawHTTPConnection(port: port, timeout: 5)
      let start = Date()
      let refusedAtOnce = extra.isClosedByServer() && Date().timeIntervalSince(start) < 4
      // Once one closes (its descriptor is closed on release), a new connection is served.
      held.removeFirst()
      var text: String?
      _ = ServerProcess.eventually(seconds: 10) {
        text = try? RawHTTPConnection.get(port: port, "/metrics").body
        return text != nil
      }
      return (refusedAtOnce, text)
    }
    #expect(refusedAtOnce)
    let text = try #require(metrics, "no connection was served after one of the three closed")
    #expect((ServerProcess.sample("stores_connections_refused_total", in: text) ?? 0) >= 1)
  }

  @Test func atTheDescriptorLimitNewConnectionsAreClosedWithoutSpinning() async throws {
    // 256 descriptors: --max-connections defaults to 128, and 300 idle connections would run the
    // process out of descriptors, where accept fails and an event loop spins on the listener.
    let server = try await ServerProcess.onThread {
      try RunningServer(["--data", TestService.bundledData], logLevel: "notice", descriptorLimit: 256)
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)")
    let port = server.port
    let pid = server.processIdentifier
    let (closedAtOnce, cpuSeconds, servedAfter) = try await ServerProcess.onThread {
      // The place names are indexed as the server starts (seconds of CPU in a debug build): the
      // CPU measured below must be the idle server's.
      guard ServerProcess.eventually(seconds: 300, { server.log.contains("place names indexed") }) else {
        throw RawHTTPConnection.Failure(description: "the place names were never indexed: \(server.log)")
      }
      var idle = try (0..<300).map { _ in try RawHTTPConnection(port: port, timeout: 5) }
      // Let the server accept (or close) every one of them.
      usleep(500_000)
      let before = ServerProcess.cpuSeconds(of: pid)
      usleep(1_000_000)
      let cpuSeconds = ServerProcess.cpuSeconds(of: pid) - before
      let extra = try RawHTTPConnection(port: port, timeout: 5)
      let start = Date()
      let closedAtOnce = extra.isClosedByServer() && Date().timeIntervalSince(start) < 4
      idle.removeAll()
      var served = false
      _ = ServerProcess.eventually(seconds: 10) {
        served = (try? RawHTTPConnection.get(port: port, "/healthz").status) == 200
        return served
      }
      return (closedAtOnce, cpuSeconds, served)
    }
    #expect(closedAtOnce, "a connection past the bound waited instead of being closed")
    #expect(cpuSeconds < 0.2, "the server used \(cpuSeconds) s of CPU in 1 s with nothing to do")
    #expect(servedAfter)
  }

  @Test func terminateWaitsUntilAnAnswerBeingSentIsWritten() async throws {
    let server = try await Self.heavyServer()
    let port = server.port
    let connection = try await ServerProcess.onThread { try Self.stalledLargeAnswer(port: port) }
    server.signal(SIGTERM)
    let response = try await ServerProcess.onThread {
      usleep(500_000)
      return try connection.readResponse()
    }
    #expect(response.status == 200)
    #expect(response.body.utf8.count > 12_000_000)
    #expect(response.body.hasSuffix("}\n"))
    #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
  }

  @Test func anAnswerCutByTheShutdownTimeoutIsLoggedAndTheExitStatusSaysSo() async throws {
    let server = try await Self.heavyServer(["--shutdown-timeout", "1"], logLevel: "notice")
    let port = server.port
    let connection = try await ServerProcess.onThread { try Self.stalledLargeAnswer(port: port) }
    server.signal(SIGTERM)
    // The client never reads: the answer cannot be written within a second. The connection is
    // kept open until the server has exited (a connection let go earlier is closed, and then
    // nothing is left to cut).
    let status = try await ServerProcess.onThread {
      withExtendedLifetime(connection) { server.exitStatus(within: 60) }
    }
    #expect(status == 75, "exit status \(status); the log:\n\(server.log)")
    #expect(server.log.contains("an answer was cut"))
    #expect(server.log.contains("cut by --shutdown-timeout"))
  }
}
