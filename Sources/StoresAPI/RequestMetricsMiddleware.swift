import HTTPTypes
import Hummingbird

/// Records every request in `RequestMetrics`: begun when it arrives, answered when the last byte
/// of its response is written (so the latency includes writing the body), or failed when an
/// error reaches here instead of a response. The route is the router's pattern
/// (`/v1/stores/{id}`), `NotFound` for an unknown path, so paths never become labels.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
  let metrics: RequestMetrics

  func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    let method = request.method
    metrics.began(method)
    do {
      var response = try await next(request, context)
      let status = response.status.code
      let route = context.endpointPath ?? "NotFound"
      // A HEAD is answered by the GET route, whose body the router then drops unwritten: a
      // closure run after writing it would never run, and the request would stay active forever.
      if method == .head {
        metrics.answered(route: route, method: method, status: status, seconds: Self.seconds(since: start))
        return response
      }
      let body = response.body
      response.body = ResponseBody(contentLength: body.contentLength) { [metrics] writer in
        defer {
          metrics.answered(route: route, method: method, status: status, seconds: Self.seconds(since: start))
        }
        try await body.write(writer)
      }
      return response
    } catch {
      let status = (error as? any HTTPResponseError)?.status.code ?? 500
      metrics.failed(route: context.endpointPath ?? "NotFound", method: method, status: status)
      throw error
    }
  }

  static func seconds(since start: ContinuousClock.Instant) -> Double {
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
  }
}
