/// Something the loader noticed about the input: a problem that kept a record out, a doubt worth
/// a look, or a note on how the data was read.
///
/// Codes are stable: scripts may match on them. They are listed in docs/diagnostics.md.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
  public enum Severity: String, Hashable, Sendable, Comparable, CaseIterable {
    /// The record (or the file) could not be used as it is.
    case error
    /// The record loaded, but something about it is probably wrong.
    case warning
    /// How something was interpreted; nothing is wrong.
    case note

    public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    private var rank: Int {
      switch self {
      case .error: 0
      case .warning: 1
      case .note: 2
      }
    }
  }

  /// A stable, kebab-case identifier such as `coordinates-swapped`.
  public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
  }

  public let code: Code
  public let severity: Severity
  /// Where the feature starts; `nil` for problems of the whole file.
  public let position: SourcePosition?
  /// The store's id when it was known.
  public let storeID: String?
  /// A sentence a person can act on.
  public let message: String

  public init(
    _ code: Code, _ severity: Severity, at position: SourcePosition?, storeID: String? = nil,
    _ message: String
  ) {
    self.code = code
    self.severity = severity
    self.position = position
    self.storeID = storeID
    self.message = message
  }

  /// `error[coordinates-swapped] feature 3 (line 5:1) id "a": latitude 151.2 is out of range…`
  public var description: String {
    var text = "\(severity.rawValue)[\(code)]"
    if let position { text += " \(position)" }
    if let storeID { text += " id \"\(MessageText.shortened(storeID))\"" }
    return text + ": " + message
  }
}
