import Foundation
import Testing

@testable import OpeningHours

/// `OpeningHours.normalized`: the canonical spelling, and the property that it parses without
/// warnings, to the same rules, and means the same at every instant tried.
@Suite("Canonical form")
struct CanonicalFormTests {
  @Test(
    "tolerated deviations come out in the specification's spelling",
    arguments: [
      Spelling(text: "mo-fr 9am-5pm; PH closed", normalized: "Mo-Fr 09:00-17:00; PH off"),
      Spelling(text: "Mo–Fr 08:00—18:00", normalized: "Mo-Fr 08:00-18:00"),
      Spelling(text: "Monday-Friday 8:30-17:00", normalized: "Mo-Fr 08:30-17:00"),
      Spelling(text: "Mo to Fr 8.30-17.00", normalized: "Mo-Fr 08:30-17:00"),
      Spelling(text: "Mo-Fr 0900-1730", normalized: "Mo-Fr 09:00-17:30"),
      Spelling(text: "Mo-Fr 8h-12h,14h-18h30", normalized: "Mo-Fr 08:00-12:00,14:00-18:30"),
      Spelling(text: "Mo-Fr 09:00-18:00 Sa 10:00-14:00", normalized: "Mo-Fr 09:00-18:00; Sa 10:00-14:00"),
      Spelling(text: "Mo-Fr08:00-18:00;", normalized: "Mo-Fr 08:00-18:00"),
      Spelling(text: "Mo 10:00-12:00;; Tu off", normalized: "Mo 10:00-12:00; Tu off"),
      Spelling(text: "10am-6pm Mon-Fri", normalized: "Mo-Fr 10:00-18:00"),
      Spelling(text: "Su PH off", normalized: "PH Su off"),
      Spelling(text: "Mo-Su 24/7", normalized: "Mo-Su 00:00-24:00"),
      Spelling(text: "10:00-16:00/01:30", normalized: "10:00-16:00"),
      Spelling(text: "Sa, 10:00-12:00", normalized: "Sa 10:00-12:00"),
      Spelling(text: "Mo-Fr: 08:00-18:00", normalized: "Mo-Fr 08:00-18:00"),
      Spelling(text: "08:00-12:00 14:00-18:00", normalized: "08:00-12:00,14:00-18:00"),
      Spelling(text: "Apr: 22:00-23:00", normalized: "Apr 22:00-23:00"),
      Spelling(text: "Sept 10:00-12:00", normalized: "Sep 10:00-12:00"),
      Spelling(text: "24/7 closed \"always closed\"", normalized: "24/7 off \"always closed\""),
      Spelling(text: "Mo-Sa 11am-12am", normalized: "Mo-Sa 11:00-24:00"),
      Spelling(
        text: "Tu-Sa 10:00-18:00, We 12:00-13:00 closed", normalized: "Tu-Sa 10:00-18:00, We 12:00-13:00 off"),
      Spelling(text: "Sa[1,2,3,5] 10:00-12:00", normalized: "Sa[1-3,5] 10:00-12:00"),
      Spelling(text: "week 1-26/2 Mo 10:00-12:00", normalized: "week 01-26/2 Mo 10:00-12:00"),
      Spelling(text: "Dec 24-Dec 26 off", normalized: "Dec 24-26 off"),
      // `4pm-11pm Mon-Thu, 4pm-12am` is refused now (which days have 4pm-12am?): MisreadingTests.
      Spelling(
        text: "8am-6pm Mon-Thu, 8am-11:30am Sat, Sun closed",
        normalized: "Mo-Th 08:00-18:00, Sa 08:00-11:30, Su off"),
    ])
  func spelling(_ s: Spelling) throws {
    let hours = try OpeningHours(parsing: s.text)
    #expect(!hours.warnings.isEmpty || s.text != s.normalized)
    #expect(hours.normalized == s.normalized)
    #expect(try OpeningHours(parsing: hours.normalized).warnings.isEmpty)
  }

