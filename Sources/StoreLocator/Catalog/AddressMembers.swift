/// Where a store's address properties are among its properties, found in one pass over the keys:
/// each `addr:*` key of `Store.addressKeys`, its ogr2ogr spelling (`addr_*`), and `address` and
/// `full_address`.
///
/// `Store.address` reads up to eighteen keys, and looking each up went through every property,
/// absent keys and aliases included: a fifth of a reading thread's time on a chain's file.
struct AddressMembers {
  /// Per key, the position of its first member plus one (0: absent): the `addr:*` keys in the
  /// order of `Store.addressKeys`, then their `addr_*` spellings, then `address`, `full_address`.
  /// A tuple, not an `InlineArray`, whose metadata was looked up at run time on every use.
  private var positions:
    (
      UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
      UInt32, UInt32, UInt32, UInt32, UInt32
    ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
  private let properties: JSONObject

  init(_ properties: JSONObject) {
    self.properties = properties
    withUnsafeMutableBytes(of: &positions) { raw in
      let positions = raw.bindMemory(to: UInt32.self)
      for (index, member) in properties.members.enumerated() {
        var key = member.key
        guard let slot = key.withUTF8(Self.slot), positions[slot] == 0 else { continue }
        positions[slot] = UInt32(truncatingIfNeeded: index + 1)
      }
    }
  }

  /// The value of `Store.addressKeys[position]`, if present.
  func own(_ position: Int) -> JSONValue? { value(at: position) }

  /// The value of the ogr2ogr spelling of `Store.addressKeys[position]`, if present.
  func alias(_ position: Int) -> JSONValue? { value(at: 8 + position) }

  /// The value of `PropertyAliases.wholeAddressKeys[position]`, if present.
  func whole(_ position: Int) -> JSONValue? { value(at: 16 + position) }

  private func value(at slot: Int) -> JSONValue? {
    let position = withUnsafeBytes(of: positions) { $0.load(fromByteOffset: slot * 4, as: UInt32.self) }
    return position == 0 ? nil : properties[Int(position) - 1].value
  }

  /// The bytes after `addr:` of each address key.
  private static let suffixes: [[UInt8]] = Store.addressKeys.map { Array($0.utf8.dropFirst(5)) }
  private static let wholeKeys: [[UInt8]] = PropertyAliases.wholeAddressKeys.map { Array($0.utf8) }

  /// The slot of a key, or `nil` when it is none of these.
  private static func slot(_ key: UnsafeBufferPointer<UInt8>) -> Int? {
    guard key.count >= 6, key[0] == UInt8(ascii: "a") || key[0] == UInt8(ascii: "f") else { return nil }
    if key[0] == UInt8(ascii: "a"), key[1] == UInt8(ascii: "d"), key[2] == UInt8(ascii: "d"),
      key[3] == UInt8(ascii: "r"), key[4] == UInt8(ascii: ":") || key[4] == UInt8(ascii: "_")
    {
      let suffix = UnsafeBufferPointer(rebasing: key[5...])
      for (position, name) in suffixes.enumerated() where name.count == suffix.count {
        if name.elementsEqual(suffix) { return (key[4] == UInt8(ascii: ":") ? 0 : 8) + position }
      }
      return nil
    }
    for (position, name) in wholeKeys.enumerated() where name.count == key.count {
      if name.elementsEqual(key) { return 16 + position }
    }
    return nil
  }
}
