import AsyncHTTPClient
import Foundation
import HTTPTypes
import OpenAPIRuntime
import OpenAPIURLSession
import StoresClient
import StoresClientNIO
import Testing

/// Every operation of the document, called through `StoresClient` against a real `stores-server`
/// on 127.0.0.1, and the answers compared, decoded into the same generated types, with what the
/// `stores` command prints for the same question.
@Suite struct LiveClientTests {
  static let now = "2026-11-25T18:00:00Z"
  static let nowDate = try! Date(now, strategy: .iso8601)
  static let seattle = Coordinate(latitude: 47.6062, longitude: -122.3321)
  static let near = "47.6062,-122.3321"

  /// The command's JSON for `arguments`, decoded as the client decodes the service's.
  static func command<Answer: Decodable & Sendable>(
    _ type: Answer.Type, _ arguments: [String], exitStatuses: Set<Int32> = [0]
  ) async throws -> Answer {
    let data = try await Binaries.onThread { try Binaries.runStores(arguments, exitStatuses: exitStatuses) }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    return try decoder.decode(Answer.self, from: data)
  }

  static func startServer() async throws -> LiveServer { try await Binaries.onThread { try LiveServer() } }

  @Test func nearestWithFieldsAnswersAsTheCommand() async throws {
    let server = try await Self.startServer()
    let expected = try await Self.command(
      NearestSelection.self,
      [
        "nearest", "--near", Self.near, "-k", "5", "--fields", "name,distance_m,state", "--now", Self.now,
        "--format", "json",
      ])
    #expect(expected.fields == [.id, .name, .distanceM, .state])
    for client in [
      StoresClient(serverURL: server.url), StoresClient(serverURL: server.url, httpClient: .shared),
    ] {
      let answer = try await client.nearest(
        to: Self.seattle, fields: [.name, .distanceM, .state], count: 5, now: Self.nowDate)
      #expect(answer == expected)
      #expect(answer.stores.count == 5)
      #expect(answer.stores.allSatisfy { $0.name != nil && $0.state != nil && $0.address == nil })
    }
    // Every member named: the whole answer, read as a selection of all of them.
    let whole = try await StoresClient(serverURL: server.url).nearest(
      to: Self.seattle, count: 2, now: Self.nowDate)
    let all = try await StoresClient(serverURL: server.url).nearest(
      to: Self.seattle, fields: StoreMember.allCases, count: 2, now: Self.nowDate)
    #expect(all.stores.map(\.id) == whole.stores.map(\.id))
    #expect(all.stores.map(\.statusText) == whole.stores.map(\.statusText))
  }

  @Test func nearestOverBothTransportsAnswersAsTheCommand() async throws {
    let server = try await Self.startServer()
    let expected = try await Self.command(
      NearestAnswer.self, ["nearest", "--near", Self.near, "-k", "5", "--now", Self.now, "--format", "json"])
    #expect(expected.stores.count == 5)
    let overURLSession = try await StoresClient(serverURL: server.url)
      .nearest(to: Self.seattle, count: 5, now: Self.nowDate)
    let overAsyncHTTPClient = try await StoresClient(serverURL: server.url, httpClient: .shared)
      .nearest(to: Self.seattle, count: 5, now: Self.nowDate)
    #expect(overURLSession == expected)
    #expect(overAsyncHTTPClient == expected)
    #expect(overURLSession.stores.map(\.id) == expected.stores.map(\.id))
    #expect(overURLSession.stores.map(\.distanceM) == expected.stores.map(\.distanceM))

    // A radius in metres, as `--within 1500m`.
    let nearby = try await Self.command(
      NearestAnswer.self,
      [
        "nearest", "--near", Self.near, "-k", "50", "--within", "1500m", "--now", Self.now, "--format",
        "json",
      ])
    let within = try await StoresClient(serverURL: server.url)
      .nearest(to: Self.seattle, count: 50, withinMeters: 1500, now: Self.nowDate)
    #expect(within == nearby)
    #expect(within.stores.allSatisfy { ($0.distanceM ?? .infinity) <= 1500 })

    // Dates and durations in: the same question as instants and `45m` on the command line.
    let opening = try await Self.command(
      NearestAnswer.self,
      [
        "nearest", "--near", Self.near, "-k", "4", "--where", "drive_through=yes", "--open-at",
        "2026-11-26T18:00:00Z", "--open-for", "45m", "--now", Self.now, "--format", "json",
      ])
    let openAt = try Date("2026-11-26T18:00:00Z", strategy: .iso8601)
    for client in [
      StoresClient(serverURL: server.url), StoresClient(serverURL: server.url, httpClient: .shared),
    ] {
      let answer = try await client.nearest(
        to: Self.seattle, count: 4, openAt: openAt, openFor: .seconds(45 * 60), where: ["drive_through=yes"],
        now: Self.nowDate)
      #expect(answer == opening)
      #expect(answer.query.open)
      #expect(answer.stores.map(\.state) == opening.stores.map(\.state))
    }
  }

