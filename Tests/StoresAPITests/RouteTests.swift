import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpeningHours
import StoreLocator
import Testing

@testable import StoresAPI

/// Every route answers with the library's answer, byte for byte, and the headers the service
/// promises.
@Suite struct RouteTests {
  let catalog = TestService.bundled.catalog
  let now = Instant(secondsSinceEpoch: 1_795_629_600)  // TestService.now

  /// The library's answer to the same query-string parameters.
  func parameters(_ pairs: [(String, String)]) -> RequestParameters {
    RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: .queryString)
  }

  @Test func nowMatchesTheFixedTime() throws {
    let parsed = try TimeQuery(parsing: TestService.now)
    #expect(parsed == .instant(now))
  }

  @Test func nearestIsTheLibrarysAnswer() async throws {
    let expected = catalog.answer(
      try NearestRequest(parameters([("near", "47.6062,-122.3321"), ("k", "3"), ("now", TestService.now)])),
      now: now
    ).jsonText
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get(
        "/v1/stores/nearest?near=47.6062,-122.3321&k=3&now=\(TestService.now)")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/json")
      #expect(response.text == expected)
      #expect(try response.json()["count"] as? Int == 3)
      #expect(response.headers[.storesDataVersion] == TestService.bundled.version)
      #expect(response.headers[.cacheControl] == "public, max-age=10")
      #expect(response.headers[.eTag] == DocumentResponse.entityTag(of: expected))
    }
  }

  /// An empty answer says why, as the CLI does on standard error: one `X-Stores-Note` per
  /// sentence, the library's sentences; an answer with stores has none.
  @Test func anEmptyAnswerSaysWhyInNoteHeaders() async throws {
    let query: [(name: String, value: String)] = [
      ("near", "47.6062,-122.3321"), ("where", "drive_through=maybe"), ("now", TestService.now),
    ]
    let expected = catalog.answer(try NearestRequest(parameters(query)), now: now).notes
    try #require(!expected.isEmpty)
    try await TestService.application(TestService.service()).test(.router) { client in
      let empty = try await client.get(
        "/v1/stores/nearest?near=47.6062,-122.3321&where=drive_through%3Dmaybe&now=\(TestService.now)")
      #expect(empty.status == .ok)
      #expect(try empty.json()["count"] as? Int == 0)
      let notes = empty.headers[values: .storesNote].map { $0.removingPercentEncoding ?? $0 }
      #expect(notes == expected)
      let plain = try await client.get("/v1/stores/nearest?near=47.6062,-122.3321&now=\(TestService.now)")
      #expect(plain.headers[values: .storesNote].isEmpty)
    }
  }

  /// The notes name parameters as a query string writes them, not as the command line does: an
  /// HTTP client has no `--near` or `--allow-unknown`.
  @Test func notesNameTheQueryStringsParameters() async throws {
    let path = try TestService.temporaryFile(
      """
      {"type": "FeatureCollection", "features": [
      {"type": "Feature", "id": "a", "geometry": {"type": "Point", "coordinates": [-0.1278, 51.5074]},
       "properties": {"name": "A", "timezone": "Europe/London"}}]}
      """)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let loaded = try CatalogSource(path: path).load()
    try await TestService.application(TestService.service(loaded, source: path)).test(.router) { client in
      // London typed LON,LAT.
      let swapped = try await client.get("/v1/stores/nearest?near=-0.1278,51.5074&now=\(TestService.now)")
      let hint = try #require(swapped.headers[values: .storesNote].first?.removingPercentEncoding)
      #expect(hint.contains("did you mean near=51.5074,-0.1278 (LAT,LON)?"), "\(hint)")
      #expect(!hint.contains("--"), "\(hint)")
      // Open now, and the one store has no hours.
      let closed = try await client.get(
        "/v1/stores/nearest?near=51.5074,-0.1278&open_now&now=\(TestService.now)")
      let notes = closed.headers[values: .storesNote].compactMap(\.removingPercentEncoding)
      #expect(
        notes.contains { $0.contains("add allow_unknown=true to include stores whose hours are unknown") })
      #expect(notes.allSatisfy { !$0.contains("--") }, "\(notes)")
    }
  }

  /// Found by schemathesis: a `within` far larger than the Earth (accepted: it covers it) made the
  /// explanation of an empty answer convert a distance too large for an Int and end the process.
  @Test func anEmptyAnswerWithinAnEnormousDistanceIsExplained() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get(
        "/v1/stores/nearest?near=-90,-122&within=0172824079305506879955808932&where=x%3Dy&now=\(TestService.now)"
      )
      #expect(response.status == .ok)
      #expect(try response.json()["count"] as? Int == 0)
      #expect(!response.headers[values: .storesNote].isEmpty)
    }
  }

  @Test func noteHeadersAreASCIIAndDecodeBack() {
    for text in ["no store within 10 km of Zürich", "100% sure", "tab\there", "☕ …"] {
      let value = StoreRoutes.headerText(text)
      #expect(value.utf8.allSatisfy { (0x20...0x7E).contains($0) })
      #expect(value.removingPercentEncoding == text)
    }
  }

  @Test func nearestWritesGeoJSONWhenAsked() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get(
        "/v1/stores/nearest?near=47.6062,-122.3321&k=2&format=geojson&now=\(TestService.now)")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/geo+json")
      #expect(try response.json()["type"] as? String == "FeatureCollection")
    }
  }

  @Test func repeatedWhereAndPercentEncodingReachTheLibrary() async throws {
    let expected = catalog.answer(
      try NearestRequest(
        parameters([
          ("near", "47.6062,-122.3321"), ("where", "drive_through=yes"), ("where", "delivery!=yes"),
          ("now", TestService.now),
        ])),
      now: now
    ).jsonText
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get(
        "/v1/stores/nearest?near=47.6062%2C-122.3321&where=drive_through%3Dyes&where=delivery!%3Dyes&now=\(TestService.now)"
      )
      #expect(response.status == .ok)
      #expect(response.text == expected)
    }
  }

  @Test func withinPagesThroughEveryStoreInTheCircle() async throws {
    let whole = try catalog.answer(
      try WithinRequest(
        parameters([
          ("near", "47.6062,-122.3321"), ("radius", "5km"), ("limit", "1000"), ("now", TestService.now),
        ])),
      now: now)
    try #require(whole.matches.count > 3)
    try await TestService.application(TestService.service()).test(.router) { client in
      var ids: [String] = []
      var cursor: String?
      var pages = 0
      repeat {
        let uri =
          "/v1/stores/within?near=47.6062,-122.3321&radius=5km&limit=2&now=\(TestService.now)"
          + (cursor.map { "&cursor=\($0)" } ?? "")
        let response = try await client.get(uri)
        #expect(response.status == .ok)
        let page = try response.json()
        ids += (page["stores"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        cursor = page["next_cursor"] as? String
        pages += 1
      } while cursor != nil && pages < 100
      #expect(ids == whole.matches.map(\.store.id))
    }
  }

  @Test func withinTakesABox() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get(
        "/v1/stores/within?bbox=-122.4,47.5,-122.2,47.7&now=\(TestService.now)")
      #expect(response.status == .ok)
      #expect(try response.json()["count"] as? Int ?? 0 > 0)
    }
  }

  @Test func storeShowsOneStore() async throws {
    let expected = try catalog.answer(
      try StoreRequest(parameters([("id", "nw-0145"), ("now", TestService.now)])), now: now)
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get("/v1/stores/nw-0145?now=\(TestService.now)")
      #expect(response.status == .ok)
      #expect(response.text == expected.jsonText)
      let geo = try await client.get("/v1/stores/nw-0145?format=geojson&now=\(TestService.now)")
      #expect(geo.text == expected.geoJSONText)
      #expect(geo.headers[.contentType] == "application/geo+json")
    }
  }

  @Test func hoursAndOpenAreTheLibrarysAnswers() async throws {
    let hours = try catalog.answer(
      try HoursRequest(parameters([("id", "nw-0145"), ("days", "3"), ("now", TestService.now)])), now: now)
    let open = try catalog.answer(
      try OpenRequest(parameters([("id", "nw-0145"), ("for", "30m"), ("now", TestService.now)])), now: now)
    try await TestService.application(TestService.service()).test(.router) { client in
      let hoursResponse = try await client.get("/v1/stores/nw-0145/hours?days=3&now=\(TestService.now)")
      #expect(hoursResponse.status == .ok)
      #expect(hoursResponse.text == hours.jsonText)
      let openResponse = try await client.get("/v1/stores/nw-0145/open?for=30m&now=\(TestService.now)")
      #expect(openResponse.status == .ok)
      #expect(openResponse.text == open.jsonText)
    }
  }

  @Test func pickupTakesARequestOrAnOrder() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let plain = try await client.post(
        "/v1/pickup", json: #"{"near": "47.6062,-122.3321", "ready_in": "12m", "now": "\#(TestService.now)"}"#
      )
      #expect(plain.status == .ok)
      #expect(plain.headers[.cacheControl] == "no-store")
      #expect(plain.headers[.eTag] == nil)
      #expect(try plain.json()["status"] as? String == "assigned")
      #expect(plain.headers[values: .storesNote].isEmpty)

      // London typed LON,LAT: the plan is made for the point given, with the CLI's warning beside.
      let swapped = try await client.post(
        "/v1/pickup", json: #"{"near": "-0.1278,51.5074", "ready_in": "12m", "now": "\#(TestService.now)"}"#
      )
      #expect(swapped.status == .ok)
      let note = try #require(swapped.headers[values: .storesNote].first?.removingPercentEncoding)
      #expect(note.hasPrefix("warning: the nearest store is "), "\(note)")
      #expect(note.contains("did you mean near=51.5074,-0.1278 (LAT,LON)?"), "\(note)")

      let order = try String(
        contentsOf: TestService.repositoryRoot.appendingPathComponent("docs/examples/order.json"),
        encoding: .utf8)
      let placed = try await client.post("/v1/pickup?now=\(TestService.now)", json: order)
      #expect(placed.status == .ok)
      let document = try placed.json()
      #expect(document["id"] as? String == "order-1042")
      #expect(document["pickup"] is [String: Any])
    }
  }

  @Test func infoIsTheSummary() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get("/v1/info")
      #expect(response.status == .ok)
      #expect(
        response.text == JSONValue.object(TestService.bundled.catalog.summary.jsonObject).jsonText + "\n")
    }
  }

  @Test func operatorRoutesAnswer() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let health = try await client.get("/healthz")
      #expect(health.status == .ok)
      #expect(health.text == "{\"status\":\"ok\"}\n")

      let ready = try await client.get("/readyz")
      #expect(ready.status == .ok)
      #expect(try ready.json()["version"] as? String == TestService.bundled.version)

      _ = try await client.get("/v1/stores/nearest?near=1,1")
      let metrics = try await client.get("/metrics")
      #expect(metrics.status == .ok)
      #expect(metrics.headers[.contentType]?.hasPrefix("text/plain") == true)
      #expect(metrics.text.contains("http_server_requests_total{http_route=\"/v1/stores/nearest\""))
      #expect(metrics.text.contains("http_server_request_duration_bucket{"))
      #expect(metrics.text.contains("stores_loaded_stores 2000"))
      #expect(metrics.text.contains("stores_data_version_info{version=\"\(TestService.bundled.version)\"} 1"))

      let contract = try await client.get("/openapi.json")
      #expect(contract.status == .ok)
      #expect(try contract.json()["openapi"] as? String == "3.1.0")
    }
  }

  @Test func headAnswersLikeGetWithoutABody() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.execute(uri: "/v1/stores/nw-0145?now=\(TestService.now)", method: .head)
      #expect(response.status == .ok)
      #expect(response.body.readableBytes == 0)
      #expect(response.headers[.eTag] != nil)
    }
  }
}
