/// A `StoreFilter` made ready for one table: each condition's key as the table numbers it and its
/// value as the JSON text the table keeps, so most rows are decided by comparing bytes, without
/// parsing a value or taking a lock. Built once per search; the rest fall back to
/// `Condition.matches(value:)` on the parsed value.
struct RowFilter {
  struct Test {
    let condition: StoreFilter.Condition
    /// `nil` when no store has the key.
    let key: UInt32?
    /// The JSON string literal of the wanted value (`"yes"`), for `=` and `!=`.
    let wantedJSON: [UInt8]
    /// For `yes` and `no`, the other spelling that matches: the JSON of `"true"` or `"false"`.
    let booleanWordJSON: [UInt8]?
    /// The wanted value's UTF-8 when it is printable ASCII that JSON writes unescaped: then a
    /// plain ASCII string is decided on its bytes, `;` lists included. (Outside ASCII, Swift's
    /// `==` is canonical equivalence, which bytes cannot decide: U+212A KELVIN SIGN equals `K`.)
    let wantedASCII: [UInt8]?
    /// `booleanWordJSON` without its quotes: the part of a `;` list that matches too.
    let booleanWord: [UInt8]?
  }

  let tests: [Test]

  init(_ filter: StoreFilter, table: StoreTable) {
    tests = filter.conditions.map { condition in
      var wanted = JSONBytes()
      var word = ""
      switch condition.test {
      case .present: break
      case .equals(let value), .notEquals(let value):
        wanted.appendString(value)
        word = value
      }
      let boolean = word == "yes" ? "\"true\"" : word == "no" ? "\"false\"" : nil
      let isPlainASCII = word.utf8.allSatisfy { (0x20..<0x7F).contains($0) && $0 != 0x22 && $0 != 0x5C }
      return Test(
        condition: condition, key: table.keyNumber(of: condition.key), wantedJSON: wanted.bytes,
        booleanWordJSON: boolean.map { Array($0.utf8) }, wantedASCII: isPlainASCII ? Array(word.utf8) : nil,
        booleanWord: boolean.map { Array($0.utf8.dropFirst().dropLast()) })
    }
  }

  var isEmpty: Bool { tests.isEmpty }

  /// True when the store at `position` meets every condition.
  func matches(_ table: StoreTable, at position: Int) -> Bool {
    tests.allSatisfy { test in
      Self.meets(test, value: test.key.flatMap { table.valueJSON(key: $0, at: position) }, table, position)
    }
  }

  /// Whether the store at `position`, whose value of the test's key is `value` (`nil`: it has
  /// none), meets `test`. The answer depends on the value alone.
  static func meets(
    _ test: Test, value: UnsafeRawBufferPointer?, _ table: StoreTable, _ position: Int
  ) -> Bool {
    switch test.condition.test {
    case .present: isPresent(value, test, table, position)
    case .equals: holds(value, test, table, position)
    case .notEquals: !holds(value, test, table, position)
    }
  }

  private static func isPresent(
    _ value: UnsafeRawBufferPointer?, _ test: Test, _ table: StoreTable, _ position: Int
  ) -> Bool {
    guard let value, let first = value.first else { return false }
    switch first {
    case UInt8(ascii: "\""):
      // An empty string, "no" and "false" are absent; any other string is present.
      return !(equal(value, "\"\"") || equal(value, "\"no\"") || equal(value, "\"false\""))
    case UInt8(ascii: "t"): return true
    case UInt8(ascii: "f"), UInt8(ascii: "n"): return false
    default: return true
    }
  }

  /// Whether the value is (or lists) the wanted one: decided on the bytes for a plain string,
  /// else by the parsed value.
  private static func holds(
    _ value: UnsafeRawBufferPointer?, _ test: Test, _ table: StoreTable, _ position: Int
  )
    -> Bool
  {
    guard let value else { return false }
    if value.elementsEqual(test.wantedJSON) { return true }
    if let wanted = test.wantedASCII, value.count >= 2, value.first == UInt8(ascii: "\""),
      value.allSatisfy({ $0 < 0x80 && $0 != UInt8(ascii: "\\") })
    {
      // A plain ASCII string other than the wanted one: only `"true"` for `yes` (`"false"` for
      // `no`), or a `;` list with the wanted value (or that word) as one of its parts.
      if test.booleanWordJSON.map({ value.elementsEqual($0) }) == true { return true }
      let content = UnsafeRawBufferPointer(rebasing: value[1..<value.count - 1])
      guard content.contains(UInt8(ascii: ";")) else { return false }
      return content.split(separator: UInt8(ascii: ";")).contains { part in
        let words = part.split(whereSeparator: { $0 == 0x20 || (0x09...0x0D).contains($0) })
        let normalized = Array(words.joined(separator: [0x20]))
        return normalized == wanted || normalized == test.booleanWord
      }
    }
    // Lists, escapes and non-strings: the parsed value, by the rule of `Condition.matches`.
    guard let parsed = table.value(test.condition.key, at: position) else { return false }
    switch test.condition.test {
    case .equals(let wanted), .notEquals(let wanted): return StoreFilter.Condition.holds(parsed, wanted)
    case .present: return false
    }
  }

  private static func equal(_ value: UnsafeRawBufferPointer, _ text: StaticString) -> Bool {
    text.withUTF8Buffer { value.elementsEqual($0) }
  }
}
