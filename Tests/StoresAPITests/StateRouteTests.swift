import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpeningHours
import StoreLocator
import StoresState
import Testing

@testable import StoresAPI

/// The state routes (docs/state.md): reads public, changes with the admin token, every store
/// answer applying the state, and a storage that fails refusing changes while answers go on.
@Suite struct StateRouteTests {
  static let token = "s3cret"
  static let configuration = APIConfiguration(
    adminToken: "other", namedAdminTokens: [(name: "ops", token: token)])
  static let store = "nw-0145"

  func service(_ storage: MemoryStateStorage = MemoryStateStorage()) -> StoresService {
    TestService.service(configuration: Self.configuration, stateStorage: storage)
  }

  @Test func aPauseIsStoredAnsweredAndAppliedToEveryStoreAnswer() async throws {
    let storage = MemoryStateStorage()
    let service = service(storage)
    try await TestService.application(service).test(.router) { client in
      let before = try await client.get("/v1/stores/\(Self.store)/state")
      #expect(before.status == .ok)
      #expect(try before.json()["ordering"] as? String == "open")
      #expect(try before.json()["version"] as? Int == 0)

      let changed = try await client.patch(
        "/v1/stores/\(Self.store)/state",
        json: #"{"ordering": "paused", "until": "2099-12-24T15:30:00Z", "reason": "machine repair"}"#,
        token: Self.token)
      #expect(changed.status == .ok, "\(changed.text)")
      let state = try changed.json()
      #expect(state["ordering"] as? String == "paused")
      #expect(state["paused_until"] as? String == "2099-12-24T15:30:00Z")
      #expect(state["reason"] as? String == "machine repair")
      #expect(state["version"] as? Int == 1)
      #expect(changed.headers[.storesStateVersion] == "1")

      // Stored, with who made it.
      #expect(try await storage.load()[Self.store].ordering.isPaused(at: .now()))
      let history = try await client.get("/v1/stores/\(Self.store)/state/history")
      let entries = try #require(try history.json()["history"] as? [[String: Any]])
      #expect(entries.first?["by"] as? String == "ops")
      #expect(entries.first?["version"] as? Int == 1)

      // Every store answer says so, and names the state version.
      let nearest = try await client.get("/v1/stores/nearest?near=47.6062,-122.3321&k=1")
      #expect(nearest.headers[.storesStateVersion] == "1")
      let answer = try nearest.json()
      let first = try #require((answer["stores"] as? [[String: Any]])?.first)
      #expect(first["id"] as? String == Self.store)
      #expect(first["ordering"] as? String == "paused")
      #expect((answer["query"] as? [String: Any])?["state_version"] as? Int == 1)
      let shown = try await client.get("/v1/stores/\(Self.store)")
      #expect(try shown.json()["ordering"] as? String == "paused")
      let open = try await client.get("/v1/stores/\(Self.store)/open")
      #expect(
        try open.json()["ordering_note"] as? String
          == "ordering paused until 2099-12-24T15:30:00Z \"machine repair\"")

      // Pickup passes it over.
      let plan = try await client.post(
        "/v1/pickup", json: #"{"near": "47.6062,-122.3321", "ready_in": "10m", "store": "nw-0145"}"#)
      let passed = try #require(try plan.json()["passed_over"] as? [[String: Any]])
      #expect(
        passed.first { $0["store_id"] as? String == Self.store }?["code"] as? String == "ordering-paused")

      // Mirrors list what changed.
      let mirror = try await client.get("/v1/stores/state?changed_since=0")
      let stores = try #require(try mirror.json()["stores"] as? [[String: Any]])
      #expect(stores.map { $0["id"] as? String } == [Self.store])
      let none = try await client.get("/v1/stores/state?changed_since=1")
      #expect((try none.json()["stores"] as? [Any])?.isEmpty == true)

      // Resumed.
      let resumed = try await client.patch(
        "/v1/stores/\(Self.store)/state", json: #"{"ordering": "open"}"#, token: "other")
      #expect(try resumed.json()["ordering"] as? String == "open")
      let history2 = try await client.get("/v1/stores/\(Self.store)/state/history?limit=1")
      #expect((try history2.json()["history"] as? [[String: Any]])?.first?["by"] as? String == "admin")
    }
  }

