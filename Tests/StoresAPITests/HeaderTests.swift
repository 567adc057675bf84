import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import StoresAPI

/// The headers every answer carries: request id, data version, ETag and Cache-Control, CORS.
@Suite struct HeaderTests {
  @Test func aMatchingETagIs304WithoutABody() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let first = try await client.get("/v1/stores/nw-0145/hours?now=\(TestService.now)")
      let tag = try #require(first.headers[.eTag])
      #expect(tag.hasPrefix("\"") && tag.hasSuffix("\""))

      // The last two as the Swift OpenAPI runtime sends them: every header value percent-encoded.
      let encoded = tag.replacing("\"", with: "%22")
      for condition in [tag, "W/\(tag)", "\"other\", \(tag)", "*", encoded, "%22other%22,%20\(encoded)"] {
        let again = try await client.get(
          "/v1/stores/nw-0145/hours?now=\(TestService.now)", headers: [.ifNoneMatch: condition])
        #expect(again.status == .notModified, "If-None-Match: \(condition)")
        #expect(again.body.readableBytes == 0)
        #expect(again.headers[.eTag] == tag)
      }
      let changed = try await client.get(
        "/v1/stores/nw-0145/hours?now=\(TestService.now)", headers: [.ifNoneMatch: "\"other\""])
      #expect(changed.status == .ok)
      for condition in ["%22other%22", "%zz\(tag)"] {
        let unmatched = try await client.get(
          "/v1/stores/nw-0145/hours?now=\(TestService.now)", headers: [.ifNoneMatch: condition])
        #expect(unmatched.status == .ok, "If-None-Match: \(condition)")
      }
      #expect(changed.text == first.text)

      // Another question, another body, another tag.
      let other = try await client.get("/v1/stores/nw-0145/hours?days=2&now=\(TestService.now)")
      #expect(other.headers[.eTag] != tag)
    }
  }

  @Test func errorsAndOperatorAnswersAreNotCached() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      for uri in ["/v1/stores/nope", "/healthz", "/metrics", "/readyz"] {
        let response = try await client.get(uri)
        #expect(response.headers[.cacheControl] == "no-store", "\(uri)")
        #expect(response.headers[.eTag] == nil, "\(uri)")
      }
    }
  }

  @Test func everyAnswerNamesTheDataVersion() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      for uri in ["/v1/stores/nw-0145", "/v1/stores/nope", "/nowhere", "/healthz", "/v1/stores/nearest?k=0"] {
        let response = try await client.get(uri)
        #expect(response.headers[.storesDataVersion] == TestService.bundled.version, "\(uri)")
      }
    }
  }

  @Test func aSaneRequestIdIsEchoedAndAnyOtherReplaced() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let given = try await client.get("/healthz", headers: [.requestID: "order-1042.attempt-2"])
      #expect(given.headers[.requestID] == "order-1042.attempt-2")

      for insane in [String(repeating: "x", count: 129), "has space", "tab\there", "é"] {
        let response = try await client.get("/healthz", headers: [.requestID: insane])
        let id = try #require(response.headers[.requestID])
        #expect(id != insane)
        #expect(id.count == 16 && id.allSatisfy(\.isHexDigit))
      }
      let generated = try await client.get("/healthz")
      #expect(generated.headers[.requestID]?.count == 16)
    }
  }

  @Test func generatedRequestIdsAreNeverRepeated() async throws {
    let ids = (0..<20_000).map { _ in RequestIDs.next() }
    #expect(Set(ids).count == ids.count)
    #expect(
      ids.allSatisfy { $0.utf8.count == 16 && $0.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) } })
    // Consecutive ids share no long run of digits: they are mixed, not counted.
    let sharedPrefixes = zip(ids, ids.dropFirst()).filter { $0.prefix(8) == $1.prefix(8) }
    #expect(sharedPrefixes.count < 5)
    try await TestService.application(TestService.service()).test(.router) { client in
      var answered: Set<String> = []
      for _ in 0..<50 { answered.insert(try #require(try await client.get("/healthz").headers[.requestID])) }
      #expect(answered.count == 50)
    }
  }

  @Test func logLinesAboutARequestNameItsId() async throws {
    // With --log-level debug every request is logged, under its id.
    let log = TestLog()
    let application = TestService.application(
      TestService.service(log: log), logger: log.makeLogger(level: .debug))
    try await application.test(.router) { client in
      _ = try await client.get("/healthz", headers: [.requestID: "order-1042"])
    }
    let line = try #require(log.all.first { $0.message.hasPrefix("GET /healthz 200") })
    #expect(line.metadata["request_id"] == .string("order-1042"))

    // At the default level only what goes wrong is logged, and it names the request too.
    let quiet = TestLog()
    let channel = EmbeddedChannel()
    var context = StoresRequestContext(
      source: ApplicationRequestContextSource(channel: channel, logger: quiet.logger))
    context.requestID = "order-1043"
    let request = Request(
      head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/v1/stores/clusters"),
      body: RequestBody(buffer: ByteBuffer()))
    let middleware = ServiceMiddleware(
      store: CatalogStore(TestService.bundled), state: TestService.service().state,
      configuration: APIConfiguration())
    #expect(
      middleware.problem(for: DeadlineExceeded(), request: request, context: context).status
        == .serviceUnavailable)
    let warning = try #require(quiet.all.first { $0.message == "request timed out" })
    #expect(warning.level == .warning)
    #expect(warning.metadata["request_id"] == .string("order-1043"))
    #expect(warning.metadata["path"] == .string("/v1/stores/clusters"))
  }

  @Test func corsAnswersOnlyTheConfiguredOrigins() async throws {
    let configuration = APIConfiguration(corsOrigins: ["https://shop.example"])
    try await TestService.application(TestService.service(configuration: configuration)).test(.router) {
      client in
      let allowed = try await client.get("/v1/stores/nw-0145", headers: [.origin: "https://shop.example"])
      #expect(allowed.headers[.accessControlAllowOrigin] == "https://shop.example")
      #expect(allowed.headers[.accessControlExposeHeaders]?.contains("X-Stores-Data-Version") == true)

      let preflight = try await client.execute(
        uri: "/v1/pickup", method: .options,
        headers: [.origin: "https://shop.example", .accessControlRequestMethod: "POST"])
      #expect(preflight.headers[.accessControlAllowMethods]?.contains("POST") == true)

      let other = try await client.get("/v1/stores/nw-0145", headers: [.origin: "https://evil.example"])
      #expect(other.headers[.accessControlAllowOrigin] == nil)

      // Every answer says it varies by origin, with or without one, so a shared cache never
      // hands the answer without CORS headers to the allowed page.
      for response in [allowed, other, try await client.get("/v1/stores/nw-0145")] {
        #expect(response.headers[values: .vary].contains("Origin"))
      }
    }
  }
}

