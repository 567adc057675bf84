/// Why a catalog could not be loaded at all. Problems with single records are `Diagnostic`s instead.
public struct CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
  public enum Kind: Hashable, Sendable {
    /// The file does not exist or cannot be opened.
    case inputMissing
    /// The bytes are not usable GeoJSON (empty, truncated beyond salvage, not JSON, wrong type).
    case badData
    /// `strict` was set and the input has errors; they are in `diagnostics`.
    case strictFailure
    /// An output file could not be written whole (a write, fsync or rename failed: a full disk, an
    /// I/O error); the file it was to replace is as it was, or, when only the last sync failed,
    /// already replaced.
    case writeFailed
  }

  public let kind: Kind
  /// The file path, or `-` for standard input.
  public let source: String
  /// What went wrong, without the file's name (`description` puts it in front).
  public let message: String
  /// The diagnostics gathered before giving up.
  public let diagnostics: [Diagnostic]

  public init(_ kind: Kind, source: String, _ message: String, diagnostics: [Diagnostic] = []) {
    self.kind = kind
    self.source = source
    self.message = message
    self.diagnostics = diagnostics
  }

  /// `stores.geojson: empty file (0 bytes): no GeoJSON to read`; standard input is named so.
  public var description: String { "\(source == "-" ? "standard input" : source): \(message)" }
}

/// How lenient loading is, and what opening hours are evaluated with.
public struct LoadOptions: Hashable, Sendable {
  /// When true, any error-severity diagnostic makes loading fail with `.strictFailure`.
  public var strict: Bool
  /// When true (the default), each store's `opening_hours` is parsed and compiled with its time
  /// zone (inferred when missing) and its country's public holidays from `Data/holidays`.
  public var evaluatesHours: Bool
  /// Holiday files to load after the bundled ones (format: Data/holidays/README.md).
  public var holidayFiles: [String]

  public init(strict: Bool = false, evaluatesHours: Bool = true, holidayFiles: [String] = []) {
    self.strict = strict
    self.evaluatesHours = evaluatesHours
    self.holidayFiles = holidayFiles
  }
}
