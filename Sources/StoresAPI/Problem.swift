import HTTPTypes
import Hummingbird
import StoreLocator

/// An RFC 9457 problem: every error the service answers, as `application/problem+json`.
///
/// The `detail` is the library's sentence, the same the CLI prints; `parameter` names the input
/// it is about, spelled as the query string spells it.
public struct Problem: Error, Sendable, CustomStringConvertible {
  /// What kind of problem: the last part of the `type` URI (`urn:stores:problem:KIND`).
  public let kind: String
  public let status: HTTPResponse.Status
  /// A short summary that is the same for every problem of the kind.
  public let title: String
  /// This occurrence, in a sentence.
  public let detail: String
  /// The parameter (query-string name or body member) the problem is about, when one is.
  public var parameter: String?
  /// Store ids the request may have meant (an unknown id).
  public var suggestions: [String] = []
  /// More members, after the standard ones.
  public var extensions = JSONObject()
  /// Headers the response carries beside the body (`Allow`, `WWW-Authenticate`).
  public var headers: HTTPFields = [:]

  public init(
    _ kind: String, status: HTTPResponse.Status, title: String, detail: String, parameter: String? = nil
  ) {
    self.kind = kind
    self.status = status
    self.title = title
    self.detail = detail
    self.parameter = parameter
  }

  public var description: String { "\(status.code) \(kind): \(detail)" }

  /// `type`, `title`, `status`, `detail`, then `parameter` and `suggestions` when known, then the
  /// extensions; one line, ending in a newline as every body of the service does.
  public var jsonText: String {
    var object = JSONObject()
    object["type"] = .string("urn:stores:problem:\(kind)")
    object["title"] = .string(title)
    object["status"] = JSONValue(status.code)
    object["detail"] = .string(detail)
    if let parameter { object["parameter"] = .string(parameter) }
    if !suggestions.isEmpty { object["suggestions"] = .array(suggestions.map(JSONValue.string)) }
    for member in extensions { object[member.key] = member.value }
    return JSONValue.object(object).jsonText + "\n"
  }

  /// The response: this problem's status, headers and body.
  public var response: Response {
    var fields = headers
    fields[.contentType] = "application/problem+json"
    fields[.cacheControl] = "no-store"
    return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: jsonText)))
  }
}

extension Problem {
  /// The library refused the request: 400 malformed (with the places an ambiguous or unknown
  /// `near` name may mean), 404 unknown store (with the most similar ids), 409 an id several
  /// stores share (with where each is in the file), 422 a pickup the planner refuses.
  public init(_ error: RequestError) {
    switch error.kind {
    case .invalid:
      self.init(
        "invalid-request", status: .badRequest, title: "The request is not valid", detail: error.message,
        parameter: error.parameter)
      if !error.places.isEmpty {
        extensions["places"] = .array(error.places.map { .object($0.jsonObject) })
      }
    case .unknownStore:
      self.init(
        "unknown-store", status: .notFound, title: "No store has this id", detail: error.message,
        parameter: error.parameter)
      suggestions = error.suggestions
    case .ambiguousStore:
      self.init(
        "ambiguous-store", status: .conflict, title: "Several stores share this id", detail: error.message,
        parameter: error.parameter)
      extensions["candidates"] = .array(
        error.candidates.map { store in
          var candidate = JSONObject()
          candidate["feature"] = JSONValue(store.position.featureIndex)
          candidate["line"] = JSONValue(store.position.line)
          candidate["column"] = JSONValue(store.position.column)
          candidate["name"] = store.name.map(JSONValue.string) ?? .null
          candidate["location"] = store.coordinate.map { .object($0.jsonObject) } ?? .null
          return .object(candidate)
        })
    case .refused:
      self.init(
        "pickup-refused", status: .unprocessableContent, title: "The pickup planner refuses this request",
        detail: error.message, parameter: error.parameter)
    }
  }

  /// No route has this path.
  static func unknownRoute(_ path: String) -> Problem {
    Problem(
      "not-found", status: .notFound, title: "No such route",
      detail: "no route \(EchoedText.quoted(path)); GET /openapi.json lists them")
  }

  /// The path exists, the method does not; `Allow` lists the methods that do.
  static func methodNotAllowed(_ method: HTTPRequest.Method, path: String, allowed: [HTTPRequest.Method])
    -> Problem
  {
    let list = allowed.map(\.rawValue).joined(separator: ", ")
    var problem = Problem(
      "method-not-allowed", status: .methodNotAllowed, title: "The route does not take this method",
      detail: "\(path) takes \(list), not \(method.rawValue)")
    problem.headers[.allow] = list
    return problem
  }

  /// No data is loaded yet, or the service is shutting down.
  static let notReady = Problem(
    "not-ready", status: .serviceUnavailable, title: "The service is not ready",
    detail: "no store data is loaded yet; retry shortly")

  /// The request ran past the deadline.
  static func timedOut(after seconds: Double) -> Problem {
    var problem = Problem(
      "timeout", status: .serviceUnavailable, title: "The request took too long",
      detail: "the request was not answered within \(Problem.seconds(seconds)), the service's limit")
    problem.headers[.retryAfter] = "1"
    return problem
  }

  /// Every query thread is busy and the queue of waiting queries is full: refused at once, so a
  /// caller is told to come back rather than answered late.
  static func overloaded(running: Int, waiting: Int) -> Problem {
    var problem = Problem(
      "overloaded", status: .serviceUnavailable, title: "The service is overloaded",
      detail:
        "the service is busy: \(running) queries are running and \(waiting) waiting, its limit; retry shortly"
    )
    problem.headers[.retryAfter] = "1"
    return problem
  }

  /// A body larger than the limit.
  static func bodyTooLarge(limit: Int) -> Problem {
    Problem(
      "body-too-large", status: .contentTooLarge, title: "The body is too large",
      detail: "the body is over \(limit) bytes, the service's limit")
  }

  /// Anything else: a fault of the service, not of the request; logged with the request id.
  static func internalError(requestID: String) -> Problem {
    Problem(
      "internal", status: .internalServerError, title: "The service failed",
      detail: "the service failed to answer; the log says why under request id \(requestID)")
  }

  /// `10 s`, `1.5 s`, `250 ms`.
  static func seconds(_ value: Double) -> String {
    if value < 1 { return "\(Int((value * 1000).rounded())) ms" }
    if value == value.rounded() { return "\(Int(value)) s" }
    return "\(value) s"
  }
}
