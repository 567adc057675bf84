import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import StoresAPI

/// `RequestMetrics` records in stripes and sums them on read: nothing may be lost between
/// threads, and the text must be what Prometheus and the docs expect.
@Suite struct RequestMetricsTests {
  /// The value of the sample line `series` (its name and labels exactly) in `text`.
  static func sample(_ series: String, in text: String) -> Double? {
    for line in text.split(separator: "\n") where line.hasPrefix(series + " ") {
      return Double(line.dropFirst(series.count + 1))
    }
    return nil
  }

  @Test func requestsFromManyThreadsAreAllCounted() throws {
    let metrics = RequestMetrics()
    let threads = 8
    let perThread = 5_000
    // Real threads, so the stripes of several thread ids are written at once.
    onThreads(threads) { _ in
      for index in 0..<perThread {
        metrics.began(.get)
        metrics.answered(
          route: "/v1/stores/nearest", method: .get, status: index % 10 == 0 ? 404 : 200,
          seconds: index % 2 == 0 ? 0.0007 : 3.0)
      }
    }
    let text = metrics.text
    let labels = "http_route=\"/v1/stores/nearest\",http_request_method=\"GET\""
    let ok = "\(labels),http_response_status_code=\"200\""
    let missing = "\(labels),http_response_status_code=\"404\""
    let total = Double(threads * perThread)
    #expect(Self.sample("http_server_requests_total{\(ok)}", in: text) == total * 0.9)
    #expect(Self.sample("http_server_requests_total{\(missing)}", in: text) == total * 0.1)
    // Even requests took 0.7 ms (the 1 ms bucket and above), odd ones 3 s (the 5 s bucket and
    // above); every tenth, an even one, was a 404: of the 200s, 40% fast and 50% slow.
    #expect(Self.sample("http_server_request_duration_bucket{\(ok),le=\"0.0005\"}", in: text) == 0)
    #expect(Self.sample("http_server_request_duration_bucket{\(ok),le=\"0.001\"}", in: text) == total * 0.4)
    #expect(Self.sample("http_server_request_duration_bucket{\(ok),le=\"2.5\"}", in: text) == total * 0.4)
    #expect(Self.sample("http_server_request_duration_bucket{\(ok),le=\"5.0\"}", in: text) == total * 0.9)
    #expect(Self.sample("http_server_request_duration_bucket{\(ok),le=\"+Inf\"}", in: text) == total * 0.9)
    #expect(Self.sample("http_server_request_duration_count{\(ok)}", in: text) == total * 0.9)
    let sum = try #require(Self.sample("http_server_request_duration_sum{\(ok)}", in: text))
    #expect(abs(sum - total * (0.4 * 0.0007 + 0.5 * 3.0)) < 1e-3)
    #expect(Self.sample("http_server_active_requests{http_request_method=\"GET\"}", in: text) == 0)
    #expect(!text.contains("http_server_request_errors_total"))
  }

  @Test func requestsBeingAnsweredAreCountedUntilTheyEnd() {
    let metrics = RequestMetrics()
    for _ in 0..<3 { metrics.began(.post) }
    metrics.answered(route: "/v1/pickup", method: .post, status: 200, seconds: 0.001)
    #expect(Self.sample("http_server_active_requests{http_request_method=\"POST\"}", in: metrics.text) == 2)
    metrics.failed(route: "/v1/pickup", method: .post, status: 500)
    let text = metrics.text
    #expect(Self.sample("http_server_active_requests{http_request_method=\"POST\"}", in: text) == 1)
    #expect(
      Self.sample(
        "http_server_request_errors_total{http_route=\"/v1/pickup\",http_request_method=\"POST\",http_response_status_code=\"500\"}",
        in: text) == 1)
  }

  @Test func inventedMethodsShareOneLabel() throws {
    let metrics = RequestMetrics()
    for name in ["BREW", "WHEN", "PROPFIND"] {
      let method = try #require(HTTPRequest.Method(name))
      metrics.began(method)
      metrics.answered(route: "NotFound", method: method, status: 405, seconds: 0.001)
    }
    let text = metrics.text
    #expect(
      Self.sample(
        "http_server_requests_total{http_route=\"NotFound\",http_request_method=\"_OTHER\",http_response_status_code=\"405\"}",
        in: text) == 3)
    #expect(!text.contains("BREW"))
  }

  @Test func theServiceCountsEachRouteByItsPattern() async throws {
    let metrics = ServiceMetrics()
    let service = TestService.service(metrics: metrics)
    try await TestService.application(service).test(.router) { client in
      _ = try await client.get("/v1/stores/nw-0145?now=\(TestService.now)")
      _ = try await client.get("/v1/stores/no-such-store?now=\(TestService.now)")
      _ = try await client.get("/nowhere")
      _ = try await client.execute(uri: "/v1/stores/nw-0145?now=\(TestService.now)", method: .head)
    }
    let text = metrics.text
    #expect(
      Self.sample(
        "http_server_requests_total{http_route=\"/v1/stores/{id}\",http_request_method=\"GET\",http_response_status_code=\"200\"}",
        in: text) == 1)
    #expect(
      Self.sample(
        "http_server_requests_total{http_route=\"/v1/stores/{id}\",http_request_method=\"GET\",http_response_status_code=\"404\"}",
        in: text) == 1)
    #expect(
      Self.sample(
        "http_server_requests_total{http_route=\"NotFound\",http_request_method=\"GET\",http_response_status_code=\"404\"}",
        in: text) == 1)
    #expect(
      Self.sample(
        "http_server_requests_total{http_route=\"/v1/stores/{id}\",http_request_method=\"HEAD\",http_response_status_code=\"200\"}",
        in: text) == 1)
    // Every request ended, a HEAD (whose body the router drops) too.
    for method in ["GET", "HEAD"] {
      #expect(Self.sample("http_server_active_requests{http_request_method=\"\(method)\"}", in: text) == 0)
    }
    #expect(!text.contains("error_type=\"200\""))
  }
}

/// Runs `body(worker)` on `count` threads of their own and returns when all are done. Not
/// `DispatchQueue.concurrentPerform`: called from a test, which runs on Swift's cooperative pool,
/// it borrows that pool's threads, which the other suites' tasks are waiting for.
func onThreads(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
  let done = DispatchGroup()
  for worker in 0..<count {
    done.enter()
    Thread {
      body(worker)
      done.leave()
    }.start()
  }
  done.wait()
}
