import Foundation
import Testing

@testable import OpeningHours

/// `spill-erased` (issue 26): a later `;` rule replaces a day into which an earlier rule runs past
/// midnight, so that night closes at midnight. The evaluation stays as the specification says;
/// the warning names the nights and gives a value that keeps them, checked here by evaluation.
@Suite("Spill erased")
struct SpillErasureTests {
  static let manila = "Mo-Th 05:30-02:30; Fr 05:30-03:30; Sa 05:30-02:30; Su 06:00-01:30"

  static func spillWarning(_ text: String, holidays: HolidayCalendar? = nil) throws -> OpeningHoursWarning? {
    try Fixture.schedule(text, holidays: holidays).warnings.first { $0.code == "spill-erased" }
  }

  @Test("the Manila store's value: the nights into Friday, Saturday and Sunday are kept by the fix-it")
  func manila() throws {
    let warning = try #require(try Self.spillWarning(Self.manila))
    #expect(
      warning.fixIt
        == "Mo-Th 05:30-02:30; Fr 00:00-02:30,05:30-03:30; Sa 00:00-03:30,05:30-02:30; Su 00:00-02:30,06:00-01:30"
    )
    #expect(warning.isDoubtful)
    #expect(warning.message.contains("Friday 00:00-02:30 (replaced by `Fr 05:30-03:30`)"))
    #expect(warning.message.contains("Saturday 00:00-03:30 (replaced by `Sa 05:30-02:30`)"))
    #expect(warning.message.contains("Sunday 00:00-02:30 (replaced by `Su 06:00-01:30`)"))
    #expect(warning.message.hasSuffix("; write it as `\(warning.fixIt!)`"))
    // The warning starts at the first rule that erases a night.
    #expect(warning.range == 19..<33)

