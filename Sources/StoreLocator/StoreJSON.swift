import GeoIndex

// The JSON shapes of stores that every output shares (the CLI's json/ndjson/geojson formats and,
// later, the HTTP API and pickup results), documented in the README.

extension StoreMatch {
  /// The store as a JSON object: `id`, `name`, `brand`, `address`, `latitude`, `longitude`,
  /// `distance_m`, `timezone`, `opening_hours`, `phone`, `website`, and the original `properties`.
  ///
  /// Members that a store lacks are `null`, so every object has the same members.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
    object["id"] = .string(store.id)
    object["name"] = text(store.name)
    object["brand"] = text(store.brand)
    object["address"] = text(store.address)
    object["latitude"] = store.coordinate.map { .number($0.latitude) } ?? .null
    object["longitude"] = store.coordinate.map { .number($0.longitude) } ?? .null
    object["distance_m"] = distance.map { .number(($0.meters * 1000).rounded() / 1000) } ?? .null
    object["timezone"] = text(store.timezone)
    object["opening_hours"] = text(store.openingHours)
    object["phone"] = text(store.phone)
    object["website"] = text(store.website)
    object["properties"] = .object(store.properties)
    return object
  }

  /// The store as a GeoJSON Feature: its original properties plus `distance_m` when there is a
  /// query point; a store without a location has `null` geometry.
  public var geoJSONFeature: JSONObject {
    var properties = store.properties
    if let distance { properties["distance_m"] = .number((distance.meters * 1000).rounded() / 1000) }
    var feature = JSONObject()
    feature["type"] = .string("Feature")
    feature["id"] = .string(store.id)
    if let coordinate = store.coordinate {
      var geometry = JSONObject()
      geometry["type"] = .string("Point")
      geometry["coordinates"] = .array([.number(coordinate.longitude), .number(coordinate.latitude)])
      feature["geometry"] = .object(geometry)
    } else {
      feature["geometry"] = .null
    }
    feature["properties"] = .object(properties)
    return feature
  }
}

extension Diagnostic {
  /// The diagnostic as a JSON object: `code`, `severity`, `feature_index`, `line`, `column`,
  /// `store_id`, `message`.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["code"] = .string(code.rawValue)
    object["severity"] = .string(severity.rawValue)
    object["feature_index"] = position.map { .number(Double($0.featureIndex)) } ?? .null
    object["line"] = position.map { .number(Double($0.line)) } ?? .null
    object["column"] = position.map { .number(Double($0.column)) } ?? .null
    object["store_id"] = storeID.map(JSONValue.string) ?? .null
    object["message"] = .string(message)
    return object
  }
}
