import OpenAPIRuntime

/// The service's RFC 9457 problem: `_type` (`urn:stores:problem:…`), `title`, `status`, `detail`
/// (the CLI's sentence), `parameter` for a bad parameter, `suggestions` for an unknown store,
/// `places` for a `near` name that names several places (or none: then close names).
public typealias Problem = Components.Schemas.Problem

extension Problem {
  /// The problem's type URI (`urn:stores:problem:unknown-store`); the generated name is `_type`.
  public var type: String { _type }
}

/// What a call to the service throws when the service said no.
public enum StoresClientError: Error, Sendable, CustomStringConvertible {
  /// An answer of 400 or over with the service's problem document.
  case problem(Problem)
  /// An answer the document does not describe: a status with no problem document (a proxy's 502,
  /// say), or a success in a shape this client does not expect. `body` is the first 64 KiB;
  /// `status` is 0 when the answer reached the client as a documented error case without one.
  case unexpectedResponse(status: Int, body: String)

  public var description: String {
    switch self {
    case .problem(let problem): "\(problem.status) \(problem._type): \(problem.detail)"
    case .unexpectedResponse(let status, let body): "unexpected answer \(status): \(body.prefix(200))"
    }
  }

  /// The problem, when the service sent one.
  public var problem: Problem? {
    if case .problem(let problem) = self { problem } else { nil }
  }

  /// An answer the convenience methods did not ask for: a 304 to a request without
  /// `If-None-Match`, or an error status the middleware let through (status 0: it names none).
  static func unexpected(_ output: some Sendable) -> StoresClientError {
    let text = String(describing: output)
    return .unexpectedResponse(status: text.hasPrefix("notModified") ? 304 : 0, body: text)
  }

  /// Runs `call`, throwing a `StoresClientError` that the middleware threw as itself rather than
  /// wrapped in the `ClientError` the generated client throws (which says which operation failed,
  /// something the convenience methods' callers know already).
  static func unwrapping<Result>(_ call: () async throws -> Result) async throws -> Result {
    do {
      return try await call()
    } catch let error as ClientError {
      if let underlying = error.underlyingError as? StoresClientError { throw underlying }
      throw error
    }
  }
}
