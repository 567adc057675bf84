import ArgumentParser
import Hummingbird
import Logging
import Metrics
import NIOCore
import ServiceLifecycle
import StoreLocator
import StoresAPI
import StoresState
import StoresStatePostgres

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `stores-server`: the HTTP service over the store data.
@main
struct StoresServerCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stores-server",
    abstract:
      "Serve the store locator over HTTP: nearest, within, a store, its hours, open, pickup, and a store picker page.",
    discussion: """
      Loads the data once (a GeoJSON file or a snapshot from 'stores snapshot build'; a snapshot \
      is mapped, not parsed, and its records are checked while it already serves, so a replica \
      is ready in milliseconds), then answers on \
      http://HOSTNAME:PORT. Bodies are exactly what 'stores … --format json' prints; errors are \
      RFC 9457 application/problem+json with the CLI's sentence. GET /openapi.json is the contract.

      Reload without downtime: SIGHUP, or POST /admin/reload with 'Authorization: Bearer TOKEN' \
      when STORES_ADMIN_TOKEN=TOKEN is set (the route does not exist otherwise), reads --data \
      again beside the data being served and swaps it in; requests in flight finish on the data \
      they started with, and the data replaced is released when the last of them ends. A reload \
      that fails (a missing file, bad data under --strict, a corrupted snapshot) keeps the old \
      data, logs why and counts it in /metrics. Reloads asked for while one runs share the next \
      load: a burst of SIGHUPs makes at most two.

      Reload guard: new data with more than --max-store-loss (default 10%) of the served stores \
      missing, as when an upstream publishes an empty or truncated file, is refused the same way \
      (the log, /metrics and the admin answer give both counts). Accept it on purpose with \
      POST /admin/reload?force=true, or by restarting: a startup has nothing to compare with. \
      --max-store-loss 100 turns the guard off.

      SIGTERM or SIGINT: /readyz turns 503; after --drain-delay (new requests are still answered \
      meanwhile, each with Connection: close, so a load balancer has time to notice) the listener \
      closes, requests in flight complete, every answer is written whole (within \
      --shutdown-timeout), and the process exits.

      Under load: queries run on --query-threads threads of their own, so /healthz, /readyz and \
      /metrics answer while the heaviest requests run; past --max-queued-queries waiting, a query \
      is answered 503 overloaded with Retry-After. Past --max-connections open, a new connection \
      is closed at once.

      Pickup slots: a store with a capacity takes so many orders per slot; POST /v1/pickup with \
      "reserve": true holds the assigned slot in the state's storage (atomically, across \
      replicas on one PostgreSQL) until POST /v1/reservations/ID/confirm, DELETE, or its expiry. \
      Holding takes a bearer token of STORES_ORDER_TOKENS=name:token,… (or an admin token); \
      without any, reservations answer 403 (docs/pickup.md).

      The store picker page: open http://HOSTNAME:PORT/ in a browser for a map and a list of the \
      nearest stores, their hours and a pickup estimate (docs/page.md). Its map uses Leaflet from \
      --assets (Debian: apt install libjs-leaflet) and tiles from --tiles; without tiles, or when \
      they do not load, it draws the bundled Natural Earth basemap, so it works offline.

      The startup line (standard output) says what was loaded and where the service listens, \
      the real port too with --port 0. Logs go to standard error, each request's with its \
      X-Request-Id.

      Examples:
        # the bundled data on 127.0.0.1:8080
        stores-server
        # a snapshot, on every interface
        stores-server --data stores.snapshot --hostname 0.0.0.0
        # reload by HTTP too, refusing data with errors
        STORES_ADMIN_TOKEN=s3cret stores-server --data stores.geojson --strict
        curl 'http://127.0.0.1:8080/v1/stores/nearest?near=47.6062,-122.3321&k=3'
        curl -X POST -H 'Authorization: Bearer s3cret' \\
          http://127.0.0.1:8080/admin/reload
        # take new data that lacks many stores, after checking it
        curl -X POST -H 'Authorization: Bearer s3cret' \\
          'http://127.0.0.1:8080/admin/reload?force=true'
        # the page with OpenStreetMap's tiles (mind their usage policy)
        stores-server --tiles 'https://tile.openstreetmap.org/{z}/{x}/{y}.png' \\
          --tiles-attribution '&copy; OpenStreetMap contributors'
        # reload after renaming a new file over the old one
        kill -HUP "$(pidof stores-server)"

      Exits 0 after a graceful shutdown, 75 when one cut an answer (--shutdown-timeout), 64 for bad options, 65 for data it cannot serve, 66 for \
      a data file that cannot be read, 70 when the port cannot be bound.
      """)

  @Option(
    help: ArgumentHelp(
      "GeoJSON file or snapshot to serve.",
      discussion:
        "Default: $STORES_DATA, else the bundled Data/stores.geojson ($STORES_RESOURCES, when set, "
        + "names a copy of Data/ with the reference data: holidays, time-zone places, the basemap).",
      valueName: "path"))
  var data: String?

  @Flag(help: "Refuse data with any error instead of skipping the bad records (at startup and on reload).")
  var strict = false

  @Option(
    name: .customLong("holidays"),
    help: ArgumentHelp("Public-holiday file to add to the bundled ones (repeatable).", valueName: "file"))
  var holidayFiles: [String] = []

  @Option(help: ArgumentHelp("Address to listen on; 0.0.0.0 for every interface.", valueName: "address"))
  var hostname = "127.0.0.1"

  @Option(
    help: ArgumentHelp(
      "Port to listen on; 0 for any free port (the startup line says which).", valueName: "port"))
  var port = 8080

  @Option(
    name: .customLong("cors-origin"),
    help: ArgumentHelp(
      "An origin browsers may call the service from, such as https://shop.example (repeatable; * for any).",
      valueName: "origin"))
  var corsOrigins: [String] = []

  @Option(help: ArgumentHelp("The largest request body read, in bytes (413 beyond).", valueName: "bytes"))
  var maxBodyBytes = 1 << 20

  @Option(
    help: ArgumentHelp(
      "Seconds a request may take before it is answered 503 (0: no limit).", valueName: "seconds"))
  var requestTimeout = 10.0

  @Option(
    help: ArgumentHelp(
      "Seconds a connection may stay idle (no request, or a request that stopped arriving) before it is closed (0: never).",
      discussion:
        "65 s by default: longer than the 60 s load balancers keep idle connections to a backend "
        + "(AWS ALB, nginx's keepalive_timeout), so the balancer closes first and never reuses a "
        + "connection the service is closing.",
      valueName: "seconds"))
  var idleTimeout = 65.0

  @Option(
    help: ArgumentHelp(
      "Connections open at once; past it a new connection is closed at once and counted in /metrics.",
      discussion:
        "Default: the file-descriptor limit (the soft limit is raised to the hard one at startup) "
        + "less \(ConnectionLimiter.reservedDescriptors) kept for files.",
      valueName: "count"))
  var maxConnections: Int?

  @Option(
    help: ArgumentHelp(
      "Queries computed at once, each on a thread of its own (one a core).", valueName: "count"))
  var queryThreads = APIConfiguration.defaultQueryThreads

  @Option(
    help: ArgumentHelp(
      "Queries that may wait for a query thread; the next is answered 503 overloaded with Retry-After.",
      valueName: "count"))
  var maxQueuedQueries = 256

  @Option(
    help: ArgumentHelp(
      "Seconds an answer may take to be written once the service closes its connection (on SIGTERM, after an idle timeout); an answer cut by it is logged, counted, and on SIGTERM makes the exit status 75.",
      valueName: "seconds"))
  var shutdownTimeout = 20.0

  @Option(
    help: ArgumentHelp(
      "Seconds to keep answering after SIGTERM with /readyz at 503, before the listener closes.",
      valueName: "seconds"))
  var drainDelay = 0.0

  @Option(
    help: ArgumentHelp(
      "Directory holding Leaflet (leaflet.min.js or leaflet.js, and leaflet.css) for the page's map.",
      valueName: "dir"))
  var assets = PageResources.debianLeafletDirectory

  @Option(
    help: ArgumentHelp(
      "Tile URL template for the page's map, such as https://tile.example/{z}/{x}/{y}.png (default: the offline basemap).",
      valueName: "url"))
  var tiles: String?

  @Option(
    help: ArgumentHelp(
      "The tile provider's credit shown on the map, as HTML (needed with --tiles).", valueName: "html"))
  var tilesAttribution = ""

  @Option(help: ArgumentHelp("The deepest zoom level the tile server has.", valueName: "level"))
  var tilesMaxZoom = 19

  @Option(
    help: ArgumentHelp(
      "Where the stores' state (paused ordering, closures, special days, capacity) and the slots' "
        + "reservations are kept: sqlite:PATH, "
        + "postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE (replicas that share it), or memory.",
      discussion:
        "Default: an SQLite file beside --data, named after it (Data/stores.geojson keeps "
        + "Data/stores.state.sqlite); the startup line says which. Changes take the admin token "
        + "(STORES_ADMIN_TOKEN, or STORES_ADMIN_TOKENS=name:token,… whose names the history keeps).",
      valueName: "location"))
  var state: String?

  @Option(
    help: ArgumentHelp(
      "Seconds between checks of the state's version (changes made elsewhere, a database back up).",
      valueName: "seconds"))
  var statePoll = 1.0

  @Option(help: "trace, debug, info, notice, warning, error or critical (debug logs every request).")
  var logLevel = "info"

  // MARK: Reload guard (--max-store-loss)

  @Option(
    help: ArgumentHelp(
      "Refuse a reload whose data has more than this share of the served stores missing (0...100; 100 takes any data).",
      discussion:
        "The old data stays served; the log, /metrics and the admin answer say why. Accept such data "
        + "with POST /admin/reload?force=true, or by a restart: a startup has nothing to compare with.",
      valueName: "percent"))
  var maxStoreLoss = 10.0

  /// `--max-store-loss` checked: a share in percent.
  func validateReloadGuard() throws {
    guard maxStoreLoss.isFinite, (0...100).contains(maxStoreLoss) else {
      throw ValidationError("--max-store-loss must be 0...100 percent (got \(maxStoreLoss))")
    }
  }

  // MARK: -

  func validate() throws {
    guard Logger.Level(rawValue: logLevel) != nil else {
      throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical")
    }
    guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535 (got \(port))") }
    guard (1...(1 << 30)).contains(maxBodyBytes) else {
      throw ValidationError("--max-body-bytes must be 1...1073741824 (got \(maxBodyBytes))")
    }
    guard requestTimeout.isFinite, (0...3600).contains(requestTimeout) else {
      throw ValidationError("--request-timeout must be 0...3600 seconds (got \(requestTimeout))")
    }
    guard idleTimeout.isFinite, (0...3600).contains(idleTimeout) else {
      throw ValidationError("--idle-timeout must be 0...3600 seconds (got \(idleTimeout))")
    }
    guard drainDelay.isFinite, (0...600).contains(drainDelay) else {
      throw ValidationError("--drain-delay must be 0...600 seconds (got \(drainDelay))")
    }
    guard shutdownTimeout.isFinite, (0.1...3600).contains(shutdownTimeout) else {
      throw ValidationError("--shutdown-timeout must be 0.1...3600 seconds (got \(shutdownTimeout))")
    }
    if let maxConnections, !(1...10_000_000).contains(maxConnections) {
      throw ValidationError("--max-connections must be 1...10000000 (got \(maxConnections))")
    }
    guard (1...1024).contains(queryThreads) else {
      throw ValidationError("--query-threads must be 1...1024 (got \(queryThreads))")
    }
    guard (0...1_000_000).contains(maxQueuedQueries) else {
      throw ValidationError("--max-queued-queries must be 0...1000000 (got \(maxQueuedQueries))")
    }
    guard !hostname.isEmpty else { throw ValidationError("--hostname is empty") }
    guard statePoll.isFinite, (0.05...60).contains(statePoll) else {
      throw ValidationError("--state-poll must be 0.05...60 seconds (got \(statePoll))")
    }
    if let state {
      do throws(StateStorageError) { _ = try StateStorageLocation(parsing: state) } catch {
        throw ValidationError("--state: \(error.message)")
      }
    }
    _ = try tileLayer()
    try validateReloadGuard()
  }

  /// The tile server of `--tiles`, if given.
  func tileLayer() throws(ValidationError) -> TileLayer? {
    guard let tiles else {
      if !tilesAttribution.isEmpty {
        throw ValidationError("--tiles-attribution is for --tiles, which is not given")
      }
      return nil
    }
    do { return try TileLayer(url: tiles, attribution: tilesAttribution, maximumZoom: tilesMaxZoom) } catch {
      throw ValidationError(error.description)
    }
  }

  func run() async throws {
    let level = Logger.Level(rawValue: logLevel) ?? .info
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "stores-server")
    let metrics = ServiceMetrics()
    MetricsSystem.bootstrap(metrics.makeFactory())

    let path = DefaultData.path(
      explicit: data, environment: ["STORES_DATA": environment("STORES_DATA") ?? ""])
    let source = CatalogSource(path: path, options: LoadOptions(strict: strict, holidayFiles: holidayFiles))
    let loaded: LoadedCatalog
    do { loaded = try await source.loadOffEventLoops(verifyingRecords: false) } catch {
      standardError("stores-server: \(error.description)")
      throw ExitCode(error.kind == .inputMissing ? 66 : 65)
    }
    let errors = loaded.catalog.diagnosticCount(.error)
    if errors > 0 {
      logger.warning(
        "\(path) has \(errors) data error\(errors == 1 ? "" : "s"), so answers may be incomplete; run 'stores validate \(path)' for the list"
      )
    }

    let stateLocation =
      try state.map { text throws(StateStorageError) in try StateStorageLocation(parsing: text) }
      ?? .beside(data: path)
    let stateStorage: any StateStorage
    do { stateStorage = try await openStateStorageWithPostgres(stateLocation) } catch {
      standardError("stores-server: the state storage \(stateLocation.description): \(error.message)")
      throw ExitCode(error.kind == .badLocation ? 64 : 69)
    }

    let page = PageResources(
      assetsDirectory: assets, basemapPath: PageResources.bundledBasemapPath, tiles: try tileLayer())
    for warning in page.warnings { logger.warning("\(warning)") }

    // The startup line's figures, as values: once a reload has replaced the first catalog and its
    // last request has ended, nothing here may keep it (or its mapping of a snapshot) alive.
    let first = (stores: loaded.catalog.stores.count, version: loaded.version, seconds: loaded.loadSeconds)
    let service = StoresService(
      source: source, initial: consume loaded,
      configuration: APIConfiguration(
        maximumBodyBytes: maxBodyBytes, requestTimeout: requestTimeout, corsOrigins: corsOrigins,
        adminToken: environment("STORES_ADMIN_TOKEN").flatMap { $0.isEmpty ? nil : $0 },
        namedAdminTokens: Self.namedTokens(environment("STORES_ADMIN_TOKENS") ?? ""),
        orderTokens: Self.namedTokens(environment("STORES_ORDER_TOKENS") ?? ""),
        queryThreads: queryThreads, maximumQueuedQueries: maxQueuedQueries,
        maximumStoreLossPercent: maxStoreLoss),
      page: page, metrics: metrics, stateStorage: stateStorage,
      statePollInterval: .nanoseconds(Int64(statePoll * 1e9)), logger: logger)
    await service.state.refresh()
    let hostname = hostname
    let connections = ConnectionLimiter(
      maximum: maxConnections ?? ConnectionLimiter.defaultMaximum(), metrics: metrics, logger: logger)
    let application = Application(
      router: service.buildRouter(),
      server: .guardedHTTP1(
        idleTimeout: idleTimeout > 0 ? .nanoseconds(Int64(idleTimeout * 1e9)) : nil, connections: connections,
        maximumBodyBytes: maxBodyBytes, closeTimeout: .nanoseconds(Int64(shutdownTimeout * 1e9))),
      configuration: ApplicationConfiguration(address: .hostname(hostname, port: port), serverName: nil),
      onServerRunning: { channel in
        let port = channel.localAddress?.port ?? 0
        let line =
          "stores-server: serving \(first.stores) stores from \(path) "
          + "(version \(first.version), loaded in \(Self.milliseconds(first.seconds))"
          + (service.configuration.adminToken == nil ? "" : "; POST /admin/reload enabled")
          + "; state in \(stateLocation.description), version \(service.state.current.states.version)"
          + ") on http://\(hostname.contains(":") ? "[\(hostname)]" : hostname):\(port)"
        standardOutput(line)
        logger.notice("listening", metadata: ["port": "\(port)", "version": "\(first.version)"])
      },
      logger: logger)

    let backstopSeconds: Double = drainDelay + requestTimeout + shutdownTimeout + 5
    let shutdownBackstop = Duration.nanoseconds(Int64(backstopSeconds * 1e9))
    var groupConfiguration = ServiceGroupConfiguration(
      services: [
        .init(service: application),
        .init(service: StateRefreshService(keeper: service.state), successTerminationBehavior: .ignore),
        .init(
          service: RecordVerificationService(store: service.store, logger: logger),
          successTerminationBehavior: .ignore, failureTerminationBehavior: .gracefullyShutdownGroup),
        .init(
          service: await HangupReloadService.trapping(reloader: service.reloader),
          successTerminationBehavior: .ignore),
        // Last, so it hears of the shutdown first: /readyz turns 503 while requests drain.
        .init(
          service: DrainingService(
            store: service.store, connections: connections, delay: .nanoseconds(Int64(drainDelay * 1e9))),
          successTerminationBehavior: .ignore),
      ],
      gracefulShutdownSignals: [.sigterm, .sigint],
      logger: logger)
    // A backstop only: each answer is bounded by --request-timeout, its writing by
    // --shutdown-timeout, so the group normally ends well within this.
    groupConfiguration.maximumGracefulShutdownDuration = shutdownBackstop
    let group = ServiceGroup(configuration: groupConfiguration)
    PlaceIndexWarmUp.start(logger: logger)
    do {
      try await group.run()
      let cut = connections.answersCutWhileStopping
      if cut > 0 {
        standardError(
          "stores-server: \(cut) answer\(cut == 1 ? " was" : "s were") cut by --shutdown-timeout \(shutdownTimeout) s while shutting down"
        )
        throw ExitCode(75)
      }
    } catch let error as ExitCode {
      throw error
    } catch let error as DataRefused {
      standardError("stores-server: \(error.message)")
      throw ExitCode(65)
    } catch let error as IOError {
      // Binding the port is what fails in practice; NIO's description names the syscall.
      standardError(
        "stores-server: cannot listen on \(hostname):\(port): \(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))"
      )
      throw ExitCode(70)
    } catch {
      standardError("stores-server: \(error)")
      throw ExitCode(70)
    }
  }

  /// `STORES_ADMIN_TOKENS`: `name:token` pairs separated by commas; an entry without a name or
  /// a token is skipped.
  static func namedTokens(_ text: String) -> [(name: String, token: String)] {
    text.split(separator: ",").compactMap { entry in
      let parts = entry.split(separator: ":", maxSplits: 1)
      guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
      return (String(parts[0]), String(parts[1]))
    }
  }

  static func milliseconds(_ seconds: Double) -> String {
    seconds < 1
      ? "\(Int((seconds * 1000).rounded())) ms"
      : "\(Int((seconds * 10).rounded()) / 10).\(Int((seconds * 10).rounded()) % 10) s"
  }
}

/// The value of an environment variable.
func environment(_ name: String) -> String? {
  getenv(name).map { String(cString: $0) }
}

/// Writes a line to standard output at once (the startup line is read by scripts and tests).
func standardOutput(_ line: String) {
  var text = line + "\n"
  text.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
}

/// Writes a line to standard error.
func standardError(_ line: String) {
  var text = line + "\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}
