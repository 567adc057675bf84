/// Property names that files not written by All The Places use for what its schema calls
/// otherwise: ogr2ogr turns `addr:street` into `addr_street` (shapefile and database columns
/// cannot hold ':'), OpenStreetMap exports carry `osm_id`, and simple exports have one `address`
/// or `full_address` for the whole address.
///
/// An alias is read only when the schema's own key is absent or empty, so a file in the All The
/// Places schema reads exactly as before; the properties themselves stay as they came. The loader
/// reports, once per file, which aliases it read (`property-alias`, docs/diagnostics.md).
struct PropertyAliases: OptionSet, Hashable, Sendable {
  let rawValue: UInt32

  // The id, from a property (only when the Feature has no `id` and no `ref`).
  static let idProperty = PropertyAliases(rawValue: 1 << 0)
  static let atIDProperty = PropertyAliases(rawValue: 1 << 1)
  static let osmID = PropertyAliases(rawValue: 1 << 2)

  /// The ogr2ogr spellings of the address keys, in the order of `Store.addressKeys`.
  static let underscoreKeys: [(alias: String, key: String)] = Store.addressKeys.map { key in
    (String(key.map { $0 == ":" ? "_" : $0 }), key)
  }
  /// `address`, then `full_address`: one property with the whole address.
  static let wholeAddressKeys = ["address", "full_address"]

  /// The bit of the ogr2ogr spelling of `Store.addressKeys[position]`.
  static func underscore(_ position: Int) -> PropertyAliases {
    PropertyAliases(rawValue: 1 << (8 + position))
  }
  /// The bit of `wholeAddressKeys[position]`.
  static func wholeAddress(_ position: Int) -> PropertyAliases {
    PropertyAliases(rawValue: 1 << (24 + position))
  }

  /// The address aliases a store's properties are read through: those `Store.address`,
  /// `country` and `region` read (an `addr_*` key whose `addr:*` key is absent or empty, and
  /// `address`, else `full_address`, when no address key of either spelling has a value).
  ///
  /// - Complexity: O(m) in the number of properties, one or two byte comparisons a key; the
  ///   address is read only when an alias key is present.
  static func addressAliases(in properties: JSONObject) -> PropertyAliases {
    // A first pass that looks at bytes only: in a file of the All The Places schema no key passes
    // it, so the cost per record is a byte or two a key.
    guard properties.members.contains(where: { isCandidate($0.key) }) else { return [] }
    var found: PropertyAliases = []
    let members = AddressMembers(properties)
    _ = Store.address(in: members, aliasesRead: &found)
    _ = Store.addressValue(Store.statePosition, in: members, aliasesRead: &found)
    _ = Store.addressValue(Store.countryPosition, in: members, aliasesRead: &found)
    return found
  }

  /// True for `addr_…`, `address` and `full_address`: keys that may be aliases.
  private static func isCandidate(_ key: String) -> Bool {
    var bytes = key.utf8.makeIterator()
    switch bytes.next() {
    case UInt8(ascii: "a"):
      // `addr_…` or `address`: the fifth byte is '_' or 'e'; `addr:…` and `amenity` are not.
      for _ in 0..<3 { _ = bytes.next() }
      let fifth = bytes.next()
      return fifth == UInt8(ascii: "_") || (fifth == UInt8(ascii: "e") && key == "address")
    case UInt8(ascii: "f"): return key == "full_address"
    default: return false
    }
  }

  /// One `property-alias` note per alias the file's stores were read through, with how many
  /// stores, in the order of the keys (ids first); none for a file in the All The Places schema.
  static func notes(counting aliases: some Sequence<PropertyAliases>) -> [Diagnostic] {
    var counts = [Int](repeating: 0, count: 32)
    for set in aliases where !set.isEmpty {
      for bit in 0..<32 where set.rawValue & (1 << bit) != 0 { counts[bit] += 1 }
    }
    func stores(_ count: Int) -> String { count == 1 ? "1 store" : "\(count) stores" }
    var notes: [Diagnostic] = []
    func note(_ message: String) {
      notes.append(Diagnostic(Diagnostic.Code("property-alias"), .note, at: nil, message))
    }
    for (bit, key, origin) in [
      (0, "id", "as older All The Places exports write it"), (1, "@id", "as Overpass exports write it"),
      (2, "osm_id", "as ogr2ogr writes OpenStreetMap ids"),
    ] where counts[bit] > 0 {
      note(
        "the ids of \(stores(counts[bit])) are their \"\(key)\" property, \(origin): the Features have no "
          + "\"id\" and no \"ref\"")
    }
    let underscored = underscoreKeys.enumerated().filter { counts[8 + $0.offset] > 0 }
    if !underscored.isEmpty {
      let list = underscored.map {
        "\($0.element.alias) for \($0.element.key) (\(stores(counts[8 + $0.offset])))"
      }
      note(
        "address keys were read in ogr2ogr's spelling, with '_' for ':': "
          + list.joined(separator: ", ") + "; the properties are kept as they came")
    }
    for (position, key) in wholeAddressKeys.enumerated() where counts[24 + position] > 0 {
      note(
        "the address of \(stores(counts[24 + position])) is their \"\(key)\" property, as it came: they have "
          + "no addr:* keys (All The Places: addr:full, or addr:street_address, addr:city, …)")
    }
    return notes
  }
}
