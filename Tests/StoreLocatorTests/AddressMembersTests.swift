import Testing

@testable import StoreLocator

/// `Store.address`, `country` and `region` find the address keys in one pass
/// (`AddressMembers`); they must read what looking each key up reads: the first member of a key
/// (byte for byte), its `addr_*` spelling only when the `addr:*` one is absent or empty, and
/// `address` or `full_address` only when no address key of either spelling has a value.
struct AddressMembersTests {
  static func nonEmpty(_ value: JSONValue?) -> String? {
    guard let text = value?.scalarText?.trimmingWhitespaceAndNewlines, !text.isEmpty else { return nil }
    return text
  }

  /// `Store.addressKeys[position]`, else its `addr_*` spelling, looked up one key at a time.
  static func value(_ position: Int, _ properties: JSONObject, _ aliases: inout PropertyAliases) -> String? {
    if let own = nonEmpty(properties[Store.addressKeys[position]]) { return own }
    guard let alias = nonEmpty(properties[PropertyAliases.underscoreKeys[position].alias]) else { return nil }
    aliases.insert(.underscore(position))
    return alias
  }

  /// The address line as the rule was written before, one lookup a key and arrays joined.
  static func address(_ properties: JSONObject, _ aliases: inout PropertyAliases) -> String? {
    func value(_ position: Int) -> String? { Self.value(position, properties, &aliases) }
    if let full = value(0) { return full }
    let street = value(1) ?? [value(2), value(3)].compactMap { $0 }.joined(separator: " ")
    let locality = [value(4), [value(5), value(6)].compactMap { $0 }.joined(separator: " ")]
      .compactMap { $0 }.filter { !$0.isEmpty }
    let parts = ([street] + locality).filter { !$0.isEmpty }
    if !parts.isEmpty { return parts.joined(separator: ", ") }
    for (position, key) in PropertyAliases.wholeAddressKeys.enumerated() {
      if let whole = nonEmpty(properties[key]) {
        aliases.insert(.wholeAddress(position))
        return whole
      }
    }
    return nil
  }

  @Test func oneLookAtTheKeysReadsWhatALookupAKeyReads() {
    // The keys, keys that nearly are (a prefix, a suffix, another separator, a decomposed
    // accent), and others.
    let keys =
      Store.addressKeys + PropertyAliases.underscoreKeys.map(\.alias) + PropertyAliases.wholeAddressKeys + [
        "addr:", "addr:cit", "addr:cityx", "addr-city", "address:city", "full_addres", "name", "amenity",
        "addr:stre\u{0301}et", "addr:city\u{0301}",
      ]
    let values: [JSONValue] = [
      .string("Main Street"), .string(""), .string("  "), .string(" Köln\n Nord "), .number("12"), .null,
      .bool(true), .array([.string("x")]), .string("CO"), .string("de"),
    ]
    var state: UInt64 = 99
    func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
    var lines = Set<String>()
    for _ in 0..<20_000 {
      // Keys repeat at times: the first member of a key is the one read.
      let members = (0..<next(12)).map { _ in
        JSONObject.Member(key: keys[next(keys.count)], value: values[next(values.count)])
      }
      let properties = JSONObject(members)
      var aliases: PropertyAliases = []
      var expectedAliases: PropertyAliases = []
      let line = Store.address(in: properties, aliasesRead: &aliases)
      #expect(line == Self.address(properties, &expectedAliases), "\(members)")
      #expect(aliases == expectedAliases, "\(members)")
      if let line { lines.insert(line) }
      for position in [Store.countryPosition, Store.statePosition] {
        var read: PropertyAliases = []
        var expected: PropertyAliases = []
        #expect(
          Store.addressValue(position, in: properties, aliasesRead: &read)
            == Self.value(position, properties, &expected), "\(members)")
        #expect(read == expected)
      }
    }
    // Lines of every shape came out: whole addresses, composed ones, trimmed values.
    #expect(lines.contains("Main Street") && lines.contains("Köln Nord") && lines.count > 100)
  }
}