  @Test(
    "values already in the specification's spelling are left as they are",
    arguments: [
      "24/7", "Mo-Fr 09:00-18:00; Sa 10:00-14:00; PH off", "Fr-Mo 22:00-02:00", "Mo,We,Fr 06:30-21:30",
      "Mo-Fr 10:00-18:00+", "18:00+", "sunrise-sunset", "(sunset-01:00)-24:00", "dawn-(sunrise+00:30)",
      "\"by appointment\"", "Mo-Fr 08:00-12:00 \"call us\"", "Mo 10:00-12:00 open",
      "Mo-Sa 08:00-13:00,14:00-17:00 || \"by appointment\"", "Su,PH off", "PH Su 10:00-12:00",
      "PH +1 day off",
      "SH Mo-Fr 08:00-12:00", "2026", "2025-2027 Jan", "2020-2029/3 Jun-Aug", "2026+ Mo 10:00-12:00",
      "Jun-Aug Mo-Fr 08:00-20:00", "Nov-Feb 10:00-16:00", "2026 Jan", "Dec 25 off", "Dec 24-26 off",
      "Dec 24-Jan 02 off", "2026 Dec 24-2027 Jan 02 off", "Feb 29", "easter",
      "easter -2 days-easter +2 days off",
      "Mar Su[-1]-Oct Su[-1] 10:00-18:00", "Mar Su[-1]-Dec Su[1] -2 days", "Su[-1] 10:00-12:00", "Mo[1,3]",
      "Sa[-1] +1 day 10:00-12:00", "week 01-53/2 Fr 07:05-08:00", "week 50-02", "week 01,03 10:00-12:00",
      "20:00-48:00", "10:00-10:00", "Mo 10:00-12:00; Tu-Fr 10:00-12:00,13:00-18:00 unknown \"maybe\"",
    ])
  func canonicalValuesStay(text: String) throws {
    let hours = try OpeningHours(parsing: text)
    #expect(hours.warnings.isEmpty)
    #expect(hours.normalized == text)
  }

  @Test("a doubtful value keeps its meaning, and so its warning")
  func doubtful() throws {
    let hours = try OpeningHours(parsing: "Dec 25 +12345678901 days off")
    #expect(hours.normalized == "Dec 25 +123456789 days off")
    #expect(try OpeningHours(parsing: hours.normalized).warnings.map(\.code) == ["large-day-offset"])
  }

  // MARK: - The property, on every value of the corpus and the reference engines' test suites