    // The answers stay the specification's: Thursday 2026-11-26 runs to midnight only.
    let original = try Fixture.schedule(Self.manila)
    let fixed = try Fixture.schedule(warning.fixIt!)
    #expect(original.status(at: Fixture.at(2026, 11, 26, 23, 30)).state == .open)
    #expect(original.status(at: Fixture.at(2026, 11, 27, 1, 0)).state == .closed)
    #expect(fixed.status(at: Fixture.at(2026, 11, 27, 1, 0)).state == .open)
    #expect(fixed.status(at: Fixture.at(2026, 11, 27, 2, 45)).state == .closed)
    // Friday night runs to 03:30 on Saturday, Saturday night to 02:30 on Sunday.
    #expect(fixed.status(at: Fixture.at(2026, 11, 28, 3, 15)).state == .open)
    #expect(original.status(at: Fixture.at(2026, 11, 28, 3, 15)).state == .closed)
    #expect(fixed.status(at: Fixture.at(2026, 11, 29, 2, 15)).state == .open)
    // Sunday night into Monday was never erased: `Mo-Th` comes first.
    #expect(original.status(at: Fixture.at(2026, 11, 30, 1, 0)).state == .open)
    #expect(try Self.spillWarning(warning.fixIt!) == nil)
    try Self.checkFixIt(Self.manila)
  }

  @Test(
    "a later rule with other hours for the day erases the night, and the fix-it keeps it",
    arguments: [
      // Wrapping from Sunday into Monday.
      ("Su 20:00-03:00; Mo 10:00-12:00", "Su 20:00-03:00; Mo 00:00-03:00,10:00-12:00"),
      // A range of days of which only the first follows a night.
      ("Mo-Su 18:00-02:00; Fr-Su 10:00-16:00", "Mo-Su 18:00-02:00; Fr-Su 10:00-16:00, Fr 00:00-02:00"),
      ("Mo-Th 18:00-02:00; Fr,Sa 10:00-16:00", "Mo-Th 18:00-02:00; Fr,Sa 10:00-16:00, Fr 00:00-02:00"),
      // A date: every Dec 25 follows a night of `Mo-Su`.
      ("Mo-Su 18:00-02:00; Dec 25 10:00-14:00", "Mo-Su 18:00-02:00; Dec 25 00:00-02:00,10:00-14:00"),
      // The night has a comment the later rule lacks: an additional rule says it.
      (
        #"Mo-Th 18:00-02:00 "bar"; Fr 10:00-12:00"#,
        #"Mo-Th 18:00-02:00 "bar"; Fr 10:00-12:00, Fr 00:00-02:00 open "bar""#
      ),
      // A fallback would fill the erased night with "call".
      (
        #"Mo-Th 18:00-02:00; Fr 10:00-12:00 || "call""#,
        #"Mo-Th 18:00-02:00; Fr 00:00-02:00,10:00-12:00 || "call""#
      ),
      // Up to 48:00: the later rule leaves two gaps in the spilled day.
      ("Fr 20:00-48:00; Sa 10:00-12:00", "Fr 20:00-48:00; Sa 00:00-10:00,10:00-12:00,12:00-24:00"),
      // Tolerated spelling: the fix-it is the canonical form.
      ("Mo–Th 05:30-02:30; Fr 05:30-03:30", "Mo-Th 05:30-02:30; Fr 00:00-02:30,05:30-03:30"),
    ])
  func erased(_ text: String, fixIt: String) throws {
    let warning = try #require(try Self.spillWarning(text))
    #expect(warning.fixIt == fixIt)
    try Self.checkFixIt(text)
  }

  @Test(
    "no warning where nothing is erased, or the author closed the day outright",
    arguments: [
      // `off` says the whole day is closed: taken at its word (docs/opening-hours.md).
      "Mo-Fr 18:00-02:00; Sa off", "Mo-Su 18:00-02:00; PH off", "Mo-Su 18:00-02:00; Dec 25 off",
      "Mo-Su 22:00-02:00; We off", #"Mo-Su 18:00-02:00; Sa closed "renovation""#,
      // Additional rules do not erase.
      "Mo-Th 18:00-02:00, Fr 10:00-12:00",
      // Already written so: the later rule keeps the night itself.
      "Mo-Th 18:00-02:00; Fr 00:00-02:00,10:00-12:00",
      // No night past midnight.
      "24/7; Sa 10:00-12:00", "Mo-Th 18:00+; Fr 10:00-12:00", "Mo-Fr 09:00-18:00; Sa 10:00-14:00",
      "Mo-Fr 10:00-24:00; Sa 10:00-14:00",
      // The later rule replaces the day the night starts on as well: its hours are that day's.
      "Mo-Su 22:00-02:00; Fr-Sa 10:00-12:00 off", "Mo-Fr 20:00-04:00; 24/7",
      // A rule for the whole day paints over the night, with its own state.
      "Mo-Su 18:00-02:00; Fr unknown", "Mo-Su 18:00-02:00; Fr 00:00-24:00",
      // A closed rule with times closes only those times.
      "Mo-Su 18:00-02:00; Fr 01:00-02:00 off",
      // A later rule's own night is not erased by an earlier rule.
      "Mo 10:00-12:00; Su 20:00-03:00",
    ])
  func notErased(_ text: String) throws {
    #expect(try Self.spillWarning(text) == nil)
  }

  @Test("holidays: a PH rule with hours erases the night before it on a holiday")
  func publicHolidays() throws {
    let text = "Mo-Su 18:00-02:00; PH 10:00-16:00"
    let warning = try #require(try Self.spillWarning(text, holidays: Fixture.germany))
    #expect(warning.message.contains("replaced by `PH 10:00-16:00`"))
    // 2026-12-25 (a holiday) follows a night; 2026-12-26 follows the holiday, whose own hours end at 16:00.
    let schedule = try Fixture.schedule(text, holidays: Fixture.germany)
    #expect(schedule.status(at: Fixture.at(2026, 12, 25, 1, 0)).state == .closed)
    if let fixIt = warning.fixIt {
      let fixed = try Fixture.schedule(fixIt, holidays: Fixture.germany)
      #expect(fixed.status(at: Fixture.at(2026, 12, 25, 1, 0)).state == .open)
    }
  }

  // MARK: - The fix-it, by evaluation

  /// The fix-it of `text` differs from `text` only right after a night that ran to midnight,
  /// where it is not closed; it differs somewhere; it gets no `spill-erased` of its own. Checked
  /// every 15 minutes of a year in UTC (and its eve, for the night into the year): the year of the
  /// first night erased (`2014 PH 08:00-02:00` erases nights in 2014 only).
  static func checkFixIt(
    _ text: String, holidays: HolidayCalendar? = nil, sourceLocation: SourceLocation = #_sourceLocation
  )
    throws
  {
    let original = try Fixture.schedule(text, holidays: holidays)
    guard let fixIt = original.warnings.first(where: { $0.code == "spill-erased" })?.fixIt else {
      Issue.record("no fix-it for \(text)", sourceLocation: sourceLocation)
      return
    }
    let fixed = try Fixture.schedule(fixIt, holidays: holidays)
    #expect(
      !fixed.warnings.contains { $0.code == "spill-erased" }, "\(fixIt) warns again",
      sourceLocation: sourceLocation)
    var differing = 0
    let evaluator = original.evaluator
    let firstNight = try #require(
      SpillErasures.erasures(in: evaluator, days: SpillErasures.days(toCheck: evaluator)).first)
    let year = LocalDate(daysSinceEpoch: firstNight.day).year
    var instant = Fixture.at(year - 1, 12, 31)
    let end = Fixture.at(year + 1, 1, 1)
    while instant < end {
      defer { instant = instant + 900 }
      let before = original.status(at: instant)
      let after = fixed.status(at: instant)
      guard before != after else { continue }
      differing += 1
      let midnight = instant - Int64(instant.secondsSinceEpoch % 86_400)
      let nightBefore = original.status(at: midnight - 900)
      guard after.state != .closed, nightBefore.state != .closed else {
        Issue.record(
          "\(fixIt) differs from \(text) at \(instant.secondsSinceEpoch) (\(before) → \(after)), not in a kept night",
          sourceLocation: sourceLocation)
        return
      }
    }
    #expect(differing > 0, "\(fixIt) changes nothing of \(text)", sourceLocation: sourceLocation)
  }

  @Test("generated weekly values: every warning has a fix-it, and it keeps exactly the erased nights")
  func generated() throws {
    var random = SeededRandom(seed: 26)
    var warned = 0
    for _ in 0..<400 {
      let text = Self.randomValue(&random)
      guard let warning = try? Self.spillWarning(text) else { continue }
      warned += 1
      #expect(warning.fixIt != nil, "no fix-it for \(text)")
      if warning.fixIt != nil { try Self.checkFixIt(text) }
    }
    // The generator makes nights past midnight followed by `;` rules often.
    #expect(warned > 50)
  }

  @Test("corpus values: every fix-it offered keeps exactly the erased nights")
  func corpus() throws {
    guard let values = CanonicalFormTests.sharedValues() else {
      print("skipped: ../shared is absent")
      return
    }
    var warned = 0
    var fixed = 0
    for text in values {
      guard let warning = try? Self.spillWarning(text, holidays: Fixture.germany) else { continue }
      warned += 1
      guard warning.fixIt != nil else { continue }
      fixed += 1
      try Self.checkFixIt(text, holidays: Fixture.germany)
    }
    print("spill-erased: \(warned) of \(values.count) values warned, \(fixed) with a fix-it")
    #expect(warned > 0)
  }

  static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

  /// 2 to 4 weekly rules joined by `;` (mostly), `,` or `||`, with nights past midnight, `off`,
  /// `unknown` and comments.
  static func randomValue(_ random: inout SeededRandom) -> String {
    var text = ""
    for index in 0..<(2 + random.next(3)) {
      if index > 0 { text += ["; ", "; ", "; ", "; ", ", ", " || "][random.next(6)] }
      let from = random.next(7)
      text += random.next(3) == 0 ? dayNames[from] : dayNames[from] + "-" + dayNames[random.next(7)]
      if random.next(8) == 0 {
        text += " off"
        continue
      }
      var spans: [String] = []
      for _ in 0..<(1 + random.next(2)) {
        let start = random.next(48) * 30
        let end =
          random.next(2) == 0 ? random.next(12) * 30 + 30 : min(1440, start + 30 + random.next(24) * 30)
        spans.append(clock(start) + "-" + clock(end))
      }
      text += " " + spans.joined(separator: ",")
      switch random.next(8) {
      case 0: text += #" "late""#
      case 1: text += " unknown"
      default: break
      }
    }
    return text
  }

  static func clock(_ minutes: Int) -> String {
    String(format: "%02d:%02d", minutes / 60, minutes % 60)
  }
}

/// A small deterministic generator (SplitMix64), so a failure can be replayed.
struct SeededRandom {
  var state: UInt64
  init(seed: UInt64) { state = seed }
  mutating func next(_ bound: Int) -> Int {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int((z ^ (z >> 31)) % UInt64(bound))
  }
}
