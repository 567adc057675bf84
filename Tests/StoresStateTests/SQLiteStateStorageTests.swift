import Foundation
import StoreLocator
import StoresState
import Testing

/// `StateStorageBehaviours` on a temporary SQLite file, and what is SQLite's own: a file that is
/// not a database, a folder that does not exist.
@Suite struct SQLiteStateStorageTests {
  @Test func changesRoundTrip() async throws {
    try await Backend.with(Backend.sqlite, StateStorageBehaviours.changesRoundTrip)
  }

  @Test func versionsGrowByOne() async throws {
    try await Backend.with(Backend.sqlite, StateStorageBehaviours.versionsGrowByOne)
  }

  @Test func historyNewestFirst() async throws {
    try await Backend.with(Backend.sqlite, StateStorageBehaviours.historyNewestFirst)
  }

  @Test func survivesRestart() async throws {
    try await Backend.with(Backend.sqlite, StateStorageBehaviours.survivesRestart)
  }

  @Test func refusesNewerSchema() async throws {
    try await Backend.with(Backend.sqlite, StateStorageBehaviours.refusesNewerSchema)
  }

  @Test func concurrentApplies() async throws {
    try await Backend.with(Backend.sqlite, StateStorageBehaviours.concurrentApplies)
  }

  @Test func twoStoragesShareTheState() async throws {
    try await Backend.with(Backend.sqlite, StateStorageBehaviours.twoStoragesShareTheState)
  }

  @Test func fileThatIsNotADatabase() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-state-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let path = folder.appendingPathComponent("notes.db").path
    try String(repeating: "these are my notes, not a database\n", count: 100).write(
      toFile: path, atomically: true, encoding: .utf8)

    let error = await #expect(throws: StateStorageError.self) {
      _ = try await SQLiteStateStorage.open(path: path)
    }
    #expect(error?.kind == .unreadable)
    #expect(error?.message.contains(path) == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("not an SQLite database") == true, "\(error?.message ?? "")")
    // The file is left as it was.
    #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("these are my notes"))
  }

  @Test func folderThatDoesNotExist() async throws {
    let path = "/nonexistent-\(UInt64.random(in: 0...UInt64.max))/state.sqlite"
    let error = await #expect(throws: StateStorageError.self) {
      _ = try await SQLiteStateStorage.open(path: path)
    }
    #expect(error?.kind == .unavailable)
    #expect(error?.message.contains(path) == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("cannot be opened") == true, "\(error?.message ?? "")")
  }

  /// A writer killed with SIGKILL in the middle of its changes leaves every change whole or
  /// absent: each store's state is its newest history entry's, the versions have no gap, and the
  /// file takes the next change. The writer is this test binary again, running
  /// `writerToBeKilled` in a child process.
  @Test func killedWriterLeavesWholeChanges() async throws {
    #if os(Linux)
      try await Backend.with(Backend.sqlite) { backend in
        let probe = try await backend.open()
        let path = String(probe.location.dropFirst("sqlite:".count))
        let child = try spawn(
          [CommandLine.arguments[0], "--testing-library", "swift-testing", "--filter", "writerToBeKilled"],
          output: "/dev/null", environment: ["STORES_TEST_SQLITE_WRITER=\(path)"], quiet: true)
        // Kill it once it is well under way (a change is a few milliseconds).
        let clock = ContinuousClock()
        let start = clock.now
        while try await probe.currentVersion() < 200, clock.now - start < .seconds(60) {
          try await Task.sleep(for: .milliseconds(10))
        }
        kill(child, SIGKILL)
        _ = wait(for: child)
        await probe.close()

        let storage = try await backend.open()
        let version = try await storage.currentVersion()
        #expect(version >= 200)
        let states = try await storage.load()
        var changes = 0
        for (id, state) in states.stores {
          let history = try await storage.history(of: id, limit: Int(version))
          changes += history.count
          let newest = try #require(history.first)
          #expect(state.version == newest.version)
          #expect(StoreStateChange(ordering: state.ordering).jsonObject == newest.change)
        }
        #expect(Int64(changes) == version, "every version has its change")
        #expect(
          try await storage.apply(
            StateStorageBehaviours.pause("after"), to: "s0", by: "cli", at: .init(secondsSinceEpoch: 0)
          ).version == version + 1)
        await storage.close()
      }
    #endif
  }

  /// The writer `killedWriterLeavesWholeChanges` kills: changes, one after another, until killed.
  @Test(
    .enabled(
      if: ProcessInfo.processInfo.environment["STORES_TEST_SQLITE_WRITER"] != nil,
      "runs only as the child process of killedWriterLeavesWholeChanges"))
  func writerToBeKilled() async throws {
    let path = try #require(ProcessInfo.processInfo.environment["STORES_TEST_SQLITE_WRITER"])
    let storage = try await SQLiteStateStorage.open(path: path)
    for index in 0..<1_000_000 {
      _ = try await storage.apply(
        StateStorageBehaviours.pause("change \(index)"), to: "s\(index % 7)", by: "writer",
        at: StateStorageBehaviours.noon)
    }
    await storage.close()
  }

  @Test func announcesNothing() async throws {
    try await Backend.with(Backend.sqlite) { backend in
      let storage = try await backend.open()
      #expect(storage.announcements() == nil)
      #expect(storage.location.hasPrefix("sqlite:/"))
      await storage.close()
      // A closed storage says so instead of touching a closed handle.
      let error = await #expect(throws: StateStorageError.self) { _ = try await storage.currentVersion() }
      #expect(error?.kind == .unavailable)
    }
  }
}
