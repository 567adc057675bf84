import StoresState
import Testing

/// `--state` as the command line and the service read it.
@Suite struct StateStorageLocationTests {
  @Test(arguments: [
    ("memory", StateStorageLocation.memory),
    ("sqlite:/var/lib/stores/state.sqlite", .sqlite(path: "/var/lib/stores/state.sqlite")),
    ("sqlite://var/state.sqlite", .sqlite(path: "var/state.sqlite")),
    ("sqlite:///var/state.sqlite", .sqlite(path: "/var/state.sqlite")),
    ("sqlite:state", .sqlite(path: "state")),
    ("data/state.sqlite", .sqlite(path: "data/state.sqlite")),
    ("/tmp/state.db", .sqlite(path: "/tmp/state.db")),
    ("postgres://stores:pw@db:5432/stores", .postgres(url: "postgres://stores:pw@db:5432/stores")),
    ("postgresql://db/stores", .postgres(url: "postgresql://db/stores")),
  ])
  func accepted(text: String, location: StateStorageLocation) throws {
    #expect(try StateStorageLocation(parsing: text) == location)
  }

  @Test(arguments: [
    "", "memroy", "state.json", "mysql://db/stores", "sqlite:", "postgres://", "postgres://db:99999/x",
  ])
  func refused(text: String) {
    let error = #expect(throws: StateStorageError.self) { try StateStorageLocation(parsing: text) }
    #expect(error?.kind == .badLocation)
    #expect(error?.message.contains("\"\(text)\"") == true || error?.message.contains("postgres://") == true)
  }

  @Test func refusalListsTheForms() {
    let error = #expect(throws: StateStorageError.self) { try StateStorageLocation(parsing: "memroy") }
    #expect(
      error?.message
        == "the state location \"memroy\" is not one this build reads; give \(StateStorageLocation.acceptedForms)"
    )
  }

  @Test func postgresURLParts() throws {
    let url = try PostgresURL(parsing: "postgresql://st%40res:p%3Ass@w@[::1]:6432/state%20db?sslmode=require")
    #expect(url.user == "st@res")
    #expect(url.password == "p:ss@w")
    #expect(url.host == "::1")
    #expect(url.port == 6432)
    #expect(url.database == "state db")
    #expect(url.sslMode == "require")
    #expect(url.redacted == "postgres://st@res@[::1]:6432/state db?sslmode=require")

    let defaults = try PostgresURL(parsing: "postgres://db.internal")
    #expect(defaults.user == "postgres")
    #expect(defaults.password == nil)
    #expect(defaults.port == 5432)
    #expect(defaults.database == "postgres")
    #expect(defaults.sslMode == "prefer")
  }

  @Test func passwordsAreNeverShown() {
    #expect(
      StateStorageLocation.postgres(url: "postgres://stores:hunter2@db/stores").description
        == "postgres://stores@db:5432/stores")
    let error = #expect(throws: StateStorageError.self) {
      try StateStorageLocation(parsing: "postgres://stores:hunter2@db:x/stores")
    }
    #expect(error?.message.contains("hunter2") == false, "\(error?.message ?? "")")
    #expect(error?.message.contains("postgres://stores:…@db:x/stores") == true, "\(error?.message ?? "")")
  }

  @Test func commandLineOpensNoPostgres() async throws {
    let error = await #expect(throws: StateStorageError.self) {
      _ = try await openStateStorage(.postgres(url: "postgres://stores@db/stores"))
    }
    #expect(error?.kind == .badLocation)
    #expect(error?.message.contains("--server") == true)
    let memory = try await openStateStorage(.memory)
    #expect(memory.location == "memory")
  }
}
