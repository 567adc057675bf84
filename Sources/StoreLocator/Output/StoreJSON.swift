import GeoIndex
import OpeningHours

// The JSON shapes of stores that every output shares (the CLI's json/ndjson/geojson formats and,
// later, the HTTP API and pickup results), documented in the README.

extension StoreMatch {
  /// The members of every store, in the order every format writes them: the JSON and NDJSON
  /// objects, the `properties` of each GeoJSON feature and the CSV columns all carry exactly these
  /// (the README's JSON example lists the same).
  ///
  /// One list, so no format can fall behind when a member is added.
  public static let memberNames = StoreMember.allCases.map { "\($0.key)" }

  /// The store as a JSON object with the members of `memberNames`: `id`, `name`, `brand`,
  /// `address`, `latitude`, `longitude`, `distance_m`, `timezone`, `opening_hours`, the open state
  /// at the query's time (`state`, `comment`, `next_change`, `status_text`), whether it takes
  /// orders then (`ordering`: `open` or `paused`, and `ordering_note`), `phone`, `website`, and
  /// the original `properties`.
  ///
  /// Members that a store lacks are `null` (the open-state members too, when no status was
  /// computed), so every object has the same members.
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
    object["state"] = text(status?.state.rawValue)
    object["comment"] = text(status?.status.comment)
    object["next_change"] = text(status.flatMap { status in status.nextChange.map(status.formatted) })
    object["status_text"] = text(status?.summary)
    object["ordering"] = .string(ordering.name)
    object["ordering_note"] = text(ordering.note)
    object["phone"] = text(store.phone)
    object["website"] = text(store.website)
    object["properties"] = .object(store.properties)
    return object
  }

  /// The store as a GeoJSON Feature: its id, a Point geometry (`null` for a store without a
  /// location), and the store object of `jsonObject` as its `properties`.
  ///
  /// The record's own properties stay nested under `properties` rather than spread beside the
  /// members: files such as ogr2ogr exports have their own `id`, `address` or `state` keys, and a
  /// GIS tool must not see `"state": "open"` where the file said `"state": "CA"`.
  public var geoJSONFeature: JSONObject {
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
    feature["properties"] = .object(jsonObject)
    return feature
  }

  /// `matches` as a GeoJSON FeatureCollection, one feature a line, with the `query` object as a
  /// foreign member when there is one.
  /// Each feature's `properties` has the members of `fields`.
  public static func geoJSONText(_ matches: [StoreMatch], query: JSONObject?, fields: StoreFields = .all)
    -> String
  {
    String(decoding: geoJSONUTF8(matches, query: query, fields: fields), as: UTF8.self)
  }

  /// `geoJSONText(_:query:fields:)` as UTF-8 bytes.
  public static func geoJSONUTF8(_ matches: [StoreMatch], query: JSONObject?, fields: StoreFields = .all)
    -> [UInt8]
  {
    // One feature a line keeps big results readable and diffable.
    var output = JSONBytes(capacity: 1024 + matches.count * 1200)
    output.append(ascii: "{\"type\":\"FeatureCollection\"")
    if let query {
      output.appendKey("query")
      output.append(query)
    }
    fields.write(to: &output)
    output.append(ascii: ",\"features\":[")
    for (position, match) in matches.enumerated() {
      output.append(ascii: position == 0 ? "\n" : ",\n")
      match.writeGeoJSONFeature(to: &output, fields: fields)
    }
    output.append(ascii: "\n]}\n")
    return output.bytes
  }

  /// `matches` as RFC 4180 CSV: a header row of the names of `fields` (`memberNames` by
  /// default), then a row a store.
  ///
  /// Scalars are written as JSON writes them (numbers exactly, `null` as an empty field, booleans
  /// as `true`/`false`); `properties` is the record's properties as one JSON text.
  /// - Complexity: O(total size of the stores' members).
  public static func csvText(_ matches: [StoreMatch], fields: StoreFields = .all) -> String {
    let names = fields.names
    var text = names.joined(separator: ",") + "\r\n"
    for match in matches {
      let object = match.jsonObject
      let fields = names.map { name -> String in
        switch object[name] {
        case .string(let value): return csvField(value)
        case .number(let literal): return literal
        case .bool(let value): return value ? "true" : "false"
        case .null, nil: return ""
        case let value?: return csvField(value.jsonText)
        }
      }
      text += fields.joined(separator: ",") + "\r\n"
    }
    return text
  }

  /// RFC 4180: quote fields holding a comma, quote, or line break; double the quotes.
  static func csvField(_ value: String) -> String {
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
    return "\"" + value.replacing("\"", with: "\"\"") + "\""
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
  /// `attributes` (an array of `{key, values: {value → count}}`, by key), `errors`, `warnings`,
  /// `notes`, `diagnostic_codes` (code → count) and `diagnostic_groups` (an array of
  /// `{code, severity, count}`, errors first).
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
    object["services"] = .array(
      services.map {
        .object(
          JSONObject([
            .init(key: "service", value: .string($0.value)), .init(key: "stores", value: JSONValue($0.count)),
          ]))
      })
    object["attributes"] = .array(
      attributes.map { attribute in
        var member = JSONObject()
        member["key"] = .string(attribute.key)
        member["values"] = tallies(attribute.values)
        return .object(member)
      })
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
