import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A `stores-server` process as an operator runs it, on 127.0.0.1 and a port the system picks,
/// with its log in a file a test can read.
///
/// Ends the process (SIGKILL if it is still running) and removes the log when released, so a
/// test that fails half-way leaves nothing behind. `@unchecked Sendable`: after `init` only the
/// process id is read from other threads (to signal it), and `kill` may be called from any.
final class RunningServer: @unchecked Sendable {
  private let process = Process()
  /// The port from the startup line; 0 when there was none (the server exited or hung).
  let port: Int
  /// The first line of standard output; empty when there was none (`firstLine`).
  let startupLine: String
  /// Where standard error (the log) goes.
  let logPath: String

  /// Starts `stores-server` with `arguments` and reads its startup line.
  /// - Parameters:
  ///   - adminToken: `STORES_ADMIN_TOKEN`; unset when `nil`.
  ///   - logLevel: `--log-level`.
  ///   - descriptorLimit: `ulimit -n` for the process (soft and hard); the system's when `nil`.
  init(
    _ arguments: [String], adminToken: String? = nil, logLevel: String = "warning",
    descriptorLimit: Int? = nil
  ) throws {
    logPath =
      FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-server-log-\(UUID().uuidString)").path
    _ = FileManager.default.createFile(atPath: logPath, contents: nil)
    process.executableURL = URL(fileURLWithPath: BuiltBinaries.server)
    // The tests hold connections open on purpose while they poll; on a machine busy with every
    // other suite (CI), that can outlast the default idle timeout of 60 s. Only the test of the
    // timeout sets one.
    let idle = arguments.contains("--idle-timeout") ? [] : ["--idle-timeout", "0"]
    // The state in memory unless the test says where: never a file beside shared data.
    let state = arguments.contains("--state") ? [] : ["--state", "memory"]
    let serverArguments =
      arguments + idle + state + ["--hostname", "127.0.0.1", "--port", "0", "--log-level", logLevel]
    if let descriptorLimit {
      // The shell sets the limit and becomes the server (exec), so the process is the server.
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments =
        ["-c", "ulimit -n \(descriptorLimit) && exec \"$0\" \"$@\"", BuiltBinaries.server] + serverArguments
    } else {
      process.arguments = serverArguments
    }
    var environment = ProcessInfo.processInfo.environment
    environment["STORES_ADMIN_TOKEN"] = adminToken
    environment["STORES_DATA"] = nil
    process.environment = environment
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))
    try process.run()
    startupLine = Self.firstLine(
      of: output.fileHandleForReading.fileDescriptor, process: process.processIdentifier)
    port =
      startupLine.hasPrefix("stores-server: serving")
      ? Int(startupLine.split(separator: ":").last ?? "") ?? 0 : 0
  }

  deinit {
    if endedStatus() == nil {
      kill(process.processIdentifier, SIGKILL)
      _ = ServerProcess.eventually(seconds: 5) { endedStatus() != nil }
    }
    try? FileManager.default.removeItem(atPath: logPath)
  }

  /// The first line written to `descriptor` by the server `process`, without its newline; what
  /// there is when the output ends (the server exited), or when the server has used 60 seconds of
  /// processor time, or 600 seconds have passed, without writing one (it hangs).
  ///
  /// Not a short wall-clock deadline: the debug server takes 3 s of processor time to load the
  /// bundled data, and while the whole suite runs on two cores it waits for them behind every
  /// other test's processes. Twelve busy processes made its start take 19 s; a 30-second deadline
  /// failed once in a full run. A server that spins is still caught by the processor time it
  /// uses, and one that waits forever by the wall clock.
  private static func firstLine(of descriptor: Int32, process: Int32) -> String {
    let deadline = Date(timeIntervalSinceNow: 600)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !bytes.contains(UInt8(ascii: "\n")) {
      guard deadline.timeIntervalSinceNow > 0, ServerProcess.cpuSeconds(of: process) < 60 else { break }
      var request = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&request, 1, 1_000)
      if ready == 0 { continue }
      guard ready > 0 else { break }
      let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      // An empty read is the end of the output: the server exited.
      guard count > 0 else { break }
      bytes += buffer[..<count]
    }
    return String(decoding: bytes.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
  }

  /// Sends `number` to the process.
  func signal(_ number: Int32) { kill(process.processIdentifier, number) }

  /// The process id (for `/proc/PID/…`).
  var processIdentifier: Int32 { process.processIdentifier }

  /// What the server has logged so far.
  var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

  /// Waits up to `seconds` for the process to end and returns its exit status (128 + the signal
  /// when a signal ended it); a server still running then is killed and reported as -1, so a
  /// server that does not stop fails the test instead of hanging it.
  func exitStatus(within seconds: Double = 30) -> Int32 {
    var status: Int32?
    let ended = ServerProcess.eventually(seconds: seconds) {
      status = endedStatus()
      return status != nil
    }
    guard ended else {
      kill(process.processIdentifier, SIGKILL)
      return -1
    }
    return status ?? -1
  }

  /// The exit status once the process has ended, `nil` while it runs.
  private func endedStatus() -> Int32? { process.exitStatusLeavingItUnreaped(waiting: false) }
}

/// What the tests of the `stores-server` process share.
enum ServerProcess {
  /// User and system CPU seconds the process has used (Linux: /proc/PID/stat); 0 when it
  /// cannot be read (the process has ended, or there is no /proc).
  static func cpuSeconds(of pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let end = stat.lastIndex(of: ")")
    else { return 0 }
    let fields = stat[stat.index(after: end)...].split(separator: " ")
    // After the command: state is field 3, utime 14 and stime 15 (1-based over the whole line).
    guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
  }

  /// Polls `condition` every 5 ms until it holds or `seconds` pass: for a state the server
  /// reaches on its own (a reload done, a request started), never as a measure of speed.
  static func eventually(seconds: Double = 30, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while Date() < deadline {
      if try condition() { return true }
      usleep(5_000)
    }
    return try condition()
  }

  /// Runs `body` on a thread of its own and waits for it without holding a thread: the blocking
  /// socket calls of `RawHTTPConnection` must not take one of the few threads of Swift's
  /// cooperative pool (two on a two-core machine), which the other tests run on.
  static func onThread<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws
    -> Result
  {
    try await withCheckedThrowingContinuation { continuation in
      let thread = Thread { continuation.resume(with: Swift.Result { try body() }) }
      thread.start()
    }
  }

  /// The value of the sample `series` (name and labels, as written) in Prometheus text; `nil`
  /// when there is no such line.
  static func sample(_ series: String, in metrics: String) -> Double? {
    for line in metrics.split(separator: "\n") where line.hasPrefix(series + " ") {
      return Double(line.dropFirst(series.count + 1))
    }
    return nil
  }
}
