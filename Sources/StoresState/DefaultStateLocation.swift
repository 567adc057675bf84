extension StateStorageLocation {
  /// Where the state of the data at `dataPath` is kept unless `--state` says otherwise: an SQLite
  /// file beside it, named after it (`stores.geojson`, `stores.snap` → `stores.state.sqlite`), so
  /// the command line and the service find the same file; in memory for standard input.
  public static func beside(data dataPath: String) -> StateStorageLocation {
    guard dataPath != "-" else { return .memory }
    let slash = dataPath.lastIndex(of: "/")
    let directory = slash.map { String(dataPath[...$0]) } ?? ""
    let file = slash.map { String(dataPath[dataPath.index(after: $0)...]) } ?? dataPath
    let stem = file.firstIndex(of: ".").map { String(file[..<$0]) } ?? file
    return .sqlite(path: directory + (stem.isEmpty ? "stores" : stem) + ".state.sqlite")
  }
}
