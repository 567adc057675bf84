import Foundation

/// The executables `swift build` puts beside the test bundle: `stores` and `stores-server`.
enum BuiltBinaries {
  /// The directory holding `name`, found upward from the test bundle.
  static func path(of name: String) -> String {
    let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBundle.deletingLastPathComponent()
    // On macOS the bundle is a directory (…/storesPackageTests.xctest/Contents/MacOS/…).
    while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent(name).path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent(name).path
  }

  static let stores = path(of: "stores")
  static let server = path(of: "stores-server")

  /// Runs `stores` with `arguments` and returns its standard output and exit status.
  ///
  /// Output goes through a file rather than a pipe so a large answer cannot fill a pipe and stall.
  static func runStores(_ arguments: [String]) throws -> (output: String, status: Int32) {
    let outputPath = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-api-cli-\(UUID().uuidString)").path
    FileManager.default.createFile(atPath: outputPath, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: outputPath) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: stores)
    process.arguments = arguments
    var environment = ProcessInfo.processInfo.environment
    environment["STORES_DATA"] = nil
    process.environment = environment
    process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    return (try String(contentsOfFile: outputPath, encoding: .utf8), process.terminationStatus)
  }
}
