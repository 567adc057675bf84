/// Where a feature starts in its file, so a person can find it.
public struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
  /// Zero-based position of the feature among the features of the file.
  public let featureIndex: Int
  /// One-based line of the feature's first byte.
  public let line: Int
  /// One-based column (in bytes) of the feature's first byte.
  public let column: Int

  public init(featureIndex: Int, line: Int, column: Int) {
    self.featureIndex = featureIndex
    self.line = line
    self.column = column
  }

  /// `feature 12 (line 14:3)`.
  public var description: String { "feature \(featureIndex) (line \(line):\(column))" }
}
