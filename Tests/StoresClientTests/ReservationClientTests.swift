import Foundation
import OpenAPIRuntime
import OpenAPIURLSession
import StoresClient
import Testing

/// The order flow through `StoresClient` against a live `stores-server` (docs/pickup.md, "The
/// order flow"): hold a slot, confirm it (twice), release it, and the slots listing counting it
/// all along; a second order for the full slot placed elsewhere or later; the refusals typed.
@Suite struct ReservationClientTests {
  static let orderToken = "client-order-token"
  /// Two stores open day and night in Berlin, 110 m and 330 m north of the customer, each taking
  /// one order per 15-minute slot.
  static let data = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[13.40,52.521]},"properties":{"name":"A","opening_hours":"24/7","timezone":"Europe/Berlin","pickup:capacity":"1"}},
    {"type":"Feature","id":"b","geometry":{"type":"Point","coordinates":[13.40,52.523]},"properties":{"name":"B","opening_hours":"24/7","timezone":"Europe/Berlin","pickup:capacity":"1"}}
    ]}
    """
  static let customer = Coordinate(latitude: 52.52, longitude: 13.40)

  /// A server on `data` with `STORES_ORDER_TOKENS=web:TOKEN`, its data file removed with it.
  static func startServer() async throws -> (LiveServer, URL) {
    let file = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-client-capacity-\(UUID()).geojson")
    try Data(data.utf8).write(to: file)
    let server = try await Binaries.onThread {
      try LiveServer(data: file.path, environment: ["STORES_ORDER_TOKENS": "web:\(orderToken)"])
    }
    return (server, file)
  }

  /// `YYYY-MM-DD` of `date` in Berlin: the day whose slots hold it.
  static func berlinDay(of date: Date) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
    let parts = calendar.dateComponents([.year, .month, .day], from: date)
    return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
  }

  /// The slot of `listing` that starts at `start`.
  static func slot(_ listing: SlotListing, startingAt start: Date) throws -> Slot {
    try #require(listing.slots.first { $0.start == start }, "no slot starts at \(start)")
  }

  @Test func aHeldSlotIsConfirmedReleasedAndCountedAndTheNextOrderGoesElsewhereOrLater() async throws {
    let (server, file) = try await Self.startServer()
    defer { try? FileManager.default.removeItem(at: file) }
    let anyone = StoresClient(serverURL: server.url)
    let orders = StoresClient(
      serverURL: server.url, transport: URLSessionTransport(),
      middlewares: [OrderTokenMiddleware(token: Self.orderToken)])

    // Without the order token: a typed 401, nothing held.
    await #expect {
      try await anyone.pickup(near: Self.customer, readyIn: .seconds(300), store: "a", reserve: true)
    } throws: { error in
      (error as? StoresClientError)?.problem?.status == 401
        && (error as? StoresClientError)?.problem?.type == "urn:stores:problem:unauthorized"
    }

    // The hold: store a, its slot of one order, the reservation `held` until confirmed.
    let first = try await orders.pickup(
      near: Self.customer, readyIn: .seconds(300), store: "a", maxDelay: .zero, reserve: true,
      holdFor: .seconds(120), idempotencyKey: "order-1/a:b")
    #expect(first.status == .assigned)
    #expect(first.store?.id == "a")
    let held = Reservation(try #require(first.reservation))
    #expect(held.store == "a")
    #expect(held.status == .held)
    #expect(held.id.hasPrefix("r_") && held.id.count == 28)
    let slot = try #require(first.slot)
    #expect(slot.ordersPerSlot == 1)
    #expect(slot.taken == 0)
    #expect(held.slotStart == slot.start)
    #expect(held.slotEnd == slot.end)
    #expect(slot.end.timeIntervalSince(slot.start) == 15 * 60)
    // Held for two minutes from when it was made, and the second the clock was cut down by.
    #expect(held.expiresAt.timeIntervalSince(held.createdAt) == 121)

    // The same key again (a retry after a timeout): the first answer, no second hold; the
    // generated client shows the 201 and `Idempotent-Replayed`.
    let again = try await orders.pickup(
      near: Self.customer, readyIn: .seconds(300), store: "a", maxDelay: .zero, reserve: true,
      holdFor: .seconds(120), idempotencyKey: "order-1/a:b")
    #expect(again == first)
    let replayed = try await orders.client.planPickup(
      headers: .init(idempotencyKey: "order-1/a:b"),
      body: .json(
        .PickupRequestReadyIn(
          .init(
            near: .case2(.init(latitude: Self.customer.latitude, longitude: Self.customer.longitude)),
            readyIn: "5m", store: "a", maxDelay: "0s", reserve: true, holdFor: "2m"))))
    guard case .created(let created) = replayed else {
      Issue.record("a replayed hold answered \(replayed)")
      return
    }
    #expect(created.headers.idempotentReplayed == ._true)
    guard case .PickupResult(let replayedPlan) = try created.body.json else {
      Issue.record("an order where a plan was expected")
      return
    }
    #expect(replayedPlan.reservation?.id == held.id)
    // The same key with another request: a typed 422.
    await #expect {
      try await orders.pickup(
        near: Self.customer, readyIn: .seconds(360), store: "a", reserve: true, idempotencyKey: "order-1/a:b")
    } throws: { error in
      (error as? StoresClientError)?.problem?.type == "urn:stores:problem:idempotency-key-reused"
    }

    // Read back, by anyone with the id.
    #expect(try await anyone.reservation(held.id) == held)

    // The slots listing counts the hold: a's slot is full.
    let day = Self.berlinDay(of: held.slotStart)
    let listing = try await anyone.slots(store: "a", date: day)
    #expect(listing.id == "a")
    #expect(listing.date == day)
    #expect(listing.timeZone == "Europe/Berlin")
    #expect(listing.capacity?.ordersPerSlot == .case1(1))
    #expect(listing.capacity?.slotMinutes == 15)
    #expect(listing.ordering == .open)
    #expect(listing.slots.count == 96 || listing.slots.count == 92 || listing.slots.count == 100)
    let heldSlot = try Self.slot(listing, startingAt: held.slotStart)
    #expect(heldSlot.held == 1)
    #expect(heldSlot.confirmed == 0)
    #expect(heldSlot.free == 0)
    #expect(heldSlot.ordersPerSlot == 1)
    #expect(heldSlot.open == true)

    // A second order for the same slot of a: with no delay allowed, b or a later slot takes it,
    // and the plan says a's slot was full.
    // Ready when the first is (not 5 minutes from now: the clock may have crossed into the next
    // slot since, which has room).
    let second = try await orders.pickup(
      near: Self.customer, readyAt: first.readyAt, store: "a", maxDelay: .zero, reserve: true,
      idempotencyKey: "order-2")
    let other = Reservation(try #require(second.reservation))
    #expect(other.id != held.id)
    #expect(other.store != "a" || other.slotStart > held.slotStart)
    #expect(other.store == second.store?.id)
    #expect(
      second.warnings.contains { $0.code == .slotFull } || second.passedOver.contains { $0.code == .slotFull }
    )

    // Confirm, and confirm again: the same answer.
    let confirmed = try await orders.confirm(reservation: held.id)
    #expect(confirmed.status == .confirmed)
    #expect(confirmed.id == held.id)
    #expect(confirmed.slotStart == held.slotStart)
    let confirmedAgain = try await orders.confirm(reservation: held.id)
    #expect(confirmedAgain == confirmed)
    let countedConfirmed = try Self.slot(
      try await anyone.slots(store: "a", date: day), startingAt: held.slotStart)
    #expect(countedConfirmed.held == 0)
    #expect(countedConfirmed.confirmed == 1)
    #expect(countedConfirmed.free == 0)

    // Release: the place is free again, and the released reservation cannot be confirmed.
    let released = try await orders.release(reservation: held.id)
    #expect(released.status == .released)
    #expect(try await orders.release(reservation: held.id).status == .released)
    #expect(try await anyone.reservation(held.id).status == .released)
    await #expect {
      try await orders.confirm(reservation: held.id)
    } throws: { error in
      (error as? StoresClientError)?.problem?.status == 409
        && (error as? StoresClientError)?.problem?.type == "urn:stores:problem:reservation-released"
    }
    let freed = try Self.slot(try await anyone.slots(store: "a", date: day), startingAt: held.slotStart)
    #expect(freed.held == 0)
    #expect(freed.confirmed == 0)
    #expect(freed.free == 1)

    // Without the token confirming and releasing are refused; an unknown id is a typed 404.
    await #expect {
      try await anyone.release(reservation: other.id)
    } throws: { error in
      (error as? StoresClientError)?.problem?.status == 401
    }
    await #expect {
      try await anyone.reservation("r_00000000000000000000000000")
    } throws: { error in
      (error as? StoresClientError)?.problem?.type == "urn:stores:problem:unknown-reservation"
    }
    #expect(try await orders.release(reservation: other.id).status == .released)
  }
}
