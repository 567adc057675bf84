import Foundation
import StoreLocator
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `stores-server` process reloads its data 20 times under traffic: two files and a broken
/// one in turn, by `POST /admin/reload` and by SIGHUP. Not one request fails, and every answer is
/// wholly from one version of the data.
@Suite struct ReloadUnderLoadTests {
  /// Client connections, each sending its requests one after another on one keep-alive connection.
  static let clients = 4
  static let requestsPerClient = 150
  static let reloads = 20

  /// What the data file holds in reload round `round`: after A at startup, B, broken, A, B, …
  enum FileContent: CaseIterable {
    case b, broken, a

    static func forRound(_ round: Int) -> FileContent { allCases[round % allCases.count] }
  }

  /// What one client saw.
  struct ClientReport: Sendable {
    var answered = 0
    var versions: [String: Int] = [:]
    /// What was wrong, one sentence per request (the first few are kept).
    var problems: [String] = []
    var problemCount = 0

    mutating func note(_ problem: String) {
      problemCount += 1
      if problems.count < 5 { problems.append(problem) }
    }
  }

  /// What the reloader did: per round, the trigger and what the check after it found wrong.
  struct ReloaderReport: Sendable {
    var rounds = 0
    var hangups = 0
    var posts = 0
    var problems: [String] = []
  }

  /// Requests answered so far by all clients: the reloader spreads its rounds over them.
  final class Progress: Sendable {
    let answered = Atomic<Int>(0)
    /// Set when a client stops early, so the reloader does not wait for answers that never come.
    let clientStopped = Atomic<Bool>(false)
  }

  @Test func everyAnswerDuringTwentyReloadsIsWhollyFromOneVersion() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let dataA = Data(ReloadTests.stores("a").utf8)
    let dataB = Data(ReloadTests.stores("b").utf8)
    let versionA = try Catalog(geoJSON: Array(dataA), source: path).dataVersion
    let versionB = try Catalog(geoJSON: Array(dataB), source: path).dataVersion
    try #require(versionA != versionB)
    let prefixes = [versionA: "a-", versionB: "b-"]

    // Notice level: the log says every reload, done or failed.
    // No request deadline: the pickup held open across the first reload must not time out when
    // the machine is busy (CI runs every suite at once); the test's own waits are bounded.
    let server = try await ServerProcess.onThread {
      try RunningServer(
        ["--data", path, "--request-timeout", "0"], adminToken: ReloadTests.token, logLevel: "notice")
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)\n\(server.log)")
    #expect(server.startupLine.contains("version \(versionA)"))
    let port = server.port
    let progress = Progress()
    let total = Self.clients * Self.requestsPerClient

    // A pickup whose body is still arriving when the first reload swaps B in: it was routed on
    // A, and is answered from A.
    let pickupBody = #"{"near": "52.52,13.405", "ready_in": "10m", "now": "2026-11-25T10:00:00Z"}"#
    let inFlight = try await ServerProcess.onThread {
      let connection = try RawHTTPConnection(port: port)
      try connection.send(
        "POST /v1/pickup HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(pickupBody.utf8.count)\r\n\r\n" + pickupBody.prefix(10))
      // Routed (and its data taken) once the server counts it as active.
      let started = try ServerProcess.eventually {
        let metrics = try RawHTTPConnection.get(port: port, "/metrics").body
        return ServerProcess.sample("http_server_active_requests{http_request_method=\"POST\"}", in: metrics)
          == 1
      }
      return (connection: connection, started: started)
    }
    try #require(inFlight.started, "the pickup in flight was never counted as active")

    let start = ContinuousClock.now
    async let reloaderReport = ServerProcess.onThread {
      try Self.reload(
        server: server, path: path, data: [.a: dataA, .b: dataB], versions: [.a: versionA, .b: versionB],
        progress: progress, total: total, inFlight: (inFlight.connection, pickupBody))
    }
    var clientReports: [ClientReport] = []
    try await withThrowingTaskGroup(of: ClientReport.self) { group in
      for client in 0..<Self.clients {
        group.addTask {
          try await ServerProcess.onThread {
            Self.query(port: port, client: client, prefixes: prefixes, progress: progress)
          }
        }
      }
      for try await report in group { clientReports.append(report) }
    }
    let reloader = try await reloaderReport
    let elapsed = ContinuousClock.now - start

