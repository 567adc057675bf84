import OpeningHours
import Testing

@testable import StoreLocator

/// The zone names suggested for one that is not a zone (`stores hours --timezone`, issue 26 §5).
@Suite struct TimeZoneSuggestionsTests {
  static let known = TimeZoneRules.identifiers()

  @Test func theSystemDatabaseListsZonesAndLinks() {
    #expect(Self.known.count > 300)
    for name in ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "UTC", "US/Pacific"] {
      #expect(Self.known.contains(name), "\(name)")
    }
    // Every name listed loads.
    for name in Self.known.prefix(50) { #expect((try? TimeZoneRules(identifier: name)) != nil, "\(name)") }
    #expect(TimeZoneRules.identifiers(in: "/nonexistent").isEmpty)
  }

  @Test(arguments: [
    ("Europe/Berlinn", ["Europe/Berlin"]),
    ("europe/berlin", ["Europe/Berlin"]),
    ("EUROPE/PARIS", ["Europe/Paris"]),
    ("Berlin", ["Europe/Berlin"]),
    ("New York", ["America/New_York"]),
    ("new_york", ["America/New_York"]),
    ("America/Sao_Paolo", ["America/Sao_Paulo"]),
    ("Europ/Paris", ["Europe/Paris"]),
    ("Xyzzy/Nowhere", []),
    ("", []),
  ])
  func closestNames(_ name: String, _ expected: [String]) {
    #expect(TimeZoneSuggestions.closest(to: name, among: Self.known) == expected)
  }

  @Test func theMessageAddsTheSuggestionToTheError() throws {
    var refused: TimeZoneRulesError?
    do throws(TimeZoneRulesError) { _ = try TimeZoneRules(identifier: "Asia/Tokio") } catch {
      refused = error
    }
    let error = try #require(refused)
    let message = TimeZoneSuggestions.message(for: error)
    #expect(message.hasPrefix(error.description))
    #expect(message.hasSuffix("; did you mean Asia/Tokyo?"))
  }
}
