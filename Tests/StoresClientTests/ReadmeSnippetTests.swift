import Foundation
import StoresClient
import Testing

/// The README's "Call it from an app" snippet, compiled and run here against a live server; the
/// second test keeps the README's copy the same as these lines.
@Suite struct ReadmeSnippetTests {
  static let begin = "// README: Call it from an app (begin)"
  static let end = "// README: Call it from an app (end)"

  @Test func theSnippetFindsOpenStoresAndPlansAPickup() async throws {
    let server = try await Binaries.onThread { try LiveServer() }
    let serverURL = server.url
    // README: Call it from an app (begin)
    let stores = StoresClient(serverURL: serverURL)
    let here = Coordinate(latitude: 47.6062, longitude: -122.3321)
    let nearby = try await stores.nearest(to: here, count: 3, openNow: true)
    for store in nearby.stores {
      print(store.id, store.name ?? "", store.distanceM ?? 0, "m", store.state)
    }
    let plan = try await stores.pickup(near: here, readyIn: .seconds(15 * 60), store: nearby.stores.first?.id)
    if let store = plan.store, let pickupAt = plan.pickupAt {
      print("collect at \(store.id) from \(pickupAt.formatted(date: .omitted, time: .shortened))")
    }
    // README: Call it from an app (end)
    #expect(nearby.query.open)
    #expect(nearby.stores.allSatisfy { $0.state == .open })
    #expect(plan.status == .none || plan.store != nil)
  }

  @Test func theReadmeShowsTheseLines() throws {
    let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
    let tested = Self.lines(of: source, from: Self.begin, to: Self.end)
    let readme = try String(
      contentsOf: Binaries.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "## Call it from an app"))
    let code = try #require(readme[section.upperBound...].range(of: "let serverURL"))
    let block = readme[code.lowerBound...].prefix { $0 != "`" }
    let shown = block.split(separator: "\n").dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
    #expect(tested.count > 5)
    #expect(shown == tested)
  }

  /// The lines between the two marker lines, without their indentation.
  static func lines(of text: String, from begin: String, to end: String) -> [String] {
    let all = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
    guard let first = all.firstIndex(of: begin), let last = all.firstIndex(of: end) else { return [] }
    return Array(all[(first + 1)..<last])
  }
}
