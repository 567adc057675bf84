import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Sends `If-None-Match` as the caller wrote it.
///
/// OpenAPIRuntime writes header parameters with URI percent-encoding, so an ETag held as
/// `"834a91070f472dc1"` goes out as `%22834a91070f472dc1%22`. That is no entity tag (RFC 9110
/// §8.8.3: the quotes are part of it), so a server compares it with nothing and answers 200 with the
/// whole body where curl gets 304 (apple/swift-openapi-generator issues 529, 827, 857). Decoding
/// the value again before it leaves restores the tag. This service's ETags are hex digits in quotes,
/// so decoding cannot change what was meant (a tag holding a literal `%`, which RFC 9110 allows and
/// this service never sends, would be decoded too); a value that is not valid percent-encoding
/// goes out as it is.
struct IfNoneMatchMiddleware: ClientMiddleware {
  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    if let value = request.headerFields[.ifNoneMatch], let decoded = value.removingPercentEncoding {
      request.headerFields[.ifNoneMatch] = decoded
    }
    return try await next(request, body, baseURL)
  }
}
