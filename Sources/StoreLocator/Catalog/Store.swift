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
  /// Set when the store's public holidays were not (all) in its data but inferred from its
  /// location: its country (no `addr:country`) or region (no `addr:state`). Only stores whose
  /// hours name holidays (`PH`, `SH`) get them.
  public internal(set) var inferredHolidays: InferredHolidays?
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

  public var name: String? { Self.name(in: properties) }
  public var brand: String? { self[property: "brand"] }
  public var phone: String? { self[property: "phone"] }
  public var website: String? { self[property: "website"] }
  /// The `opening_hours` expression as written (evaluation comes with the opening-hours engine).
  public var openingHours: String? { self[property: "opening_hours"] }

  /// One line a person can read: `addr:full`, else the street address, city, state and postcode
  /// joined, else an `address` or `full_address` property.
  ///
  /// Each `addr:*` key absent or empty is read in ogr2ogr's spelling (`addr_street`) when that has
  /// a value; `address` and `full_address` only when no address key of either spelling has one.
  public var address: String? {
    var unused: PropertyAliases = []
    return Self.address(in: properties, aliasesRead: &unused)
  }

  /// The `addr:country` property (else `addr_country`): the country whose public holidays `PH`
  /// means, and a hint for inferring the time zone.
  public var country: String? {
    var unused: PropertyAliases = []
    return Self.addressValue(Self.countryPosition, in: properties, aliasesRead: &unused)
  }

  /// The `addr:state` property (else `addr_state`): the region of the country's holidays.
  public var region: String? {
    var unused: PropertyAliases = []
    return Self.addressValue(Self.statePosition, in: properties, aliasesRead: &unused)
  }

  /// The country whose public holidays `PH` means: `addr:country`, else the one inferred from
  /// the location (`inferredHolidays`).
  public var holidayCountry: String? { InferredHolidays.country(given: country, inferred: inferredHolidays) }

  /// The region of the country's holidays: `addr:state`, else the one inferred from the location.
  public var holidayRegion: String? { InferredHolidays.region(given: region, inferred: inferredHolidays) }

  /// The name of a store with `properties` (the rule of `name`): `name`, else `branch`, else `brand`.
  static func name(in properties: JSONObject) -> String? {
    properties["name"]?.scalarText ?? properties["branch"]?.scalarText ?? properties["brand"]?.scalarText
  }

  /// The All The Places address keys, in the order `address` reads them; `addr:country` follows
  /// the keys of the address line.
  static let addressKeys = [
    "addr:full", "addr:street_address", "addr:housenumber", "addr:street", "addr:city", "addr:state",
    "addr:postcode", "addr:country",
  ]
  static let statePosition = 5
  static let countryPosition = 7

  /// The address line of `properties` (the rule of `address`), adding to `aliasesRead` every
  /// alias it was read through: the one place that rule is written, so the loader's
  /// `property-alias` notes name exactly the keys the answers use.
  static func address(in properties: JSONObject, aliasesRead: inout PropertyAliases) -> String? {
    address(in: AddressMembers(properties), aliasesRead: &aliasesRead)
  }

  /// `address(in:aliasesRead:)` of the properties `members` found.
  static func address(in members: AddressMembers, aliasesRead: inout PropertyAliases) -> String? {
    func value(_ position: Int) -> String? {
      addressValue(position, in: members, aliasesRead: &aliasesRead)
    }
    /// Both with `separator` between them, or the one there is (the values are never empty).
    func joined(_ first: String?, _ second: String?, _ separator: String) -> String? {
      guard let first else { return second }
      guard let second else { return first }
      return first + separator + second
    }
    if let full = value(0) { return full }
    // Read in this order: the street address, else the house number and street; the city; the
    // state and postcode.
    let street = value(1) ?? joined(value(2), value(3), " ")
    let city = value(4)
    let statePostcode = joined(value(5), value(6), " ")
    if let line = joined(joined(street, city, ", "), statePostcode, ", ") { return line }
    for position in PropertyAliases.wholeAddressKeys.indices {
      if let whole = nonEmpty(members.whole(position)) {
        aliasesRead.insert(.wholeAddress(position))
        return whole
      }
    }
    return nil
  }

  /// `addressKeys[position]`, else its ogr2ogr spelling (then added to `aliasesRead`), when
  /// either has a value.
  static func addressValue(_ position: Int, in properties: JSONObject, aliasesRead: inout PropertyAliases)
    -> String?
  {
    addressValue(position, in: AddressMembers(properties), aliasesRead: &aliasesRead)
  }

  /// `addressValue(_:in:aliasesRead:)` of the properties `members` found.
  static func addressValue(_ position: Int, in members: AddressMembers, aliasesRead: inout PropertyAliases)
    -> String?
  {
    if let own = nonEmpty(members.own(position)) { return own }
    guard let alias = nonEmpty(members.alias(position)) else { return nil }
    aliasesRead.insert(.underscore(position))
    return alias
  }

  private func nonEmpty(_ key: String) -> String? { Self.nonEmpty(properties[key]) }

  /// The value as text with whitespace runs made one space, or `nil` when there is none.
  private static func nonEmpty(_ value: JSONValue?) -> String? {
    guard let text = value?.scalarText?.trimmingWhitespaceAndNewlines, !text.isEmpty else { return nil }
    return text
  }
}

extension String {
  /// Whitespace runs (including the newlines some directories embed in addresses) become one space.
  var trimmingWhitespaceAndNewlines: String {
    if isTrimmed { return self }
    return split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// No whitespace but single spaces between words: already trimmed. (Splitting into Characters
  /// was an eighth of loading a file, for values that nearly all look like this.)
  ///
  /// Decided on the bytes: control characters, UTF-8 sequences led by C2, E1, E2 or E3 (the only
  /// ones that can encode non-ASCII whitespace: U+0085, U+00A0, U+1680, U+2000-U+205F, U+3000),
  /// and a space followed by a non-ASCII byte (which may be a combining mark that makes the space
  /// part of another character) are left to the slow path.
  var isTrimmed: Bool {
    var afterSpace = false
    var isFirst = true
    for byte in utf8 {
      if byte < 0x20 || byte == 0x7F { return false }
      if byte == UInt8(ascii: " ") {
        if afterSpace || isFirst { return false }
        afterSpace = true
      } else {
        if byte >= 0x80, afterSpace || byte == 0xC2 || (0xE1...0xE3).contains(byte) { return false }
        afterSpace = false
      }
      isFirst = false
    }
    return !afterSpace
  }
}
