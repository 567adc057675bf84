import OpeningHours
import StoreLocator
import StoresState
import Testing

/// What every state storage does, one function per behaviour, run by `SQLiteStateStorageTests`
/// and `PostgresStateStorageTests` against their own backend.
enum StateStorageBehaviours {
  static let noon = Instant(secondsSinceEpoch: 1_798_200_000)  // 2026-12-25T12:00:00Z

  static func date(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
    LocalDate(year: year, month: month, day: day)!
  }

  static func pause(_ reason: String, until: Instant? = noon + 3600) -> StoreStateChange {
    StoreStateChange(ordering: .paused(until: until, reason: reason))
  }

  static let closures = StoreStateChange(closures: [
    StoreClosure(from: .date(date(2027, 1, 5)), until: .date(date(2027, 1, 19)), reason: "renovation"),
    StoreClosure(
      from: .time(.instant(noon)),
      until: .time(.wallTime(LocalDateTime(date: date(2026, 12, 26), secondsIntoDay: 25_200))),
      reason: nil),
  ])

  static let specialDays = StoreStateChange(specialDays: [
    SpecialDay(date: date(2026, 12, 24), hours: "07:00-14:00", reason: "Christmas Eve"),
    SpecialDay(date: date(2026, 12, 24), hours: "off", reason: nil, service: "drive_through"),
  ])

  /// Changes come back from `load()` as `apply` answered them, members a change leaves out are
  /// kept, and a store never changed is `unchanged`.
  static func changesRoundTrip(_ backend: Backend) async throws {
    let storage = try await backend.open()
    let empty = try await storage.load()
    #expect(empty == .empty)

    let paused = try await storage.apply(pause("machine repair"), to: "s1", by: "alice", at: noon)
    #expect(paused.ordering == .paused(until: noon + 3600, reason: "machine repair"))
    let closed = try await storage.apply(closures, to: "s2", by: "bob", at: noon + 1)
    #expect(closed.closures == closures.closures)
    let special = try await storage.apply(specialDays, to: "s1", by: "alice", at: noon + 2)
    #expect(special.ordering == paused.ordering, "a change without ordering keeps the pause")
    #expect(special.specialDays == specialDays.specialDays)
    let resumed = try await storage.apply(
      StoreStateChange(ordering: .open), to: "s3", by: "cli", at: noon + 3)

    let states = try await storage.load()
    #expect(states.stores == ["s1": special, "s2": closed, "s3": resumed])
    #expect(states["s1"].changedAt == noon + 2)
    #expect(states["never-changed"] == .unchanged)
    #expect(states.version == resumed.version)
    await storage.close()
  }

  /// Every change makes the next version, one more than the last, for any store; a store's state
  /// carries the version of its own last change.
  static func versionsGrowByOne(_ backend: Backend) async throws {
    let storage = try await backend.open()
    #expect(try await storage.currentVersion() == 0)
    var expected: Int64 = 0
    for (index, id) in ["a", "b", "a", "c", "b"].enumerated() {
      let state = try await storage.apply(pause("step \(index)"), to: id, by: "cli", at: noon + Int64(index))
      expected += 1
      #expect(state.version == expected)
      #expect(try await storage.currentVersion() == expected)
    }
    let states = try await storage.load()
    #expect(states.version == 5)
    #expect(states["a"].version == 3)
    #expect(states["b"].version == 5)
    #expect(states["c"].version == 4)
    await storage.close()
  }

  /// The history lists a store's changes newest first, as given, with who and when, at most `limit`.
  static func historyNewestFirst(_ backend: Backend) async throws {
    let storage = try await backend.open()
    let changes = [pause("first"), specialDays, StoreStateChange(ordering: .open)]
    for (index, change) in changes.enumerated() {
      _ = try await storage.apply(
        change, to: "s1", by: ["alice", "bob", "cli"][index], at: noon + Int64(60 * index))
      _ = try await storage.apply(closures, to: "other", by: "carol", at: noon + Int64(60 * index + 1))
    }
    let history = try await storage.history(of: "s1", limit: 10)
    #expect(history.map(\.version) == [5, 3, 1])
    #expect(history.map(\.actor) == ["cli", "bob", "alice"])
    #expect(history.map(\.at) == [noon + 120, noon + 60, noon])
    #expect(history.map(\.change) == changes.reversed().map(\.jsonObject))
    #expect(history.allSatisfy { $0.storeID == "s1" })
    #expect(try await storage.history(of: "s1", limit: 2).map(\.version) == [5, 3])
    #expect(try await storage.history(of: "other", limit: 10).count == 3)
    #expect(try await storage.history(of: "nobody", limit: 10).isEmpty)
    #expect(try await storage.history(of: "s1", limit: 0).isEmpty)
    await storage.close()
  }

