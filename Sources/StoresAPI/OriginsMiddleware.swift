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
      exposedHeaders: ["X-Stores-Data-Version", "X-Request-Id", "ETag"], maxAge: .seconds(600))
  }

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    guard let origin = request.headers[.origin], origins.contains("*") || origins.contains(origin) else {
      return try await next(request, context)
    }
    return try await cors.handle(request, context: context, next: next)
  }
}
