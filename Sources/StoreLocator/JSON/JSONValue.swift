/// A JSON value as it came from the file, with object member order kept and numbers kept as
/// written, so an id like `9007199254740993` or a 15-digit coordinate survives unchanged.
public enum JSONValue: Hashable, Sendable {
  case null
  case bool(Bool)
  /// The number's literal text exactly as written (valid RFC 8259 number syntax).
  case number(String)
  case string(String)
  case array([JSONValue])
  case object(JSONObject)

  /// The value as a person would compare it in `--where KEY=VALUE`: strings as they are, numbers as
  /// written, booleans as `true`/`false`; `nil` for null, arrays and objects.
  public var scalarText: String? {
    switch self {
    case .string(let text): text
    case .number(let literal): literal
    case .bool(let value): value ? "true" : "false"
    case .null, .array, .object: nil
    }
  }

  /// The string, when this is a string.
  public var stringValue: String? {
    if case .string(let text) = self { text } else { nil }
  }
}

/// A JSON object whose members keep the order they were written in.
///
/// Keys are unique: the reader keeps the last of duplicated keys (and reports it).
public struct JSONObject: Hashable, Sendable, RandomAccessCollection {
  public struct Member: Hashable, Sendable {
    public let key: String
    public var value: JSONValue
    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  public private(set) var members: [Member]

  public init(_ members: [Member] = []) { self.members = members }

  public var startIndex: Int { members.startIndex }
  public var endIndex: Int { members.endIndex }
  public subscript(position: Int) -> Member { members[position] }

  /// The value for `key`, or `nil` when absent. Keys match byte for byte, as in JSON: a key
  /// written in another Unicode normalization form is another key.
  ///
  /// - Complexity: O(n) in the number of members; objects here are small.
  public subscript(key: String) -> JSONValue? {
    get { members.first { $0.key.hasSameBytes(as: key) }?.value }
    set {
      if let position = members.firstIndex(where: { $0.key.hasSameBytes(as: key) }) {
        if let newValue { members[position].value = newValue } else { members.remove(at: position) }
      } else if let newValue {
        members.append(Member(key: key, value: newValue))
      }
    }
  }
}

extension JSONValue {
  /// Compact RFC 8259 text for this value; strings are escaped, numbers written as they came.
  public var jsonText: String {
    var bytes = JSONBytes()
    bytes.append(self)
    return bytes.text
  }

  /// Appends the compact JSON text of this value to `output` (written by `JSONBytes`, the one
  /// JSON writer, which answers rendered from the store table use too).
  public func write(to output: inout String) { output += jsonText }

  /// Appends `text` as a JSON string literal.
  /// - Complexity: O(n) in the UTF-8 length of `text`.
  public static func writeString(_ text: String, to output: inout String) {
    var bytes = JSONBytes()
    bytes.appendString(text)
    output += bytes.text
  }
}

extension JSONValue {
  /// A number written the shortest way that reads back the same; `null` when not finite, since
  /// JSON has no NaN or infinity.
  public init(_ value: Double) {
    var bytes = JSONBytes()
    bytes.append(number: value)
    self = value.isFinite ? .number(bytes.text) : .null
  }

  /// An integer number.
  public init(_ value: Int) { self = .number(String(value)) }

  /// A distance in metres rounded to the millimetre, as every output writes `distance_m`.
  public init(meters: Double) { self.init(Self.millimetres(meters)) }

  /// `meters` rounded to the millimetre.
  static func millimetres(_ meters: Double) -> Double { (meters * 1000).rounded() / 1000 }
}