  /// A storage opened again on the same data (a restarted service) finds every state, version and
  /// history entry, and goes on from the last version.
  static func survivesRestart(_ backend: Backend) async throws {
    let first = try await backend.open()
    _ = try await first.apply(pause("before restart", until: nil), to: "s1", by: "alice", at: noon)
    _ = try await first.apply(closures, to: "s2", by: "bob", at: noon + 1)
    let states = try await first.load()
    let history = try await first.history(of: "s1", limit: 10)
    await first.close()

    let second = try await backend.open()
    #expect(try await second.load() == states)
    #expect(try await second.currentVersion() == 2)
    #expect(try await second.history(of: "s1", limit: 10) == history)
    let next = try await second.apply(StoreStateChange(ordering: .open), to: "s1", by: "cli", at: noon + 2)
    #expect(next.version == 3)
    await second.close()
  }

  /// A schema version above the one the build knows is refused at open, saying so.
  static func refusesNewerSchema(_ backend: Backend) async throws {
    let storage = try await backend.open()
    _ = try await storage.apply(pause("kept"), to: "s1", by: "alice", at: noon)
    await storage.close()
    try await backend.setSchemaVersion(99)
    let error = await #expect(throws: StateStorageError.self) { _ = try await backend.open() }
    #expect(error?.kind == .unreadable)
    #expect(error?.message.contains("schema version 99") == true, "\(error?.message ?? "")")
    #expect(error?.message.contains("newer") == true, "\(error?.message ?? "")")
  }

  /// Changes from many tasks at once get distinct, consecutive versions, and none is lost: each
  /// store's state is its newest change's, and its history has all of them.
  static func concurrentApplies(_ backend: Backend) async throws {
    let storage = try await backend.open()
    let count = 40
    let stores = ["s0", "s1", "s2", "s3"]
    let versions = try await withThrowingTaskGroup(of: (Int, Int64).self) { group in
      for index in 0..<count {
        group.addTask {
          let state = try await storage.apply(
            pause("task \(index)"), to: stores[index % stores.count], by: "task \(index)",
            at: noon + Int64(index))
          return (index, state.version)
        }
      }
      return try await group.reduce(into: [Int: Int64]()) { $0[$1.0] = $1.1 }
    }
    #expect(versions.values.sorted() == Array(1...Int64(count)))
    let states = try await storage.load()
    #expect(states.version == Int64(count))
    for (offset, id) in stores.enumerated() {
      let indices = stride(from: offset, to: count, by: stores.count)
      let newest = try #require(indices.max { versions[$0]! < versions[$1]! })
      #expect(states[id].version == versions[newest])
      #expect(states[id].ordering == .paused(until: noon + 3600, reason: "task \(newest)"))
      let history = try await storage.history(of: id, limit: count)
      #expect(Set(history.map(\.actor)) == Set(indices.map { "task \($0)" }))
      #expect(history.map(\.version) == indices.map { versions[$0]! }.sorted(by: >))
    }
    await storage.close()
  }

  /// Two storages on the same data (two replicas; the command line beside the service) see each
  /// other's changes and, writing at once, never make the same version.
  static func twoStoragesShareTheState(_ backend: Backend) async throws {
    let one = try await backend.open()
    let two = try await backend.open()
    let fromOne = try await one.apply(pause("one"), to: "s1", by: "one", at: noon)
    #expect(try await two.load()["s1"] == fromOne)
    let fromTwo = try await two.apply(closures, to: "s2", by: "two", at: noon + 1)
    #expect(try await one.load()["s2"] == fromTwo)
    #expect(try await one.currentVersion() == 2)

    let versions = try await withThrowingTaskGroup(of: Int64.self) { group in
      for index in 0..<20 {
        let storage = index.isMultiple(of: 2) ? one : two
        group.addTask {
          try await storage.apply(pause("\(index)"), to: "s\(index % 3)", by: "\(index)", at: noon).version
        }
      }
      return try await group.reduce(into: [Int64]()) { $0.append($1) }
    }
    #expect(versions.sorted() == Array(3...22))
    #expect(try await one.load() == two.load())
    await one.close()
    await two.close()
  }
}
