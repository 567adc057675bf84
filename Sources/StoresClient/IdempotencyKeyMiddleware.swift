import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `Idempotency-Key` as the caller wrote it.
///
/// OpenAPIRuntime writes header parameters with URI percent-encoding (as for `If-None-Match`,
/// `IfNoneMatchMiddleware`): a key such as `order:1042/2` would go out as `order%3A1042%2F2`. The
/// service would still take it, but as another key than the one the order system, or a client
/// that is not this one, sends for the same order, so a retry through another path would hold a
/// second place. Decoding the value again before it leaves sends the key itself; a key with a
/// space or any other byte the service refuses is then refused (400), as the document says. The
/// runtime encodes every `%` it is given, so decoding gives back exactly the key written.
struct IdempotencyKeyMiddleware: ClientMiddleware {
  static let name = HTTPField.Name("Idempotency-Key")!

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    if let value = request.headerFields[Self.name], let decoded = value.removingPercentEncoding {
      request.headerFields[Self.name] = decoded
    }
    return try await next(request, body, baseURL)
  }
}
