import GeoIndex
import OpeningHours

/// An order as the order flow sends it (docs/schemas/order.schema.json):
///
///     {"id": "order-1",
///      "customer": {"latitude": 35.68, "longitude": 139.76},
///      "items": [{"name": "Flat white", "quantity": 2, "prep_minutes": 4}],
///      "pickup_time": "asap",
///      "store": "nw-0001",
///      "where": ["drive_through=yes"]}
///
/// `id`, `customer` and `items` are required; `quantity` defaults to 1; `pickup` defaults to
/// `asap` and may be a time (`2026-11-22T08:15:00+09:00`, or a wall time `2026-11-22T08:15` read
/// in the store's time zone); `store` and `where` are optional. Members the planner does not
/// read are kept, so the order can be written back with its plan (`writingBack(_:)`).
public struct OrderDocument: Hashable, Sendable {
  /// When the customer wants the order.
  public enum PickupTime: Hashable, Sendable {
    /// As soon as it is prepared.
    case asap
    /// At this time, or when it is prepared if that is later.
    case at(TimeQuery)
  }

  /// The member `writingBack(_:)` adds: the plan, next to the request's `pickup_time`.
  public static let planMember = "pickup"

  /// The order's id (a number is kept as written).
  public let id: String
  public let customer: Coordinate
  public let items: [OrderItem]
  public let pickup: PickupTime
  /// The store the customer chose.
  public let storeID: String?
  /// The required attributes from `where`.
  public let filter: StoreFilter
  /// The service the order is for (`drive_through`): pickup then goes by that service's hours.
  public let service: String?
  /// The document as read, every member in order.
  public let object: JSONObject

  /// Reads an order from JSON text.
  ///
  /// - Throws: `OrderError` naming the member (`items[1].quantity`) and what is wrong with it.
  public init(parsing text: String) throws(OrderError) {
    let value: JSONValue
    do {
      value = try JSONValue(parsing: text)
    } catch {
      throw OrderError(member: nil, error.description)
    }
    try self.init(json: value)
  }

  /// Reads an order from a parsed JSON value.
  ///
  /// - Throws: `OrderError` naming the member and what is wrong with it.
  public init(json value: JSONValue) throws(OrderError) {
    guard case .object(let object) = value else {
      throw OrderError(member: nil, "an order must be a JSON object, found \(OrderDocument.kind(of: value))")
    }
    self.object = object

    switch object["id"] {
    case .string(let text) where !text.isEmpty: id = text
    case .number(let literal): id = literal
    case nil: throw OrderError(member: "id", "is missing; every order needs an id such as \"order-1\"")
    case let other?:
      throw OrderError(
        member: "id", "must be a non-empty string or a number, found \(OrderDocument.kind(of: other))")
    }

    guard let customerValue = object["customer"] else {
      throw OrderError(member: "customer", "is missing; expected {\"latitude\": …, \"longitude\": …}")
    }
    guard case .object(let customerObject) = customerValue else {
      throw OrderError(
        member: "customer",
        "must be an object {\"latitude\": …, \"longitude\": …}, found \(OrderDocument.kind(of: customerValue))"
      )
    }
    let latitude = try OrderDocument.number(customerObject["latitude"], member: "customer.latitude")
    let longitude = try OrderDocument.number(customerObject["longitude"], member: "customer.longitude")
    do {
      customer = try Coordinate(latitude: latitude, longitude: longitude)
    } catch {
      throw OrderError(member: "customer", error.description)
    }

    guard let itemsValue = object["items"] else {
      throw OrderError(
        member: "items", "is missing; expected an array of {\"name\", \"quantity\", \"prep_minutes\"}")
    }
    guard case .array(let elements) = itemsValue else {
      throw OrderError(member: "items", "must be an array, found \(OrderDocument.kind(of: itemsValue))")
    }
    guard !elements.isEmpty else {
      throw OrderError(member: "items", "is empty; an order needs at least one item")
    }
    var items: [OrderItem] = []
    for (index, element) in elements.enumerated() {
      items.append(try OrderDocument.item(element, member: "items[\(index)]"))
    }
    self.items = items

    switch object["pickup_time"] {
    case nil, .null: pickup = .asap
    case .string(let text) where text.lowercased() == "asap": pickup = .asap
    case .string(let text):
      do {
        pickup = .at(try TimeQuery(parsing: text))
      } catch {
        throw OrderError(
          member: "pickup_time",
          "must be \"asap\" or a time such as 2026-11-22T08:15:00+09:00: \(error.description)")
      }
    case let other?:
      throw OrderError(
        member: "pickup_time", "must be \"asap\" or a time string, found \(OrderDocument.kind(of: other))")
    }

    switch object["store"] {
    case nil, .null: storeID = nil
    case .string(let text) where !text.isEmpty: storeID = text
    case .number(let literal): storeID = literal
    case let other?:
      throw OrderError(member: "store", "must be a store id string, found \(OrderDocument.kind(of: other))")
    }

    var expressions: [String] = []
    switch object["where"] {
    case nil, .null: break
    case .string(let text): expressions = [text]
    case .array(let values):
      for (index, value) in values.enumerated() {
        guard case .string(let text) = value else {
          throw OrderError(
            member: "where[\(index)]",
            "must be a string such as \"drive_through=yes\", found \(OrderDocument.kind(of: value))")
        }
        expressions.append(text)
      }
    case let other?:
      throw OrderError(
        member: "where",
        "must be an array of strings such as [\"drive_through=yes\"], found \(OrderDocument.kind(of: other))")
    }
    do {
      filter = try StoreFilter(parsing: expressions)
    } catch {
      throw OrderError(member: "where", error.description)
    }

    switch object["service"] {
    case nil, .null: service = nil
    case .string(let name) where ServiceName.isValid(name): service = name
    case .string(let name): throw OrderError(member: "service", ServiceName.problem(name))
    case let other?:
      throw OrderError(
        member: "service",
        "must be a service name such as \"drive_through\", found \(OrderDocument.kind(of: other))")
    }
  }

