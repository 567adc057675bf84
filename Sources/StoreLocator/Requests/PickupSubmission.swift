import GeoIndex
import OpeningHours

/// "Which store can take this order, and when": `stores pickup` and `POST /v1/pickup`.
///
/// Either a plain request (`near` with `ready_in` or `ready_at`) or an order document
/// (docs/schemas/order.schema.json), whose customer, items and pickup time say the same; the
/// other parameters (`store`, `within`, `travel`, …) apply to both and override the order's.
public struct PickupSubmission: Sendable {
  public static let parameterNames = [
    "near", "bias", "country", "ready_in", "ready_at", "store", "within", "close_buffer", "travel",
    "max_travel",
    "allow_unknown", "alternatives", "where", "service", "now", "max_delay", "reserve", "hold_for",
  ]
  /// The most alternatives one answer lists.
  public static let maximumAlternatives = 100
  /// The widest search for a pickup store: farther than a long drive is never eligible anyway.
  public static let maximumSearchRadius = Distance.kilometers(1000)

  /// The order, when one was given; the answer is this document with its `pickup` added.
  public let order: OrderDocument?
  let near: Coordinate?
  /// The place `near` named, when it was a name and not LAT,LON.
  let nearPlace: Place?
  /// The other places of that name, which `nearPlace` outweighs.
  let nearAlternatives: [Place]
  let ready: ReadyTime?
  let storeID: String?
  let conditions: [StoreFilter.Condition]
  let searchRadius: Distance
  let closeBuffer: Int64
  let travel: TravelMode
  let maximumTravel: Int64
  let allowsUnknownHours: Bool
  let alternativeCount: Int
  /// The service the order is for; the order document's when the parameters give none.
  let service: String?
  let now: Instant?
  let style: ParameterStyle
  /// How much later than the next store a full store's next free slot may be (`max_delay`).
  let maximumDelay: Int64
  /// Whether the assigned store's slot is to be held (`reserve`): the service holds it.
  public let reserve: Bool
  /// How long the hold waits for its confirmation (`hold_for`), in seconds.
  public let holdSeconds: Int64

