import GeoIndex
import OpeningHours

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
    object["latitude"] = store.coordinate.map { JSONValue($0.latitude) } ?? .null
    object["longitude"] = store.coordinate.map { JSONValue($0.longitude) } ?? .null
    object["distance_m"] = distance.map { JSONValue(meters: $0.meters) } ?? .null
    object["timezone"] = text(store.timezone)
    object["opening_hours"] = text(store.openingHours)
    if let status {
      object["state"] = .string(status.state.rawValue)
      object["comment"] = text(status.status.comment)
      object["next_change"] = status.nextChange.map { .string(status.formatted($0)) } ?? .null
      object["status_text"] = .string(status.summary)
    }
    object["phone"] = text(store.phone)
    object["website"] = text(store.website)
    object["properties"] = .object(store.properties)
    return object
  }

  /// The store as a GeoJSON Feature: its original properties plus `distance_m` when there is a
  /// query point; a store without a location has `null` geometry.
  public var geoJSONFeature: JSONObject {
    var properties = store.properties
    if let distance { properties["distance_m"] = JSONValue(meters: distance.meters) }
    var feature = JSONObject()
    feature["type"] = .string("Feature")
    feature["id"] = .string(store.id)
    if let coordinate = store.coordinate {
      var geometry = JSONObject()
      geometry["type"] = .string("Point")
      geometry["coordinates"] = .array([JSONValue(coordinate.longitude), JSONValue(coordinate.latitude)])
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
    object["feature_index"] = position.map { JSONValue($0.featureIndex) } ?? .null
    object["line"] = position.map { JSONValue($0.line) } ?? .null
    object["column"] = position.map { JSONValue($0.column) } ?? .null
    object["store_id"] = storeID.map(JSONValue.string) ?? .null
    object["message"] = .string(message)
    return object
  }
}

extension CatalogSummary {
  /// The summary as `stores info --format json` writes it: `source`, `records`, `indexed`,
  /// `snapshot` (its path, or null), `bounds` ([W, S, E, N] or null), `timezones` and `brands` (name → count), the counts of
  /// stores without either, `stores_with_opening_hours`, `stores_with_schedule`,
  /// `stores_with_invalid_hours`, `stores_with_tolerated_hours`, `stores_with_inferred_timezone`,
  /// `errors`, `warnings`, `notes`, `diagnostic_codes` (code → count) and `diagnostic_groups`
  /// (an array of `{code, severity, count}`, errors first).
  public var jsonObject: JSONObject {
    func tallies(_ list: [Tally]) -> JSONValue {
      .object(JSONObject(list.map { JSONObject.Member(key: $0.value, value: JSONValue($0.count)) }))
    }
    var object = JSONObject()
    object["source"] = .string(source)
    object["snapshot"] = snapshotPath.map { .string($0) } ?? .null
    object["records"] = JSONValue(recordCount)
    object["indexed"] = JSONValue(indexedCount)
    object["bounds"] =
      bounds.map { .array([$0.west, $0.south, $0.east, $0.north].map { JSONValue($0) }) } ?? .null
    object["timezones"] = tallies(timezones)
    object["stores_without_timezone"] = JSONValue(storesWithoutTimezone)
    object["brands"] = tallies(brands)
    object["stores_without_brand"] = JSONValue(storesWithoutBrand)
    object["stores_with_opening_hours"] = JSONValue(storesWithOpeningHours)
    object["stores_with_schedule"] = JSONValue(storesWithSchedule)
    object["stores_with_invalid_hours"] = JSONValue(storesWithInvalidHours)
    object["stores_with_tolerated_hours"] = JSONValue(storesWithToleratedHours)
    object["stores_with_inferred_timezone"] = JSONValue(storesWithInferredTimezone)
    object["errors"] = JSONValue(errorCount)
    object["warnings"] = JSONValue(warningCount)
    object["notes"] = JSONValue(noteCount)
    object["diagnostic_codes"] = tallies(diagnosticCodes)
    object["diagnostic_groups"] = .array(diagnosticGroups.map { .object($0.jsonObject) })
    return object
  }
}

extension Coordinate {
  /// `{"latitude": …, "longitude": …}`.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["latitude"] = JSONValue(latitude)
    object["longitude"] = JSONValue(longitude)
    return object
  }
}
