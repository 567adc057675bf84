import Foundation

/// Runs the built `stores` executable as a user would, capturing what it prints.
struct StoresProcess {
  struct Outcome {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// The standard output parsed as one JSON document.
    func json() throws -> Any {
      try JSONSerialization.jsonObject(with: Data(standardOutput.utf8), options: [.fragmentsAllowed])
    }
  }

  /// The repository root, found from this file's location.
  static let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let bundledData = repositoryRoot.appendingPathComponent("Data/stores.geojson").path

  /// `../shared/corpus/geojson` beside the repository, when present.
  static let corpusDirectory: URL? = {
    let directory = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/geojson")
    return FileManager.default.fileExists(atPath: directory.path) ? directory : nil
  }()

  /// The `stores` binary, built beside the test bundle by `swift test`.
  static let executable: URL = {
    let testBundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    var directory = testBundle.deletingLastPathComponent()
    // On macOS the bundle is a directory (…/storesPackageTests.xctest/Contents/MacOS/…).
    while !FileManager.default.isExecutableFile(atPath: directory.appendingPathComponent("stores").path),
      directory.path != "/"
    {
      directory.deleteLastPathComponent()
    }
    return directory.appendingPathComponent("stores")
  }()

  /// Runs `stores` with `arguments`, feeding `input` on standard input (or the file
  /// `inputFile`), in `currentDirectory` when given.
  ///
  /// Output goes through files rather than pipes so a large result cannot fill a pipe and stall.
  static func run(
    _ arguments: [String], input: String? = nil, inputFile: String? = nil, currentDirectory: String? = nil,
    environment: [String: String] = [:]
  ) throws -> Outcome {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let outputURL = scratch.appendingPathComponent("stdout")
    let errorURL = scratch.appendingPathComponent("stderr")
    let inputURL = scratch.appendingPathComponent("stdin")
    try Data().write(to: outputURL)
    try Data().write(to: errorURL)
    try Data((input ?? "").utf8).write(to: inputURL)

    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    var processEnvironment = ProcessInfo.processInfo.environment
    processEnvironment["STORES_DATA"] = nil
    for (key, value) in environment { processEnvironment[key] = value }
    process.environment = processEnvironment
    process.standardInput = try FileHandle(
      forReadingFrom: inputFile.map(URL.init(fileURLWithPath:)) ?? inputURL)
    if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
    process.standardOutput = try FileHandle(forWritingTo: outputURL)
    process.standardError = try FileHandle(forWritingTo: errorURL)
    try process.run()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus,
      standardOutput: try String(contentsOf: outputURL, encoding: .utf8),
      standardError: try String(contentsOf: errorURL, encoding: .utf8))
  }

  /// Writes `text` to a temporary file and returns its path.
  static func temporaryFile(_ text: String, suffix: String = ".geojson") throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-\(UUID().uuidString)\(suffix)")
    try Data(text.utf8).write(to: url)
    return url.path
  }
}
