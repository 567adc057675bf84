import Foundation
import Testing

@testable import StoresClient

/// What the convenience methods write into the query string and the pickup body.
@Suite struct WireFormatTests {
  @Test(arguments: [
    (Duration.seconds(45 * 60), "45m"), (.seconds(2 * 3600), "2h"), (.seconds(90 * 60), "90m"),
    (.seconds(2 * 86_400), "2d"), (.milliseconds(1500), "2s"), (.seconds(0), "0s"),
    (.seconds(100_001), "27h46m41s"),
  ])
  func durationsInTheLargestExactUnit(duration: Duration, written: String) {
    #expect(WireFormat.duration(duration) == written)
  }

  @Test func instantsAreWholeSecondsInUTC() throws {
    let date = try Date("2026-11-25T18:00:00Z", strategy: .iso8601).addingTimeInterval(0.75)
    #expect(WireFormat.instant(date) == "2026-11-25T18:00:00Z")
  }

  @Test func coordinatesAreLatitudeFirst() {
    #expect(WireFormat.latLon(Coordinate(latitude: 47.6062, longitude: -122.3321)) == "47.6062,-122.3321")
  }
}
