import Foundation
import Testing

@testable import StoreLocator

/// The real-world corpus in `../shared/corpus` (next to the repository), when present.
enum Corpus {
  /// `<repository root>/../shared/corpus`, found from this file's path.
  static let directory: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }  // file, StoreLocatorTests, Tests, repository root
    return url.appendingPathComponent("shared/corpus").path
  }()

  static let isAvailable = FileManager.default.fileExists(atPath: directory + "/geojson/edge_cases.jsonl")

  static let skipMessage: Comment =
    "needs ../shared/corpus next to the repository; it is absent, so this test is skipped"

  static func geojson(_ name: String) -> String { directory + "/geojson/" + name }
}

/// Path of a file in the test bundle's Fixtures folder.
func fixturePath(_ name: String) throws -> String {
  let url = try #require(
    Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"),
    "missing fixture \(name)")
  return url.path
}

/// Loads GeoJSON text as a catalog.
func load(_ text: String, strict: Bool = false) throws(CatalogError) -> Catalog {
  try Catalog(
    geoJSON: Array(text.utf8), source: "test.geojson",
    options: LoadOptions(strict: strict, evaluatesHours: false))
}

/// The error that loading `text` throws, or `nil`.
func loadError(_ text: String, strict: Bool = false) -> CatalogError? {
  do {
    _ = try load(text, strict: strict)
    return nil
  } catch {
    return error
  }
}

extension Catalog {
  var codes: [String] { diagnostics.map(\.code.rawValue) }

  func diagnostics(_ code: String) -> [Diagnostic] { diagnostics.filter { $0.code.rawValue == code } }

  /// How many diagnostics of each code.
  var codeCounts: [String: Int] { diagnostics.reduce(into: [:]) { $0[$1.code.rawValue, default: 0] += 1 } }
}

extension LoadOptions {
  /// The loader alone: these suites test reading GeoJSON, not opening hours (whose time-zone
  /// inference adds notes of its own).
  static let loaderOnly = LoadOptions(evaluatesHours: false)
}
