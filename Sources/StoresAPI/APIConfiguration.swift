/// How the service treats requests: limits, CORS and the admin token.
public struct APIConfiguration: Sendable {
  /// The largest request body read (`--max-body-bytes`); a larger one is refused with 413.
  public var maximumBodyBytes: Int
  /// Seconds a request may take before it is answered 503 (`--request-timeout`); 0 for none.
  public var requestTimeout: Double
  /// Origins a browser may call the service from (`--cors-origin`); none: no CORS headers.
  public var corsOrigins: [String]
  /// The bearer token of `POST /admin/reload` (`STORES_ADMIN_TOKEN`); `nil` disables the route.
  public var adminToken: String?
  /// `Cache-Control: max-age` of the answers about stores, in seconds: short, since whether a
  /// store is open changes with the clock.
  public var cacheMaxAge: Int

  public init(
    maximumBodyBytes: Int = 1 << 20, requestTimeout: Double = 10, corsOrigins: [String] = [],
    adminToken: String? = nil, cacheMaxAge: Int = 10
  ) {
    self.maximumBodyBytes = maximumBodyBytes
    self.requestTimeout = requestTimeout
    self.corsOrigins = corsOrigins
    self.adminToken = adminToken
    self.cacheMaxAge = cacheMaxAge
  }
}
