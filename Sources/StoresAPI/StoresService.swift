import Hummingbird
import Logging
import StoresState

/// The service's state, shared by every request: the data being served, how to reload it, the
/// metrics and the configuration.
public struct StoresService: Sendable {
  public let store: CatalogStore
  public let reloader: Reloader
  public let metrics: ServiceMetrics
  public let configuration: APIConfiguration
  /// The store picker page at `/` and what it loads.
  public let page: PageResources
  /// Where the queries run: off the threads that answer health checks, a bounded number at once.
  public let queries: QueryExecutor
  /// The stores' state (paused ordering, closures, special days) and its storage.
  public let state: StateKeeper

  /// - Parameters:
  ///   - source: Where the data comes from; read again on every reload.
  ///   - initial: The data loaded at startup; `nil` for a service not ready yet.
  ///   - page: The page at `/`; by default without map library, basemap or tiles.
  public init(
    source: CatalogSource, initial: LoadedCatalog?, configuration: APIConfiguration = APIConfiguration(),
    page: PageResources = .listOnly, metrics: ServiceMetrics = ServiceMetrics(),
    stateStorage: any StateStorage = MemoryStateStorage(), statePollInterval: Duration = .seconds(1),
    logger: Logger = Logger(label: "stores-server")
  ) {
    state = StateKeeper(
      storage: stateStorage, pollInterval: statePollInterval, metrics: metrics, logger: logger)
    self.page = page
    store = CatalogStore(initial)
    self.metrics = metrics
    self.configuration = configuration
    // The refusal says how to accept the data: by the admin route where it exists, else by a restart.
    let remedy =
      (configuration.adminToken ?? "").isEmpty ? StoreLossGuard.restartRemedy : StoreLossGuard.forceRemedy
    reloader = Reloader(
      source: source, store: store, metrics: metrics, logger: logger,
      storeLossGuard: StoreLossGuard(
        maximumLossPercent: configuration.maximumStoreLossPercent, remedy: remedy))
    queries = QueryExecutor(
      threadCount: configuration.queryThreads, queueLimit: configuration.maximumQueuedQueries,
      onRefusal: { [metrics] in metrics.recordOverloadRefusal() })
    if let initial { metrics.recordServing(initial) }
  }

  /// The router with every route of `APIRoute.all`, behind the per-route metrics, CORS (when
  /// origins are configured) and the `ServiceMiddleware`.
  public func buildRouter() -> Router<StoresRequestContext> {
    let router = Router(context: StoresRequestContext.self, options: .autoGenerateHeadEndpoints)
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics.requests))
    if !configuration.corsOrigins.isEmpty {
      router.add(middleware: OriginsMiddleware(origins: configuration.corsOrigins))
    }
    router.add(middleware: ServiceMiddleware(store: store, state: state, configuration: configuration))

    let stores = StoreRoutes(configuration: configuration)
    let operations = OperationsRoutes(
      store: store, metrics: metrics, reloader: reloader, configuration: configuration, state: state)
    // The queries run on the query threads, the probes and the page where the request arrived.
    // A bounded nearest (k ≤ 20 near a LAT,LON, no condition) is answered where it arrived, with
    // no deadline to race (its cost is bounded; the race's two tasks and timer cost more than it).
    let deadline = configuration.requestTimeout
    add(.nearest, to: router, deadline: false) { [queries] request, context in
      let pairs = try QueryString.pairs(request.uri.query)
      if StoreRoutes.isBounded(pairs) { return try stores.nearest(pairs, request, context) }
      return try await withDeadline(seconds: deadline) {
        try await queries.run { try stores.nearest(pairs, request, context) }
      }
    }
    addQuery(.within, to: router) { try stores.within($0, $1) }
    addQuery(.clusters, to: router) { try stores.clusters($0, $1) }
    addQuery(.store, to: router) { try stores.store($0, $1) }
    addQuery(.hours, to: router) { try stores.hours($0, $1) }
    addQuery(.open, to: router) { try stores.open($0, $1) }
    addQuery(.places, to: router) { try stores.places($0, $1) }
    let reservations = ReservationRoutes(state: state, configuration: configuration, queries: queries)
    add(.pickup, to: router) { [queries] request, context in
      // The body arrives here; only the planning takes a query thread.
      let body = try await stores.pickupBody(request)
      switch try await queries.run({ try stores.pickup(request, context, body: body) }) {
      case .answered(let response): return response
      case .reserve(let submission):
        return try await reservations.reserve(submission, body: body, request: request, context: context)
      }
    }
    addQuery(.info, to: router) { try stores.info($0, $1) }
    let states = StateRoutes(state: state, configuration: configuration)
    addQuery(.storeState, to: router) { try states.state($0, $1) }
    addQuery(.changedStates, to: router) { try states.changed($0, $1) }
    add(.changeStoreState, to: router) { try await states.change($0, $1) }
    add(.storeStateHistory, to: router) { try await states.history($0, $1) }
    add(.slots, to: router) { try await reservations.slots($0, $1) }
    add(.reservation, to: router) { try await reservations.reservation($0, $1) }
    add(.confirmReservation, to: router) { try await reservations.confirm($0, $1) }
    add(.releaseReservation, to: router) { try await reservations.release($0, $1) }
    // The probes and the scrape are answered from memory at once, so they race no deadline
    // either: its two tasks and timer were a fifth of a probe's cost, and a probe is what must
    // stay cheap when the service is busiest.
    add(.health, to: router, deadline: false) { operations.health($0, $1) }
    add(.readiness, to: router, deadline: false) { try operations.readiness($0, $1) }
    add(.metrics, to: router, deadline: false) { operations.metricsText($0, $1) }
    add(.openAPI, to: router) { operations.openAPI($0, $1) }
    let page = PageRoutes(resources: page)
    add(.page, to: router) { page.index($0, $1) }
    add(.pageFile, to: router) { try page.pageFile($0, $1) }
    add(.asset, to: router) { try page.asset($0, $1) }
    // A reload may take longer than a query's deadline, and ends on its own.
    add(.reload, to: router, deadline: false) { try await operations.reload($0, $1) }
    return router
  }

  /// Adds `route`, answered by `handler` on a query thread under the request deadline.
  private func addQuery(
    _ route: APIRoute, to router: Router<StoresRequestContext>,
    _ handler: @escaping @Sendable (Request, StoresRequestContext) throws -> Response
  ) {
    add(route, to: router) { [queries] request, context in
      try await queries.run { try handler(request, context) }
    }
  }

  /// Adds `route`, answered by `handler` under the request deadline.
  private func add(
    _ route: APIRoute, to router: Router<StoresRequestContext>, deadline: Bool = true,
    _ handler: @escaping @Sendable (Request, StoresRequestContext) async throws -> Response
  ) {
    let seconds = deadline ? configuration.requestTimeout : 0
    router.on(route.routerPath, method: route.method) { request, context in
      try await withDeadline(seconds: seconds) { try await handler(request, context) }
    }
  }
}
