import StoreLocator

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
  /// More admin tokens, each with the name the state's history records for its changes
  /// (`STORES_ADMIN_TOKENS=ops:TOKEN,store-42:TOKEN`); `adminToken` is named `admin`.
  public var namedAdminTokens: [(name: String, token: String)]
  /// The tokens of the order flow, each with a name (`STORES_ORDER_TOKENS=web:TOKEN,kiosk:TOKEN`):
  /// they may hold, confirm and release pickup slots (`"reserve": true`), and nothing else. An
  /// admin token may too.
  public var orderTokens: [(name: String, token: String)]
  /// `Cache-Control: max-age` of the answers about stores, in seconds: short, since whether a
  /// store is open changes with the clock.
  public var cacheMaxAge: Int
  /// Queries that run at once, each on a thread of its own (`--query-threads`): one a core.
  public var queryThreads: Int
  /// Queries that may wait for a query thread (`--max-queued-queries`); the next is refused with
  /// `503 overloaded`.
  public var maximumQueuedQueries: Int
  /// The largest share of the served stores, in percent, that a reload may lose
  /// (`--max-store-loss`, 0…100; 100 takes any data): new data with more stores missing is
  /// refused unless the reload is forced.
  public var maximumStoreLossPercent: Double

  public init(
    maximumBodyBytes: Int = 1 << 20, requestTimeout: Double = 10, corsOrigins: [String] = [],
    adminToken: String? = nil, namedAdminTokens: [(name: String, token: String)] = [],
    orderTokens: [(name: String, token: String)] = [], cacheMaxAge: Int = 10,
    queryThreads: Int = APIConfiguration.defaultQueryThreads,
    maximumQueuedQueries: Int = 256, maximumStoreLossPercent: Double = 10
  ) {
    self.queryThreads = queryThreads
    self.maximumQueuedQueries = maximumQueuedQueries
    self.maximumBodyBytes = maximumBodyBytes
    self.requestTimeout = requestTimeout
    self.corsOrigins = corsOrigins
    self.adminToken = adminToken
    self.namedAdminTokens = namedAdminTokens
    self.orderTokens = orderTokens
    self.cacheMaxAge = cacheMaxAge
    self.maximumStoreLossPercent = maximumStoreLossPercent
  }

  /// Every admin token with its name.
  var adminTokens: [(name: String, token: String)] {
    (adminToken.flatMap { $0.isEmpty ? nil : [("admin", $0)] } ?? [])
      + namedAdminTokens.filter { !$0.token.isEmpty }
  }

  /// Every token that may hold slots: the order tokens, then the admin tokens.
  var reservationTokens: [(name: String, token: String)] {
    orderTokens.filter { !$0.token.isEmpty } + adminTokens
  }

  /// One query thread a core the process may use.
  public static var defaultQueryThreads: Int { ActiveProcessors.count }
}
