/// Whole input files as the commands read them: a path, or `-` for standard input.
public enum InputFile {
  /// The bytes of `path`, or of standard input when `path` is `-`.
  ///
  /// - Throws: `CatalogError` with `.inputMissing` when the file cannot be opened or read.
  public static func bytes(at path: String) throws(CatalogError) -> [UInt8] {
    try FileBytes.read(path)
  }
}