  /// Every value of `../shared/corpus/hours/*` and of the peer suites' `oh` members.
  static func sharedValues() -> [String]? {
    guard let corpus = Corpus.directory else { return nil }
    var values: [String] = []
    for file in ["osm_real_messy.txt", "french_poi_sample.txt", "atp_normalised.txt"] {
      values += (Corpus.lines(file) ?? []).filter { !$0.hasPrefix("#") }
    }
    if let data = FileManager.default.contents(atPath: corpus + "/../peer-hours/peer_cases.jsonl") {
      for line in data.split(separator: UInt8(ascii: "\n")) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
          let value = object["oh"] as? String
        else { continue }
        values.append(value)
      }
    } else {
      print("note: ../shared/peer-hours/peer_cases.jsonl is absent; the corpus alone is checked")
    }
    var seen = Set<String>()
    return values.filter { seen.insert($0).inserted }
  }

  /// The rules without their character ranges, which differ between two spellings, and with
  /// `Mo-Su` (which the canonical form may write before an additional rule's times) as no selector.
  static func shape(_ hours: OpeningHours) -> [Rule] {
    let everyDay = WeekdaySelector(
      weekdays: [WeekdayRange(from: 0, to: 6, nth: [], offsetDays: 0)], holidays: [], intersect: false)
    return hours.rules.map { rule in
      var rule = rule
      rule.range = 0..<0
      if rule.weekdays == everyDay { rule.weekdays = nil }
      return rule
    }
  }

  struct Place {
    let zone: TimeZoneRules
    let latitude: Double
    let longitude: Double
    let holidays: HolidayCalendar?
  }

  @Test("the normalized form parses without warnings, to the same rules, and evaluates identically")
  func property() throws {
    guard let values = Self.sharedValues() else {
      print("skipped: ../shared is absent (corpus and peer suites)")
      return
    }
    let places = [
      Place(
        zone: try TimeZoneRules(identifier: "Europe/Berlin"), latitude: 52.52, longitude: 13.405,
        holidays: Fixture.germany),
      Place(
        zone: try TimeZoneRules(identifier: "America/New_York"), latitude: 40.71, longitude: -74.01,
        holidays: nil),
      Place(
        zone: try TimeZoneRules(identifier: "Australia/Sydney"), latitude: -33.87, longitude: 151.21,
        holidays: nil),
    ]
    // A few hundred instants from 2025 to 2027, the same for every value: a fixed pseudo-random
    // sequence, half of them on whole minutes (where boundaries are).
    var seed: UInt64 = 0x5EED_2026
    var instants: [Instant] = []
    let start: Int64 = 1_735_689_600  // 2025-01-01T00:00:00Z
    for index in 0..<240 {
      seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      var seconds = Int64((seed >> 33) % (3 * 365 * 86_400))
      if index % 2 == 0 { seconds -= seconds % 60 }
      instants.append(Instant(secondsSinceEpoch: start + seconds))
    }
    let started = Corpus.monotonicSeconds()
    var parsed = 0
    var warned = 0
    var changedWithoutWarnings = 0
    var checks = 0
    for value in values {
      guard let hours = try? OpeningHours(parsing: value) else { continue }
      parsed += 1
      if !hours.warnings.isEmpty { warned += 1 }
      let normalized = hours.normalized
      if hours.warnings.isEmpty, normalized != value { changedWithoutWarnings += 1 }
      let again: OpeningHours
      do {
        again = try OpeningHours(parsing: normalized)
      } catch {
        Issue.record("\(value) -> \(normalized): \(error)")
        continue
      }
      let doubtful = hours.warnings.contains(where: \.isDoubtful)
      #expect(
        again.warnings.isEmpty || (doubtful && again.warnings.allSatisfy(\.isDoubtful)),
        "\(value) -> \(normalized): \(again.warnings)")
      #expect(Self.shape(again) == Self.shape(hours), "\(value) -> \(normalized)")
      #expect(again.normalized == normalized, "\(value): normalizing twice")
      // Each instant in one of the places, in turn: states and next changes must agree.
      let pairs = places.map { place in
        (
          Schedule(
            hours, timeZone: place.zone, holidays: place.holidays, latitude: place.latitude,
            longitude: place.longitude),
          Schedule(
            again, timeZone: place.zone, holidays: place.holidays, latitude: place.latitude,
            longitude: place.longitude)
        )
      }
      for (index, instant) in instants.enumerated() {
        let (a, b) = pairs[index % pairs.count]
        checks += 1
        // The next change within 40 days, and at every 40th instant within the usual 400: a
        // value that never changes (`2013 Dec 24 off`) scans the whole horizon each time.
        let horizon = index % 40 == 0 ? 400 : 40
        guard a.status(at: instant) == b.status(at: instant),
          a.nextChange(after: instant, horizonDays: horizon)
            == b.nextChange(after: instant, horizonDays: horizon)
        else {
          Issue.record("\(value) -> \(normalized): differs at \(instant) in \(a.timeZone.identifier)")
          break
        }
      }
    }
    print(
      "canonical form: \(values.count) values, \(parsed) parse (\(warned) with warnings, "
        + "\(changedWithoutWarnings) respelled without any); \(checks) instants compared "
        + "(\(instants.count) per value, \(places.count) zones) in \(Corpus.monotonicSeconds() - started) s")
    #expect(parsed > 1_000)
  }
}
