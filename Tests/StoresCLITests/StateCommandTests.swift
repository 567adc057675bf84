import Foundation
import Testing

/// The commands that read and change the state against an SQLite file (`--state sqlite:PATH`):
/// a change made by `stores state` is what `nearest --state`, `slots` and `reservation` then read.
@Suite struct StateCommandTests {
  static let data = StoresProcess.repositoryRoot.appendingPathComponent("Data/stores.geojson").path
  static let now = "2026-11-25T18:00:00Z"

  /// A state file of its own in a fresh folder, removed after `body`.
  func withStateFile(_ body: (String) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "stores-state-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try body("sqlite:" + folder.appendingPathComponent("state.sqlite").path)
  }

  @Test func aPauseMadeByStateIsReadByNearestSlotsAndReservation() throws {
    try withStateFile { state in
      let pause = try StoresProcess.run([
        "state", "pause", "nw-0145", "--reason", "machine repair", "--state", state, "--data", Self.data,
      ])
      #expect(pause.status == 0, "\(pause.standardError)")
      let nearest = try StoresProcess.run([
        "nearest", "--near", "47.6062,-122.3321", "-k", "1", "--state", state, "--data", Self.data, "--now",
        Self.now, "--fields", "ordering,ordering_note", "--format", "json",
      ])
      #expect(nearest.status == 0, "\(nearest.standardError)")
      #expect(
        nearest.standardOutput.contains(#""id":"nw-0145","ordering":"paused""#), "\(nearest.standardOutput)")
      #expect(nearest.standardOutput.contains("machine repair"))
      let slots = try StoresProcess.run([
        "slots", "nw-0145", "--state", state, "--data", Self.data, "--now", Self.now, "--format", "json",
      ])
      #expect(slots.status == 0, "\(slots.standardError)")
      let reservation = try StoresProcess.run([
        "reservation", "show", "r_00000000000000000000000000", "--state", state, "--data", Self.data,
      ])
      #expect(
        reservation.standardError.contains("r_00000000000000000000000000"), "\(reservation.standardError)")
      #expect(!reservation.standardError.contains("Can't read a value"))
    }
  }

  @Test func aMalformedStateLocationIsRefusedBeforeAnythingRuns() throws {
    for command in [["slots", "nw-0145"], ["reservation", "show", "r_1"], ["state", "show", "nw-0145"]] {
      let outcome = try StoresProcess.run(command + ["--state", "mysql://x", "--data", Self.data])
      #expect(outcome.status == 64, "\(command): \(outcome.standardError)")
      #expect(outcome.standardError.contains("--state:"), "\(command): \(outcome.standardError)")
    }
  }
}
