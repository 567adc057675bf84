import HTTPTypes
import Hummingbird
import NIOCore
import OpeningHours
import StoreLocator
import StoresState

/// Pickup slots and their reservations (docs/pickup.md): `POST /v1/pickup` with `"reserve": true`
/// holds the assigned store's slot; a hold is confirmed or released by its id, and expires by
/// itself; `GET /v1/stores/{id}/slots` lists a day's slots with what each holds.
///
/// The storage decides every hold (one transaction that checks the slot's count against its
/// limit); the replica plans with its copy of the counts, and when the storage refuses a slot
/// as full it marks it so and plans again, so a burst of orders spreads to later slots and other
/// stores instead of failing.
struct ReservationRoutes: Sendable {
  let state: StateKeeper
  let configuration: APIConfiguration
  let queries: QueryExecutor

  /// The `Idempotency-Key` header.
  static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
  /// Set on an answer given again for a repeated `Idempotency-Key`.
  static let idempotentReplayed = HTTPField.Name("Idempotent-Replayed")!

  /// `POST /v1/pickup` with `reserve`: plans, then holds the assignment's slot (201 with the
  /// plan and its `reservation`; 200 with `reservation` null when no store can take the order).
  func reserve(
    _ submission: PickupSubmission, body: [UInt8], request: Request, context: StoresRequestContext
  ) async throws(Problem) -> Response {
    _ = try Self.holder(request, configuration)
    let key = try Self.idempotencyKey(request)
    let loaded = try StoreRoutes.loaded(context)
    let now = Instant.now()
    let outcome: PickupReserver.Outcome
    do {
      outcome = try await PickupReserver.reserve(
        holdSeconds: submission.holdSeconds, idempotencyKey: key,
        requestDigest: PickupReserver.digest(body, query: request.uri.query ?? ""),
        bookings: state.current.bookings,
        plan: { bookings in
          // The state as this replica has it now: after a refusal as stale, the state read anew.
          let states = state.current.states
          let answer = try await queries.run {
            try StoreRoutes.reading { () throws(RequestError) in
              try loaded.catalog(applying: states, from: context.stateSource).counting(bookings)
                .answer(submission, now: now)
            }
          }
          return (answer, states)
        },
        hold: { hold in try await state.hold(hold, at: now) },
        readStateAgain: { await state.refresh() })
    } catch let problem as Problem {
      throw problem
    } catch let error as StateStorageError {
      throw StateRoutes.unavailable(error)
    } catch {
      throw Problem("internal", status: .internalServerError, title: "The service failed", detail: "\(error)")
    }
    switch outcome {
    case .unassigned(let answer): return Self.pickupResponse(answer, request: request, status: .ok)
    case .held(let answer, let text):
      return Self.pickupResponse(answer, request: request, status: .created, text: text)
    case .replayed(let text):
      var response = DocumentResponse.make(
        text, contentType: DocumentResponse.json, cacheControl: "no-store", request: request)
      response.status = .created
      response.headers[Self.idempotentReplayed] = "true"
      return response
    case .keyReused(let earlier):
      throw Problem(
        "idempotency-key-reused", status: .unprocessableContent, title: "The Idempotency-Key was used before",
        detail:
          "the Idempotency-Key was given before with another request (it holds reservation \(earlier.id)); "
          + "use a new key for a new order")
    case .keptFilling:
      var problem = Problem(
        "slots-full", status: .conflict, title: "Every slot tried filled while planning",
        detail:
          "the slots planned filled up \(PickupReserver.maximumAttempts) times in a row while this order was "
          + "placed; try again")
      problem.headers[.retryAfter] = "1"
      throw problem
    }
  }

  /// `GET /v1/reservations/{id}`.
  func reservation(_ request: Request, _ context: StoresRequestContext) async throws(Problem) -> Response {
    let id = try Self.reservationID(request, context)
    let now = Instant.now()
    let found: Reservation?
    do throws(StateStorageError) { found = try await state.storage.reservation(id, at: now) } catch {
      throw StateRoutes.unavailable(error)
    }
    guard let found else { throw Self.unknown(id) }
    return Self.document(found, at: now, request: request)
  }

  /// `POST /v1/reservations/{id}/confirm`: keeps a held reservation; 409 when it expired or was
  /// released.
  func confirm(_ request: Request, _ context: StoresRequestContext) async throws(Problem) -> Response {
    _ = try Self.holder(request, configuration)
    let id = try Self.reservationID(request, context)
    let now = Instant.now()
    let update: ReservationUpdate
    do throws(StateStorageError) { update = try await state.storage.confirm(reservation: id, at: now) } catch
    {
      throw StateRoutes.unavailable(error)
    }
    switch update {
    case .done(let reservation):
      state.metricsRecord("confirm-done")
      return Self.document(reservation, at: now, request: request)
    case .refused(let reservation):
      state.metricsRecord("confirm-refused")
      let expired = reservation.status == .expired
      throw Problem(
        expired ? "reservation-expired" : "reservation-released", status: .conflict,
        title: expired ? "The hold expired" : "The reservation was released",
        detail: expired
          ? "reservation \(id) expired at \(reservation.expiresAt) unconfirmed, and its place was freed; "
            + "plan the pickup again"
          : "reservation \(id) was released at \(reservation.changedAt); plan the pickup again")
    case .unknown: throw Self.unknown(id)
    }
  }