  @Test func withinAndClustersAnswerAsTheCommand() async throws {
    let server = try await Self.startServer()
    let client = StoresClient(serverURL: server.url).client

    let within = try await client.storesWithin(
      query: .init(near: Self.near, radius: "3km", limit: 4, now: Self.nowDate))
    let expectedWithin = try await Self.command(
      Components.Schemas.WithinAnswer.self,
      [
        "within", "--near", Self.near, "--radius", "3km", "--limit", "4", "--now", Self.now, "--format",
        "json",
      ])
    guard case .WithinAnswer(let answer) = try within.ok.body.json else {
      Issue.record("a FeatureCollection where a WithinAnswer was asked")
      return
    }
    #expect(answer == expectedWithin)
    #expect(!answer.stores.isEmpty)

    let clusters = try await client.storeClusters(
      query: .init(bbox: "-180,-85,180,85", columns: 8, rows: 4, now: Self.nowDate))
    let expectedClusters = try await Self.command(
      Components.Schemas.ClustersAnswer.self,
      [
        "clusters", "--bbox", "-180,-85,180,85", "--columns", "8", "--rows", "4", "--now", Self.now,
        "--format", "json",
      ])
    #expect(try clusters.ok.body.json == expectedClusters)
  }

  @Test func placesAnswerAsTheCommand() async throws {
    let server = try await Self.startServer()
    let expected = try await Self.command(
      PlacesAnswer.self, ["places", "zur", "--near", Self.near, "--limit", "4", "--format", "json"])
    #expect(expected.places.count == 4)
    #expect(expected.places.first?.name == "Zürich")
    let answer = try await StoresClient(serverURL: server.url)
      .places(startingWith: "zur", near: Self.seattle, limit: 4)
    #expect(answer == expected)
    #expect(answer.places.allSatisfy { $0.distanceM != nil })

    // A place name where a location is asked: the answer names the place it used.
    let byName = try await StoresClient(serverURL: server.url).client.nearestStores(
      query: .init(near: "Seattle", k: 2, now: Self.nowDate))
    guard case .NearestAnswer(let nearest) = try byName.ok.body.json else {
      Issue.record("a FeatureCollection where a NearestAnswer was asked")
      return
    }
    #expect(nearest.query.nearPlace?.name == "Seattle")
    #expect(nearest.query.nearPlace?.division == "Washington")
  }

  @Test func oneStoreItsHoursAndWhetherItIsOpenAnswerAsTheCommand() async throws {
    let server = try await Self.startServer()
    let stores = StoresClient(serverURL: server.url)
    let id = try await Self.command(
      NearestAnswer.self, ["nearest", "--near", Self.near, "-k", "1", "--now", Self.now, "--format", "json"]
    ).stores[0].id

    let store = try await stores.store(id: id, now: Self.nowDate)
    let expectedStore = try await Self.command(
      Store.self, ["show", id, "--now", Self.now, "--format", "json"])
    #expect(store == expectedStore)

    let hours = try await stores.hours(id: id, days: 3, now: Self.nowDate)
    let expectedHours = try await Self.command(
      HoursAnswer.self, ["hours", id, "--days", "3", "--now", Self.now, "--format", "json"])
    #expect(hours == expectedHours)
    #expect(hours.days.count == expectedHours.days.count)

    let at = try Date("2026-11-26T18:00:00Z", strategy: .iso8601)
    let open = try await stores.open(id: id, at: at, for: .seconds(45 * 60), now: Self.nowDate)
    let expectedOpen = try await Self.command(
      OpenStore.self,
      ["open", id, "--at", "2026-11-26T18:00:00Z", "--for", "45m", "--now", Self.now, "--format", "json"],
      exitStatuses: [0, 1, 2])
    #expect(open == expectedOpen)
    #expect(open.state == expectedOpen.state)
  }

