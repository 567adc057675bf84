import Foundation
import StoreLocator
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The reload safety of the `stores-server` process: a burst of SIGHUPs, the snapshots replaced
/// by reloads unmapped, and `--max-store-loss`.
@Suite struct ReloadProcessTests {
  /// Loads counted in `metrics`, the text of `/metrics` (every result).
  static func loads(in metrics: String) -> Double {
    ["success", "failure", "refused"].compactMap {
      ServerProcess.sample("stores_reloads_total{result=\"\($0)\"}", in: metrics)
    }.reduce(0, +)
  }

  /// `POST /admin/reload` (with `query`) on a connection of its own.
  static func adminReload(port: Int, query: String = "") throws -> RawHTTPConnection.Response {
    let connection = try RawHTTPConnection(port: port)
    try connection.send(
      "POST /admin/reload\(query) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(ReloadTests.token)\r\n"
        + "Content-Length: 0\r\nConnection: close\r\n\r\n")
    return try connection.readResponse()
  }

  @Test func thirtyHangupsInABurstMakeAtMostTwoLoads() async throws {
    // 5,000 stores: a load takes longer than the burst.
    let path = try TestService.temporaryFile(ReloadTests.stores("a", count: 5_000))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let server = try await ServerProcess.onThread { try RunningServer(["--data", path], logLevel: "notice") }
    try #require(server.port > 0, "startup line: \(server.startupLine)\n\(server.log)")
    let port = server.port
    let loads = try await ServerProcess.onThread {
      // 30 signals 10 ms apart: each is delivered (the kernel merges only signals not yet taken).
      for _ in 0..<30 {
        server.signal(SIGHUP)
        usleep(10_000)
      }
      // Done once the count has not moved for 2 s and three times the last load's time.
      var last = -1.0
      var stableSince = Date()
      _ = try ServerProcess.eventually(seconds: 120) {
        let metrics = try RawHTTPConnection.get(port: port, "/metrics").body
        let now = Self.loads(in: metrics)
        if now != last {
          last = now
          stableSince = Date()
        }
        let loadSeconds = ServerProcess.sample("stores_data_load_seconds", in: metrics) ?? 0
        return now > 0 && Date().timeIntervalSince(stableSince) > 2 + 3 * loadSeconds
      }
      return last
    }
    #expect((1...2).contains(loads), "\(loads) loads for 30 SIGHUPs\n\(server.log.suffix(2000))")
    let lines = server.log.split(separator: "\n").filter { $0.contains("reloaded the data") }
    #expect(Double(lines.count) == loads, "\(lines)")
    server.signal(SIGTERM)
    #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
  }

