import Foundation
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
