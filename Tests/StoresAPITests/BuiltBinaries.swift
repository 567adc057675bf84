import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

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
    try #require(
      FileManager.default.createFile(atPath: outputPath, contents: nil), "cannot create \(outputPath)")
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
    let status = process.exitStatusLeavingItUnreaped(waiting: true) ?? -1
    return (try String(contentsOfFile: outputPath, encoding: .utf8), status)
  }
}

extension Process {
  /// The exit status once the process has ended (128 + the signal when a signal ended it); `nil`
  /// while it runs, unless `waiting`, which blocks until it ends.
  ///
  /// Read with `waitid(WNOWAIT)`, which leaves the process for Foundation to reap, rather than
  /// `waitUntilExit()`: Foundation learns of an exit when a socket the child inherited closes,
  /// which can take seconds when another test starts a process at the same moment and that
  /// child inherits the socket too; meanwhile a test would hold its thread.
  func exitStatusLeavingItUnreaped(waiting: Bool) -> Int32? {
    var information = siginfo_t()
    let options = WEXITED | WNOWAIT | (waiting ? 0 : WNOHANG)
    var result = waitid(P_PID, id_t(processIdentifier), &information, options)
    while result != 0 && errno == EINTR {
      result = waitid(P_PID, id_t(processIdentifier), &information, options)
    }
    guard result == 0 else {
      // Reaped already: Foundation has the status.
      guard errno == ECHILD else { return nil }
      waitUntilExit()
      return terminationReason == .exit ? terminationStatus : 128 + terminationStatus
    }
    #if canImport(Glibc)
      let pid = information._sifields._sigchld.si_pid
      let status = information._sifields._sigchld.si_status
    #else
      let pid = information.si_pid
      let status = information.si_status
    #endif
    // No process has changed state yet: it runs.
    guard pid != 0 else { return nil }
    return information.si_code == CLD_EXITED ? status : 128 + status
  }
}