  #if os(Linux)
    /// Mappings of a file that was since renamed over or removed, from `/proc/PID/maps`.
    static func deletedMappings(pid: Int32, of path: String) -> [String] {
      // Read to the end with read(2): /proc files have no size, and Foundation's readers may stop
      // at the first page.
      let descriptor = open("/proc/\(pid)/maps", O_RDONLY)
      guard descriptor >= 0 else { return [] }
      defer { close(descriptor) }
      var bytes: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65536)
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { break }
        bytes += buffer[..<count]
      }
      return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        .filter { $0.hasSuffix("\(path) (deleted)") }
    }

    /// Builds a snapshot of `ReloadTests.stores(prefix)` and renames it over `path`.
    static func publishSnapshot(_ prefix: String, at path: String) throws {
      let geojson = try TestService.temporaryFile(ReloadTests.stores(prefix))
      defer { try? FileManager.default.removeItem(atPath: geojson) }
      let staging = path + ".staging"
      try Catalog.load(contentsOf: geojson).writeSnapshot(to: staging)
      guard rename(staging, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    @Test func aReplacedSnapshotIsUnmappedWhenItsLastRequestEnds() async throws {
      let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("stores-api-\(UUID().uuidString).snapshot").path
      defer { try? FileManager.default.removeItem(atPath: path) }
      try Self.publishSnapshot("a", at: path)
      let server = try await ServerProcess.onThread {
        try RunningServer(
          ["--data", path, "--request-timeout", "0"], adminToken: ReloadTests.token, logLevel: "notice")
      }
      try #require(server.port > 0, "startup line: \(server.startupLine)\n\(server.log)")
      let port = server.port
      let pid = server.processIdentifier
      let report = try await ServerProcess.onThread { () -> [String] in
        var problems: [String] = []
        // The records of the first snapshot are checked beside the service: wait for that.
        guard ServerProcess.eventually({ server.log.contains("every record of the snapshot is intact") })
        else {
          return ["the first snapshot was never checked"]
        }
        // A pickup in flight on the first snapshot: routed, its body not all sent.
        let body = ServerProcessTests.pickupBody
        let pickup = try RawHTTPConnection(port: port)
        try pickup.send(ServerProcessTests.pickupStart(sent: 10))
        let started = try ServerProcess.eventually {
          let metrics = try RawHTTPConnection.get(port: port, "/metrics").body
          return ServerProcess.sample(
            "http_server_active_requests{http_request_method=\"POST\"}", in: metrics)
            == 1
        }
        guard started else { return ["the pickup was never counted as active"] }

        try Self.publishSnapshot("b", at: path)
        let reloaded = try Self.adminReload(port: port)
        if reloaded.status != 200 { problems.append("reload: \(reloaded.status) \(reloaded.body)") }
        // The pickup still holds the first snapshot: mapped, though its file is gone.
        if Self.deletedMappings(pid: pid, of: path).isEmpty {
          problems.append("the first snapshot was unmapped while a request held it")
        }
        try pickup.send(String(body.dropFirst(10)))
        let answer = try pickup.readResponse()
        if answer.status != 200 || !answer.body.contains("\"id\":\"a-") {
          problems.append("the pickup in flight: \(answer.status) \(answer.body)")
        }
        if !ServerProcess.eventually(seconds: 10, { Self.deletedMappings(pid: pid, of: path).isEmpty }) {
          problems.append(
            "after the pickup ended, still mapped: \(Self.deletedMappings(pid: pid, of: path).joined(separator: "; "))"
          )
        }
        // Three more reloads, by SIGHUP and by the admin route: none leaves a mapping behind.
        for (round, prefix) in ["c", "d", "e"].enumerated() {
          let before = try RawHTTPConnection.get(port: port, "/readyz").headers["x-stores-data-version"]
          try Self.publishSnapshot(prefix, at: path)
          if round == 1 {
            _ = try Self.adminReload(port: port)
          } else {
            server.signal(SIGHUP)
          }
          let swapped = try ServerProcess.eventually {
            try RawHTTPConnection.get(port: port, "/readyz").headers["x-stores-data-version"] != before
          }
          if !swapped { problems.append("round \(round): not reloaded") }
          if !ServerProcess.eventually(seconds: 10, { Self.deletedMappings(pid: pid, of: path).isEmpty }) {
            problems.append(
              "round \(round): still mapped: \(Self.deletedMappings(pid: pid, of: path).joined(separator: "; "))"
            )
          }
        }
        return problems
      }
      #expect(report.isEmpty, "\(report)\n\(server.log.suffix(2000))")
      server.signal(SIGTERM)
      #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
    }
  #endif

  @Test func maxStoreLossRefusesAHangupReloadAndSaysSo() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a", count: 10))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let server = try await ServerProcess.onThread {
      try RunningServer(["--data", path, "--max-store-loss", "40"], logLevel: "notice")
    }
    try #require(server.port > 0, "startup line: \(server.startupLine)\n\(server.log)")
    let port = server.port
    // 10 to 5 stores: 50% fewer, over 40%: refused.
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("b", count: 5).utf8))
    server.signal(SIGHUP)
    let refused = try await ServerProcess.onThread {
      try ServerProcess.eventually {
        let metrics = try RawHTTPConnection.get(port: port, "/metrics").body
        return ServerProcess.sample("stores_reloads_total{result=\"refused\"}", in: metrics) == 1
      }
    }
    #expect(refused, "\(server.log)")
    let line = server.log.split(separator: "\n").first { $0.contains("reload refused") } ?? ""
    #expect(line.contains(" error "), "\(line)")
    #expect(
      line.contains(
        "error=\(path): the new data has 5 stores, 50% fewer than the 10 served (the limit is 40%, "
          + "--max-store-loss); to accept it, restart the service (a startup loads without this check)"),
      "\(line)")
    #expect(
      try await ServerProcess.onThread { try RawHTTPConnection.get(port: port, "/v1/stores/a-10").status }
        == 200)
    // 10 to 7: 30% fewer, within 40%: taken.
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("c", count: 7).utf8))
    server.signal(SIGHUP)
    let taken = try await ServerProcess.onThread {
      try ServerProcess.eventually { try RawHTTPConnection.get(port: port, "/v1/stores/c-7").status == 200 }
    }
    #expect(taken, "\(server.log)")
    server.signal(SIGTERM)
    #expect(try await ServerProcess.onThread { server.exitStatus() } == 0)
  }

  @Test func maxStoreLossIsAShareFromZeroToAHundred() throws {
    for value in ["101", "-1", "nan", "1e400"] {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: BuiltBinaries.server)
      process.arguments = ["--data", TestService.bundledData, "--max-store-loss=\(value)", "--port", "0"]
      let errors = Pipe()
      process.standardError = errors
      process.standardOutput = FileHandle.nullDevice
      try process.run()
      let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      #expect(process.terminationStatus == 64, "\(value): \(text)")
      #expect(text.contains("--max-store-loss must be 0...100 percent (got "), "\(value): \(text)")
    }
  }
}