  /// Reads the parameters of a plain request, or those that go with `order`.
  /// - Throws: `RequestError` (`.invalid`) naming the parameter that is missing, malformed,
  ///   out of range or unknown.
  public init(_ parameters: RequestParameters, order: OrderDocument? = nil) throws(RequestError) {
    try parameters.checkNames(accepted: Self.parameterNames)
    let name = parameters.spelling(of:)
    style = parameters.style
    self.order = order
    let nearPoint = try parameters.nearPoint()
    near = nearPoint?.coordinate
    nearPlace = nearPoint?.place
    nearAlternatives = nearPoint?.alternatives ?? []
    let readyIn = try parameters.parse("ready_in", parseDuration)
    let readyAt = try parameters.parse("ready_at", TimeQuery.init(parsing:))
    let ways = [readyIn != nil, readyAt != nil, order != nil].filter { $0 }.count
    guard ways == 1 else {
      let orderSpelling = parameters.style == .commandLine ? "--order" : "an order document as the body"
      throw RequestError(
        .invalid, parameter: ways == 0 ? name("ready_in") : nil,
        "give one of \(name("ready_in")), \(name("ready_at")) or \(orderSpelling)")
    }
    ready = readyIn.map { .after(seconds: $0) } ?? readyAt.map { .at($0) }
    guard order != nil || near != nil else {
      throw RequestError(
        .invalid, parameter: name("near"), "\(name("near")) LAT,LON is needed without an order")
    }
    storeID = try parameters.value("store")
    if storeID?.isEmpty == true {
      throw RequestError(.invalid, parameter: name("store"), "\(name("store")) is empty; give a store id")
    }
    conditions = try parameters.conditions()
    searchRadius = try parameters.parse("within", Distance.init(parsing:)) ?? .kilometers(10)
    guard searchRadius <= Self.maximumSearchRadius else {
      throw RequestError(
        .invalid, parameter: name("within"),
        "\(name("within")) must be at most 1000 km: no store farther is reached within the travel bound")
    }
    closeBuffer = try parameters.parse("close_buffer", parseDuration) ?? 600
    travel = try parameters.parse("travel", TravelMode.init(parsing:)) ?? .walk
    maximumTravel = try parameters.parse("max_travel", parseDuration) ?? PickupRequest.defaultMaximumTravel
    guard maximumTravel > 0 else {
      throw RequestError(
        .invalid, parameter: name("max_travel"), "\(name("max_travel")) must be longer than 0 (such as 30m)")
    }
    allowsUnknownHours = try parameters.flag("allow_unknown")
    alternativeCount = try parameters.integer("alternatives", in: 0...Self.maximumAlternatives) ?? 3
    service = try parameters.service() ?? order?.service
    now = try parameters.now()
    maximumDelay = try parameters.parse("max_delay", parseDuration) ?? PickupRequest.defaultMaximumDelay
    guard (0...PickupRequest.maximumMaximumDelay).contains(maximumDelay) else {
      throw RequestError(
        .invalid, parameter: name("max_delay"),
        "\(name("max_delay")) must be from 0 to 2h (it is \(PickupEvaluator.duration(maximumDelay)))")
    }
    reserve = try parameters.flag("reserve")
    holdSeconds = try parameters.parse("hold_for", parseDuration) ?? Reservation.defaultHoldSeconds
    guard (1...Reservation.maximumHoldSeconds).contains(holdSeconds) else {
      throw RequestError(
        .invalid, parameter: name("hold_for"),
        "\(name("hold_for")) must be from 1s to 30m: a hold that waits longer keeps a slot from others")
    }
    if reserve, now != nil {
      throw RequestError(
        .invalid, parameter: name("now"),
        "\(name("now")) goes without \(name("reserve")): a slot is held, and expires, by the real clock")
    }
    if parameters.pairs.contains(where: { $0.name == "hold_for" }) && !reserve {
      throw RequestError(
        .invalid, parameter: name("hold_for"), "\(name("hold_for")) goes with \(name("reserve"))")
    }
  }

  /// Reads a `POST /v1/pickup` body: an order document (a JSON object with `items`), or a plain
  /// request whose members are the parameters (`{"near": "51.5,-0.12", "ready_in": "12m"}`;
  /// `near` may also be `{"latitude": …, "longitude": …}`, `where` an array, numbers and
  /// booleans as JSON writes them). `parameters` (the query string) go with an order document.
  /// - Throws: `RequestError` (`.invalid`) for a body that is not such JSON, naming the member.
  public init(body: [UInt8], parameters: RequestParameters = RequestParameters([], style: .queryString))
    throws(RequestError)
  {
    guard body.count <= InputLimits.orderBytes else {
      throw RequestError(
        .invalid, parameter: nil, "the body is \(body.count) bytes, over 1 MiB, the limit for orders")
    }
    let value: JSONValue
    do { value = try JSONValue(parsing: String(decoding: body, as: UTF8.self)) } catch {
      throw RequestError(.invalid, parameter: nil, "the body is not JSON: \(error.description)")
    }
    guard case .object(let object) = value else {
      throw RequestError(
        .invalid, parameter: nil, "the body must be a JSON object: an order document or a pickup request")
    }
    if object["items"] != nil {
      let order: OrderDocument
      do { order = try OrderDocument(json: value) } catch {
        throw RequestError(.invalid, parameter: error.member, "order: \(error.description)")
      }
      try self.init(parameters, order: order)
      return
    }
    guard parameters.pairs.isEmpty else {
      throw RequestError(
        .invalid, parameter: parameters.pairs[0].name,
        "a pickup request gives its parameters in the body, not in the query string")
    }
    var bodyParameters = RequestParameters(try Self.pairs(of: object), style: .queryString)
    bodyParameters.storeCountries = parameters.storeCountries
    try self.init(bodyParameters)
  }

