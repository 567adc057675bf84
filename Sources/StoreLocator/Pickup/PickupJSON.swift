import GeoIndex
import OpeningHours

// The pickup result as the order flow reads it; docs/schemas/pickup-result.schema.json describes
// it and docs/pickup.md explains it.

extension PickupPlan {
  /// The plan as a JSON object with these members, in this order:
  ///
  /// - `status`: `assigned` or `none`.
  /// - `store`: the assigned store shaped as `StoreMatch.jsonObject` (with `distance_m` and its
  ///   `state` at the pickup time), or `null`.
  /// - `ready_at`, `arrival_at`, `pickup_at`: UTC ISO 8601 (`…Z`); the last two are `null` when
  ///   nothing is assigned.
  /// - `pickup_at_local`: ISO 8601 with the store's offset, or `null`.
  /// - `travel`: `{mode, speed_kmh, detour_factor, duration_s, max_duration_s}` (`duration_s` to
  ///   the assigned store, else `null`; `max_duration_s` the bound beyond which stores are
  ///   `too-far`).
  /// - `close_buffer_s`: the close buffer in seconds.
  /// - `warnings`: `[{code, store_id, message}]`.
  /// - `alternatives`: `[{store, ready_at, arrival_at, pickup_at, pickup_at_local}]`.
  /// - `passed_over`: `[{store_id, code, distance_m, message}]`.
  /// - `earliest`: `{store_id, distance_m, pickup_at, pickup_at_local}` when nothing is assigned
  ///   and a store could serve later, else `null`.
  /// - `service`: the service whose hours the plan went by, or `null` for the stores' own.
  /// - `state_version`: the version of the stores' state the plan read (0: none).
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["status"] = .string(status.rawValue)
    object["store"] = assignment.map { .object($0.store.jsonObject) } ?? .null
    object["ready_at"] = .string(readyAt.description)
    object["arrival_at"] = assignment.map { .string($0.arrivalAt.description) } ?? .null
    object["pickup_at"] = assignment.map { .string($0.pickupAt.description) } ?? .null
    object["pickup_at_local"] = assignment.map { .string($0.localTime($0.pickupAt)) } ?? .null
    var travelObject = JSONObject()
    travelObject["mode"] = .string(travel.name)
    travelObject["speed_kmh"] = JSONValue((travel.metersPerSecond * 3.6 * 1000).rounded() / 1000)
    travelObject["detour_factor"] = JSONValue(TravelMode.detourFactor)
    travelObject["duration_s"] = assignment.map { JSONValue(Int($0.travelSeconds)) } ?? .null
    travelObject["max_duration_s"] = JSONValue(Int(maximumTravel))
    object["travel"] = .object(travelObject)
    object["close_buffer_s"] = JSONValue(Int(closeBuffer))
    object["warnings"] = .array(warnings.map { .object($0.jsonObject) })
    object["alternatives"] = .array(alternatives.map { .object($0.jsonObject) })
    object["passed_over"] = .array(passedOver.map { .object($0.jsonObject) })
    if let earliest {
      var member = JSONObject()
      member["store_id"] = .string(earliest.store.store.id)
      member["distance_m"] = earliest.store.distance.map { JSONValue(meters: $0.meters) } ?? .null
      member["pickup_at"] = .string(earliest.pickupAt.description)
      member["pickup_at_local"] = .string(earliest.localTime(earliest.pickupAt))
      object["earliest"] = .object(member)
    } else {
      object["earliest"] = .null
    }
    object["service"] = service.map(JSONValue.string) ?? .null
    object["state_version"] = JSONValue(Int(stateVersion))
    object["slot"] = assignment?.slot.map { .object($0.jsonObject) } ?? .null
    object["reservation"] = reservation.map { .object($0.jsonObject(at: orderedAt)) } ?? .null
    return object
  }
}

extension PickupOption {
  /// `{store, ready_at, arrival_at, pickup_at, pickup_at_local}`, as `alternatives` lists them.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["store"] = .object(store.jsonObject)
    object["ready_at"] = .string(readyAt.description)
    object["arrival_at"] = .string(arrivalAt.description)
    object["pickup_at"] = .string(pickupAt.description)
    object["pickup_at_local"] = .string(localTime(pickupAt))
    object["slot"] = slot.map { .object($0.jsonObject) } ?? .null
    return object
  }
}

extension PickupNotice {
  /// `{code, store_id, message}`; `store_id` is `null` for warnings about the plan as a whole.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["code"] = .string(code.rawValue)
    object["store_id"] = storeID.map(JSONValue.string) ?? .null
    object["message"] = .string(message)
    return object
  }
}

extension PassedOverStore {
  /// `{store_id, code, distance_m, message}`.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["store_id"] = .string(storeID)
    object["code"] = .string(reason.rawValue)
    object["distance_m"] = distance.map { JSONValue(meters: $0.meters) } ?? .null
    object["message"] = .string(message)
    return object
  }
}

// The same objects written straight into bytes, the stores from their rows (`StoreMatch.writeJSON`):
// the bytes of `JSONValue.object(jsonObject).jsonText`, without a `Store`, a `JSONValue` tree or a
// dictionary per store (a test holds the two equal on many plans).