/// The pieces the routes read requests with.
@Suite struct RequestReadingTests {
  @Test func queryStringsDecodeAsFormsDo() throws {
    let pairs = try QueryString.pairs("near=1%2C2&where=a%3Db&where=c+d&open_now&&k=")
    #expect(pairs.map(\.name) == ["near", "where", "where", "open_now", "k"])
    #expect(pairs.map(\.value) == ["1,2", "a=b", "c d", "", ""])
    #expect(try QueryString.pairs(nil).isEmpty)
    #expect(try QueryString.pairs("").isEmpty)
    #expect(try QueryString.pairs("x=caf%C3%A9")[0].value == "café")
    #expect(try QueryString.pairs("a=b=c")[0].value == "b=c")
    // Text with nothing to decode is taken as it is, whatever its characters.
    #expect(try QueryString.pairs("near=Zürich&k=10")[0].value == "Zürich")
  }

  @Test(arguments: ["near=%", "near=%4", "near=%G0", "near=%C3", "%FF=1"])
  func malformedEscapesAreRefused(query: String) {
    #expect(throws: Problem.self) { try QueryString.pairs(query) }
  }

  @Test func hostsAreCountedAsTheirCanonicalForm() {
    let cases: [[(String, String)]] = [
      [], [("Host", "a")], [("HOST", "shop.example:8080")], [("Host", "a, b")], [("Host", "a,")],
      [("Host", "a"), ("host", "b")], [("Host", "")], [("Host", " ")], [("Host", ",")],
      [("Hosts", "a")], [("Hos", "a")], [("Accept", "*/*"), ("Host", "127.0.0.1:8080")],
    ]
    for fields in cases {
      let headers = HTTPHeaders(fields)
      #expect(
        HTTP1ConnectionGuard.hostCount(headers) == headers[canonicalForm: "host"].count, "\(fields)")
    }
  }

  @Test func pathSegmentsKeepPlus() throws {
    #expect(try QueryString.pathSegment("a+b%2Fc") == "a+b/c")
    #expect(try QueryString.pathSegment("a+b") == "a+b")
  }

  @Test func methodsOfAPathTellWrongMethodFromWrongPath() {
    #expect(APIRoute.methods(forRequestPath: "/v1/stores/nearest") == [.get, .head])
    #expect(APIRoute.methods(forRequestPath: "/v1/stores/any-id/hours") == [.get, .head])
    #expect(APIRoute.methods(forRequestPath: "/v1/pickup") == [.post])
    #expect(APIRoute.methods(forRequestPath: "/v1/stores/any-id/nope").isEmpty)
    #expect(APIRoute.methods(forRequestPath: "/v1/stores//hours").isEmpty)
  }

  @Test func tokensCompareByEveryByte() {
    #expect(ConstantTime.equal(Array("secret".utf8), Array("secret".utf8)))
    #expect(!ConstantTime.equal(Array("secret".utf8), Array("secreT".utf8)))
    #expect(!ConstantTime.equal(Array("secret".utf8), Array("secret1".utf8)))
    #expect(!ConstantTime.equal(Array("".utf8), Array("s".utf8)))
    #expect(!ConstantTime.equal(Array("s".utf8), Array("".utf8)))
    // 256 bytes apart in length: the difference must not wrap to zero.
    #expect(!ConstantTime.equal([1], [UInt8](repeating: 1, count: 257)))
  }
}
