import Foundation
import Testing

/// The same questions through `stores … --format json` and through `stores-server`, over a real
/// socket, give the same bytes.
@Suite struct CommandParityTests {
  static let data = TestService.bundledData
  static let now = TestService.now
  static let order = TestService.repositoryRoot.appendingPathComponent("docs/examples/order.json").path

  /// A GET route and the command that asks the same.
  static let questions: [(uri: String, command: [String])] = [
    (
      "/v1/stores/nearest?near=47.6062,-122.3321&k=3&now=\(now)",
      ["nearest", "--near", "47.6062,-122.3321", "-k", "3", "--now", now, "--format", "json"]
    ),
    (
      "/v1/stores/nearest?near=47.6062,-122.3321&k=4&where=drive_through=yes&open_at=2026-11-26T07:00&now=\(now)",
      [
        "nearest", "--near", "47.6062,-122.3321", "-k", "4", "--where", "drive_through=yes", "--open-at",
        "2026-11-26T07:00", "--now", now, "--format", "json",
      ]
    ),
    (
      "/v1/stores/nearest?near=47.6062,-122.3321&k=2&format=geojson&now=\(now)",
      ["nearest", "--near", "47.6062,-122.3321", "-k", "2", "--now", now, "--format", "geojson"]
    ),
    (
      // A selection of members (answered where it arrived: bounded).
      "/v1/stores/nearest?near=47.6062,-122.3321&k=3&fields=id,name,distance_m,state&now=\(now)",
      [
        "nearest", "--near", "47.6062,-122.3321", "-k", "3", "--fields", "id,name,distance_m,state", "--now",
        now,
        "--format", "json",
      ]
    ),
    (
      "/v1/stores/within?near=47.6062,-122.3321&radius=3km&limit=4&fields=distance_m&format=geojson&now=\(now)",
      [
        "within", "--near", "47.6062,-122.3321", "--radius", "3km", "--limit", "4", "--fields", "distance_m",
        "--now", now, "--format", "geojson",
      ]
    ),
    (
      // Nothing matches: the same empty answer (the CLI's reasons go to standard error).
      "/v1/stores/nearest?near=0,-160&k=2&within=1km&now=\(now)",
      ["nearest", "--near", "0,-160", "-k", "2", "--within", "1km", "--now", now, "--format", "json"]
    ),
    (
      "/v1/stores/within?near=47.6062,-122.3321&radius=3km&limit=4&now=\(now)",
      [
        "within", "--near", "47.6062,-122.3321", "--radius", "3km", "--limit", "4", "--now", now, "--format",
        "json",
      ]
    ),
    (
      "/v1/stores/within?bbox=-122.4,47.5,-122.2,47.7&limit=3&now=\(now)",
      ["within", "--bbox", "-122.4,47.5,-122.2,47.7", "--limit", "3", "--now", now, "--format", "json"]
    ),
    (
      "/v1/stores/clusters?bbox=-180,-85,180,85&columns=8&rows=4&now=\(now)",
      [
        "clusters", "--bbox", "-180,-85,180,85", "--columns", "8", "--rows", "4", "--now", now, "--format",
        "json",
      ]
    ),
    (
      // Across the antimeridian (Fiji), with a condition and an opening time.
      "/v1/stores/clusters?bbox=170,-20,-170,-10&columns=5&rows=3&where=drive_through=yes&open_at=2026-11-26T07:00&now=\(now)",
      [
        "clusters", "--bbox", "170,-20,-170,-10", "--columns", "5", "--rows", "3", "--where",
        "drive_through=yes",
        "--open-at", "2026-11-26T07:00", "--now", now, "--format", "json",
      ]
    ),
    ("/v1/stores/nw-0145?now=\(now)", ["show", "nw-0145", "--now", now, "--format", "json"]),
    (
      "/v1/stores/nw-0145?format=geojson&now=\(now)",
      ["show", "nw-0145", "--now", now, "--format", "geojson"]
    ),
    (
      "/v1/stores/nw-0145?at=2026-11-28T09:00&now=\(now)",
      ["show", "nw-0145", "--at", "2026-11-28T09:00", "--now", now, "--format", "json"]
    ),
    (
      "/v1/stores/nw-0145/hours?days=3&now=\(now)",
      ["hours", "nw-0145", "--days", "3", "--now", now, "--format", "json"]
    ),
    (
      "/v1/stores/nw-0145/open?for=45m&at=2026-11-26T10:00&now=\(now)",
      ["open", "nw-0145", "--for", "45m", "--at", "2026-11-26T10:00", "--now", now, "--format", "json"]
    ),
    ("/v1/info", ["info", "--format", "json"]),
  ]

