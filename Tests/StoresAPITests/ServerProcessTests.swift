import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `stores-server` executable as an operator runs it: the startup line, SIGHUP, SIGTERM with
/// many requests in flight, and the exit codes.
@Suite struct ServerProcessTests {
  /// A pickup request; its answer assigns one of the stores of `ReloadTests.stores`.
  static let pickupBody = #"{"near": "52.52,13.405", "ready_in": "10m", "now": "2026-11-25T10:00:00Z"}"#

  /// The head of `POST /v1/pickup` with `pickupBody` and the body's first `sent` bytes.
  static func pickupStart(sent: Int) -> String {
    "POST /v1/pickup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(pickupBody.utf8.count)\r\n\r\n" + pickupBody.prefix(sent)
  }

  @Test func startsAndReloadsOnHangup() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let server = try await ServerProcess.onThread { try RunningServer(["--data", path]) }
    #expect(server.startupLine.hasPrefix("stores-server: serving 5 stores from \(path) (version "))
    #expect(server.startupLine.contains("on http://127.0.0.1:\(server.port)"))
    // No token, no admin route: the startup line does not offer it.
    #expect(!server.startupLine.contains("/admin/reload"))
    try #require(server.port > 0, "startup line: \(server.startupLine)")
    let port = server.port

    let first = try await ServerProcess.onThread { try RawHTTPConnection.get(port: port, "/v1/stores/a-1") }
    #expect(first.status == 200)
    let firstVersion = try #require(first.headers["x-stores-data-version"])
    #expect(server.startupLine.contains("version \(firstVersion)"))

