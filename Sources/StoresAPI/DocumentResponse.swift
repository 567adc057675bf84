import HTTPTypes
import Hummingbird
import NIOCore

/// A successful answer: the body as the library wrote it, with its media type, an `ETag` of its
/// bytes and `Cache-Control`; a GET whose `If-None-Match` names the ETag gets 304 and no body.
enum DocumentResponse {
  static let json = "application/json"
  static let geoJSON = "application/geo+json"

  /// - Parameters:
  ///   - text: The body.
  ///   - contentType: Its media type.
  ///   - cacheControl: The `Cache-Control` value; `nil` for `no-store` and no ETag (answers that
  ///     must never be reused: health, metrics, admin, a POST).
  ///   - request: The request, for `If-None-Match`.
  /// - Complexity: O(n) in the length of `text` (the ETag hashes it).
  static func make(
    _ text: String, contentType: String, cacheControl: String?, request: Request,
    status: HTTPResponse.Status = .ok
  ) -> Response {
    var headers: HTTPFields = [.contentType: contentType]
    guard let cacheControl, request.method == .get || request.method == .head, status == .ok else {
      headers[.cacheControl] = "no-store"
      return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
    let tag = entityTag(of: text)
    headers[.eTag] = tag
    headers[.cacheControl] = cacheControl
    if let condition = request.headers[.ifNoneMatch], matches(condition, tag) {
      return Response(status: .notModified, headers: headers)
    }
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
  }

  /// A strong entity tag of `text`: 64-bit FNV-1a of its UTF-8 bytes in hex, quoted.
  static func entityTag(of text: String) -> String { entityTag(of: text.utf8) }

  /// A strong entity tag of `bytes`, as `entityTag(of:)` of a text.
  static func entityTag(of bytes: some Sequence<UInt8>) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return "\"" + String(repeating: "0", count: 16 - digits.count) + digits + "\""
  }

  /// Whether an `If-None-Match` value names `tag`: `*`, or a list of tags compared weakly (a
  /// `W/` prefix is ignored), as RFC 9110 §13.1.2 asks for GET.
  ///
  /// A value the Swift OpenAPI runtime percent-encoded (`%22834a91070f472dc1%22`: it encodes every
  /// header value, apple/swift-openapi-generator#529) is read decoded: the service's tags are hex
  /// digits in quotes, so a `%` is never part of one and decoding cannot make a match by accident.
  static func matches(_ condition: String, _ tag: String) -> Bool {
    let condition =
      condition.utf8.contains(UInt8(ascii: "%"))
      ? QueryString.decoded(Substring(condition).utf8, plusIsSpace: false) ?? condition : condition
    return condition.split(separator: ",").contains { candidate in
      var candidate = candidate.drop { $0 == " " || $0 == "\t" }
      while candidate.last == " " || candidate.last == "\t" { candidate = candidate.dropLast() }
      if candidate == "*" { return true }
      if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
      return candidate == tag
    }
  }
}
