extension Diagnostic {
  /// How many diagnostics share one code and severity: a line of the summaries of `stores validate`
  /// and `stores info`, where thousands of the same note would otherwise bury a single warning.
  public struct Group: Hashable, Sendable {
    public let code: Code
    public let severity: Severity
    public let count: Int

    public init(code: Code, severity: Severity, count: Int) {
      self.code = code
      self.severity = severity
      self.count = count
    }
  }

  /// The code of the error that says the input ends before its last record does.
  public static let truncatedCode = Code("truncated")
}

extension Diagnostic.Group {
  /// `{"code": "timezone-inferred", "severity": "note", "count": 25599}`.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["code"] = .string(code.rawValue)
    object["severity"] = .string(severity.rawValue)
    object["count"] = JSONValue(count)
    return object
  }
}

extension Collection where Element == Diagnostic {
  /// The diagnostics grouped by code and severity: errors first, then warnings, then notes; the
  /// most frequent code first within a severity, then by code.
  ///
  /// - Complexity: O(n + g log g) for n diagnostics in g groups.
  public var groupedByCode: [Diagnostic.Group] {
    var counts: [GroupKey: Int] = [:]
    for diagnostic in self {
      counts[GroupKey(code: diagnostic.code, severity: diagnostic.severity), default: 0] += 1
    }
    return counts.map { Diagnostic.Group(code: $0.key.code, severity: $0.key.severity, count: $0.value) }
      .sorted { ($0.severity, $1.count, $0.code.rawValue) < ($1.severity, $0.count, $1.code.rawValue) }
  }
}

/// What `groupedByCode` counts by.
private struct GroupKey: Hashable {
  let code: Diagnostic.Code
  let severity: Diagnostic.Severity
}

extension Catalog {
  /// The `truncated` error when the input ended inside a record or the `features` array: the file
  /// was cut off, so the stores after the cut are missing. Its message says where the input ends
  /// and which record was the last loaded.
  ///
  /// - Complexity: O(1) when the data has no errors; otherwise O(n) in the diagnostics (decoding a
  ///   snapshot's diagnostics on the first call).
  public var truncation: Diagnostic? {
    guard diagnosticCount(.error) > 0 else { return nil }
    return diagnostics.first { $0.code == Diagnostic.truncatedCode && $0.severity == .error }
  }
}
