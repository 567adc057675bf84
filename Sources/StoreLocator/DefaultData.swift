/// Where the data comes from when a command is not told: `$STORES_DATA`, else the bundled data set.
public enum DefaultData {
  /// The environment variable that names a data file.
  public static let environmentVariable = "STORES_DATA"

  /// The bundled data set in this checkout's `Data/` folder.
  ///
  /// Found from this source file's location, which is where `swift run` builds from.
  public static var bundledPath: String { dataDirectory + "/stores.geojson" }

  /// This checkout's `Data/` folder: the bundled stores and the reference data they need.
  public static var dataDirectory: String {
    var components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    // …/Sources/StoreLocator/DefaultData.swift → …/Data
    components.removeLast(3)
    return (components + ["Data"]).joined(separator: "/")
  }

  /// The path to load: `explicit` when given, else `$STORES_DATA` when set and not empty, else the
  /// bundled data set.
  public static func path(explicit: String?, environment: [String: String]) -> String {
    if let explicit, !explicit.isEmpty { return explicit }
    if let fromEnvironment = environment[environmentVariable], !fromEnvironment.isEmpty {
      return fromEnvironment
    }
    return bundledPath
  }
}
