import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import StoreLocator
import Testing

@testable import StoresAPI

/// Every error is an RFC 9457 problem with the library's sentence and the right status.
@Suite struct ProblemTests {
  /// Checks the problem members every error has, and returns the body.
  @discardableResult
  func expectProblem(
    _ response: TestResponse, _ status: HTTPResponse.Status, kind: String, parameter: String? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [String: Any] {
    #expect(response.status == status, "\(response.text)", sourceLocation: sourceLocation)
    #expect(response.headers[.contentType] == "application/problem+json", sourceLocation: sourceLocation)
    let body = try response.json()
    #expect(body["type"] as? String == "urn:stores:problem:\(kind)", sourceLocation: sourceLocation)
    #expect(body["status"] as? Int == Int(status.code), sourceLocation: sourceLocation)
    #expect((body["title"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    #expect((body["detail"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    #expect(body["parameter"] as? String == parameter, sourceLocation: sourceLocation)
    #expect(response.headers[.requestID] != nil, sourceLocation: sourceLocation)
    return body
  }

  @Test func badInputIs400WithTheLibrarysSentence() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let body = try expectProblem(
        try await client.get("/v1/stores/nearest?near=91,0"), .badRequest, kind: "invalid-request",
        parameter: "near")
      // The sentence the CLI prints for --near, with the query string's spelling.
      do throws(RequestError) {
        _ = try NearestRequest(RequestParameters([("near", "91,0")], style: .queryString))
        Issue.record("91,0 was accepted")
      } catch {
        #expect(body["detail"] as? String == error.message)
      }
      try expectProblem(
        try await client.get("/v1/stores/nearest"), .badRequest, kind: "invalid-request", parameter: "near")
      try expectProblem(
        try await client.get("/v1/stores/nearest?near=1,1&k=5000"), .badRequest, kind: "invalid-request",
        parameter: "k")
      try expectProblem(
        try await client.get("/v1/stores/within?near=1,1"), .badRequest, kind: "invalid-request",
        parameter: "radius")
      try expectProblem(
        try await client.get("/v1/stores/nearest?near=1,1&format=csv"), .badRequest, kind: "invalid-request",
        parameter: "format")
      try expectProblem(
        try await client.get("/v1/stores/nw-0145/hours?format=geojson"), .badRequest, kind: "invalid-request",
        parameter: "format")
      try expectProblem(
        try await client.get("/v1/stores/nearest?near=%ZZ"), .badRequest, kind: "invalid-request",
        parameter: "near")
      try expectProblem(
        try await client.get("/v1/stores/nearest?near=%FF%FE"), .badRequest, kind: "invalid-request",
        parameter: "near")
      try expectProblem(
        try await client.get("/v1/info?verbose=1"), .badRequest, kind: "invalid-request", parameter: "verbose"
      )
    }
  }

  @Test func anUnknownParameterIsNamedNotIgnored() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let body = try expectProblem(
        try await client.get("/v1/stores/nearest?near=1,1&ner=2,2"), .badRequest, kind: "invalid-request",
        parameter: "ner")
      #expect((body["detail"] as? String)?.contains("did you mean near?") == true)
    }
  }

  @Test func anUnknownIdIs404WithSuggestions() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let body = try expectProblem(
        try await client.get("/v1/stores/nw-014"), .notFound, kind: "unknown-store", parameter: "id")
      let suggestions = try #require(body["suggestions"] as? [String])
      #expect(!suggestions.isEmpty)
      #expect((body["detail"] as? String)?.contains("did you mean") == true)
      try expectProblem(
        try await client.get("/v1/stores/nope/hours"), .notFound, kind: "unknown-store", parameter: "id")
      try expectProblem(
        try await client.post(
          "/v1/pickup", json: #"{"near": "47.6,-122.3", "ready_in": "5m", "store": "nw-014"}"#),
        .notFound, kind: "unknown-store", parameter: "store")
    }
  }

  @Test func anUnknownRouteIs404AndAWrongMethod405() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      try expectProblem(try await client.get("/v2/stores"), .notFound, kind: "not-found")
      try expectProblem(try await client.get("/v1/stores/a/b/c/d"), .notFound, kind: "not-found")

      let delete = try await client.execute(uri: "/v1/stores/nearest", method: .delete)
      try expectProblem(delete, .methodNotAllowed, kind: "method-not-allowed")
      #expect(delete.headers[.allow] == "GET, HEAD")

      let getPickup = try await client.get("/v1/pickup")
      try expectProblem(getPickup, .methodNotAllowed, kind: "method-not-allowed")
      #expect(getPickup.headers[.allow] == "POST")

      let postStore = try await client.post("/v1/stores/nw-0145", json: "{}")
      #expect(postStore.headers[.allow] == "GET, HEAD")
    }
  }

  @Test func anIdSeveralStoresShareIs409() async throws {
    let path = try TestService.temporaryFile(
      TestService.geoJSON([("x", 52.52, 13.405), ("x", 40.7, -74.0), ("y", 48.85, 2.35)]))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try CatalogSource(path: path).load()
    try await TestService.application(TestService.service(loaded, source: path)).test(.router) { client in
      let body = try expectProblem(
        try await client.get("/v1/stores/x"), .conflict, kind: "ambiguous-store", parameter: "id")
      #expect((body["candidates"] as? [[String: Any]])?.count == 2)
    }
  }

  @Test func aBodyOverTheLimitIs413() async throws {
    let configuration = APIConfiguration(maximumBodyBytes: 100)
    try await TestService.application(TestService.service(configuration: configuration)).test(.router) {
      client in
      let large =
        "{\"near\": \"1,1\", \"ready_in\": \"5m\", \"pad\": \"" + String(repeating: "x", count: 200) + "\"}"
      try expectProblem(
        try await client.post("/v1/pickup", json: large), .contentTooLarge, kind: "body-too-large")
    }
  }

  @Test func aBodyThatIsNotJSONIs415() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      try expectProblem(
        try await client.post(
          "/v1/pickup", json: "near=1,1", contentType: "application/x-www-form-urlencoded"),
        .unsupportedMediaType, kind: "unsupported-media-type")
      try expectProblem(
        try await client.post("/v1/pickup", json: "{}", contentType: nil), .unsupportedMediaType,
        kind: "unsupported-media-type")
      // Declared JSON but not JSON: the library's 400.
      try expectProblem(
        try await client.post("/v1/pickup", json: "{nope", contentType: "application/json; charset=utf-8"),
        .badRequest, kind: "invalid-request")
    }
  }

  @Test func aPickupThePlannerRefusesIs422() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let body = try expectProblem(
        try await client.post("/v1/pickup", json: #"{"near": "47.6,-122.3", "ready_in": "40d"}"#),
        .unprocessableContent, kind: "pickup-refused")
      #expect((body["detail"] as? String)?.contains("30 days") == true)
    }
  }

  @Test func withoutDataEveryQueryIs503() async throws {
    try await TestService.application(TestService.service(nil)).test(.router) { client in
      try expectProblem(try await client.get("/readyz"), .serviceUnavailable, kind: "not-ready")
      try expectProblem(
        try await client.get("/v1/stores/nearest?near=1,1"), .serviceUnavailable, kind: "not-ready")
      try expectProblem(try await client.get("/v1/info"), .serviceUnavailable, kind: "not-ready")
      // Alive all the same.
      #expect(try await client.get("/healthz").status == .ok)
    }
  }

  @Test func drainingIsNotReady() async throws {
    let service = TestService.service()
    service.store.beginDraining()
    try await TestService.application(service).test(.router) { client in
      try expectProblem(try await client.get("/readyz"), .serviceUnavailable, kind: "not-ready")
      // Requests still arriving are answered while the last ones drain.
      #expect(try await client.get("/v1/stores/nw-0145").status == .ok)
    }
  }

  @Test func aRequestPastTheDeadlineIsAnswered() async throws {
    // A body that never ends on its own: only the deadline can answer.
    await #expect(throws: DeadlineExceeded.self) {
      try await withDeadline(seconds: 0.05) {
        try await Task.sleep(for: .seconds(3600))
        return 1
      }
    }
    #expect(try await withDeadline(seconds: 60) { 42 } == 42)
    #expect(Problem.timedOut(after: 10).status == .serviceUnavailable)
    #expect(Problem.timedOut(after: 10).headers[.retryAfter] == "1")
  }

  @Test func theAdminRouteIsHiddenWithoutAToken() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      // The problem's members are checked by expectProblem; the closure returns nothing, so that
      // `test` has no result to leave unused.
      _ = try expectProblem(
        try await client.post("/admin/reload", json: "", headers: [.authorization: "Bearer anything"]),
        .notFound, kind: "not-found")
    }
  }

  @Test func aWrongTokenIs401() async throws {
    let configuration = APIConfiguration(adminToken: "s3cret")
    try await TestService.application(TestService.service(configuration: configuration)).test(.router) {
      client in
      for header in ["Bearer s3cre", "Bearer s3cret2", "Basic s3cret", "s3cret", ""] {
        let response = try await client.post("/admin/reload", json: "", headers: [.authorization: header])
        try expectProblem(response, .unauthorized, kind: "unauthorized")
        #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
      }
      try expectProblem(try await client.post("/admin/reload", json: ""), .unauthorized, kind: "unauthorized")
    }
  }

  @Test func problemsAreWellFormedJSON() {
    var problem = Problem("x", status: .badRequest, title: "T \"q\"", detail: "line\nbreak", parameter: "p")
    problem.suggestions = ["a", "b"]
    let text = problem.jsonText
    #expect(text.hasSuffix("\n"))
    let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
    #expect(object?["title"] as? String == "T \"q\"")
    #expect(object?["detail"] as? String == "line\nbreak")
    #expect(object?["suggestions"] as? [String] == ["a", "b"])
  }
}