  /// Runs `body` with the port of a `stores-server` on the bundled data: a process of its own,
  /// so its answers never wait for the threads of Swift's cooperative pool that this process's
  /// other tests hold (an in-process server did, past its client's 15 s read timeout, when CI
  /// ran every suite at once on two cores).
  static func withServer(_ body: (Int) async throws -> Void) async throws {
    let server = try await ServerProcess.onThread {
      try RunningServer(["--data", Self.data, "--state", "memory"])
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)\n\(server.log)")
    try await body(server.port)
    server.signal(SIGTERM)
    #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
  }

  /// What the command prints with `arguments` (off the cooperative pool: a run blocks its thread
  /// until the process exits).
  static func command(_ arguments: [String]) async throws -> (output: String, status: Int32) {
    try await ServerProcess.onThread { try BuiltBinaries.runStores(arguments) }
  }

  @Test func everyGetRouteAnswersAsTheCommandPrints() async throws {
    try await Self.withServer { port in
      for question in Self.questions {
        let command = try await Self.command(question.command + ["--data", Self.data])
        #expect(!command.output.isEmpty, "\(question.command)")
        let response = try await ServerProcess.onThread {
          try RawHTTPConnection.get(port: port, question.uri)
        }
        #expect(response.status == 200, "\(question.uri): \(response.body)")
        #expect(response.body == command.output, "\(question.uri)")
      }
    }
  }

  @Test func pickupAnswersAsTheCommandPrints() async throws {
    try await Self.withServer { port in
      let plain = try await Self.command([
        "pickup", "--near", "47.6062,-122.3321", "--ready-in", "12m", "--travel", "bike", "--now", Self.now,
        "--format", "json", "--data", Self.data,
      ])
      let plainResponse = try await ServerProcess.onThread {
        try RawHTTPConnection.post(
          port: port, "/v1/pickup",
          json: #"{"near": "47.6062,-122.3321", "ready_in": "12m", "travel": "bike", "now": "\#(Self.now)"}"#)
      }
      #expect(plainResponse.status == 200)
      #expect(plainResponse.body == plain.output)

      let placed = try await Self.command([
        "pickup", "--order", Self.order, "--now", Self.now, "--data", Self.data,
      ])
      let order = try String(contentsOfFile: Self.order, encoding: .utf8)
      let orderResponse = try await ServerProcess.onThread {
        try RawHTTPConnection.post(port: port, "/v1/pickup?now=\(Self.now)", json: order)
      }
      #expect(orderResponse.status == 200)
      #expect(orderResponse.body == placed.output)
    }
  }

  @Test func theCommandAndTheServiceRefuseWithTheSameSentence() async throws {
    try await Self.withServer { port in
      let response = try await ServerProcess.onThread {
        try RawHTTPConnection.get(port: port, "/v1/stores/nearest?near=47.6062,-122.3321&k=0")
      }
      #expect(response.status == 400)
      let problem = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any]
      let detail = try #require(problem?["detail"] as? String)
      // `-k` on the command line, `k` in the query string: the same sentence otherwise.
      #expect(detail == "k must be 1...1000 (got 0)")
      let command = try await Self.command([
        "nearest", "--near", "47.6062,-122.3321", "-k", "0", "--data", Self.data,
      ])
      #expect(command.status != 0)
    }
  }
}