  /// When the order is ready: prepared from the order time, not before the requested time.
  public var readyTime: ReadyTime {
    switch pickup {
    case .asap: .preparing(items)
    case .at(let time): .preparing(items, notBefore: time)
    }
  }

  /// A request for this order placed at `orderedAt`, with the defaults for everything the order
  /// does not say (travel mode, close buffer, search radius, travel bound); change them before planning.
  public func pickupRequest(orderedAt: Instant) -> PickupRequest {
    PickupRequest(
      customer: customer, orderedAt: orderedAt, ready: readyTime, chosenStoreID: storeID, filter: filter)
  }

  /// The order as read, every member in its place, with `plan.jsonObject` as `member` (by default
  /// `pickup`): added at the end, or replacing the value in place when the order already has it.
  public func writingBack(_ plan: PickupPlan, as member: String = OrderDocument.planMember) -> JSONObject {
    var result = object
    result[member] = .object(plan.jsonObject)
    return result
  }

  /// Appends the text of `writingBack(plan, as: member)` to `output`, the plan written from its
  /// rows (`PickupPlan.writeJSON(to:)`).
  func writeJSON(
    writingBack plan: PickupPlan, as member: String = OrderDocument.planMember, to output: inout JSONBytes
  ) {
    output.append(UInt8(ascii: "{"))
    // As `JSONObject`'s subscript sets it: in place of the first member of that name, else last.
    var written = false
    for (offset, element) in object.members.enumerated() {
      if offset > 0 { output.append(UInt8(ascii: ",")) }
      output.appendString(element.key)
      output.append(UInt8(ascii: ":"))
      if !written && element.key.hasSameBytes(as: member) {
        plan.writeJSON(to: &output)
        written = true
      } else {
        output.append(element.value)
      }
    }
    if !written {
      if !object.members.isEmpty { output.append(UInt8(ascii: ",")) }
      output.appendString(member)
      output.append(UInt8(ascii: ":"))
      plan.writeJSON(to: &output)
    }
    output.append(UInt8(ascii: "}"))
  }

  static func item(_ value: JSONValue, member: String) throws(OrderError) -> OrderItem {
    guard case .object(let object) = value else {
      throw OrderError(
        member: member,
        "must be an object {\"name\", \"quantity\", \"prep_minutes\"}, found \(kind(of: value))")
    }
    guard case .string(let name)? = object["name"], !name.isEmpty else {
      throw OrderError(
        member: member + ".name",
        object["name"] == nil
          ? "is missing" : "must be a non-empty string, found \(kind(of: object["name"]!))")
    }
    var quantity = 1
    if let value = object["quantity"] {
      guard case .number(let literal) = value, let number = Double(literal), number == number.rounded(),
        abs(number) < 1e9
      else {
        throw OrderError(
          member: member + ".quantity", "must be a whole number of at least 1, found \(describe(value))")
      }
      guard number >= 1 else {
        throw OrderError(member: member + ".quantity", "must be at least 1, found \(literal)")
      }
      quantity = Int(number)
    }
    guard let prepValue = object["prep_minutes"] else {
      throw OrderError(
        member: member + ".prep_minutes", "is missing; expected the minutes to prepare one, such as 4")
    }
    guard case .number(let literal) = prepValue, let minutes = Double(literal), minutes.isFinite else {
      throw OrderError(
        member: member + ".prep_minutes", "must be a number of minutes, found \(describe(prepValue))")
    }
    guard minutes >= 0, minutes <= 24 * 60 else {
      throw OrderError(
        member: member + ".prep_minutes", "must be between 0 and 1440 minutes, found \(literal)")
    }
    return OrderItem(name: name, quantity: quantity, preparationMinutes: minutes)
  }

  static func number(_ value: JSONValue?, member: String) throws(OrderError) -> Double {
    guard let value else { throw OrderError(member: member, "is missing") }
    guard case .number(let literal) = value, let number = Double(literal) else {
      throw OrderError(member: member, "must be a number, found \(describe(value))")
    }
    return number
  }

  static func kind(of value: JSONValue) -> String {
    switch value {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }

  /// `the string "4"`, `-2`, `null`.
  static func describe(_ value: JSONValue) -> String {
    switch value {
    case .number(let literal): literal
    case .string(let text): "the string \(JSONValue.string(text).jsonText)"
    default: kind(of: value)
    }
  }
}

/// An order document that cannot be read, naming the member and what is wrong with it.
public struct OrderError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The member's path, such as `items[1].quantity`; `nil` when the document as a whole is wrong.
  public let member: String?
  public let message: String

  public init(member: String?, _ message: String) {
    self.member = member
    self.message = message
  }

  /// `order: items[1].quantity must be at least 1, found -2`.
  public var description: String {
    member.map { "order: \($0) \(message)" } ?? "order: \(message)"
  }
}