    // Every request answered 200, wholly from one of the two files.
    let answered = clientReports.map(\.answered).reduce(0, +)
    #expect(answered == total, "\(clientReports.flatMap(\.problems))")
    #expect(clientReports.map(\.problemCount).reduce(0, +) == 0, "\(clientReports.flatMap(\.problems))")
    // Both files were served while the clients asked.
    var versionsSeen: [String: Int] = [:]
    for report in clientReports { versionsSeen.merge(report.versions, uniquingKeysWith: +) }
    #expect(Set(versionsSeen.keys) == [versionA, versionB], "\(versionsSeen)")

    // Twenty reloads, by both triggers, each answered or observed as the file asks.
    #expect(reloader.rounds == Self.reloads, "\(reloader.problems)")
    #expect(reloader.hangups > 0 && reloader.posts > 0)
    #expect(reloader.problems.isEmpty, "\(reloader.problems)")

    // /metrics counts them; the log says why each broken file was refused.
    let failures = (0..<Self.reloads).filter { FileContent.forRound($0) == .broken }.count
    let metrics = try await ServerProcess.onThread { try RawHTTPConnection.get(port: port, "/metrics").body }
    #expect(
      ServerProcess.sample("stores_reloads_total{result=\"success\"}", in: metrics)
        == Double(Self.reloads - failures))
    #expect(ServerProcess.sample("stores_reloads_total{result=\"failure\"}", in: metrics) == Double(failures))

    server.signal(SIGTERM)
    #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
    let log = server.log.split(separator: "\n")
    let failedLines = log.filter { $0.contains("reload failed; still serving the data loaded before") }
    #expect(failedLines.count == failures, "\(log.suffix(10))")
    // The reason: the file, and what is wrong with it.
    #expect(
      failedLines.allSatisfy {
        $0.contains("error=\(path): no readable GeoJSON record: the file ends early")
      },
      "\(failedLines.first ?? "")")
    #expect(
      failedLines.contains { $0.contains("SIGHUP") }
        && failedLines.contains { $0.contains("POST /admin/reload") })
    #expect(log.filter { $0.contains("reloaded the data") }.count == Self.reloads - failures)
    print(
      "reload under load: \(answered) requests on \(Self.clients) connections during \(Self.reloads) reloads in \(elapsed)"
    )
  }

  /// One client: `requestsPerClient` nearest queries on one keep-alive connection, each checked.
  static func query(port: Int, client: Int, prefixes: [String: String], progress: Progress) -> ClientReport {
    var report = ClientReport()
    defer {
      if report.answered < requestsPerClient { progress.clientStopped.store(true, ordering: .relaxed) }
    }
    let connection: RawHTTPConnection
    do { connection = try RawHTTPConnection(port: port) } catch {
      report.note("client \(client): \(error)")
      return report
    }
    for number in 0..<requestsPerClient {
      // Points around the stores, so the order of the answer differs from request to request.
      let latitude = 52.515 + Double((client * 7 + number) % 10) * 0.002
      let response: RawHTTPConnection.Response
      do { response = try connection.get("/v1/stores/nearest?near=\(latitude),13.405&k=5") } catch {
        report.note("client \(client), request \(number): \(error)")
        return report
      }
      report.answered += 1
      progress.answered.add(1, ordering: .relaxed)
      guard response.status == 200 else {
        report.note("client \(client), request \(number): status \(response.status): \(response.body)")
        continue
      }
      guard let version = response.headers["x-stores-data-version"], let prefix = prefixes[version] else {
        report.note(
          "client \(client), request \(number): version \(response.headers["x-stores-data-version"] ?? "none")"
        )
        continue
      }
      report.versions[version, default: 0] += 1
      let ids = (response.json?["stores"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
      if ids.count != 5 || !ids.allSatisfy({ $0.hasPrefix(prefix) }) {
        report.note("client \(client), request \(number): \(ids) under version \(version) (\(prefix)*)")
      }
    }
    return report
  }

  /// The reloader: `reloads` rounds spread over the clients' requests, each renaming the round's
  /// file over `path` and asking for a reload, by `POST /admin/reload` on even rounds and by
  /// SIGHUP on odd ones; after each, the service must serve the new data, or the old data when
  /// the file was broken.
  static func reload(
    server: RunningServer, path: String, data: [FileContent: Data], versions: [FileContent: String],
    progress: Progress, total: Int, inFlight: (connection: RawHTTPConnection, body: String)
  ) throws -> ReloaderReport {
    var report = ReloaderReport()
    let admin = try RawHTTPConnection(port: server.port)
    var serving = versions[.a]!
    for round in 0..<reloads {
      // Round r waits for (r + 1) / (reloads + 2) of the requests: the clients query before,
      // between and after the reloads.
      let due = (round + 1) * total / (reloads + 2)
      guard
        ServerProcess.eventually({
          progress.answered.load(ordering: .relaxed) >= due || progress.clientStopped.load(ordering: .relaxed)
        })
      else {
        report.problems.append(
          "round \(round): the clients answered \(progress.answered.load(ordering: .relaxed)) of \(due) requests"
        )
        return report
      }
      let content = FileContent.forRound(round)
      try ReloadTests.replace(
        path, with: data[content] ?? Data("{\"type\": \"FeatureCollection\", \"features\": [".utf8))
      let expected = versions[content] ?? serving
      if round % 2 == 0 {
        report.posts += 1
        try admin.send(
          "POST /admin/reload HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ReloadTests.token)\r\n"
            + "Content-Length: 0\r\n\r\n")
        let answer = try admin.readResponse()
        let body = answer.json ?? [:]
        if content == .broken {
          if answer.status != 422 || answer.headers["content-type"] != "application/problem+json"
            || body["reloaded"] as? Bool != false || body["version"] as? String != serving
            || (body["detail"] as? String)?.contains(path) != true
          {
            report.problems.append("round \(round): a broken file answered \(answer.status) \(answer.body)")
          }
        } else if answer.status != 200 || body["version"] as? String != expected
          || body["previous_version"] as? String != serving
        {
          report.problems.append("round \(round): answered \(answer.status) \(answer.body)")
        }
      } else {
        report.hangups += 1
        server.signal(SIGHUP)
        // Done when /metrics counts round + 1 reloads.
        let done = try ServerProcess.eventually {
          let metrics = try admin.get("/metrics").body
          let count = ["success", "failure"].compactMap {
            ServerProcess.sample("stores_reloads_total{result=\"\($0)\"}", in: metrics)
          }.reduce(0, +)
          return count >= Double(round + 1)
        }
        if !done { report.problems.append("round \(round): SIGHUP reload not counted in /metrics") }
      }
      let ready = try admin.get("/readyz")
      if ready.headers["x-stores-data-version"] != expected {
        report.problems.append(
          "round \(round) (\(content)): serving \(ready.headers["x-stores-data-version"] ?? "none"), expected \(expected)"
        )
      }
      serving = expected
      report.rounds += 1

      if round == 0 {
        // B is served now; the pickup routed on A finishes on A.
        try inFlight.connection.send(String(inFlight.body.dropFirst(10)))
        let answer = try inFlight.connection.readResponse()
        if answer.status != 200 || answer.headers["x-stores-data-version"] != versions[.a]
          || !answer.body.contains("\"id\":\"a-")
        {
          report.problems.append(
            "the pickup in flight across the first reload: \(answer.status) \(answer.headers["x-stores-data-version"] ?? "") \(answer.body)"
          )
        }
      }
    }
    return report
  }
}