  /// `26` for `26.0` or `2.6e1`, else `nil`: a JSON number is a value, so an integer written with
  /// a fraction or an exponent is still the whole number `alternatives` asks for (as JSON Schema's
  /// `integer`, and so the service's contract, reads it).
  private static func wholeNumberText(_ literal: String) -> String? {
    guard literal.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let value = Double(literal),
      value == value.rounded(), abs(value) < 1e15
    else { return nil }
    return String(Int64(value))
  }

  /// Why a `near` array is refused, and how to write the point instead.
  ///
  /// An array has no order people agree on: GeoJSON writes `[longitude, latitude]`, people type
  /// latitude first. So it is never read; when its two numbers make a point in GeoJSON's order,
  /// the sentence spells that point out in the forms `near` takes, so it can be copied.
  static func nearArrayMessage(_ elements: [JSONValue], name: String = "near") -> String {
    let forms = "\(name) takes \"LAT,LON\" as a string or {\"latitude\": LAT, \"longitude\": LON}"
    guard elements.count == 2, case .number(let first) = elements[0], case .number(let second) = elements[1],
      let longitude = Double(first), let latitude = Double(second), abs(latitude) <= 90,
      abs(longitude) <= 180
    else {
      return "\(forms), such as \"51.5,-0.12\"; an array is not read, since its order is not certain"
    }
    return "\(forms); an array is not read, since its order is not certain: [\(first), \(second)] in "
      + "GeoJSON's order [longitude, latitude] is \"\(second),\(first)\" "
      + "or {\"latitude\": \(second), \"longitude\": \(first)}"
  }

  /// The members of a request object as parameters.
  /// The members that are booleans.
  static let booleanMembers: Set<String> = ["reserve", "allow_unknown"]

  private static func pairs(of object: JSONObject) throws(RequestError) -> [(name: String, value: String)] {
    var pairs: [(name: String, value: String)] = []
    for member in object {
      let (name, value) = (member.key, member.value)
      switch value {
      case .null: continue
      // A query string's bare `reserve` is true; in a body, an empty string is no boolean (it
      // would have held a slot nobody asked for).
      case .string(let text) where text.isEmpty && Self.booleanMembers.contains(name):
        throw RequestError(
          .invalid, parameter: name, "\(name) is true or false (got \"\"); write \"\(name)\": true")
      case .string(let text): pairs.append((name, text))
      case .number(let literal): pairs.append((name, Self.wholeNumberText(literal) ?? literal))
      case .bool(let flag): pairs.append((name, flag ? "true" : "false"))
      case .array(let elements) where name == "where":
        for element in elements {
          guard case .string(let text) = element else {
            throw RequestError(
              .invalid, parameter: name, "where: each condition is a string such as \"drive_through=yes\"")
          }
          pairs.append((name, text))
        }
      case .object(let point) where name == "near" || name == "bias":
        guard case .number(let latitude) = point["latitude"], case .number(let longitude) = point["longitude"]
        else {
          throw RequestError(
            .invalid, parameter: name, "\(name): an object needs numbers \"latitude\" and \"longitude\"")
        }
        pairs.append((name, "\(latitude),\(longitude)"))
      case .array(let elements) where name == "near" || name == "bias":
        throw RequestError(.invalid, parameter: name, Self.nearArrayMessage(elements, name: name))
      default:
        throw RequestError(
          .invalid, parameter: MessageText.shortened(name),
          "\(MessageText.quoted(name)) must be a string, a number or a boolean, not \(GeoJSONReader.kind(of: value))"
        )
      }
    }
    return pairs
  }
}

