import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import StoresAPI

/// The same questions through `stores … --format json` and through the service, over a real
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

  @Test func everyGetRouteAnswersAsTheCommandPrints() async throws {
    try await TestService.application(TestService.service()).test(.live) { client in
      for question in Self.questions {
        // Off the cooperative pool: a run of the command blocks its thread until it exits.
        let arguments = question.command + ["--data", Self.data]
        let command = try await ServerProcess.onThread { try BuiltBinaries.runStores(arguments) }
        #expect(!command.output.isEmpty, "\(question.command)")
        let response = try await client.get(question.uri)
        #expect(response.status == .ok, "\(question.uri): \(response.text)")
        #expect(response.text == command.output, "\(question.uri)")
      }
    }
  }

  @Test func pickupAnswersAsTheCommandPrints() async throws {
    try await TestService.application(TestService.service()).test(.live) { client in
      let plain = try await ServerProcess.onThread {
        try BuiltBinaries.runStores([
          "pickup", "--near", "47.6062,-122.3321", "--ready-in", "12m", "--travel", "bike", "--now", Self.now,
          "--format", "json", "--data", Self.data,
        ])
      }
      let plainResponse = try await client.post(
        "/v1/pickup",
        json: #"{"near": "47.6062,-122.3321", "ready_in": "12m", "travel": "bike", "now": "\#(Self.now)"}"#)
      #expect(plainResponse.status == .ok)
      #expect(plainResponse.text == plain.output)

      let placed = try await ServerProcess.onThread {
        try BuiltBinaries.runStores(["pickup", "--order", Self.order, "--now", Self.now, "--data", Self.data])
      }
      let orderResponse = try await client.post(
        "/v1/pickup?now=\(Self.now)", json: try String(contentsOfFile: Self.order, encoding: .utf8))
      #expect(orderResponse.status == .ok)
      #expect(orderResponse.text == placed.output)
    }
  }

  @Test func theCommandAndTheServiceRefuseWithTheSameSentence() async throws {
    try await TestService.application(TestService.service()).test(.live) { client in
      let response = try await client.get("/v1/stores/nearest?near=47.6062,-122.3321&k=0")
      #expect(response.status == .badRequest)
      let detail = try #require(try response.json()["detail"] as? String)
      // `-k` on the command line, `k` in the query string: the same sentence otherwise.
      #expect(detail == "k must be 1...1000 (got 0)")
    }
  }
}
