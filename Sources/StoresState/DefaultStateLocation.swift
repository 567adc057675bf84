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

  /// `sqlite:PATH`, `postgres://user@host:port/db` (without a password), `memory`.
  public var displayName: String {
    switch self {
    case .memory: return "memory"
    case .sqlite(let path): return "sqlite:" + path
    case .postgres(let url):
      // postgres://user:secret@host → postgres://user@host
      guard let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://") else { return url }
      let credentials = url[scheme.upperBound..<at]
      let user = credentials.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
      return String(url[..<scheme.upperBound]) + user + String(url[at...])
    }
  }
}