/// A pickup plan, and the order document it goes back into when there was one.
public struct PickupAnswer: Sendable {
  public var plan: PickupPlan
  public let order: OrderDocument?
  /// A `near` given with the request that looks typed as LON,LAT (an order document names
  /// latitude and longitude, so only a typed location is checked).
  public let swappedHint: SwappedCoordinateHint?
  /// How the request was written: what the sentences beside the answer call its parameters.
  let style: ParameterStyle
  /// The place a `near` name stood for, when the request named one.
  public internal(set) var nearPlace: Place? = nil
  /// The other places of that name, which `nearPlace` outweighs.
  public internal(set) var nearAlternatives: [Place] = []

  /// What is said beside the plan (the command line on standard error, the service as
  /// `X-Stores-Note` headers): the place a `near` name stood for (with the other places of the
  /// name), and a LON,LAT hint, naming `near` as the request wrote it.
  public var notes: [String] {
    (nearPlace.flatMap {
      NearPoint(coordinate: $0.coordinate, place: $0, alternatives: nearAlternatives).placeNote
    }.map { [$0] } ?? [])
      + (swappedHint.map { ["warning: \($0.text(for: style))"] } ?? [])
  }

  /// The order with its `pickup` member, or the plan alone, ending in a newline.
  public var jsonText: String {
    // Written from the rows, no tree: the bytes of
    // `JSONValue.object(order.map { $0.writingBack(plan) } ?? plan.jsonObject).jsonText`.
    var output = JSONBytes(capacity: 2048 + 256 * plan.passedOver.count + 1024 * plan.alternatives.count)
    if let order {
      order.writeJSON(writingBack: plan, to: &output)
    } else {
      plan.writeJSON(to: &output)
    }
    output.append(UInt8(ascii: "\n"))
    return output.text
  }
}

extension Catalog {
  /// Plans the pickup `submission` asks for.
  /// - Parameter now: The order time, unless the submission gives `now`.
  /// - Throws: `RequestError`: `.unknownStore` / `.ambiguousStore` for a chosen store id that
  ///   names no store or several, `.refused` when the planner refuses the request as a whole
  ///   (an order ready beyond 30 days). A plan with no eligible store is an answer, not an error.
  public func answer(_ submission: PickupSubmission, now clock: Instant) throws(RequestError) -> PickupAnswer
  {
    let now = submission.now ?? clock
    var request: PickupRequest
    if let order = submission.order {
      request = order.pickupRequest(orderedAt: now)
      if let near = submission.near { request.customer = near }
      if let store = submission.storeID { request.chosenStoreID = store }
      if !submission.conditions.isEmpty { request.filter = StoreFilter(submission.conditions) }
    } else if let near = submission.near, let ready = submission.ready {
      request = PickupRequest(
        customer: near, orderedAt: now, ready: ready, chosenStoreID: submission.storeID,
        filter: StoreFilter(submission.conditions))
    } else {
      preconditionFailure("a submission has an order, or a location and a ready time")
    }
    if let id = request.chosenStoreID {
      // The same sentences as `show` and the other commands that take an id.
      _ = try uniqueStore(withID: id, parameter: "store")
    }
    request.searchRadius = submission.searchRadius
    request.closeBuffer = submission.closeBuffer
    request.travel = submission.travel
    request.maximumTravel = submission.maximumTravel
    request.allowsUnknownHours = submission.allowsUnknownHours
    request.alternativeCount = submission.alternativeCount
    request.service = submission.service
    request.maximumDelay = submission.maximumDelay
    request.reserve = submission.reserve
    do {
      var answer = PickupAnswer(
        plan: try planPickup(request), order: submission.order,
        swappedHint: submission.near.flatMap { swappedCoordinateHint(for: $0) }, style: submission.style)
      answer.nearPlace = submission.nearPlace
      answer.nearAlternatives = submission.nearAlternatives
      return answer
    } catch {
      switch error.kind {
      case .unknownStore:
        throw RequestError(.unknownStore, parameter: "store", error.message, suggestions: error.suggestions)
      case .ambiguousStore:
        throw RequestError(.ambiguousStore, parameter: "store", error.message, candidates: error.candidates)
      case .invalidRequest:
        throw RequestError(.refused, parameter: nil, error.message)
      }
    }
  }
}