    // SIGHUP: the new file is served once the reload is done.
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("b").utf8))
    server.signal(SIGHUP)
    let (reloaded, newStore, oldStore) = try await ServerProcess.onThread {
      let reloaded = try ServerProcess.eventually {
        try RawHTTPConnection.get(port: port, "/readyz").headers["x-stores-data-version"] != firstVersion
      }
      return (
        reloaded, try RawHTTPConnection.get(port: port, "/v1/stores/b-1").status,
        try RawHTTPConnection.get(port: port, "/v1/stores/a-1").status
      )
    }
    #expect(reloaded)
    #expect(newStore == 200)
    #expect(oldStore == 404)
    server.signal(SIGTERM)
    #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
  }

  /// The place names are indexed as the server starts, before any place query asks: the log
  /// says so with no request sent, and the first query then finds the place.
  @Test func placeNamesAreIndexedAtStartUpBeforeAnyQuery() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let server = try await ServerProcess.onThread { try RunningServer(["--data", path], logLevel: "notice") }
    try #require(server.port > 0, "startup line: \(server.startupLine)\n\(server.log)")
    let port = server.port
    // Seconds in a debug build while every suite runs: the bound is generous on purpose.
    let indexed = try await ServerProcess.onThread {
      ServerProcess.eventually(seconds: 300) { server.log.contains("place names indexed") }
    }
    #expect(indexed, "\(server.log)")
    #expect(server.log.contains("places=69472 seconds="), "\(server.log)")
    let answer = try await ServerProcess.onThread {
      try RawHTTPConnection.get(port: port, "/v1/places?q=Fremantle")
    }
    #expect(answer.status == 200)
    #expect(answer.body.contains("\"Western Australia\""))
    server.signal(SIGTERM)
    #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
  }

  /// 32 pickups whose bodies have not all arrived are in flight when SIGTERM comes: the server
  /// stops accepting connections, closes the idle ones, waits for the 32 bodies, answers each
  /// in full and exits 0.
  @Test func answersEveryRequestInFlightOnTerminate() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    // No request deadline: the pickups wait while the test polls, which takes long on a busy
    // machine (CI runs every suite at once).
    let server = try await ServerProcess.onThread {
      try RunningServer(["--data", path, "--request-timeout", "0"])
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)")
    let port = server.port
    let inFlight = 32
    let sentBeforeTerminate = 10

    let (connections, idle) = try await ServerProcess.onThread {
      let connections = try (0..<inFlight).map { _ in
        let connection = try RawHTTPConnection(port: port)
        try connection.send(Self.pickupStart(sent: sentBeforeTerminate))
        return connection
      }
      // A keep-alive connection with its one request answered: nothing in flight.
      let idle = try RawHTTPConnection(port: port)
      return (connections, (connection: idle, status: try idle.get("/healthz").status))
    }
    #expect(idle.status == 200)
    let active = "http_server_active_requests{http_request_method=\"POST\"}"
    let allStarted = try await ServerProcess.onThread {
      try ServerProcess.eventually(seconds: 60) {
        ServerProcess.sample(active, in: try RawHTTPConnection.get(port: port, "/metrics").body)
          == Double(inFlight)
      }
    }
    try #require(allStarted, "the server never counted \(inFlight) pickups in flight")

    // `/readyz` answers 503 from here on, but no client can see it: the listening socket closes
    // at the same moment, and a request pipelined after one in flight is not read (the router
    // test `drainingIsNotReady` covers the 503).
    server.signal(SIGTERM)
    let terminated = ContinuousClock.now
    let (refused, idleClosed, answers, answeredAfter) = try await ServerProcess.onThread {
      // Shutdown has begun once new connections are refused; the idle connection is closed.
      let refused = ServerProcess.eventually(seconds: 30) { RawHTTPConnection.isRefused(port: port) }
      let idleClosed = idle.connection.isClosedByServer()
      // Only now do the bodies complete, each on its own connection.
      for connection in connections {
        try connection.send(String(Self.pickupBody.dropFirst(sentBeforeTerminate)))
      }
      let answers = connections.map { connection in
        Result { try connection.readResponse() }.map { ($0, connection.isClosedByServer()) }
      }
      return (refused, idleClosed, answers, ContinuousClock.now - terminated)
    }
    #expect(refused, "new connections were still accepted after SIGTERM")
    #expect(idleClosed, "the idle keep-alive connection stayed open after SIGTERM")
    // Timed on the thread: resuming this task may wait for a thread of a busy pool.
    let (status, drained) = try await ServerProcess.onThread {
      (server.exitStatus(within: 30), ContinuousClock.now - terminated)
    }

    #expect(answers.count == inFlight)
    for (number, answer) in answers.enumerated() {
      switch answer {
      case .success(let (response, closed)):
        #expect(response.status == 200, "connection \(number): \(response.body)")
        #expect(response.body.contains("\"status\":\"assigned\""), "connection \(number): \(response.body)")
        #expect(response.headers["content-length"].flatMap(Int.init) == response.body.utf8.count)
        // Answered, then closed: the server keeps no connection open while it shuts down.
        #expect(closed, "connection \(number) stayed open after its answer")
      case .failure(let error):
        Issue.record("connection \(number): no answer: \(error)")
      }
    }
    #expect(status == 0)
    let complete = answers.filter { (try? $0.get().0.status) == 200 }.count
    print(
      "graceful shutdown: \(complete) of \(inFlight) requests in flight answered 200 "
        + "\(answeredAfter) after SIGTERM; exit status \(status) after \(drained)")
  }

  /// With `--drain-delay`, SIGTERM turns `/readyz` to 503 while the service still answers new
  /// connections, so a load balancer polling it stops sending before the listener closes.
  @Test func drainDelayKeepsAnsweringWhileReadinessSaysNo() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let server = try await ServerProcess.onThread {
      try RunningServer(["--data", path, "--drain-delay", "6"])
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)")
    let port = server.port
    #expect(
      try await ServerProcess.onThread { try RawHTTPConnection.get(port: port, "/readyz").status } == 200)
    server.signal(SIGTERM)
    let (readiness, nearest, refusedLater, status) = try await ServerProcess.onThread {
      var readiness = 200
      _ = try ServerProcess.eventually(seconds: 5) {
        readiness = try RawHTTPConnection.get(port: port, "/readyz").status
        return readiness == 503
      }
      let nearest = try RawHTTPConnection.get(port: port, "/v1/stores/nearest?near=52.52,13.405&k=2").status
      let refusedLater = ServerProcess.eventually(seconds: 30) { RawHTTPConnection.isRefused(port: port) }
      return (readiness, nearest, refusedLater, server.exitStatus(within: 30))
    }
    #expect(readiness == 503)
    #expect(nearest == 200)
    #expect(refusedLater)
    #expect(status == 0)
  }

  /// A connection that stops sending mid-request is closed after `--idle-timeout`, so slow or
  /// stalled clients cannot hold connections for ever.
  @Test func aStalledConnectionIsClosedAfterTheIdleTimeout() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let server = try await ServerProcess.onThread {
      try RunningServer(["--data", path, "--idle-timeout", "1"])
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)")
    let port = server.port
    let (closed, waited) = try await ServerProcess.onThread {
      let connection = try RawHTTPConnection(port: port)
      try connection.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
      let start = ContinuousClock.now
      let closed = connection.isClosedByServer()
      return (closed, ContinuousClock.now - start)
    }
    #expect(closed)
    // Bounded above by the connection's 10 s read timeout, which `isClosedByServer` reports as
    // not closed.
    #expect(waited >= .milliseconds(900), "closed after \(waited)")
    server.signal(SIGTERM)
    #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
  }

  @Test func dataItCannotServeEndsTheProcessWithTheCLIsCodes() async throws {
    let path = try TestService.temporaryFile("not json")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let (missing, bad, usage) = try await ServerProcess.onThread {
      let missing = try RunningServer(["--data", "/nonexistent/stores.geojson"])
      let bad = try RunningServer(["--data", path])
      let usage = try RunningServer(["--max-body-bytes", "0"])
      return (
        (missing.startupLine, missing.exitStatus(), missing.log), bad.exitStatus(), usage.exitStatus()
      )
    }
    #expect(missing.0.isEmpty)
    #expect(missing.1 == 66)
    #expect(missing.2.contains("/nonexistent/stores.geojson"))
    #expect(bad == 65)
    #expect(usage == 64)
  }
}
