import Foundation
import HTTPTypes
import OpenAPIRuntime
import StoresClient
import Testing

/// A transport that answers every request with one canned response and keeps the request, so a
/// test sees exactly what the client sent.
final class RecordingTransport: ClientTransport, @unchecked Sendable {
  private let lock = NSLock()
  private var recorded: [HTTPRequest] = []
  let status: HTTPResponse.Status
  let contentType: String
  let body: String

  init(status: HTTPResponse.Status, contentType: String = "application/json", body: String = "") {
    self.status = status
    self.contentType = contentType
    self.body = body
  }

  var requests: [HTTPRequest] { lock.withLock { recorded } }

  func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (
    HTTPResponse, HTTPBody?
  ) {
    lock.withLock { recorded.append(request) }
    var headers = HTTPFields()
    if !self.body.isEmpty { headers[.contentType] = contentType }
    return (
      HTTPResponse(status: status, headerFields: headers), self.body.isEmpty ? nil : HTTPBody(self.body)
    )
  }
}

@Suite struct MiddlewareTests {
  static let server = URL(string: "http://stores.invalid")!

  /// OpenAPIRuntime would send `%22834a91070f472dc1%22`; the middleware sends the tag.
  @Test(arguments: [#""834a91070f472dc1""#, #"W/"834a91070f472dc1""#, "*"])
  func ifNoneMatchGoesOutAsWritten(etag: String) async throws {
    let transport = RecordingTransport(status: .notModified)
    let stores = StoresClient(serverURL: Self.server, transport: transport)
    let output = try await stores.client.getStore(
      path: .init(id: "nw-0145"), headers: .init(ifNoneMatch: etag))
    guard case .notModified = output else {
      Issue.record("304 decoded as \(output)")
      return
    }
    #expect(transport.requests.map { $0.headerFields[.ifNoneMatch] } == [etag])
  }

  /// OpenAPIRuntime would send `order%3A1042%2F2`; the middleware sends the key as written, so a
  /// retry through another client is known as the same order.
  @Test(arguments: ["order:1042/2", "5f0c7a1e-3b9d-4c2a-9e61-0d2b8f7a4c13", "100%done"])
  func idempotencyKeyGoesOutAsWritten(key: String) async throws {
    let transport = RecordingTransport(status: .badRequest)
    let stores = StoresClient(serverURL: Self.server, transport: transport)
    _ = try? await stores.pickup(
      near: Coordinate(latitude: 52.52, longitude: 13.4), readyIn: .seconds(300), reserve: true,
      idempotencyKey: key)
    #expect(transport.requests.map { $0.headerFields[HTTPField.Name("Idempotency-Key")!] } == [key])
  }

  @Test func anAnswerWithoutAProblemDocumentIsAnUnexpectedResponse() async throws {
    let transport = RecordingTransport(
      status: .badGateway, contentType: "text/html", body: "<h1>Bad gateway</h1>")
    let stores = StoresClient(serverURL: Self.server, transport: transport)
    do {
      _ = try await stores.store(id: "nw-0145")
      Issue.record("a 502 was an answer")
    } catch StoresClientError.unexpectedResponse(let status, let body) {
      #expect(status == 502)
      #expect(body == "<h1>Bad gateway</h1>")
    }
  }

  @Test func aProblemDocumentIsDecoded() async throws {
    let transport = RecordingTransport(
      status: .serviceUnavailable, contentType: "application/problem+json",
      body:
        #"{"type": "urn:stores:problem:overloaded", "title": "Busy", "status": 503, "detail": "try again"}"#)
    let stores = StoresClient(serverURL: Self.server, transport: transport)
    await #expect(throws: StoresClientError.self) { _ = try await stores.hours(id: "nw-0145") }
    do {
      _ = try await stores.hours(id: "nw-0145")
    } catch let error as StoresClientError {
      #expect(error.problem?.status == 503)
      #expect(error.problem?.type == "urn:stores:problem:overloaded")
      #expect(error.problem?.detail == "try again")
    }
  }
}
