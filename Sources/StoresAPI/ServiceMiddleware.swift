import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1

extension HTTPField.Name {
  /// The version of the data an answer was computed from (`Catalog.dataVersion`).
  public static let storesDataVersion = HTTPField.Name("X-Stores-Data-Version")!
  /// A sentence the CLI would write on standard error beside the same answer (percent-encoded
  /// beyond printable ASCII).
  public static let storesNote = HTTPField.Name("X-Stores-Note")!
  /// The id a request is logged under, echoed back.
  public static let requestID = HTTPField.Name("X-Request-Id")!
  /// The version of the stores' state an answer was computed with.
  public static let storesStateVersion = HTTPField.Name("X-Stores-State-Version")!
  /// Seconds since the state storage last confirmed the state answered with, when it has
  /// stopped answering (answers go on from the last copy).
  public static let storesStateAge = HTTPField.Name("X-Stores-State-Age")!
}

/// What every request goes through: it gets an id (the caller's `X-Request-Id` when sane) and the
/// catalog it is answered from, read once; whatever it throws
/// becomes an RFC 9457 problem; its response names the request id and the data version.
struct ServiceMiddleware: RouterMiddleware {
  typealias Context = StoresRequestContext

  let store: CatalogStore
  let state: StateKeeper
  let configuration: APIConfiguration

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var context = context
    let requestID = Self.requestID(from: request)
    context.requestID = requestID
    // A log handler makes the text of its metadata again at each change (swift-log's
    // `StreamLogHandler` does, a fortieth of a small answer's cost): the id goes into the logger
    // only when every request is logged, and into the lines about one request otherwise.
    if context.logger.logLevel <= .debug { context.logger[metadataKey: "request_id"] = .string(requestID) }
    // The one read of the reference: the route, the version header and the ETag all use this
    // catalog, whatever a reload swaps in meanwhile.
    context.loaded = store.current
    let copy = state.current
    context.states = copy.states
    context.bookings = copy.bookings
    context.stateSource = ObjectIdentifier(state)
    if state.isStale { context.staleStateAge = state.ageSeconds ?? -1 }
    let start = ContinuousClock.now
    var response: Response
    do {
      // The routes run under the deadline themselves (`StoresRoutes.add`): `next` cannot leave
      // this call, and a timed-out answer must.
      response = try await next(request, context)
    } catch {
      response = problem(for: error, request: request, context: context).response
    }
    response.headers[.requestID] = requestID
    if store.isDraining {
      // The connection is about to be closed: a client or balancer reusing it would find it
      // gone, so it is closed after this answer instead (HTTP1ConnectionGuard).
      response.headers[.connection] = "close"
    }
    if response.headers[.storesDataVersion] == nil, let loaded = context.loaded {
      response.headers[.storesDataVersion] = loaded.version
    }
    if response.headers[.storesStateVersion] == nil {
      response.headers[.storesStateVersion] = String(context.states.version)
    }
    if let age = context.staleStateAge {
      response.headers[.storesStateAge] = age < 0 ? "unknown" : String(Int(age))
    }
    context.logger.debug(
      "\(request.method) \(EchoedText.shortened(request.uri.path, limit: 200)) \(response.status.code)",
      metadata: ["duration": "\(ContinuousClock.now - start)"])
    return response
  }

  /// The problem to answer for `error`, logged when it is the service's fault.
  func problem(for error: any Error, request: Request, context: Context) -> Problem {
    switch error {
    case let problem as Problem:
      return problem
    case is DeadlineExceeded:
      context.logger.warning(
        "request timed out",
        metadata: [
          "request_id": .string(context.requestID),
          "path": "\(EchoedText.shortened(request.uri.path, limit: 200))",
        ])
      return .timedOut(after: configuration.requestTimeout)
    case is NIOTooManyBytesError:
      return .bodyTooLarge(limit: configuration.maximumBodyBytes)
    case let error as HTTPParserError:
      // The body broke HTTP/1.1 framing (a chunk size that is not hex): the client's fault, and
      // the connection closes after the answer, as nothing after it can be framed.
      var problem = Problem(
        "invalid-request", status: .badRequest, title: "The request is not valid",
        detail: "the request body is not valid HTTP/1.1 (\(error)); the connection is closed")
      problem.headers[.connection] = "close"
      return problem
    case let error as any HTTPResponseError where error.status == .notFound:
      // The router found no route for the path and method: tell a wrong method from a wrong path.
      let path = request.uri.path
      let allowed = APIRoute.methods(forRequestPath: path)
      return allowed.isEmpty
        ? .unknownRoute(path) : .methodNotAllowed(request.method, path: path, allowed: allowed)
    case let error as any HTTPResponseError:
      return Problem(
        "http-\(error.status.code)", status: error.status, title: error.status.reasonPhrase,
        detail: error.status.reasonPhrase)
    default:
      context.logger.error(
        "unexpected error",
        metadata: ["request_id": .string(context.requestID), "error": "\(String(reflecting: error))"])
      return .internalError(requestID: context.requestID)
    }
  }

  /// The caller's `X-Request-Id` when it is 1 to 128 printable ASCII characters (so it can go
  /// into a log line and a header as it is), else a new one (`RequestIDs`).
  static func requestID(from request: Request) -> String {
    if let given = request.headers[.requestID], (1...128).contains(given.utf8.count),
      given.utf8.allSatisfy({ (0x21...0x7E).contains($0) })
    {
      return given
    }
    return RequestIDs.next()
  }
}
