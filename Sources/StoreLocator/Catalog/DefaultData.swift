#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where the data comes from when a command is not told: `$STORES_DATA`, else the bundled data set.
public enum DefaultData {
  /// The environment variable that names a data file.
  public static let environmentVariable = "STORES_DATA"

  /// The bundled data set in this checkout's `Data/` folder.
  ///
  /// Found from this source file's location, which is where `swift run` builds from.
  public static var bundledPath: String { dataDirectory + "/stores.geojson" }

  /// The environment variable that names a copy of `Data/`, for a binary installed away from the
  /// checkout it was built from (an image, a package).
  public static let resourcesVariable = "STORES_RESOURCES"

  /// The reference data (holidays, time-zone places, the page's basemap) and the bundled stores:
  /// `$STORES_RESOURCES` when set and not empty, else this checkout's `Data/` folder.
  public static var dataDirectory: String {
    if let value = getenv(resourcesVariable).map({ String(cString: $0) }), !value.isEmpty {
      return value.hasSuffix("/") && value.count > 1 ? String(value.dropLast()) : value
    }
    return checkoutDataDirectory
  }

  /// This checkout's `Data/` folder, found from this source file's location, which is where
  /// `swift run` builds from.
  public static var checkoutDataDirectory: String {
    let components = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    // …/Sources/StoreLocator/Catalog/DefaultData.swift → …/Data, whatever folder this file is in.
    let root = components.lastIndex(of: "Sources").map { components[..<$0] } ?? components.dropLast()
    return (root + ["Data"]).joined(separator: "/")
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
