import Foundation
import OpenAPIRuntime
import OpenAPIURLSession

#if canImport(FoundationNetworking)
  // URLSession on Linux.
  import FoundationNetworking
#endif

/// The stores service, as an app or another server calls it.
///
/// `client` is the code swift-openapi-generator makes from the service's OpenAPI document: every
/// operation, every parameter. The methods beside it (`nearest(to:…)`, `pickup(near:…)`,
/// `store(id:…)`, `hours(id:…)`, `open(id:…)`) cover what an app asks most, with `Date` and
/// `Duration` instead of the wire's strings, and throw `StoresClientError` directly.
///
/// Both paths share the middleware installed here: answers of 400 and over are thrown as
/// `StoresClientError` (through `client`, wrapped in OpenAPIRuntime's `ClientError`), and
/// `If-None-Match` goes out as written, so a held `ETag` gets its 304 (`IfNoneMatchMiddleware`), as
/// does `Idempotency-Key`, so a retried hold is known as the same order (`IdempotencyKeyMiddleware`).
public struct StoresClient: Sendable {
  /// The generated client, for every operation and parameter of the document.
  public let client: Client

  /// A client of the service at `serverURL` (e.g. `https://stores.example.com`) over `transport`.
  /// - Parameter middlewares: yours, run before the three this client always installs.
  public init(serverURL: URL, transport: any ClientTransport, middlewares: [any ClientMiddleware] = []) {
    client = Client(
      serverURL: serverURL,
      transport: transport,
      middlewares: middlewares + [ProblemMiddleware(), IfNoneMatchMiddleware(), IdempotencyKeyMiddleware()]
    )
  }

  /// A client over `URLSession`, as an iPhone or Mac app calls the service. (A server calling it
  /// over AsyncHTTPClient links `StoresClientNIO`: `StoresClient(serverURL:httpClient:)`.)
  public init(serverURL: URL, session: URLSession = .shared) {
    self.init(serverURL: serverURL, transport: URLSessionTransport(configuration: .init(session: session)))
  }
}