  @Test func pickupPlansAsTheCommand() async throws {
    let server = try await Self.startServer()
    let stores = StoresClient(serverURL: server.url)

    let plan = try await stores.pickup(
      near: Self.seattle, readyIn: .seconds(12 * 60), travel: .bike, now: Self.nowDate)
    let expected = try await Self.command(
      PickupResult.self,
      [
        "pickup", "--near", Self.near, "--ready-in", "12m", "--travel", "bike", "--now", Self.now, "--format",
        "json",
      ])
    #expect(plan == expected)
    #expect(plan.status == expected.status)
    #expect(plan.store?.id == expected.store?.id)
    #expect(plan.readyAt == expected.readyAt)
    // The times are dates: ready 12 minutes after the clock the plan was made at.
    #expect(plan.readyAt == Self.nowDate.addingTimeInterval(12 * 60))

    // A chosen store and a ready time, both as the command takes them.
    let chosen = try #require(expected.store?.id)
    let readyAt = try Date("2026-11-26T17:30:00Z", strategy: .iso8601)
    let atTime = try await stores.pickup(
      near: Self.seattle, readyAt: readyAt, store: chosen, now: Self.nowDate)
    let expectedAtTime = try await Self.command(
      PickupResult.self,
      [
        "pickup", "--near", Self.near, "--ready-at", "2026-11-26T17:30:00Z", "--store", chosen, "--now",
        Self.now,
        "--format", "json",
      ])
    #expect(atTime == expectedAtTime)
    #expect(atTime.readyAt >= readyAt)
  }

  /// A place name where a coordinate would go: the service resolves it as the command does, and
  /// a name with no one place meant is thrown with its places typed.
  @Test func placeNamesAnswerAsTheCommand() async throws {
    let server = try await Self.startServer()
    let stores = StoresClient(serverURL: server.url)

    let nearest = try await stores.nearest(to: "Seattle", count: 3, now: Self.nowDate)
    let expected = try await Self.command(
      NearestAnswer.self, ["nearest", "--near", "Seattle", "-k", "3", "--now", Self.now, "--format", "json"])
    #expect(nearest == expected)
    #expect(nearest.query.nearPlace?.name == "Seattle")
    #expect(nearest.stores.count == 3)

    let plan = try await stores.pickup(near: "Seattle", readyIn: .seconds(12 * 60), now: Self.nowDate)
    let expectedPlan = try await Self.command(
      PickupResult.self,
      ["pickup", "--near", "Seattle", "--ready-in", "12m", "--now", Self.now, "--format", "json"])
    #expect(plan == expectedPlan)
    let readyAt = try Date("2026-11-26T17:30:00Z", strategy: .iso8601)
    let atTime = try await stores.pickup(near: "Seattle", readyAt: readyAt, now: Self.nowDate)
    #expect(atTime.readyAt >= readyAt)

    // No place of the name at all: 400 naming `near`, with close names.
    do {
      _ = try await stores.nearest(to: "Seatle Zzz", now: Self.nowDate)
      Issue.record("a name no place has was resolved")
    } catch let error as StoresClientError {
      let problem = try #require(error.problem)
      #expect(problem.status == 400)
      #expect(problem.parameter == "near")
    }
  }

  @Test func theServiceOperationsAnswer() async throws {
    let server = try await Self.startServer()
    let client = StoresClient(serverURL: server.url).client

    let info = try await client.getInfo()
    let expectedInfo = try await Self.command(Components.Schemas.Info.self, ["info", "--format", "json"])
    #expect(try info.ok.body.json == expectedInfo)

    #expect(try await client.health().ok.body.json.status == .ok)
    let ready = try await client.readiness().ok.body.json
    #expect(ready.status == .ready)
    #expect(try ready.version == info.ok.headers.xStoresDataVersion)

    let metrics = try await String(collecting: client.metrics().ok.body.plainText, upTo: 16 << 20)
    #expect(metrics.contains("# TYPE"))

    let document = try await client.openAPI().ok.body.json
    let file = try #require(
      JSONSerialization.jsonObject(
        with: Data(
          contentsOf: Binaries.repositoryRoot.appendingPathComponent("Sources/StoresAPI/openapi.json")))
        as? [String: Any])
    #expect(document.openapi == file["openapi"] as? String)

