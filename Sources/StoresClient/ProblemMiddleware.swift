import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Throws every answer of 400 or over as `StoresClientError`, with its problem document decoded.
///
/// Why a middleware rather than a `switch` after each call: the service answers every error with
/// the same problem document, on every operation, but the generated code gives each operation its
/// own enum of statuses (and an `undocumented` case for the rest), so an app would repeat the same
/// `switch` sixteen times. Here it is done once, for the generated `client` and the convenience
/// methods alike. 304 (`.notModified`) is not an error and passes through.
struct ProblemMiddleware: ClientMiddleware {
  /// Problem documents are a few hundred bytes; more is not one.
  static let bodyLimit = 64 * 1024

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    let (response, responseBody) = try await next(request, body, baseURL)
    guard response.status.code >= 400 else { return (response, responseBody) }
    var bytes = Data()
    if let responseBody {
      for try await chunk in responseBody {
        bytes.append(contentsOf: chunk.prefix(Self.bodyLimit - bytes.count))
        if bytes.count >= Self.bodyLimit { break }
      }
    }
    if let problem = try? JSONDecoder().decode(Problem.self, from: bytes) {
      throw StoresClientError.problem(problem)
    }
    throw StoresClientError.unexpectedResponse(
      status: response.status.code, body: String(decoding: bytes, as: UTF8.self))
  }
}
