import Foundation
import StoreLocator
import Synchronization
import Testing

@testable import StoresAPI

/// Reloads asked for in a burst share loads (at most one running and one waiting), and a catalog
/// a reload replaced is released when the last request holding it ends.
@Suite struct ReloadCoalescingTests {
  /// Reloads counted by `/metrics`, whatever their result: the loads made.
  static func loads(_ metrics: ServiceMetrics) -> Double {
    ["success", "failure", "refused"].compactMap {
      ServerProcess.sample("stores_reloads_total{result=\"\($0)\"}", in: metrics.text)
    }.reduce(0, +)
  }

  @Test func thirtyReloadsAskedAtOnceMakeAtMostTwoLoads() async throws {
    // 5,000 stores: a load takes long enough (tenths of a second in a debug build) for the
    // whole burst to arrive while the first one runs.
    let path = try TestService.temporaryFile(ReloadTests.stores("a", count: 5_000))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let metrics = ServiceMetrics()
    let service = try ReloadTests.service(path: path, metrics: metrics)
    let served = try #require(service.store.current).version

    let versions = await withTaskGroup(of: String?.self) { group in
      for _ in 0..<30 {
        group.addTask { await service.reloader.reload(trigger: "SIGHUP").loaded?.version }
      }
      var versions: [String?] = []
      for await version in group { versions.append(version) }
      return versions
    }
    // Every caller is answered, each with a reload that read the file.
    #expect(versions.count == 30)
    #expect(versions.allSatisfy { $0 == served }, "\(versions)")
    let loads = Self.loads(metrics)
    #expect((1...2).contains(loads), "\(loads) loads for 30 reloads asked at once")
  }

  /// A reload asked for while another loads waits for it and then reads the file as it is: the
  /// file renamed before it was asked is the one served. Here the first load has read file A and
  /// is held at a gate; B is renamed over it; 29 callers ask (one of them with force, as B has
  /// half the stores); the gate opens. Two loads in all: A for the first caller, B for the 29.
  @Test func reloadsAskedWhileOneRunsShareTheNextLoadWhichReadsTheFileAsItIsThen() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a", count: 10))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let source = CatalogSource(path: path)
    let store = CatalogStore(try source.load())
    let versionA = try #require(store.current).version
    let metrics = ServiceMetrics()
    let loads = Atomic<Int>(0)
    let (gate, opening) = AsyncStream<Void>.makeStream()
    let reloader = Reloader(
      source: source, store: store, metrics: metrics, logger: TestLog().logger,
      storeLossGuard: StoreLossGuard(),
      load: { () async throws(CatalogError) -> LoadedCatalog in
        // Counted once the file is read: the test renames B over A when it sees the first load
        // counted. Counted before reading, a first load that the busy machine held between the
        // count and the read read B instead (half the stores, so refused), as one full run did.
        let loaded = try source.load()
        let number = loads.add(1, ordering: .sequentiallyConsistent).newValue
        if number == 1 { for await _ in gate { break } }
        return loaded
      })

    // Unstructured tasks, and the gate opened however the test ends: a failed step must not
    // leave the test waiting for ever on a load held at the gate.
    defer { opening.finish() }
    let first = Task { await reloader.reload(trigger: "first") }
    try #require(await ServerProcess.eventuallyAsync { loads.load(ordering: .sequentiallyConsistent) == 1 })
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("b", count: 5).utf8))
    let later = Task {
      await withTaskGroup(of: String?.self) { group in
        for number in 0..<29 {
          group.addTask { await reloader.reload(trigger: "later", force: number == 13).loaded?.version }
        }
        var versions: [String?] = []
        for await version in group { versions.append(version) }
        return versions
      }
    }
    try #require(await ServerProcess.eventuallyAsync { await reloader.waitingCallers == 29 })
    #expect(loads.load(ordering: .sequentiallyConsistent) == 1)
    opening.yield()

    #expect(await first.value.loaded?.version == versionA)
    let versions = await later.value
    let versionB = try #require(store.current).version
    #expect(versionB != versionA)
    #expect(store.current?.catalog.stores.count == 5)
    #expect(versions.count == 29)
    #expect(versions.allSatisfy { $0 == versionB }, "\(versions)")
    #expect(loads.load(ordering: .sequentiallyConsistent) == 2)
    #expect(metrics.text.contains("stores_reloads_total{result=\"success\"} 2"))
    // 28 of the 29 joined the one that waited first.
    #expect(metrics.text.contains("stores_reloads_coalesced_total 28"))
  }

  @Test func aCatalogReplacedByAReloadIsReleasedWhenItsLastRequestEnds() async throws {
    let path = try TestService.temporaryFile(ReloadTests.stores("a"))
    defer { try? FileManager.default.removeItem(atPath: path) }
    let service = try ReloadTests.service(path: path, metrics: ServiceMetrics())
    weak let first = service.store.current
    // What a request in flight holds: the catalog it took when it arrived.
    var request = service.store.current
    try #require(first != nil)

    try ReloadTests.replace(path, with: Data(ReloadTests.stores("b").utf8))
    _ = await service.reloader.reload(trigger: "test")
    #expect(service.store.current?.catalog.stores.first?.id == "b-1")
    // The request still answers from the data it started with.
    #expect(first != nil, "released while a request still holds it")
    #expect(request?.catalog.stores.first?.id == "a-1")
    request = nil
    #expect(first == nil, "the replaced catalog outlives its last request")

    // The same through the admin route, with no request holding the data: released at once.
    weak let second = service.store.current
    try #require(second != nil)
    try ReloadTests.replace(path, with: Data(ReloadTests.stores("c").utf8))
    try await TestService.application(service).test(.router) { client in
      let reloaded = try await client.post("/admin/reload", json: "", headers: ReloadTests.authorized)
      #expect(reloaded.status == .ok)
      #expect(try await client.get("/v1/stores/c-1").status == .ok)
    }
    #expect(second == nil, "the replaced catalog outlives the reload")
    #expect(service.store.current?.catalog.stores.first?.id == "c-1")
  }
}