    let page = try await String(collecting: client.page().ok.body.html, upTo: 16 << 20)
    #expect(page.lowercased().contains("<html"))
    let script = try await client.pageFile(path: .init(name: "picker.js"))
    guard case .textJavascript(let scriptBody) = try script.ok.body else {
      Issue.record("picker.js is not JavaScript")
      return
    }
    let pickerJS = try Data(
      contentsOf: Binaries.repositoryRoot.appendingPathComponent("Sources/StoresAPI/Page/picker.js"))
    #expect(try await Data(collecting: scriptBody, upTo: 16 << 20) == pickerJS)
    let asset = try await client.asset(path: .init(name: "leaflet.css"))
    guard case .textCss(let cssBody) = try asset.ok.body else {
      Issue.record("leaflet.css is not CSS")
      return
    }
    #expect(try await String(collecting: cssBody, upTo: 1 << 20) == "/* leaflet.css */\n")

    // Reload: refused without the token, as a typed problem; done with it.
    await #expect {
      _ = try await client.reload()
    } throws: { error in
      (error as? ClientError)?.underlyingError.storesProblem?.status == 401
    }
    let authorized = StoresClient(
      serverURL: server.url, transport: URLSessionTransport(),
      middlewares: [BearerToken(token: LiveServer.adminToken)]
    ).client
    let reloaded = try await authorized.reload().ok.body.json
    #expect(reloaded.version == ready.version)
    #expect(reloaded.stores == ready.stores)
  }

  /// Every state operation through the convenience methods: read, pause, the change seen in a
  /// store answer, closures, special days, the mirror's list and the history.
  @Test func theStateOperationsAnswer() async throws {
    let server = try await Self.startServer()
    let reader = StoresClient(serverURL: server.url)
    let admin = StoresClient(
      serverURL: server.url, transport: URLSessionTransport(),
      middlewares: [AdminTokenMiddleware(token: LiveServer.adminToken)])
    let id = "nw-0145"
    let before = try await reader.state(of: id)
    #expect(before.ordering == .open)
    // Without the token: a typed 401.
    await #expect {
      try await reader.pause(id)
    } throws: { error in
      (error as? StoresClientError)?.problem?.status == 401
    }
    let paused = try await admin.pause(id, until: Date(timeIntervalSinceNow: 3600), reason: "machine repair")
    #expect(paused.ordering == .paused)
    #expect(paused.reason == "machine repair")
    let version = paused.version
    #expect(try await reader.store(id: id).ordering == .paused)
    let closed = try await admin.setClosures(
      [Closure(from: "2027-01-05", until: "2027-01-19", reason: "renovation")], of: id)
    #expect(closed.closures.count == 1)
    let special = try await admin.setSpecialDays(
      [SpecialDay(date: "2026-12-24", hours: "07:00-14:00", reason: "Christmas Eve", service: nil)], of: id)
    #expect(special.specialDays.first?.hours == "07:00-14:00")
    let open = try await admin.resume(id)
    #expect(open.ordering == .open)
    let changed = try await reader.changedStates(since: version)
    #expect(changed.stores.map(\.id) == [id])
    #expect(changed.version == open.version)
    let history = try await reader.stateHistory(of: id)
    #expect(
      history.history.map(\.version) == [open.version, special.version, closed.version, paused.version])
    #expect(history.history.allSatisfy { $0.by == "admin" })
    // A bad member is a typed 400 naming it.
    await #expect {
      try await admin.change(id, .init(closures: [Closure(from: "2027-01-19", until: "2027-01-05")]))
    } throws: { error in
      (error as? StoresClientError)?.problem?.parameter == "closures[0].until"
    }
    // Capacities: the store's as a number, the drive-through's as rules; each removed again (a
    // null `orders_per_slot`), the list then empty.
    let capped = try await admin.setCapacity(ordersPerSlot: 20, of: id)
    #expect(capped.capacity == [Capacity(ordersPerSlot: .case1(20), slotMinutes: 15, service: nil)])
    let ruled = try await admin.setCapacity(
      rules: "Mo-Fr 07:00-09:00 6; 10", slotMinutes: 10, service: "drive_through", of: id)
    #expect(ruled.capacity.count == 2)
    #expect(
      ruled.capacity.contains(
        Capacity(ordersPerSlot: .case2("Mo-Fr 07:00-09:00 6; 10"), slotMinutes: 10, service: "drive_through"))
    )
    #expect(try await reader.slots(store: id, service: "drive_through").capacity?.slotMinutes == 10)
    #expect(try await admin.removeCapacity(of: id).capacity.count == 1)
    #expect(try await admin.removeCapacity(service: "drive_through", of: id).capacity.isEmpty)
  }

  @Test func problemsAreTypedErrors() async throws {
    let server = try await Self.startServer()
    let stores = StoresClient(serverURL: server.url)

    // An unknown store: 404 with suggestions, thrown as the problem itself.
    do {
      _ = try await stores.store(id: "nw-01")
      Issue.record("an unknown store was found")
    } catch let error as StoresClientError {
      let problem = try #require(error.problem)
      #expect(problem.status == 404)
      #expect(problem.type == "urn:stores:problem:unknown-store")
      #expect(!(problem.suggestions ?? []).isEmpty)
    }

    // A bad parameter: 400 naming it.
    do {
      _ = try await stores.nearest(to: Self.seattle, count: 100_000)
      Issue.record("k=100000 was accepted")
    } catch let error as StoresClientError {
      #expect(error.problem?.status == 400)
      #expect(error.problem?.type == "urn:stores:problem:invalid-request")
      #expect(error.problem?.parameter == "k")
    }

    // A place name several places have: 400 with the places it may mean, typed, to offer as
    // choices (the largest first).
    do {
      _ = try await stores.client.nearestStores(query: .init(near: "Springfield", k: 2, now: Self.nowDate))
      Issue.record("Springfield was taken for one place")
    } catch let error as ClientError {
      let problem = try #require(error.underlyingError.storesProblem)
      #expect(problem.parameter == "near")
      let places = problem.places ?? []
      #expect(places.count > 1)
      #expect(places.allSatisfy { $0.name == "Springfield" })
      #expect(places.first?.country == "US")
      #expect(places.first?.division == "Missouri")
    }
    // With a bias, the Springfield near it; a name one place outweighs lists the others, typed.
    guard
      case .NearestAnswer(let illinois) = try await stores.client.nearestStores(
        query: .init(near: "Springfield", bias: "39.8,-89.6", k: 1, now: Self.nowDate)
      ).ok.body.json,
      case .NearestAnswer(let london) = try await stores.client.nearestStores(
        query: .init(near: "London", k: 1, now: Self.nowDate)
      ).ok.body.json
    else {
      Issue.record("a FeatureCollection where a NearestAnswer was asked")
      return
    }
    #expect(illinois.query.nearPlace?.division == "Illinois")
    #expect(london.query.nearPlace?.country == "GB")
    #expect(london.query.nearAlternatives?.first?.division == "Ontario")

    // Through the generated client the same problem arrives inside ClientError.
    do {
      _ = try await stores.client.getStoreHours(path: .init(id: "nw-01"))
      Issue.record("an unknown store has hours")
    } catch let error as ClientError {
      #expect(error.operationID == "getStoreHours")
      #expect(error.underlyingError.storesProblem?.status == 404)
    }
  }

  @Test func aHeldETagIsAnsweredNotModified() async throws {
    let server = try await Self.startServer()
    for stores in [
      StoresClient(serverURL: server.url), StoresClient(serverURL: server.url, httpClient: .shared),
    ] {
      let first = try await stores.client.getStore(
        path: .init(id: "nw-0145"), query: .init(now: Self.nowDate))
      let etag = try #require(try first.ok.headers.eTag)
      #expect(etag.hasPrefix("\""))
      let again = try await stores.client.getStore(
        path: .init(id: "nw-0145"), query: .init(now: Self.nowDate), headers: .init(ifNoneMatch: etag))
      guard case .notModified(let notModified) = again else {
        Issue.record("a held ETag got \(again)")
        continue
      }
      #expect(notModified.headers.eTag == etag)
    }
  }
}

/// `Authorization: Bearer TOKEN` on every request: what `POST /admin/reload` asks for
/// (the generated client leaves the document's security schemes to the app).
struct BearerToken: ClientMiddleware {
  let token: String

  func intercept(
    _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
    next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
  ) async throws -> (HTTPResponse, HTTPBody?) {
    var request = request
    request.headerFields[.authorization] = "Bearer \(token)"
    return try await next(request, body, baseURL)
  }
}

extension Error {
  /// The service's problem, when this is the `StoresClientError` carrying one.
  var storesProblem: Problem? { (self as? StoresClientError)?.problem }
}
