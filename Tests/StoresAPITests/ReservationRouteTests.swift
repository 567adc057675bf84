import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpeningHours
import StoreLocator
import StoresState
import Testing

@testable import StoresAPI

/// Pickup slots through the service (docs/pickup.md): holds taken with an order token, never
/// beyond a slot's capacity, idempotent by key, confirmed, released and expiring; a storage that
/// fails refusing holds while plain pickups go on.
@Suite struct ReservationRouteTests {
  static let token = "order-s3cret"
  /// No request deadline: on a loaded CI machine the test runner's threads are starved for
  /// minutes, and a deadline would answer 503 timeout to holds that are only slow to be scheduled.
  static let configuration = APIConfiguration(
    requestTimeout: 0, adminToken: "admin-s3cret", orderTokens: [(name: "web", token: token)])
  /// Three stores open day and night in Berlin, 110 m, 330 m and 550 m north of the customer;
  /// `a` takes 2 orders per 15 minutes, `b` 20, `c` has no limit.
  static let data: LoadedCatalog = {
    let text = """
      {"type":"FeatureCollection","features":[
      {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[13.40,52.521]},"properties":{"opening_hours":"24/7","timezone":"Europe/Berlin","pickup:capacity":"2"}},
      {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[13.40,52.523]},"properties":{"opening_hours":"24/7","timezone":"Europe/Berlin","pickup:capacity":"20"}},
      {"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[13.40,52.525]},"properties":{"opening_hours":"24/7","timezone":"Europe/Berlin"}}
      ]}
      """
    do {
      return try CatalogSource(path: try TestService.temporaryFile(text)).load()
    } catch {
      fatalError("the test data does not load: \(error)")
    }
  }()
  /// An order for a's slot that starts at the second quarter hour from now, 7 minutes into it:
  /// every request of a test is for the same slot, however long it runs (a `ready_in` crossed
  /// into the next slot, which has room, when the clock passed a quarter hour mid-test).
  static let order: String = {
    let now = Int64(Date().timeIntervalSince1970)
    let readyAt = Date(timeIntervalSince1970: Double((now / 900 + 2) * 900 + 420))
    let text = ISO8601DateFormatter().string(from: readyAt)
    return
      #"{"near": "52.52,13.40", "ready_at": "\#(text)", "reserve": true, "store": "a", "max_delay": "0s"}"#
  }()

  func service(_ storage: MemoryStateStorage = MemoryStateStorage()) -> StoresService {
    TestService.service(
      Self.data, source: Self.data.catalog.source, configuration: Self.configuration, stateStorage: storage)
  }

  static func headers(key: String? = nil, token: String? = token) -> HTTPFields {
    var headers = HTTPFields()
    if let token { headers[.authorization] = "Bearer \(token)" }
    if let key { headers[ReservationRoutes.idempotencyKey] = key }
    return headers
  }

