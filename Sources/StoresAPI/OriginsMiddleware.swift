import HTTPTypes
import Hummingbird

/// CORS for the origins of `--cors-origin` only (`*` for any): Hummingbird's `CORSMiddleware`
/// answers those, and a request from any other origin goes on without CORS headers, so the
/// browser refuses it.
struct OriginsMiddleware: RouterMiddleware {
  typealias Context = StoresRequestContext

  let origins: Set<String>
  let cors: CORSMiddleware<StoresRequestContext>

  init(origins: [String]) {
    self.origins = Set(origins)
    cors = CORSMiddleware(
      allowOrigin: origins.contains("*") ? .all : .originBased,
      allowHeaders: [.accept, .contentType, .authorization, .requestID, .ifNoneMatch],
      allowMethods: [.get, .head, .post, .options],
      exposedHeaders: [Self.exposed], maxAge: .seconds(600))
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard let origin = request.headers[.origin], origins.contains("*") || origins.contains(origin) else {
      var response = try await next(request, context)
      // The answer differs by origin (this one has no CORS headers, an allowed origin's has), so
      // a shared cache must not hand one to the other: GET answers are `public`.
      if !origins.contains("*") { response.headers[values: .vary].append("Origin") }
      return response
    }
    var response = try await cors.handle(request, context: context, next: next)
    // Hummingbird names the exposed headers on the preflight only; the browser reads them from
    // the actual response (Fetch standard, CORS protocol).
    if request.method != .options { response.headers[.accessControlExposeHeaders] = Self.exposed }
    return response
  }

  /// The headers a page's script may read: which data answered, which request it was, the tag,
  /// why an answer is empty.
  static let exposed = "X-Stores-Data-Version, X-Request-Id, ETag, X-Stores-Note"
}
