import GeoIndex

/// Where a store's id came from.
public enum StoreIDSource: String, Hashable, Sendable {
  /// The Feature's `id` member.
  case feature
  /// The `ref` property (All The Places' store reference).
  case ref
  /// An `id` or `@id` property: older All The Places exports and Overpass keep the id there.
  case property
  /// Neither was present; the loader made one up from the feature's position.
  case generated
}

/// One store record as loaded: its id, location and every property it came with.
public struct Store: Hashable, Sendable, Identifiable {
  /// The Feature's `id` (a number kept exactly as written), else `ref`, else an `id` or `@id`
  /// property, else generated.
  public let id: String
  public let idSource: StoreIDSource
  /// Where the store is; `nil` when the record has no usable geometry and is left out of the index.
  public let coordinate: Coordinate?
  /// Every property, in the order and form it came.
  public let properties: JSONObject
  /// IANA time-zone name: the feature's `timezone` property, else the collection's, else the one
  /// inferred from the nearest populated place (then `inferredTimezone` says from where).
  public internal(set) var timezone: String?
  /// Set when `timezone` was not in the data but inferred from the store's location.
  public internal(set) var inferredTimezone: TimeZoneGuess?
  /// Where the feature starts in the input.
  public let position: SourcePosition
  /// The store's position in its catalog's `stores`, set by the catalog that holds it (built from
  /// records or mapped from a snapshot); `nil` for a record made elsewhere.
  ///
  /// Everything the catalog knows about a store (schedule, time zone, status, pickup) follows
  /// this position, never the id: ids repeat in real data.
  public internal(set) var catalogIndex: Int?

  public init(
    id: String, idSource: StoreIDSource, coordinate: Coordinate?, properties: JSONObject,
    timezone: String?, position: SourcePosition
  ) {
    self.id = id
    self.idSource = idSource
    self.coordinate = coordinate
    self.properties = properties
    self.timezone = timezone
    self.position = position
  }

  /// A property as text (strings, numbers as written, booleans), or `nil`.
  public subscript(property key: String) -> String? { properties[key]?.scalarText }

  public var name: String? { self[property: "name"] ?? self[property: "branch"] ?? self[property: "brand"] }
  public var brand: String? { self[property: "brand"] }
  public var phone: String? { self[property: "phone"] }
  public var website: String? { self[property: "website"] }
  /// The `opening_hours` expression as written (evaluation comes with the opening-hours engine).
  public var openingHours: String? { self[property: "opening_hours"] }

  /// One line a person can read: `addr:full`, else the street address, city, state and postcode.
  public var address: String? {
    if let full = nonEmpty("addr:full") { return full }
    let street =
      nonEmpty("addr:street_address")
      ?? [nonEmpty("addr:housenumber"), nonEmpty("addr:street")].compactMap { $0 }.joined(separator: " ")
    let locality = [
      nonEmpty("addr:city"),
      [nonEmpty("addr:state"), nonEmpty("addr:postcode")].compactMap { $0 }.joined(separator: " "),
    ]
    .compactMap { $0 }.filter { !$0.isEmpty }
    let parts = ([street] + locality).filter { !$0.isEmpty }
    return parts.isEmpty ? nil : parts.joined(separator: ", ")
  }

  private func nonEmpty(_ key: String) -> String? {
    guard let text = self[property: key]?.trimmingWhitespaceAndNewlines, !text.isEmpty else { return nil }
    return text
  }
}

extension String {
  /// Whitespace runs (including the newlines some directories embed in addresses) become one space.
  var trimmingWhitespaceAndNewlines: String {
    split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