  @Test func aClosureChangesTheOpenStateWithNoReload() async throws {
    try await TestService.application(service()).test(.router) { client in
      // nw-0145 is open at 10:00 on a weekday (Mo-Fr 05:30-19:00).
      let at = "2027-01-11T10:00:00-08:00"
      #expect(
        try await client.get("/v1/stores/\(Self.store)/open?at=\(at)").json()["state"] as? String == "open")
      let changed = try await client.patch(
        "/v1/stores/\(Self.store)/state",
        json: #"{"closures": [{"from": "2027-01-05", "until": "2027-01-19", "reason": "renovation"}]}"#,
        token: Self.token)
      #expect(changed.status == .ok, "\(changed.text)")
      let closed = try await client.get("/v1/stores/\(Self.store)/open?at=\(at)").json()
      #expect(closed["state"] as? String == "closed")
      #expect(
        (closed["status_text"] as? String)?.hasPrefix("temporarily closed \"renovation\", reopens Tue 19 Jan")
          == true)
      let after = try await client.get("/v1/stores/\(Self.store)/open?at=2027-01-19T10:00:00-08:00").json()
      #expect(after["state"] as? String == "open")
    }
  }

  @Test func changesNeedTheTokenAndNameTheBadMember() async throws {
    try await TestService.application(service()).test(.router) { client in
      let path = "/v1/stores/\(Self.store)/state"
      for token in [nil, "wrong"] {
        let refused = try await client.patch(path, json: #"{"ordering": "open"}"#, token: token)
        #expect(refused.status == .unauthorized)
        #expect(refused.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
      }
      let cases: [(String, String)] = [
        (#"{"ordering": "closed"}"#, "ordering"),
        (#"{"closures": [{"from": "2027-01-19", "until": "2027-01-05"}]}"#, "closures[0].until"),
        (#"{"special_days": [{"date": "2027-01-05", "hours": "9 to 5"}]}"#, "special_days[0].hours"),
        (#"{"paused": true}"#, "paused"),
        (#"{"ordering": "paused", "until": "2001-01-01T00:00:00Z"}"#, "until"),
      ]
      for (body, member) in cases {
        let response = try await client.patch(path, json: body, token: Self.token)
        #expect(response.status == .badRequest, "\(body)")
        #expect(try response.json()["parameter"] as? String == member, "\(response.text)")
      }
      let notJSON = try await client.patch(path, json: "{", token: Self.token)
      #expect(notJSON.status == .badRequest)
      let unknown = try await client.patch(
        "/v1/stores/no-such-store/state", json: #"{"ordering": "open"}"#, token: Self.token)
      #expect(unknown.status == .notFound)
      #expect(try await client.get("/v1/stores/no-such-store/state").status == .notFound)
      #expect(try await client.get("/v1/stores/state?changed_since=-1").status == .badRequest)
      #expect(try await client.get("/v1/stores/\(Self.store)/state/history?limit=0").status == .badRequest)
    }
  }

  @Test func withoutATokenTheServiceTakesNoChanges() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.patch(
        "/v1/stores/\(Self.store)/state", json: #"{"ordering": "open"}"#, token: "anything")
      #expect(response.status == .forbidden)
      #expect(try response.json()["type"] as? String == "urn:stores:problem:changes-disabled")
    }
  }

  @Test func aFailingStorageRefusesChangesWhileAnswersGoOn() async throws {
    let storage = MemoryStateStorage()
    let service = service(storage)
    try await TestService.application(service).test(.router) { client in
      let path = "/v1/stores/\(Self.store)/state"
      let paused = try await client.patch(path, json: #"{"ordering": "paused"}"#, token: Self.token)
      #expect(paused.status == .ok)
      storage.setUnavailable(true)
      let refused = try await client.patch(path, json: #"{"ordering": "open"}"#, token: Self.token)
      #expect(refused.status == .serviceUnavailable)
      #expect(try refused.json()["type"] as? String == "urn:stores:problem:state-unavailable")
      #expect(refused.headers[.retryAfter] != nil)
      // Reads go on from the copy: still paused, nothing lost.
      let read = try await client.get("/v1/stores/nearest?near=47.6062,-122.3321&k=1")
      #expect(read.status == .ok)
      #expect(((try read.json()["stores"] as? [[String: Any]])?.first)?["ordering"] as? String == "paused")
      let ready = try await client.get("/readyz")
      #expect(ready.status == .ok)
      let state = try #require(try ready.json()["state"] as? [String: Any])
      #expect(state["storage"] as? String == "down")
      #expect(state["version"] as? Int == 1)
      #expect((state["error"] as? String)?.contains("unavailable") == true)
      #expect(try await client.get("\(path)/history").status == .serviceUnavailable)
      // Back: the next refresh confirms the copy; changes work again.
      storage.setUnavailable(false)
      await service.state.refresh()
      let again = try await client.patch(path, json: #"{"ordering": "open"}"#, token: Self.token)
      #expect(again.status == .ok)
      #expect(
        try await client.get("/readyz").json()["state"].flatMap { $0 as? [String: Any] }?["storage"]
          as? String == "up")
    }
  }

  @Test func aStaleCopySaysItsAge() async throws {
    let storage = MemoryStateStorage()
    let keeper = StateKeeper(storage: storage, pollInterval: .milliseconds(10))
    #expect(await keeper.refresh())
    storage.setUnavailable(true)
    try await Task.sleep(for: .milliseconds(1100))
    #expect(!(await keeper.refresh()))
    #expect(keeper.isStale)
    #expect((keeper.ageSeconds ?? 0) >= 1)
  }

  @Test func anotherWritersChangeIsSeenByThePoll() async throws {
    let storage = MemoryStateStorage()
    let keeper = StateKeeper(storage: storage, pollInterval: .milliseconds(20))
    let running = Task { await keeper.run() }
    defer { running.cancel() }
    // Another replica (or the command line) writes to the same storage.
    _ = try await storage.apply(
      StoreStateChange(ordering: .paused(until: nil, reason: nil)), to: "x", by: "cli", at: .now())
    let deadline = ContinuousClock.now + .seconds(60)  // against a hang, not a timing
    while keeper.current.states.version < 1, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(keeper.current.states.version == 1)
    #expect(keeper.current.states["x"].ordering.isPaused(at: .now()))
  }
}