  /// `DELETE /v1/reservations/{id}`: frees the place of a held or confirmed reservation.
  func release(_ request: Request, _ context: StoresRequestContext) async throws(Problem) -> Response {
    _ = try Self.holder(request, configuration)
    let id = try Self.reservationID(request, context)
    let now = Instant.now()
    let update: ReservationUpdate
    do throws(StateStorageError) { update = try await state.storage.release(reservation: id, at: now) } catch
    {
      throw StateRoutes.unavailable(error)
    }
    switch update {
    case .done(let reservation), .refused(let reservation):
      state.metricsRecord("release-done")
      return Self.document(reservation, at: now, request: request)
    case .unknown: throw Self.unknown(id)
    }
  }

  /// `GET /v1/stores/{id}/slots?date=&service=`: the day's slots, counted by the storage.
  func slots(_ request: Request, _ context: StoresRequestContext) async throws(Problem) -> Response {
    let loaded = try StoreRoutes.loaded(context)
    let id = try QueryString.pathSegment(context.parameters.get("id") ?? "")
    let pairs = try QueryString.pairs(request.uri.query)
    let catalog = StoreRoutes.catalog(loaded, context)
    let day = try StoreRoutes.reading { () throws(RequestError) in
      try catalog.slotDay(
        SlotsSubmission(storeID: id, RequestParameters(pairs, style: .queryString)), now: .now())
    }
    let counts: [Instant: SlotCount]
    do throws(StateStorageError) {
      counts = try await state.storage.slotCounts(
        storeID: day.storeID, service: day.countedAs, starting: day.range, at: day.now)
    } catch {
      throw StateRoutes.unavailable(error)
    }
    let listing = catalog.slots(day, counts: counts)
    var response = DocumentResponse.make(
      JSONValue.object(listing.jsonObject).jsonText + "\n", contentType: DocumentResponse.json,
      cacheControl: "no-store", request: request)
    response.headers[.storesStateVersion] = String(context.states.version)
    return response
  }

  // MARK: -

  /// The name of the order (or admin) token the request carries.
  static func holder(_ request: Request, _ configuration: APIConfiguration) throws(Problem) -> String {
    let tokens = configuration.reservationTokens
    guard !tokens.isEmpty else {
      throw Problem(
        "reservations-disabled", status: .forbidden, title: "Reservations are not enabled",
        detail:
          "this service holds no slots: start it with STORES_ORDER_TOKENS (or an admin token) set, and send "
          + "Authorization: Bearer with one of them")
    }
    guard let name = OperationsRoutes.tokenName(request, among: tokens) else {
      var problem = Problem(
        "unauthorized", status: .unauthorized, title: "The order token is missing or wrong",
        detail: "send Authorization: Bearer with one of the service's STORES_ORDER_TOKENS")
      problem.headers[.wwwAuthenticate] = "Bearer realm=\"stores-orders\""
      throw problem
    }
    return name
  }

  /// The `Idempotency-Key`, when given: 1…255 visible ASCII characters.
  static func idempotencyKey(_ request: Request) throws(Problem) -> String? {
    let values = request.headers[values: idempotencyKey]
    guard let value = values.first else { return nil }
    guard values.count == 1, !value.isEmpty, value.utf8.count <= Reservation.maximumIdempotencyKeyLength,
      value.utf8.allSatisfy({ (0x21...0x7e).contains($0) })
    else {
      throw StateRoutes.invalid(
        "Idempotency-Key must be given once, 1 to \(Reservation.maximumIdempotencyKeyLength) visible ASCII "
          + "characters (such as a UUID)", "Idempotency-Key")
    }
    return value
  }

  static func reservationID(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> String {
    let pairs = try QueryString.pairs(request.uri.query)
    if let unknown = pairs.first {
      throw StateRoutes.invalid(
        "unknown parameter \(EchoedText.quoted(unknown.name)) (this route takes none)", unknown.name)
    }
    let id = try QueryString.pathSegment(context.parameters.get("id") ?? "")
    guard Reservation.isWellFormed(id: id) else { throw unknown(id) }
    return id
  }

  static func unknown(_ id: String) -> Problem {
    Problem(
      "unknown-reservation", status: .notFound, title: "No reservation has the id",
      detail: "no reservation has the id \(EchoedText.quoted(id)); ids are r_ and 26 letters and digits")
  }

  static func document(_ reservation: Reservation, at now: Instant, request: Request) -> Response {
    DocumentResponse.make(
      JSONValue.object(reservation.jsonObject(at: now)).jsonText + "\n", contentType: DocumentResponse.json,
      cacheControl: "no-store", request: request)
  }

  static func pickupResponse(
    _ answer: PickupAnswer, request: Request, status: HTTPResponse.Status, text: String? = nil
  )
    -> Response
  {
    var response = DocumentResponse.make(
      text ?? answer.jsonText, contentType: DocumentResponse.json, cacheControl: "no-store", request: request)
    response.status = status
    for note in answer.notes {
      response.headers.append(HTTPField(name: .storesNote, value: StoreRoutes.headerText(note)))
    }
    return response
  }
}
