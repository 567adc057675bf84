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
    make(
      utf8: Array(text.utf8), contentType: contentType, cacheControl: cacheControl, request: request,
      status: status)
  }

  /// `make(_:contentType:cacheControl:request:status:)` of a body already in UTF-8, as the
  /// library's writers produce it: the answer routes never turn their bytes into a `String` and
  /// back (that was 3% of the `nearest` route's time).
  static func make(
    utf8 body: [UInt8], contentType: String, cacheControl: String?, request: Request,
    status: HTTPResponse.Status = .ok
  ) -> Response {
    var headers: HTTPFields = [.contentType: contentType]
    guard let cacheControl, request.method == .get || request.method == .head, status == .ok else {
      headers[.cacheControl] = "no-store"
      return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
    let tag = entityTag(of: body)
    headers[.eTag] = tag
    headers[.cacheControl] = cacheControl
    if let condition = request.headers[.ifNoneMatch], matches(condition, tag) {
      return Response(status: .notModified, headers: headers)
    }
    return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
  }

  /// A strong entity tag of `text`: a 64-bit hash of its UTF-8 bytes in hex, quoted.
  static func entityTag(of text: String) -> String { entityTag(of: Array(text.utf8)) }

  /// A strong entity tag of `bytes`: a 64-bit hash of them in hex, quoted.
  ///
  /// The hash reads eight bytes a step (little-endian, so every replica of a cluster tags the
  /// same bytes alike whatever its machine) and mixes each word in with a multiply and a shift,
  /// then finishes with MurmurHash3's 64-bit finalizer. FNV-1a, a byte a step, was 6% of the
  /// `nearest` route's time on 8 KB answers. A tag only has to change when the bytes do; it is
  /// not a defence against anyone forging a collision (nothing is gained by one).
  static func entityTag(of bytes: [UInt8]) -> String {
    let hash = bytes.withUnsafeBytes(Self.hash)
    let digits = String(hash, radix: 16)
    return "\"" + String(repeating: "0", count: 16 - digits.count) + digits + "\""
  }

  /// The 64-bit hash of `entityTag(of:)`.
  static func hash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let multiplier: UInt64 = 0x9E37_79B9_7F4A_7C15
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ (UInt64(bytes.count) &* multiplier)
    var offset = 0
    while offset + 8 <= bytes.count {
      let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      hash = (hash ^ word) &* multiplier
      hash ^= hash >> 29
      offset += 8
    }
    var tail: UInt64 = 0
    for index in offset..<bytes.count { tail |= UInt64(bytes[index]) << (8 * UInt64(index - offset)) }
    hash = (hash ^ tail) &* multiplier
    hash ^= hash >> 33
    hash &*= 0xff51_afd7_ed55_8ccd
    hash ^= hash >> 33
    hash &*= 0xc4ce_b9fe_1a85_ec53
    hash ^= hash >> 33
    return hash
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
