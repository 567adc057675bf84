/// Conditions on store properties, as `--where KEY=VALUE` writes them; a store must meet all.
///
/// `KEY=VALUE` matches when the property equals `VALUE`, or when one of its values does: an array
/// element, or a part of an OSM `;`-separated list (`cuisine=coffee_shop;donut`). Booleans match
/// `true`/`yes` and `false`/`no`. `KEY` alone matches when the property is present, not null, and
/// not `no`/`false`; `KEY!=VALUE` matches when no value equals `VALUE` (or the key is absent).
public struct StoreFilter: Hashable, Sendable {
  public struct Condition: Hashable, Sendable, CustomStringConvertible {
    public enum Test: Hashable, Sendable {
      case present
      case equals(String)
      case notEquals(String)
    }
    public let key: String
    public let test: Test

    public init(key: String, test: Test) {
      self.key = key
      self.test = test
    }

    /// Parses `KEY=VALUE`, `KEY!=VALUE` or `KEY`.
    /// - Throws: `StoreFilterError` when the key is empty.
    public init(parsing text: String) throws(StoreFilterError) {
      if let equals = text.firstIndex(of: "=") {
        let value = String(text[text.index(after: equals)...])
        if equals > text.startIndex, text[text.index(before: equals)] == "!" {
          key = String(text[..<text.index(before: equals)])
          test = .notEquals(value)
        } else {
          key = String(text[..<equals])
          test = .equals(value)
        }
      } else {
        key = text
        test = .present
      }
      guard !key.isEmpty else {
        throw StoreFilterError(text: text)
      }
    }

    public var description: String {
      switch test {
      case .present: key
      case .equals(let value): "\(key)=\(value)"
      case .notEquals(let value): "\(key)!=\(value)"
      }
    }

    /// True when `store` meets this condition.
    public func matches(_ store: Store) -> Bool { matches(value: store.properties[key]) }

    /// True when a store whose property `key` is `value` (`nil`: absent) meets this condition.
    func matches(value: JSONValue?) -> Bool {
      switch test {
      case .present:
        guard let value, value != .null else { return false }
        switch value {
        case .bool(let flag): return flag
        case .string(let text): return !text.isEmpty && text != "no" && text != "false"
        default: return true
        }
      case .equals(let wanted):
        return value.map { Condition.holds($0, wanted) } ?? false
      case .notEquals(let unwanted):
        return !(value.map { Condition.holds($0, unwanted) } ?? false)
      }
    }

    /// Whether `value`, or one of its values (array elements, parts of a `;` list), is `wanted`.
    /// Allocates only for `;` lists: it runs on every candidate of a filtered search.
    static func holds(_ value: JSONValue, _ wanted: String) -> Bool {
      switch value {
      case .array(let elements):
        return elements.contains { element in element.scalarText.map { same($0, wanted) } ?? false }
      case .string(let text):
        if same(text, wanted) { return true }
        guard text.utf8.contains(UInt8(ascii: ";")) else { return false }
        return text.split(separator: ";").contains { same(String($0).trimmingWhitespaceAndNewlines, wanted) }
      default:
        return value.scalarText.map { same($0, wanted) } ?? false
      }
    }

    private static func same(_ stored: String, _ wanted: String) -> Bool {
      if stored == wanted { return true }
      switch (stored, wanted) {
      case ("true", "yes"), ("false", "no"): return true
      default: return false
      }
    }
  }

  public let conditions: [Condition]

  public init(_ conditions: [Condition] = []) { self.conditions = conditions }

  /// Parses each `--where` expression.
  public init(parsing expressions: [String]) throws(StoreFilterError) {
    var conditions: [Condition] = []
    for expression in expressions { conditions.append(try Condition(parsing: expression)) }
    self.init(conditions)
  }

  /// The filter every store passes.
  public static let all = StoreFilter()

  public var isEmpty: Bool { conditions.isEmpty }

  /// True when `store` meets every condition.
  public func matches(_ store: Store) -> Bool { conditions.allSatisfy { $0.matches(store) } }
}

/// A `--where` expression that could not be read.
public struct StoreFilterError: Error, Hashable, Sendable, CustomStringConvertible {
  public let text: String
  public var description: String {
    "'\(text)' is not a condition: expected KEY=VALUE, KEY!=VALUE or KEY (such as drive_through=yes)"
  }
}