  @Test func holdsNeverExceedTheSlotAndTheRestGoElsewhere() async throws {
    let storage = MemoryStateStorage()
    try await TestService.application(service(storage)).test(.router) { client in
      var held: [[String: Any]] = []
      for _ in 0..<4 {
        let answer = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers())
        #expect(answer.status == .created, "\(answer.text)")
        held.append(try #require(try answer.json()["reservation"] as? [String: Any]))
      }
      // a's slot takes two; with no delay allowed, the next orders go to b, saying why.
      #expect(held.map { $0["store"] as? String } == ["a", "a", "b", "b"])
      #expect(held[0]["slot_start"] as? String == held[1]["slot_start"] as? String)
      #expect(held.allSatisfy { $0["status"] as? String == "held" })
      let bookings = try await storage.bookings(endingAfter: .now(), limit: 100)
      let aSlot = try #require(bookings.slots.first { $0.key.storeID == "a" })
      #expect(aSlot.value.taken(at: .now()) == 2)
      #expect(bookings.slots.values.map { $0.taken(at: .now()) }.reduce(0, +) == 4)
      let third = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers())
      let passed = try #require(try third.json()["passed_over"] as? [[String: Any]])
      #expect(passed.first?["code"] as? String == "slot-full")
    }
  }

  @Test func manyConcurrentHoldsFillTheSlotExactly() async throws {
    let storage = MemoryStateStorage()
    let order =
      #"{"near": "52.52,13.40", "ready_in": "5m", "reserve": true, "store": "b", "max_delay": "0s"}"#
    try await TestService.application(service(storage)).test(.router) { client in
      let statuses = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
        for _ in 0..<100 {
          group.addTask {
            let answer = try await client.post("/v1/pickup", json: order, headers: Self.headers())
            let reservation = try answer.json()["reservation"] as? [String: Any]
            return (answer.status, reservation?["store"] as? String)
          }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(
        statuses.allSatisfy { $0.0 == .created },
        "\(Dictionary(grouping: statuses, by: { $0.0.code }).mapValues(\.count))")
      let inB = statuses.filter { $0.1 == "b" }.count
      // b's slot holds 20; the others were placed elsewhere or later, none lost.
      let bookings = try await storage.bookings(endingAfter: .now(), limit: 1000)
      let bySlot = bookings.slots.filter { $0.key.storeID == "b" }
      #expect(bySlot.values.allSatisfy { $0.taken(at: .now()) <= 20 })
      #expect(bySlot.values.map { $0.taken(at: .now()) }.reduce(0, +) == inB)
      #expect(bookings.slots.values.map { $0.taken(at: .now()) }.reduce(0, +) == statuses.count)
    }
  }

  @Test func aRepeatedKeyGivesTheSameReservation() async throws {
    let storage = MemoryStateStorage()
    try await TestService.application(service(storage)).test(.router) { client in
      let first = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers(key: "order-1"))
      let again = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers(key: "order-1"))
      #expect(first.status == .created)
      #expect(again.status == .created)
      #expect(again.headers[ReservationRoutes.idempotentReplayed] == "true")
      #expect(again.text == first.text)
      let bookings = try await storage.bookings(endingAfter: .now(), limit: 100)
      #expect(bookings.slots.values.map { $0.taken(at: .now()) }.reduce(0, +) == 1)
      let other = try await client.post(
        "/v1/pickup", json: Self.order.replacingOccurrences(of: #""0s""#, with: #""60s""#),
        headers: Self.headers(key: "order-1"))
      #expect(other.status == .unprocessableContent)
      #expect(try other.json()["type"] as? String == "urn:stores:problem:idempotency-key-reused")
      let bad = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers(key: "a key"))
      #expect(bad.status == .badRequest)
    }
  }

  @Test func confirmReleaseAndTheirRefusals() async throws {
    try await TestService.application(service()).test(.router) { client in
      let answer = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers())
      let id = try #require((try answer.json()["reservation"] as? [String: Any])?["id"] as? String)
      let confirm = "/v1/reservations/\(id)/confirm"
      let unauthorized = try await client.execute(
        uri: confirm, method: .post, headers: Self.headers(token: "x"))
      #expect(unauthorized.status == .unauthorized)
      let confirmed = try await client.execute(uri: confirm, method: .post, headers: Self.headers())
      #expect(confirmed.status == .ok, "\(confirmed.text)")
      #expect(try confirmed.json()["status"] as? String == "confirmed")
      // Again: the same, not an error.
      let twice = try await client.execute(uri: confirm, method: .post, headers: Self.headers())
      #expect(try twice.json()["status"] as? String == "confirmed")
      let released = try await client.execute(
        uri: "/v1/reservations/\(id)", method: .delete, headers: Self.headers())
      #expect(try released.json()["status"] as? String == "released")
      let late = try await client.execute(uri: confirm, method: .post, headers: Self.headers())
      #expect(late.status == .conflict)
      #expect(try late.json()["type"] as? String == "urn:stores:problem:reservation-released")
      let shown = try await client.get("/v1/reservations/\(id)")
      #expect(try shown.json()["status"] as? String == "released")
      let unknown = try await client.get("/v1/reservations/r_00000000000000000000000000")
      #expect(unknown.status == .notFound)
      let malformed = try await client.get("/v1/reservations/nope")
      #expect(try malformed.json()["type"] as? String == "urn:stores:problem:unknown-reservation")
    }
  }

  @Test func anUnconfirmedHoldExpiresAndCannotBeConfirmed() async throws {
    try await TestService.application(service()).test(.router) { client in
      let order = Self.order.replacingOccurrences(
        of: "\"reserve\": true", with: "\"reserve\": true, \"hold_for\": \"1s\"")
      let answer = try await client.post("/v1/pickup", json: order, headers: Self.headers())
      let id = try #require((try answer.json()["reservation"] as? [String: Any])?["id"] as? String)
      // The hold's time passes (the clock as an input is tested in the library and the storages).
      try await Task.sleep(for: .milliseconds(2100))
      let late = try await client.execute(
        uri: "/v1/reservations/\(id)/confirm", method: .post, headers: Self.headers())
      #expect(late.status == .conflict)
      #expect(try late.json()["type"] as? String == "urn:stores:problem:reservation-expired")
    }
  }

  @Test func withoutTokensReservationsAreDisabledAndNowIsRefused() async throws {
    let service = TestService.service(
      Self.data, source: Self.data.catalog.source, stateStorage: MemoryStateStorage())
    try await TestService.application(service).test(.router) { client in
      let answer = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers())
      #expect(answer.status == .forbidden)
      #expect(try answer.json()["type"] as? String == "urn:stores:problem:reservations-disabled")
    }
    try await TestService.application(self.service()).test(.router) { client in
      let withNow = Self.order.replacingOccurrences(
        of: "\"reserve\": true", with: "\"reserve\": true, \"now\": \"2026-12-01T10:00:00Z\"")
      let answer = try await client.post("/v1/pickup", json: withNow, headers: Self.headers())
      #expect(answer.status == .badRequest)
      #expect(try answer.json()["parameter"] as? String == "now")
    }
  }

  @Test func aFailingStorageRefusesHoldsWhilePlainPickupsAnswer() async throws {
    let storage = MemoryStateStorage()
    try await TestService.application(service(storage)).test(.router) { client in
      storage.setUnavailable(true)
      let held = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers())
      #expect(held.status == .serviceUnavailable)
      #expect(try held.json()["type"] as? String == "urn:stores:problem:state-unavailable")
      let plain = try await client.post(
        "/v1/pickup", json: #"{"near": "52.52,13.40", "ready_in": "5m", "store": "a"}"#)
      #expect(plain.status == .ok)
      storage.setUnavailable(false)
      let again = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers())
      #expect(again.status == .created)
    }
  }

  @Test func slotsListWhatEachSlotHolds() async throws {
    try await TestService.application(service()).test(.router) { client in
      let answer = try await client.post("/v1/pickup", json: Self.order, headers: Self.headers())
      let reservation = try #require(try answer.json()["reservation"] as? [String: Any])
      let start = try #require(reservation["slot_start"] as? String)
      let zone = try TimeZoneRules(identifier: "Europe/Berlin")
      guard case .instant(let instant) = try TimeQuery(parsing: start) else { return }
      let date = zone.localDateTime(at: instant).date
      let slots = try await client.get("/v1/stores/a/slots?date=\(date)")
      #expect(slots.status == .ok, "\(slots.text)")
      let listing = try slots.json()
      let entries = try #require(listing["slots"] as? [[String: Any]])
      #expect(entries.count == 96)
      let slot = try #require(entries.first { $0["start"] as? String == start })
      #expect(slot["orders_per_slot"] as? Int == 2)
      #expect(slot["held"] as? Int == 1)
      #expect(slot["free"] as? Int == 1)
      #expect(slot["open"] as? Bool == true)
      let bad = try await client.get("/v1/stores/a/slots?date=tomorrow")
      #expect(try bad.json()["parameter"] as? String == "date")
      let unknown = try await client.get("/v1/stores/zz/slots")
      #expect(unknown.status == .notFound)
    }
  }
}