extension PickupPlan {
  /// Appends the text of `jsonObject` to `output`.
  func writeJSON(to output: inout JSONBytes) {
    func text(_ value: String?) {
      if let value { output.appendString(value) } else { output.append(ascii: "null") }
    }
    output.append(UInt8(ascii: "{"))
    output.appendKey("status", first: true)
    output.appendString(status.rawValue)
    output.appendKey("store")
    if let assignment { assignment.store.writeJSON(to: &output) } else { output.append(ascii: "null") }
    output.appendKey("ready_at")
    output.appendString(readyAt.description)
    output.appendKey("arrival_at")
    text(assignment?.arrivalAt.description)
    output.appendKey("pickup_at")
    text(assignment?.pickupAt.description)
    output.appendKey("pickup_at_local")
    text(assignment.map { $0.localTime($0.pickupAt) })
    output.appendKey("travel")
    output.append(UInt8(ascii: "{"))
    output.appendKey("mode", first: true)
    output.appendString(travel.name)
    output.appendKey("speed_kmh")
    output.append(JSONValue((travel.metersPerSecond * 3.6 * 1000).rounded() / 1000))
    output.appendKey("detour_factor")
    output.append(JSONValue(TravelMode.detourFactor))
    output.appendKey("duration_s")
    output.append(assignment.map { JSONValue(Int($0.travelSeconds)) } ?? .null)
    output.appendKey("max_duration_s")
    output.append(JSONValue(Int(maximumTravel)))
    output.append(UInt8(ascii: "}"))
    output.appendKey("close_buffer_s")
    output.append(JSONValue(Int(closeBuffer)))
    output.appendKey("warnings")
    Self.writeArray(warnings, to: &output) { $0.writeJSON(to: &$1) }
    output.appendKey("alternatives")
    Self.writeArray(alternatives, to: &output) { $0.writeJSON(to: &$1) }
    output.appendKey("passed_over")
    Self.writeArray(passedOver, to: &output) { $0.writeJSON(to: &$1) }
    output.appendKey("earliest")
    if let earliest {
      output.append(UInt8(ascii: "{"))
      output.appendKey("store_id", first: true)
      output.appendString(earliest.store.id)
      output.appendKey("distance_m")
      output.append(earliest.store.distance.map { JSONValue(meters: $0.meters) } ?? .null)
      output.appendKey("pickup_at")
      output.appendString(earliest.pickupAt.description)
      output.appendKey("pickup_at_local")
      output.appendString(earliest.localTime(earliest.pickupAt))
      output.append(UInt8(ascii: "}"))
    } else {
      output.append(ascii: "null")
    }
    output.appendKey("service")
    output.append(service.map(JSONValue.string) ?? .null)
    output.appendKey("state_version")
    output.append(JSONValue(Int(stateVersion)))
    // Rare members, written through the tree.
    output.appendKey("slot")
    output.append(assignment?.slot.map { .object($0.jsonObject) } ?? .null)
    output.appendKey("reservation")
    output.append(reservation.map { .object($0.jsonObject(at: orderedAt)) } ?? .null)
    output.append(UInt8(ascii: "}"))
  }

  private static func writeArray<Element>(
    _ elements: [Element], to output: inout JSONBytes, _ write: (Element, inout JSONBytes) -> Void
  ) {
    output.append(UInt8(ascii: "["))
    for (offset, element) in elements.enumerated() {
      if offset > 0 { output.append(UInt8(ascii: ",")) }
      write(element, &output)
    }
    output.append(UInt8(ascii: "]"))
  }
}

extension PickupOption {
  /// Appends the text of `jsonObject` to `output`.
  func writeJSON(to output: inout JSONBytes) {
    output.append(UInt8(ascii: "{"))
    output.appendKey("store", first: true)
    store.writeJSON(to: &output)
    output.appendKey("ready_at")
    output.appendString(readyAt.description)
    output.appendKey("arrival_at")
    output.appendString(arrivalAt.description)
    output.appendKey("pickup_at")
    output.appendString(pickupAt.description)
    output.appendKey("pickup_at_local")
    output.appendString(localTime(pickupAt))
    output.appendKey("slot")
    output.append(slot.map { .object($0.jsonObject) } ?? .null)
    output.append(UInt8(ascii: "}"))
  }
}

extension PickupNotice {
  /// Appends the text of `jsonObject` to `output`.
  func writeJSON(to output: inout JSONBytes) {
    output.append(UInt8(ascii: "{"))
    output.appendKey("code", first: true)
    output.appendString(code.rawValue)
    output.appendKey("store_id")
    if let storeID { output.appendString(storeID) } else { output.append(ascii: "null") }
    output.appendKey("message")
    output.appendString(message)
    output.append(UInt8(ascii: "}"))
  }
}

extension PassedOverStore {
  /// Appends the text of `jsonObject` to `output`.
  func writeJSON(to output: inout JSONBytes) {
    output.append(UInt8(ascii: "{"))
    output.appendKey("store_id", first: true)
    output.appendString(storeID)
    output.appendKey("code")
    output.appendString(reason.rawValue)
    output.appendKey("distance_m")
    output.append(distance.map { JSONValue(meters: $0.meters) } ?? .null)
    output.appendKey("message")
    output.appendString(message)
    output.append(UInt8(ascii: "}"))
  }
}
