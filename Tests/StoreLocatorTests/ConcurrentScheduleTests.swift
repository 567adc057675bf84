import Foundation
import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// A snapshot compiles each schedule group on first use, without a lock (`ScheduleSlots`): many
/// threads reaching the same groups at once for the first time must answer as one thread does.
@Suite struct ConcurrentScheduleTests {
  @Test func firstUseFromManyThreadsAnswersAsTheLoadedCatalog() async throws {
    let loaded = SnapshotTests.original
    let points = stride(from: -60.0, through: 60.0, by: 7.5).flatMap { latitude in
      stride(from: -170.0, through: 170.0, by: 20.0).map {
        Coordinate(uncheckedLatitude: latitude, longitude: $0)
      }
    }
    let times = try ["2026-11-25T15:00:00Z", "2026-12-25T09:30:00Z", "2027-04-05T22:00:00Z"].map {
      try TimeQuery(parsing: $0)
    }
    func answers(_ catalog: Catalog, _ range: Range<Int>) -> [String] {
      range.flatMap { index in
        times.map { time in
          StoreMatch.ndjsonText(catalog.withStatus(catalog.nearest(10, to: points[index]), at: time))
        }
      }
    }
    let expected = answers(loaded, 0..<points.count)
    #expect(expected.contains { $0.contains("\"state\":\"open\"") })
    #expect(expected.contains { $0.contains("\"state\":\"closed\"") })

    // A new snapshot for each round, so every group is compiled during the round; each task asks
    // every question, so they meet on the same groups at the same time.
    for _ in 0..<3 {
      let snapshot = try SnapshotTests.reopened(loaded)
      let results = await withTaskGroup(of: [String].self) { group in
        for _ in 0..<8 { group.addTask { answers(snapshot, 0..<points.count) } }
        return await group.reduce(into: []) { $0.append($1) }
      }
      #expect(results.count == 8)
      for result in results { #expect(result == expected) }
    }
  }
}
