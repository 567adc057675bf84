import Testing

@testable import OpeningHours

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

// Expected values were produced once with Python's `zoneinfo` (its public `utcoffset()` only,
// scanned hourly and bisected to the second) on the same system tz database, tzdata 2025b
// (Debian 12), and with glibc's `localtime` for hand-written TZ strings. The generator is at the
// end of this file. No Python runs at test time.

/// Loads a system zone; tests that need one are disabled where no tz database is installed.
private func zone(_ name: String) throws -> TimeZoneRules { try TimeZoneRules(identifier: name) }

private let hasSystemZones = access(TimeZoneRules.systemDirectory + "/Europe/Berlin", R_OK) == 0

/// The Python-derived table holds predictions (Morocco's Ramadan dates, Fiji) that a newer tz
/// release may revise, so it runs only against the release it was made from (or when the
/// database does not say which release it is).
private let databaseMatchesFixtures: Bool = {
  guard hasSystemZones else { return false }
  guard let file = fopen(TimeZoneRules.systemDirectory + "/tzdata.zi", "r") else { return true }
  defer { fclose(file) }
  var line = [CChar](repeating: 0, count: 64)
  guard fgets(&line, 64, file) != nil else { return true }
  let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
  return !text.hasPrefix("# version") || text.hasPrefix("# version 2025b")
}()

/// `2026-03-29T02:30:00` (wall time).
private func local(_ text: String) -> LocalDateTime {
  let parts = text.split(whereSeparator: { "-T:Z".contains($0) }).map { Int($0)! }
  return LocalDateTime(
    date: LocalDate(year: parts[0], month: parts[1], day: parts[2])!, hour: parts[3], minute: parts[4],
    second: parts[5])
}

/// `2026-03-29T01:00:00Z`.
private func utc(_ text: String) -> Instant {
  Instant(secondsSinceEpoch: local(text).secondsSinceEpochAtUTC)
}

private func yearStart(_ year: Int) -> Instant {
  Instant(secondsSinceEpoch: Int64(LocalDate(year: year, month: 1, day: 1)!.daysSinceEpoch) * 86_400)
}

/// An expected resolution, written with ISO strings so the table reads like the tz data.
enum ExpectedResolution: Sendable, CustomTestStringConvertible {
  case unique(String)
  case skipped(String)
  case repeated(String, String)

  var resolution: LocalResolution {
    switch self {
    case .unique(let instant): .unique(utc(instant))
    case .skipped(let transition): .skipped(transition: utc(transition))
    case .repeated(let first, let second): .repeated(first: utc(first), second: utc(second))
    }
  }

  var testDescription: String {
    switch self {
    case .unique(let instant): "unique \(instant)"
    case .skipped(let transition): "skipped at \(transition)"
    case .repeated(let first, let second): "repeated \(first), \(second)"
    }
  }
}

/// Encodes a TZif file (RFC 8536) so tests can build slim, version-1 and odd files by hand.
/// `version` 1 writes only the 32-bit block; 2 and later write a minimal v1 block, the 64-bit
/// block and the footer.
func tzifBytes(
  version: Int, times: [Int64], indices: [UInt8],
  types: [(offset: Int32, isDaylight: Bool, abbreviation: String)], footer: String = "",
  leapSeconds: Int = 0
) -> [UInt8] {
  var bytes: [UInt8] = []
  func int32(_ value: Int32) {
    for shift in stride(from: 24, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> Int32(shift)))
    }
  }
  func int64(_ value: Int64) {
    for shift in stride(from: 56, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: value >> Int64(shift)))
    }
  }
  var characters: [UInt8] = []
  var abbreviationIndex: [Int] = []
  for type in types {
    abbreviationIndex.append(characters.count)
    characters += Array(type.abbreviation.utf8) + [0]
  }
  func header(_ versionByte: UInt8, timeCount: Int, typeCount: Int, charCount: Int, leapCount: Int) {
    bytes += Array("TZif".utf8) + [versionByte] + [UInt8](repeating: 0, count: 15)
    for count in [0, 0, leapCount, timeCount, typeCount, charCount] { int32(Int32(count)) }
  }
  func block(timeSize: Int) {
    header(
      version == 1 ? 0 : UInt8(ascii: "0") + UInt8(version), timeCount: times.count, typeCount: types.count,
      charCount: characters.count, leapCount: leapSeconds)
    for time in times { if timeSize == 8 { int64(time) } else { int32(Int32(time)) } }
    bytes += indices
    for (type, index) in zip(types, abbreviationIndex) {
      int32(type.offset)
      bytes += [type.isDaylight ? 1 : 0, UInt8(index)]
    }
    bytes += characters
    for leap in 0..<leapSeconds {
      if timeSize == 8 { int64(78_796_800 + Int64(leap) * 15_778_800) } else { int32(78_796_800) }
      int32(Int32(leap + 1))
    }
  }
  if version == 1 {
    block(timeSize: 4)
  } else {
    // A minimal v1 block, as zic writes for "slim" files: one type, no transitions.
    header(UInt8(ascii: "0") + UInt8(version), timeCount: 0, typeCount: 1, charCount: 1, leapCount: 0)
    int32(0)
    bytes += [0, 0, 0]
    block(timeSize: 8)
    bytes += Array("\n\(footer)\n".utf8)
  }
  return bytes
}

@Suite struct TimeZoneRulesTests {
  // MARK: Against Python's zoneinfo

  /// Every offset change from 1990 to 2060 of the zones DESIGN.md cares about, exactly.
  @Test(.enabled(if: databaseMatchesFixtures), arguments: PythonFixtures.offsetChanges)
  func offsetChangesMatchZoneinfo(_ expected: PythonFixtures.Zone) throws {
    let rules = try zone(expected.name)
    let start = yearStart(1990)
    #expect(rules.offset(at: start) == expected.initialOffset)
    let actual = rules.transitions(in: start..<yearStart(2061))
    #expect(actual.count == expected.changes.count)
    var before = expected.initialOffset
    for (change, transition) in zip(expected.changes, actual) {
      #expect(transition.instant == change.instant, "\(expected.name)")
      #expect(transition.offsetBefore == before && transition.offsetAfter == change.offset, "\(transition)")
      #expect(rules.offset(at: change.instant - 1) == before)
      #expect(rules.offset(at: change.instant) == change.offset)
      #expect(rules.previousTransition(before: change.instant + 1) == transition)
      before = change.offset
    }
  }

  @Test(.enabled(if: hasSystemZones), arguments: PythonFixtures.edges)
  func resolvesWallTimesAtTransitions(_ name: String, _ wall: String, _ expected: ExpectedResolution) throws {
    #expect(try zone(name).resolve(local(wall)) == expected.resolution)
  }

  /// Beyond the precomputed table (2100) the footer rule is evaluated directly.
  @Test(.enabled(if: hasSystemZones), arguments: PythonFixtures.farFuture)
  func farFutureFollowsTheFooterRule(
    _ name: String, _ year: Int, _ changes: [(String, Int)], _ offsetAtNewYear: Int
  ) throws {
    let rules = try zone(name)
    #expect(rules.offset(at: yearStart(year)) == offsetAtNewYear)
    let actual = rules.transitions(in: yearStart(year)..<yearStart(year + 1))
    #expect(actual.map(\.instant) == changes.map { utc($0.0) })
    #expect(actual.map(\.offsetAfter) == changes.map(\.1))
    for transition in actual {
      #expect(rules.offset(at: transition.instant - 1) == transition.offsetBefore)
      #expect(rules.nextTransition(after: transition.instant - 1) == transition.instant)
    }
  }

  // MARK: Properties

  /// Wall time of an instant resolves back to that instant; state and transitions agree.
  @Test(
    .enabled(if: hasSystemZones),
    arguments: [
      "Europe/Berlin", "America/New_York", "America/Sao_Paulo", "Australia/Sydney", "Australia/Lord_Howe",
      "Pacific/Auckland", "Pacific/Fiji", "Asia/Tokyo", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham",
      "America/St_Johns", "Europe/Dublin", "Africa/Casablanca", "UTC", "Etc/UTC",
    ])
  func wallTimesRoundTrip(_ name: String) throws {
    let rules = try zone(name)
    // About every 11.6 days with a drifting time of day, 1990-2130 (table and footer rule), and
    // an hour either side of every transition. Plain `if`s keep the loop fast in debug builds.
    var instants: [Instant] = []
    var instant = yearStart(1990)
    while instant < yearStart(2130) {
      instants.append(instant)
      instant = instant + 1_000_003
    }
    for transition in rules.transitions(in: yearStart(1990)..<yearStart(2130)) {
      instants += [
        transition.instant - 3600, transition.instant - 1, transition.instant, transition.instant + 3599,
      ]
    }
    for instant in instants {
      let wall = rules.localDateTime(at: instant)
      switch rules.resolve(wall) {
      case .unique(let resolved):
        if resolved != instant { Issue.record("\(name) \(wall): unique \(resolved), expected \(instant)") }
      case .repeated(let first, let second):
        if first != instant && second != instant || first >= second {
          Issue.record("\(name) \(wall): repeated \(first), \(second) misses \(instant)")
        }
      case .skipped: Issue.record("\(name): \(wall) is the wall time of \(instant) yet resolves as skipped")
      }
      if let next = rules.nextTransition(after: instant),
        rules.offset(at: next) == rules.offset(at: next - 1)
          || rules.previousTransition(before: next + 1)?.instant != next
      {
        Issue.record("\(name): transition after \(instant) at \(next) is inconsistent")
      }
    }
  }

  // MARK: Zone behaviour

  /// Equality reads the rules, not which load they came from: two loads of a zone are equal (and
  /// hash alike), a zone and another, or a name over other bytes, are not.
  @Test(.enabled(if: hasSystemZones)) func zonesAreEqualByTheirRules() throws {
    let berlin = try zone("Europe/Berlin")
    let again = try zone("Europe/Berlin")
    let copy = berlin
    #expect(berlin == again && berlin == copy)
    #expect(berlin.hashValue == again.hashValue)
    #expect(Set([berlin, again, copy]).count == 1)
    #expect(berlin != (try zone("Europe/Paris")))
    #expect(berlin != (try zone("Europe/London")))
    #expect(TimeZoneRules.fixed(offsetSeconds: 3_600, identifier: "Europe/Berlin") != berlin)
    #expect(TimeZoneRules.fixed(offsetSeconds: 0, identifier: "UTC") == .utc)
    #expect(TimeZoneRules.fixed(offsetSeconds: 60, identifier: "UTC") != .utc)
  }

  @Test(.enabled(if: hasSystemZones)) func zonesWithoutDaylightTimeNeverChange() throws {
    let now = utc("2026-01-01T00:00:00Z")
    for (name, offset) in [
      ("Asia/Tokyo", 32_400), ("Asia/Kolkata", 19_800), ("Asia/Kathmandu", 20_700), ("UTC", 0),
    ] {
      let rules = try zone(name)
      #expect(rules.offset(at: now) == offset)
      #expect(rules.nextTransition(after: now) == nil)
      #expect(rules.offset(at: yearStart(2400)) == offset)
    }
    // São Paulo dropped DST in 2019: no change after its last one.
    let saoPaulo = try zone("America/Sao_Paulo")
    #expect(saoPaulo.nextTransition(after: utc("2019-02-17T01:59:59Z")) == utc("2019-02-17T02:00:00Z"))
    #expect(saoPaulo.nextTransition(after: utc("2019-02-17T02:00:00Z")) == nil)
    #expect(saoPaulo.previousTransition(before: yearStart(2300))?.instant == utc("2019-02-17T02:00:00Z"))
  }

  @Test(.enabled(if: hasSystemZones)) func abbreviationsAndDaylightFlags() throws {
    let berlin = try zone("Europe/Berlin")
    #expect(berlin.abbreviation(at: utc("2026-01-15T12:00:00Z")) == "CET")
    #expect(berlin.abbreviation(at: utc("2026-07-15T12:00:00Z")) == "CEST")
    #expect(berlin.abbreviation(at: utc("2150-07-15T12:00:00Z")) == "CEST")  // footer rule
    #expect(berlin.isDaylightSavingTime(at: utc("2150-07-15T12:00:00Z")))
    #expect(try zone("Asia/Kathmandu").abbreviation(at: utc("2026-01-01T00:00:00Z")) == "+0545")
    // Dublin's data has negative DST: winter (GMT) is flagged as daylight time.
    let dublin = try zone("Europe/Dublin")
    #expect(dublin.abbreviation(at: utc("2026-01-15T12:00:00Z")) == "GMT")
    #expect(dublin.isDaylightSavingTime(at: utc("2026-01-15T12:00:00Z")))
    #expect(!dublin.isDaylightSavingTime(at: utc("2026-07-15T12:00:00Z")))
    #expect(dublin.offset(at: utc("2026-07-15T12:00:00Z")) == 3600)
  }

  /// Changes of abbreviation or DST flag alone are not transitions.
  @Test(.enabled(if: hasSystemZones)) func abbreviationOnlyChangesAreSkipped() throws {
    // London kept +01 from 1968-02-18 to 1971-10-31, switching BST from daylight to "British
    // Standard Time" on 1968-10-27 without changing the offset.
    let london = try zone("Europe/London")
    #expect(london.abbreviation(at: utc("1968-06-01T00:00:00Z")) == "BST")
    #expect(london.isDaylightSavingTime(at: utc("1968-06-01T00:00:00Z")))
    #expect(!london.isDaylightSavingTime(at: utc("1969-06-01T00:00:00Z")))
    #expect(london.nextTransition(after: utc("1968-06-01T00:00:00Z")) == utc("1971-10-31T02:00:00Z"))
    #expect(
      london.previousTransition(before: utc("1971-01-01T00:00:00Z"))?.instant == utc("1968-02-18T02:00:00Z"))
    // Ojinaga went from MDT to CST (both -06) on 2022-10-30, then followed US rules.
    let ojinaga = try zone("America/Ojinaga")
    #expect(ojinaga.nextTransition(after: utc("2022-10-01T00:00:00Z")) == utc("2023-03-12T08:00:00Z"))
  }

  @Test(.enabled(if: hasSystemZones)) func lordHoweShiftsByHalfAnHour() throws {
    let lordHowe = try zone("Australia/Lord_Howe")
    // 02:00 → 02:30 on 2026-10-04, 02:00 → 01:30 on 2026-04-05.
    #expect(
      lordHowe.resolve(local("2026-10-04T02:29:59")) == .skipped(transition: utc("2026-10-03T15:30:00Z")))
    #expect(lordHowe.resolve(local("2026-10-04T02:30:00")) == .unique(utc("2026-10-03T15:30:00Z")))
    #expect(
      lordHowe.resolve(local("2026-04-05T01:30:00"))
        == .repeated(first: utc("2026-04-04T14:30:00Z"), second: utc("2026-04-04T15:00:00Z")))
    #expect(
      lordHowe.offset(at: utc("2026-04-04T15:00:00Z")) - lordHowe.offset(at: utc("2026-04-04T14:59:59Z"))
        == -1800)
  }

  // MARK: Footer rules (POSIX TZ strings)

  /// Hand-written rules with every date form and v3 transition times, checked against glibc.
  @Test(arguments: GlibcFixtures.rules)
  func footerRulesMatchGlibc(_ text: String, _ offsetAt2027: Int, _ changes: [(String, Int)]) throws {
    let rule = try POSIXTimeZoneRule(parsing: text)
    // Directly, and as the footer of a slim file whose last transition is in 2000.
    let daylight = try #require(rule.daylight)
    let types: [(offset: Int32, isDaylight: Bool, abbreviation: String)] = [
      (Int32(rule.standardOffset), false, rule.standardAbbreviation),
      (Int32(daylight.offset), true, daylight.abbreviation),
    ]
    // The file's last transition must agree with the footer (RFC 8536 §3.3).
    let last = yearStart(2000).secondsSinceEpoch
    let bytes = tzifBytes(
      version: 3, times: [last], indices: [rule.isDaylight(at: last) ? 1 : 0], types: types, footer: text)
    let fromFile = try TimeZoneRules(identifier: "Test/Rule", tzifBytes: bytes)
    let fromRuleOnly = try TimeZoneRules(
      identifier: "Test/RuleOnly",
      tzifBytes: tzifBytes(version: 3, times: [], indices: [], types: types, footer: text))
    for rules in [fromFile, fromRuleOnly] {
      #expect(rules.offset(at: yearStart(2027)) == offsetAt2027)
      let actual = rules.transitions(in: yearStart(2027)..<yearStart(2029))
      #expect(actual.map(\.instant) == changes.map { utc($0.0) }, "\(text)")
      #expect(actual.map(\.offsetAfter) == changes.map(\.1), "\(text)")
    }
  }

  /// `EST5EDT,0/0,J365/25` is tzfile(5)'s idiom for permanent daylight time: each year's end at
  /// 25:00 on day 365 coincides with the next year's start. (glibc 2.36 looks at one year at a
  /// time and wrongly shows EST from 19:00 to 24:00 on December 31; zoneinfo and zic agree with
  /// this.)
  @Test func permanentDaylightTimeIdiom() throws {
    let text = "EST5EDT,0/0,J365/25"
    let rule = try POSIXTimeZoneRule(parsing: text)
    let rules = try TimeZoneRules(
      identifier: "Test/Permanent",
      tzifBytes: tzifBytes(
        version: 3, times: [yearStart(2000).secondsSinceEpoch], indices: [0],
        types: [(offset: -14_400, isDaylight: true, abbreviation: "EDT")], footer: text))
    for instant in [
      utc("2027-06-01T00:00:00Z"), utc("2027-12-31T23:59:59Z"), utc("2028-01-01T04:59:59Z"),
      utc("2028-01-01T05:00:00Z"), utc("2150-01-01T03:00:00Z"),
    ] {
      #expect(rule.offset(at: instant.secondsSinceEpoch) == -14_400)
      #expect(rules.offset(at: instant) == -14_400)
    }
    #expect(rules.nextTransition(after: yearStart(2001)) == nil)
  }

  @Test(arguments: [
    "", "CET", "CET-1CEST,M3.5.0", "CET-1CEST,M13.5.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0",
    "CET-1CEST,M3.5.7,M10.5.0",
    "CET-1CEST,J0,J365", "CET-1CEST,366,1", "CET-1CEST,M3.5.0/168,M10.5.0", "CET-25", "<+1>-1", "<+01-1",
    "CET-1CEST,M3.5.0,M10.5.0/3x", "CE-1",
  ])
  func malformedTZStringsAreRejected(_ text: String) {
    #expect(throws: TZifFormatError.self) { try POSIXTimeZoneRule(parsing: text) }
  }

  @Test func tzStringsParse() throws {
    let lordHowe = try POSIXTimeZoneRule(parsing: "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0")
    #expect(lordHowe.standardOffset == 37_800 && lordHowe.standardAbbreviation == "+1030")
    #expect(lordHowe.daylight?.offset == 39_600 && lordHowe.daylight?.startTime == 7200)
    let chatham = try POSIXTimeZoneRule(parsing: "<+1245>-12:45<+1345>,M9.5.0/2:45,M4.1.0/3:45")
    #expect(chatham.daylight?.offset == 49_500)  // one hour ahead when not given
    #expect(chatham.daylight?.endTime == 13_500)
    let negative = try POSIXTimeZoneRule(parsing: "<-02>2<-01>,M3.5.0/-1,M10.5.0/0")
    #expect(negative.standardOffset == -7200 && negative.daylight?.startTime == -3600)
    #expect(
      try POSIXTimeZoneRule(parsing: "<+00>0<+01>-1,M3.5.0/-167,M10.5.0/167").daylight?.endTime == 167 * 3600)
  }

  // MARK: TZif files

  /// A slim file (transitions only until the rule took over, then the footer) gives the same
  /// offsets as the fat system file, which zic fills with transitions up to 2037.
  @Test(
    .enabled(if: hasSystemZones),
    arguments: ["Europe/Berlin", "Australia/Lord_Howe", "America/St_Johns", "Europe/Dublin"])
  func slimFileMatchesFatFile(_ name: String) throws {
    let fat = try zone(name)
    let file = try TZifFile(bytes: try #require(readFile(TimeZoneRules.systemDirectory + "/" + name)))
    let rule = try POSIXTimeZoneRule(parsing: file.footer)
    // Keep the transitions before 2012; all later ones follow the footer in these zones
    // (St. John's changed its rules in 2011).
    let cut = yearStart(2012).secondsSinceEpoch
    let kept = file.transitionTimes.prefix { $0 < cut }.count
    let slimBytes = tzifBytes(
      version: 2, times: Array(file.transitionTimes.prefix(kept)),
      indices: Array(file.transitionTypes.prefix(kept)),
      types: file.types.map { ($0.offset, $0.isDaylight, $0.abbreviation) }, footer: file.footer)
    let slim = try TimeZoneRules(identifier: name, tzifBytes: slimBytes)
    #expect(slim.rule == rule)
    let range = yearStart(1900)..<yearStart(2300)
    #expect(slim.transitions(in: range) == fat.transitions(in: range))
    var instant = yearStart(2007)
    while instant < yearStart(2300) {
      if slim.offset(at: instant) != fat.offset(at: instant)
        || slim.abbreviation(at: instant) != fat.abbreviation(at: instant)
      {
        Issue.record("\(name): slim and fat differ at \(instant)")
      }
      instant = instant + 3_000_017
    }
  }

  @Test func versionOneFileWithoutFooterKeepsTheLastType() throws {
    let bytes = tzifBytes(
      version: 1, times: [0, 1_000_000_000], indices: [1, 0],
      types: [(3600, false, "AAA"), (7200, true, "BBB")])
    let rules = try TimeZoneRules(identifier: "Test/V1", tzifBytes: bytes)
    #expect(rules.offset(at: Instant(secondsSinceEpoch: -1)) == 3600)  // type 0 before the first
    #expect(rules.offset(at: Instant(secondsSinceEpoch: 0)) == 7200)
    #expect(rules.offset(at: yearStart(2500)) == 3600)
    #expect(
      rules.nextTransition(after: Instant(secondsSinceEpoch: 0)) == Instant(secondsSinceEpoch: 1_000_000_000))
    #expect(rules.nextTransition(after: Instant(secondsSinceEpoch: 1_000_000_000)) == nil)
    #expect(rules.abbreviation(at: Instant(secondsSinceEpoch: 5)) == "BBB")
  }

  @Test func malformedFilesAreRejected() {
    let good = tzifBytes(version: 2, times: [0], indices: [0], types: [(3600, false, "AAA")], footer: "AAA-1")
    #expect(throws: Never.self) { try TimeZoneRules(identifier: "Test/Good", tzifBytes: good) }
    var cases: [(String, [UInt8])] = [
      ("empty", []),
      ("not TZif", Array("# tzdb timezone descriptions\n".utf8)),
      ("truncated", Array(good.dropLast(9))),
      ("no footer newline", Array(good.dropLast())),
      (
        "bad footer",
        tzifBytes(version: 2, times: [0], indices: [0], types: [(3600, false, "AAA")], footer: "AAA-1BBB,M3")
      ),
      (
        "type index out of range",
        tzifBytes(version: 2, times: [0], indices: [3], types: [(3600, false, "AAA")])
      ),
      (
        "times not ascending",
        tzifBytes(version: 2, times: [5, 5], indices: [0, 0], types: [(3600, false, "AAA")])
      ),
      (
        "leap seconds",
        tzifBytes(version: 2, times: [0], indices: [0], types: [(0, false, "UTC")], leapSeconds: 2)
      ),
      (
        "offset out of range",
        tzifBytes(version: 2, times: [0], indices: [0], types: [(100_000, false, "AAA")])
      ),
    ]
    var unknownVersion = good
    unknownVersion[4] = UInt8(ascii: "x")
    cases.append(("version byte", unknownVersion))
    for (label, bytes) in cases {
      #expect(throws: TimeZoneRulesError.self, "\(label)") {
        try TimeZoneRules(identifier: "Test/Bad", tzifBytes: bytes)
      }
    }
  }

  // MARK: Names and files

  @Test(.enabled(if: hasSystemZones)) func unknownZoneExplainsItself() throws {
    let error = try #require(throws: TimeZoneRulesError.self) {
      try TimeZoneRules(identifier: "Asia/Beijing")
    }
    #expect(
      error.description
        == "unknown time zone 'Asia/Beijing': no such zone in \(TimeZoneRules.systemDirectory); IANA names look like Europe/Berlin or Asia/Shanghai"
    )
    let directory = try #require(throws: TimeZoneRulesError.self) { try TimeZoneRules(identifier: "Europe") }
    #expect(directory.reason.contains("is a directory"))
    #expect(throws: TimeZoneRulesError.self) { try TimeZoneRules(identifier: "zone.tab") }  // not TZif
  }

  @Test(arguments: [
    "", "/etc/localtime", "../../etc/passwd", "Europe/../../../etc/passwd", "Europe/..", "Europe//Berlin",
    "./Europe/Berlin", "Europe/Berlin/", "Europe/Berlin\u{0}", "Europe\\Berlin", "Europe/Ber lin",
    "Europe/Bérlin",
  ])
  func unsafeNamesAreRefused(_ name: String) {
    #expect(throws: TimeZoneRulesError.self) {
      try TimeZoneRules(identifier: name, directory: "/usr/share/zoneinfo")
    }
  }

  @Test func symbolicLinksMayNotLeaveTheDirectory() throws {
    var template = Array("/tmp/tzrules-test-XXXXXX".utf8CString)
    let directory = String(cString: try #require(mkdtemp(&template)))
    defer {
      for entry in ["Test/Zone", "Test/Alias", "Escape", "Test"] {
        _ = unlink(directory + "/" + entry)
      }
      _ = rmdir(directory + "/Test")
      _ = rmdir(directory)
    }
    #expect(mkdir(directory + "/Test", 0o755) == 0)
    let bytes = tzifBytes(
      version: 2, times: [], indices: [], types: [(19_800, false, "IST")], footer: "IST-5:30")
    try #require(writeFile(directory + "/Test/Zone", bytes))
    #expect(symlink("Zone", directory + "/Test/Alias") == 0)
    #expect(symlink("/tmp", directory + "/Escape") == 0)  // exists, but outside
    let zone = try TimeZoneRules(identifier: "Test/Zone", directory: directory)
    #expect(zone.offset(at: yearStart(2026)) == 19_800)
    #expect(
      try TimeZoneRules(identifier: "Test/Alias", directory: directory).offset(at: yearStart(2026)) == 19_800)
    let escape = try #require(throws: TimeZoneRulesError.self) {
      try TimeZoneRules(identifier: "Escape", directory: directory)
    }
    #expect(escape.reason.contains("outside"))
  }

  @Test func utcWorksWithoutADatabase() throws {
    let missing = "/nonexistent/zoneinfo"
    #expect(try TimeZoneRules(identifier: "UTC", directory: missing).offset(at: yearStart(2026)) == 0)
    #expect(
      try TimeZoneRules(identifier: "Etc/UTC", directory: missing).nextTransition(after: yearStart(2026))
        == nil)
    let error = try #require(throws: TimeZoneRulesError.self) {
      try TimeZoneRules(identifier: "Europe/Berlin", directory: missing)
    }
    #expect(error.reason.contains("does not exist"))
  }

  @Test(.enabled(if: hasSystemZones)) func systemLinksAndEquality() throws {
    let utcZone = try zone("UTC")  // a symbolic link to Etc/UTC
    #expect(utcZone.identifier == "UTC")
    #expect(utcZone.offset(at: yearStart(2026)) == 0)
    #expect(try zone("Europe/Berlin") == zone("Europe/Berlin"))
    #expect(try zone("Europe/Berlin") != zone("Europe/Paris"))
    #expect(Set([try zone("Europe/Berlin"), try zone("Europe/Berlin")]).count == 1)
  }

  @Test func fixedZones() {
    let india = TimeZoneRules.fixed(offsetSeconds: 19_800, identifier: "Test/Fixed")
    #expect(india.offset(at: yearStart(1900)) == 19_800)
    #expect(india.nextTransition(after: yearStart(2026)) == nil)
    #expect(india.previousTransition(before: yearStart(2026)) == nil)
    #expect(india.abbreviation(at: yearStart(2026)) == "+0530")
    #expect(india.resolve(local("2026-03-29T02:30:00")) == .unique(utc("2026-03-28T21:00:00Z")))
    #expect(india.localDateTime(at: utc("2026-03-28T21:00:00Z")) == local("2026-03-29T02:30:00"))
    #expect(
      TimeZoneRules.fixed(offsetSeconds: -12_600, identifier: "x").abbreviation(at: yearStart(2026))
        == "-0330")
  }
}

private func readFile(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 4096)
  while true {
    let count = fread(&buffer, 1, buffer.count, file)
    if count == 0 { break }
    bytes += buffer[0..<count]
  }
  return bytes
}

private func writeFile(_ path: String, _ bytes: [UInt8]) -> Bool {
  guard let file = fopen(path, "wb") else { return false }
  defer { fclose(file) }
  return fwrite(bytes, 1, bytes.count, file) == bytes.count
}

// MARK: - Fixtures

struct PythonFixtures {
  struct Change: Sendable {
    var instant: Instant
    var offset: Int
  }

  struct Zone: Sendable, CustomTestStringConvertible {
    var name: String
    var initialOffset: Int
    var changes: [Change]
    var testDescription: String { name }
  }

  /// Offset changes 1990-01-01...2060-12-31, per zone: a line `name initialOffsetMinutes count`,
  /// then indented tokens `<minutes since the previous change, base 36><new offset in minutes>`
  /// (the first counts from 1990-01-01T00:00Z).
  static let offsetChanges: [Zone] = {
    var zones: [Zone] = []
    var cursor = Int64(0)
    for line in table.split(separator: "\n") {
      let fields = line.split(separator: " ")
      if !line.hasPrefix(" ") {
        zones.append(Zone(name: String(fields[0]), initialOffset: Int(fields[1])! * 60, changes: []))
        zones[zones.count - 1].changes.reserveCapacity(Int(fields[2])!)
        cursor = yearStart(1990).secondsSinceEpoch
        continue
      }
      for token in fields {
        let sign = token.firstIndex { $0 == "+" || $0 == "-" }!
        cursor += Int64(token[..<sign], radix: 36)! * 60
        zones[zones.count - 1].changes.append(
          Change(instant: Instant(secondsSinceEpoch: cursor), offset: Int(token[sign...])! * 60))
      }
    }
    return zones
  }()

  static let table = """
    Europe/Berlin 60 142
      2k9o+120 5u00+60 5m80+120 5m80+60 5m80+120 5m80+60 5m80+120 5m80+60 5m80+120 5m80+60 5m80+120
      5m80+60 5u00+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120 6p40+60
      4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120 6p40+60 4jc0+120
      6p40+60 4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120 6p40+60
      4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120
      6p40+60 4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120 6p40+60
      4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120
      6p40+60 4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120 6p40+60
      4jc0+120 6p40+60 4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120
      6p40+60 4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60
      4jc0+120 6p40+60 4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60 4jc0+120
      6p40+60 4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60
      4jc0+120 6p40+60 4jc0+120 6p40+60 4r40+120 6hc0+60 4r40+120 6hc0+60 4r40+120 6p40+60
    America/New_York -300 142
      2sbo-240 6hac-300 4yxo-240 69ic-300 4yxo-240 69ic-300 4yxo-240 6hac-300 4r5o-240 6hac-300
      4r5o-240 6hac-300 4yxo-240 69ic-300 4yxo-240 69ic-300 4yxo-240 69ic-300 4yxo-240 6hac-300
      4r5o-240 6hac-300 4r5o-240 6hac-300 4yxo-240 69ic-300 4yxo-240 69ic-300 4yxo-240 6hac-300
      4r5o-240 6hac-300 4r5o-240 6hac-300 43to-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300
      43to-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300
      3w1o-240 7cec-300 43to-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300
      3w1o-240 7cec-300 43to-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300
      3w1o-240 7cec-300 3w1o-240 7cec-300 43to-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300
      3w1o-240 7cec-300 3w1o-240 7cec-300 43to-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300
      3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 43to-240 7cec-300 3w1o-240 7cec-300
      3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 43to-240 7cec-300
      3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 43to-240 7cec-300
      3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300
      43to-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300 3w1o-240 7cec-300
      43to-240 7cec-300
    America/Sao_Paulo -120 59
      19nc-180 7s1o-120 3o6c-180 7k9o-120 3gec-180 7zto-120 30uc-180 7zto-120 3vyc-180 7cho-120
      3vyc-180 7cho-120 3o6c-180 7cho-120 43qc-180 75to-120 4i6c-180 6wxo-120 43qc-180 6wxo-120
      4jac-180 6wxo-120 43qc-180 7cho-120 3vyc-180 7zto-120 38mc-180 7k9o-120 3o6c-180 821o-120
      3e6c-180 7cho-120 3vyc-180 7zto-120 3gec-180 74po-120 3vyc-180 7k9o-120 3o6c-180 7k9o-120
      3vyc-180 7cho-120 3vyc-180 7cho-120 43qc-180 7cho-120 3o6c-180 7k9o-120 3o6c-180 7k9o-120
      3vyc-180 7cho-120 3vyc-180 7cho-120 3vyc-180 7cho-120 3vyc-180 7zto-120 38mc-180
    Australia/Sydney 660 142
      1wio+600 7cg0+660 3w00+600 7cg0+660 3w00+600 7cg0+660 43s0+600 7cg0+660 3w00+600 7cg0+660
      3w00+600 7cg0+660 4r40+600 6hc0+660 4r40+600 6hc0+660 4r40+600 6hc0+660 4r40+600 6p40+660
      4jc0+600 4r40+660 6hc0+600 6p40+660 4r40+600 6hc0+660 4r40+600 6hc0+660 4r40+600 6p40+660
      4jc0+600 6p40+660 4r40+600 6hc0+660 4jc0+600 6p40+660 4yw0+600 5m80+660 5m80+600 5m80+660
      5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5u00+660 5m80+600 5m80+660 5m80+600 5m80+660
      5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5u00+660 5m80+600 5m80+660
      5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5u00+600 5m80+660
      5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5u00+660
      5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660
      5m80+600 5u00+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660
      5m80+600 5u00+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660
      5m80+600 5m80+660 5m80+600 5u00+660 5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660
      5m80+600 5m80+660 5m80+600 5m80+660 5u00+600 5m80+660 5m80+600 5m80+660 5m80+600 5m80+660
      5m80+600 5m80+660 5m80+600 5m80+660 5m80+600 5u00+660 5m80+600 5m80+660 5m80+600 5m80+660
      5m80+600 5m80+660
    Australia/Lord_Howe 660 142
      1wh0+630 7cgu+660 3vz6+630 7cgu+660 3vz6+630 7cgu+660 43r6+630 7cgu+660 3vz6+630 7cgu+660
      3vz6+630 7cgu+660 4r36+630 6hcu+660 4r36+630 6hcu+660 4r36+630 6hcu+660 4r36+630 6p4u+660
      4jb6+630 4r4u+660 6hb6+630 6p4u+660 4r36+630 6hcu+660 4r36+630 6hcu+660 4r36+630 6p4u+660
      4jb6+630 6p4u+660 4r36+630 6hcu+660 4jb6+630 6p4u+660 4yv6+630 5m8u+660 5m76+630 5m8u+660
      5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5u0u+660 5m76+630 5m8u+660 5m76+630 5m8u+660
      5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5u0u+660 5m76+630 5m8u+660
      5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5tz6+630 5m8u+660
      5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5u0u+660
      5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660
      5m76+630 5u0u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660
      5m76+630 5u0u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660
      5m76+630 5m8u+660 5m76+630 5u0u+660 5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660
      5m76+630 5m8u+660 5m76+630 5m8u+660 5tz6+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5m8u+660
      5m76+630 5m8u+660 5m76+630 5m8u+660 5m76+630 5u0u+660 5m76+630 5m8u+660 5m76+630 5m8u+660
      5m76+630 5m8u+660
    Pacific/Auckland 780 142
      2bzc+720 69k0+780 4yw0+720 69k0+780 4yw0+720 69k0+780 56o0+720 61s0+780 56o0+720 61s0+780
      56o0+720 61s0+780 56o0+720 69k0+780 4yw0+720 69k0+780 4yw0+720 69k0+780 56o0+720 61s0+780
      56o0+720 61s0+780 56o0+720 69k0+780 4yw0+720 69k0+780 4yw0+720 69k0+780 56o0+720 61s0+780
      56o0+720 61s0+780 56o0+720 61s0+780 56o0+720 61s0+780 5u00+720 5eg0+780 5u00+720 5eg0+780
      5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5m80+780 5u00+720 5eg0+780 5u00+720 5eg0+780
      5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5m80+780 5u00+720 5eg0+780
      5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 61s0+720 5eg0+780
      5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5m80+780
      5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780
      5u00+720 5m80+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780
      5u00+720 5m80+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780
      5u00+720 5eg0+780 5u00+720 5m80+780 5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780
      5u00+720 5eg0+780 5u00+720 5eg0+780 61s0+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5eg0+780
      5u00+720 5eg0+780 5u00+720 5eg0+780 5u00+720 5m80+780 5u00+720 5eg0+780 5u00+720 5eg0+780
      5u00+720 5eg0+780
    Pacific/Fiji 720 28
      2rjzc+780 3o80+720 7s00+780 3gg0+720 31yw0+780 3o80+720 6hc0+780 43s0+720 74o0+780 2t40+720
      8fc0+780 2t40+720 8n40+780 2lac+720 8uxo+780 2dk0+720 8uw0+780 2dk0+720 92o0+780 25s0+720
      92o0+780 25s0+720 92o0+780 25s0+720 9ag0+780 1y00+720 al40+780 v40+720
    Asia/Tokyo 540 0
    Asia/Kolkata 330 0
    Asia/Kathmandu 345 0
    Pacific/Chatham 825 142
      2bzc+765 69k0+825 4yw0+765 69k0+825 4yw0+765 69k0+825 56o0+765 61s0+825 56o0+765 61s0+825
      56o0+765 61s0+825 56o0+765 69k0+825 4yw0+765 69k0+825 4yw0+765 69k0+825 56o0+765 61s0+825
      56o0+765 61s0+825 56o0+765 69k0+825 4yw0+765 69k0+825 4yw0+765 69k0+825 56o0+765 61s0+825
      56o0+765 61s0+825 56o0+765 61s0+825 56o0+765 61s0+825 5u00+765 5eg0+825 5u00+765 5eg0+825
      5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5m80+825 5u00+765 5eg0+825 5u00+765 5eg0+825
      5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5m80+825 5u00+765 5eg0+825
      5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 61s0+765 5eg0+825
      5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5m80+825
      5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825
      5u00+765 5m80+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825
      5u00+765 5m80+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825
      5u00+765 5eg0+825 5u00+765 5m80+825 5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825
      5u00+765 5eg0+825 5u00+765 5eg0+825 61s0+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5eg0+825
      5u00+765 5eg0+825 5u00+765 5eg0+825 5u00+765 5m80+825 5u00+765 5eg0+825 5u00+765 5eg0+825
      5u00+765 5eg0+825
    America/St_Johns -210 142
      2s5v-150 6hac-210 4yxo-150 69ic-210 4yxo-150 69ic-210 4yxo-150 6hac-210 4r5o-150 6hac-210
      4r5o-150 6hac-210 4yxo-150 69ic-210 4yxo-150 69ic-210 4yxo-150 69ic-210 4yxo-150 6hac-210
      4r5o-150 6hac-210 4r5o-150 6hac-210 4yxo-150 69ic-210 4yxo-150 69ic-210 4yxo-150 6hac-210
      4r5o-150 6hac-210 4r5o-150 6hac-210 43to-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210
      43to-150 7cec-210 3w1o-150 7chn-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210
      3w1o-150 7cec-210 43to-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210
      3w1o-150 7cec-210 43to-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210
      3w1o-150 7cec-210 3w1o-150 7cec-210 43to-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210
      3w1o-150 7cec-210 3w1o-150 7cec-210 43to-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210
      3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 43to-150 7cec-210 3w1o-150 7cec-210
      3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 43to-150 7cec-210
      3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 43to-150 7cec-210
      3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210
      43to-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210 3w1o-150 7cec-210
      43to-150 7cec-210
    Europe/Dublin 0 142
      2k9o+60 6p40+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6hc0+0
      4yw0+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0
      4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0
      4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0
      4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0
      4r40+60 6hc0+0 4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0 4r40+60 6hc0+0
      4r40+60 6hc0+0 4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0 4r40+60 6hc0+0
      4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0 4r40+60 6hc0+0
      4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6hc0+0
      4r40+60 6p40+0 4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6p40+0
      4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6p40+0
      4jc0+60 6p40+0 4jc0+60 6p40+0 4r40+60 6hc0+0 4r40+60 6hc0+0 4r40+60 6p40+0
    Africa/Casablanca 0 121
      5rlc0+60 2u6c+0 8fdo+60 2hyc+0 7u9o+60 30uc+0 7cho+60 3o6c+0 8fh0+60 2j40+0 yg0+60 19k0+0
      6hc0+60 25s0+0 11s0+60 2eo0+0 4r40+60 2s00+0 12w0+60 2mg0+0 4r40+60 2dk0+0 12w0+60 30w0+0
      4r40+60 25s0+0 12w0+60 3gg0+0 4jc0+60 1q80+0 1ao0+60 3o80+0 4jc0+60 1ig0+0 12w0+60 9xs0+0
      12w0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9xs0+0 12w0+60 9q00+0
      1ao0+60 9q00+0 12w0+60 9xs0+0 12w0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9q00+0 1ao0+60 9q00+0
      12w0+60 9xs0+0 12w0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9q00+0 1ao0+60 9q00+0 1ao0+60 9q00+0
      12w0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9xs0+0 12w0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9q00+0
      1ao0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9xs0+0 12w0+60 9q00+0
      1ao0+60 9q00+0 12w0+60 9q00+0 1ao0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9q00+0 1ao0+60 9q00+0
      12w0+60 9xs0+0 12w0+60 9q00+0 1ao0+60 9q00+0 12w0+60 9q00+0 1ao0+60 9q00+0 1ao0+60 9q00+0
      12w0+60
    UTC 0 0
    Etc/UTC 0 0
    """

  /// Wall times around transitions: the last second before, the first and last affected ones
  /// (plus a middle one for some zones) and the first second after.
  static let edges: [(String, String, ExpectedResolution)] = [
    ("Europe/Berlin", "2026-03-29T01:59:59", .unique("2026-03-29T00:59:59Z")),
    ("Europe/Berlin", "2026-03-29T02:00:00", .skipped("2026-03-29T01:00:00Z")),
    ("Europe/Berlin", "2026-03-29T02:30:00", .skipped("2026-03-29T01:00:00Z")),
    ("Europe/Berlin", "2026-03-29T02:59:59", .skipped("2026-03-29T01:00:00Z")),
    ("Europe/Berlin", "2026-03-29T03:00:00", .unique("2026-03-29T01:00:00Z")),
    ("Europe/Berlin", "2026-10-25T01:59:59", .unique("2026-10-24T23:59:59Z")),
    ("Europe/Berlin", "2026-10-25T02:00:00", .repeated("2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z")),
    ("Europe/Berlin", "2026-10-25T02:30:00", .repeated("2026-10-25T00:30:00Z", "2026-10-25T01:30:00Z")),
    ("Europe/Berlin", "2026-10-25T02:59:59", .repeated("2026-10-25T00:59:59Z", "2026-10-25T01:59:59Z")),
    ("Europe/Berlin", "2026-10-25T03:00:00", .unique("2026-10-25T02:00:00Z")),
    ("America/New_York", "2026-03-08T01:59:59", .unique("2026-03-08T06:59:59Z")),
    ("America/New_York", "2026-03-08T02:00:00", .skipped("2026-03-08T07:00:00Z")),
    ("America/New_York", "2026-03-08T02:59:59", .skipped("2026-03-08T07:00:00Z")),
    ("America/New_York", "2026-03-08T03:00:00", .unique("2026-03-08T07:00:00Z")),
    ("America/New_York", "2026-11-01T00:59:59", .unique("2026-11-01T04:59:59Z")),
    ("America/New_York", "2026-11-01T01:00:00", .repeated("2026-11-01T05:00:00Z", "2026-11-01T06:00:00Z")),
    ("America/New_York", "2026-11-01T01:59:59", .repeated("2026-11-01T05:59:59Z", "2026-11-01T06:59:59Z")),
    ("America/New_York", "2026-11-01T02:00:00", .unique("2026-11-01T07:00:00Z")),
    ("America/Sao_Paulo", "2018-02-17T22:59:59", .unique("2018-02-18T00:59:59Z")),
    ("America/Sao_Paulo", "2018-02-17T23:00:00", .repeated("2018-02-18T01:00:00Z", "2018-02-18T02:00:00Z")),
    ("America/Sao_Paulo", "2018-02-17T23:59:59", .repeated("2018-02-18T01:59:59Z", "2018-02-18T02:59:59Z")),
    ("America/Sao_Paulo", "2018-02-18T00:00:00", .unique("2018-02-18T03:00:00Z")),
    ("America/Sao_Paulo", "2018-11-03T23:59:59", .unique("2018-11-04T02:59:59Z")),
    ("America/Sao_Paulo", "2018-11-04T00:00:00", .skipped("2018-11-04T03:00:00Z")),
    ("America/Sao_Paulo", "2018-11-04T00:59:59", .skipped("2018-11-04T03:00:00Z")),
    ("America/Sao_Paulo", "2018-11-04T01:00:00", .unique("2018-11-04T03:00:00Z")),
    ("America/Sao_Paulo", "2019-02-16T22:59:59", .unique("2019-02-17T00:59:59Z")),
    ("America/Sao_Paulo", "2019-02-16T23:00:00", .repeated("2019-02-17T01:00:00Z", "2019-02-17T02:00:00Z")),
    ("America/Sao_Paulo", "2019-02-16T23:59:59", .repeated("2019-02-17T01:59:59Z", "2019-02-17T02:59:59Z")),
    ("America/Sao_Paulo", "2019-02-17T00:00:00", .unique("2019-02-17T03:00:00Z")),
    ("Australia/Sydney", "2026-04-05T01:59:59", .unique("2026-04-04T14:59:59Z")),
    ("Australia/Sydney", "2026-04-05T02:00:00", .repeated("2026-04-04T15:00:00Z", "2026-04-04T16:00:00Z")),
    ("Australia/Sydney", "2026-04-05T02:59:59", .repeated("2026-04-04T15:59:59Z", "2026-04-04T16:59:59Z")),
    ("Australia/Sydney", "2026-04-05T03:00:00", .unique("2026-04-04T17:00:00Z")),
    ("Australia/Sydney", "2026-10-04T01:59:59", .unique("2026-10-03T15:59:59Z")),
    ("Australia/Sydney", "2026-10-04T02:00:00", .skipped("2026-10-03T16:00:00Z")),
    ("Australia/Sydney", "2026-10-04T02:59:59", .skipped("2026-10-03T16:00:00Z")),
    ("Australia/Sydney", "2026-10-04T03:00:00", .unique("2026-10-03T16:00:00Z")),
    ("Australia/Lord_Howe", "2026-04-05T01:29:59", .unique("2026-04-04T14:29:59Z")),
    ("Australia/Lord_Howe", "2026-04-05T01:30:00", .repeated("2026-04-04T14:30:00Z", "2026-04-04T15:00:00Z")),
    ("Australia/Lord_Howe", "2026-04-05T01:45:00", .repeated("2026-04-04T14:45:00Z", "2026-04-04T15:15:00Z")),
    ("Australia/Lord_Howe", "2026-04-05T01:59:59", .repeated("2026-04-04T14:59:59Z", "2026-04-04T15:29:59Z")),
    ("Australia/Lord_Howe", "2026-04-05T02:00:00", .unique("2026-04-04T15:30:00Z")),
    ("Australia/Lord_Howe", "2026-10-04T01:59:59", .unique("2026-10-03T15:29:59Z")),
    ("Australia/Lord_Howe", "2026-10-04T02:00:00", .skipped("2026-10-03T15:30:00Z")),
    ("Australia/Lord_Howe", "2026-10-04T02:15:00", .skipped("2026-10-03T15:30:00Z")),
    ("Australia/Lord_Howe", "2026-10-04T02:29:59", .skipped("2026-10-03T15:30:00Z")),
    ("Australia/Lord_Howe", "2026-10-04T02:30:00", .unique("2026-10-03T15:30:00Z")),
    ("Pacific/Auckland", "2026-04-05T01:59:59", .unique("2026-04-04T12:59:59Z")),
    ("Pacific/Auckland", "2026-04-05T02:00:00", .repeated("2026-04-04T13:00:00Z", "2026-04-04T14:00:00Z")),
    ("Pacific/Auckland", "2026-04-05T02:59:59", .repeated("2026-04-04T13:59:59Z", "2026-04-04T14:59:59Z")),
    ("Pacific/Auckland", "2026-04-05T03:00:00", .unique("2026-04-04T15:00:00Z")),
    ("Pacific/Auckland", "2026-09-27T01:59:59", .unique("2026-09-26T13:59:59Z")),
    ("Pacific/Auckland", "2026-09-27T02:00:00", .skipped("2026-09-26T14:00:00Z")),
    ("Pacific/Auckland", "2026-09-27T02:59:59", .skipped("2026-09-26T14:00:00Z")),
    ("Pacific/Auckland", "2026-09-27T03:00:00", .unique("2026-09-26T14:00:00Z")),
    ("Pacific/Fiji", "2020-01-12T01:59:59", .unique("2020-01-11T12:59:59Z")),
    ("Pacific/Fiji", "2020-01-12T02:00:00", .repeated("2020-01-11T13:00:00Z", "2020-01-11T14:00:00Z")),
    ("Pacific/Fiji", "2020-01-12T02:59:59", .repeated("2020-01-11T13:59:59Z", "2020-01-11T14:59:59Z")),
    ("Pacific/Fiji", "2020-01-12T03:00:00", .unique("2020-01-11T15:00:00Z")),
    ("Pacific/Fiji", "2020-12-20T01:59:59", .unique("2020-12-19T13:59:59Z")),
    ("Pacific/Fiji", "2020-12-20T02:00:00", .skipped("2020-12-19T14:00:00Z")),
    ("Pacific/Fiji", "2020-12-20T02:59:59", .skipped("2020-12-19T14:00:00Z")),
    ("Pacific/Fiji", "2020-12-20T03:00:00", .unique("2020-12-19T14:00:00Z")),
    ("Pacific/Chatham", "2026-04-05T02:44:59", .unique("2026-04-04T12:59:59Z")),
    ("Pacific/Chatham", "2026-04-05T02:45:00", .repeated("2026-04-04T13:00:00Z", "2026-04-04T14:00:00Z")),
    ("Pacific/Chatham", "2026-04-05T03:15:00", .repeated("2026-04-04T13:30:00Z", "2026-04-04T14:30:00Z")),
    ("Pacific/Chatham", "2026-04-05T03:44:59", .repeated("2026-04-04T13:59:59Z", "2026-04-04T14:59:59Z")),
    ("Pacific/Chatham", "2026-04-05T03:45:00", .unique("2026-04-04T15:00:00Z")),
    ("Pacific/Chatham", "2026-09-27T02:44:59", .unique("2026-09-26T13:59:59Z")),
    ("Pacific/Chatham", "2026-09-27T02:45:00", .skipped("2026-09-26T14:00:00Z")),
    ("Pacific/Chatham", "2026-09-27T03:15:00", .skipped("2026-09-26T14:00:00Z")),
    ("Pacific/Chatham", "2026-09-27T03:44:59", .skipped("2026-09-26T14:00:00Z")),
    ("Pacific/Chatham", "2026-09-27T03:45:00", .unique("2026-09-26T14:00:00Z")),
    ("America/St_Johns", "2026-03-08T01:59:59", .unique("2026-03-08T05:29:59Z")),
    ("America/St_Johns", "2026-03-08T02:00:00", .skipped("2026-03-08T05:30:00Z")),
    ("America/St_Johns", "2026-03-08T02:59:59", .skipped("2026-03-08T05:30:00Z")),
    ("America/St_Johns", "2026-03-08T03:00:00", .unique("2026-03-08T05:30:00Z")),
    ("America/St_Johns", "2026-11-01T00:59:59", .unique("2026-11-01T03:29:59Z")),
    ("America/St_Johns", "2026-11-01T01:00:00", .repeated("2026-11-01T03:30:00Z", "2026-11-01T04:30:00Z")),
    ("America/St_Johns", "2026-11-01T01:59:59", .repeated("2026-11-01T04:29:59Z", "2026-11-01T05:29:59Z")),
    ("America/St_Johns", "2026-11-01T02:00:00", .unique("2026-11-01T05:30:00Z")),
    ("Europe/Dublin", "2026-03-29T00:59:59", .unique("2026-03-29T00:59:59Z")),
    ("Europe/Dublin", "2026-03-29T01:00:00", .skipped("2026-03-29T01:00:00Z")),
    ("Europe/Dublin", "2026-03-29T01:59:59", .skipped("2026-03-29T01:00:00Z")),
    ("Europe/Dublin", "2026-03-29T02:00:00", .unique("2026-03-29T01:00:00Z")),
    ("Europe/Dublin", "2026-10-25T00:59:59", .unique("2026-10-24T23:59:59Z")),
    ("Europe/Dublin", "2026-10-25T01:00:00", .repeated("2026-10-25T00:00:00Z", "2026-10-25T01:00:00Z")),
    ("Europe/Dublin", "2026-10-25T01:59:59", .repeated("2026-10-25T00:59:59Z", "2026-10-25T01:59:59Z")),
    ("Europe/Dublin", "2026-10-25T02:00:00", .unique("2026-10-25T02:00:00Z")),
    ("Africa/Casablanca", "2026-02-15T01:59:59", .unique("2026-02-15T00:59:59Z")),
    ("Africa/Casablanca", "2026-02-15T02:00:00", .repeated("2026-02-15T01:00:00Z", "2026-02-15T02:00:00Z")),
    ("Africa/Casablanca", "2026-02-15T02:59:59", .repeated("2026-02-15T01:59:59Z", "2026-02-15T02:59:59Z")),
    ("Africa/Casablanca", "2026-02-15T03:00:00", .unique("2026-02-15T03:00:00Z")),
    ("Africa/Casablanca", "2026-03-22T01:59:59", .unique("2026-03-22T01:59:59Z")),
    ("Africa/Casablanca", "2026-03-22T02:00:00", .skipped("2026-03-22T02:00:00Z")),
    ("Africa/Casablanca", "2026-03-22T02:59:59", .skipped("2026-03-22T02:00:00Z")),
    ("Africa/Casablanca", "2026-03-22T03:00:00", .unique("2026-03-22T02:00:00Z")),
  ]

  /// Offset changes in whole years beyond the file's table and the precomputed one (2100), with
  /// the offset at 00:00Z on January 1.
  static let farFuture: [(String, Int, [(String, Int)], Int)] = [
    ("Europe/Berlin", 2087, [("2087-03-30T01:00:00Z", 7200), ("2087-10-26T01:00:00Z", 3600)], 3600),
    ("Europe/Berlin", 2100, [("2100-03-28T01:00:00Z", 7200), ("2100-10-31T01:00:00Z", 3600)], 3600),
    ("Europe/Berlin", 2101, [("2101-03-27T01:00:00Z", 7200), ("2101-10-30T01:00:00Z", 3600)], 3600),
    ("Europe/Berlin", 2200, [("2200-03-30T01:00:00Z", 7200), ("2200-10-26T01:00:00Z", 3600)], 3600),
    ("Europe/Berlin", 2500, [("2500-03-28T01:00:00Z", 7200), ("2500-10-31T01:00:00Z", 3600)], 3600),
    ("America/New_York", 2087, [("2087-03-09T07:00:00Z", -14400), ("2087-11-02T06:00:00Z", -18000)], -18000),
    ("America/New_York", 2100, [("2100-03-14T07:00:00Z", -14400), ("2100-11-07T06:00:00Z", -18000)], -18000),
    ("America/New_York", 2101, [("2101-03-13T07:00:00Z", -14400), ("2101-11-06T06:00:00Z", -18000)], -18000),
    ("America/New_York", 2200, [("2200-03-09T07:00:00Z", -14400), ("2200-11-02T06:00:00Z", -18000)], -18000),
    ("America/New_York", 2500, [("2500-03-14T07:00:00Z", -14400), ("2500-11-07T06:00:00Z", -18000)], -18000),
    ("Australia/Sydney", 2087, [("2087-04-05T16:00:00Z", 36000), ("2087-10-04T16:00:00Z", 39600)], 39600),
    ("Australia/Sydney", 2100, [("2100-04-03T16:00:00Z", 36000), ("2100-10-02T16:00:00Z", 39600)], 39600),
    ("Australia/Sydney", 2101, [("2101-04-02T16:00:00Z", 36000), ("2101-10-01T16:00:00Z", 39600)], 39600),
    ("Australia/Sydney", 2200, [("2200-04-05T16:00:00Z", 36000), ("2200-10-04T16:00:00Z", 39600)], 39600),
    ("Australia/Sydney", 2500, [("2500-04-03T16:00:00Z", 36000), ("2500-10-02T16:00:00Z", 39600)], 39600),
    ("Australia/Lord_Howe", 2087, [("2087-04-05T15:00:00Z", 37800), ("2087-10-04T15:30:00Z", 39600)], 39600),
    ("Australia/Lord_Howe", 2100, [("2100-04-03T15:00:00Z", 37800), ("2100-10-02T15:30:00Z", 39600)], 39600),
    ("Australia/Lord_Howe", 2101, [("2101-04-02T15:00:00Z", 37800), ("2101-10-01T15:30:00Z", 39600)], 39600),
    ("Australia/Lord_Howe", 2200, [("2200-04-05T15:00:00Z", 37800), ("2200-10-04T15:30:00Z", 39600)], 39600),
    ("Australia/Lord_Howe", 2500, [("2500-04-03T15:00:00Z", 37800), ("2500-10-02T15:30:00Z", 39600)], 39600),
    ("Pacific/Chatham", 2087, [("2087-04-05T14:00:00Z", 45900), ("2087-09-27T14:00:00Z", 49500)], 49500),
    ("Pacific/Chatham", 2100, [("2100-04-03T14:00:00Z", 45900), ("2100-09-25T14:00:00Z", 49500)], 49500),
    ("Pacific/Chatham", 2101, [("2101-04-02T14:00:00Z", 45900), ("2101-09-24T14:00:00Z", 49500)], 49500),
    ("Pacific/Chatham", 2200, [("2200-04-05T14:00:00Z", 45900), ("2200-09-27T14:00:00Z", 49500)], 49500),
    ("Pacific/Chatham", 2500, [("2500-04-03T14:00:00Z", 45900), ("2500-09-25T14:00:00Z", 49500)], 49500),
    ("Europe/Dublin", 2087, [("2087-03-30T01:00:00Z", 3600), ("2087-10-26T01:00:00Z", 0)], 0),
    ("Europe/Dublin", 2100, [("2100-03-28T01:00:00Z", 3600), ("2100-10-31T01:00:00Z", 0)], 0),
    ("Europe/Dublin", 2101, [("2101-03-27T01:00:00Z", 3600), ("2101-10-30T01:00:00Z", 0)], 0),
    ("Europe/Dublin", 2200, [("2200-03-30T01:00:00Z", 3600), ("2200-10-26T01:00:00Z", 0)], 0),
    ("Europe/Dublin", 2500, [("2500-03-28T01:00:00Z", 3600), ("2500-10-31T01:00:00Z", 0)], 0),
    ("Africa/Casablanca", 2087, [("2087-03-30T02:00:00Z", 0), ("2087-05-11T02:00:00Z", 3600)], 3600),
    ("Africa/Casablanca", 2100, [], 3600),
    ("Africa/Casablanca", 2101, [], 3600),
    ("Africa/Casablanca", 2200, [], 3600),
    ("Africa/Casablanca", 2500, [], 3600),
  ]
}

enum GlibcFixtures {
  /// TZ string, offset at 2027-01-01T00:00Z, offset changes in 2027 and 2028 (glibc `localtime`).
  static let rules: [(String, Int, [(String, Int)])] = [
    (
      "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", -7200,
      [
        ("2027-03-28T01:00:00Z", -3600), ("2027-10-31T01:00:00Z", -7200), ("2028-03-26T01:00:00Z", -3600),
        ("2028-10-29T01:00:00Z", -7200),
      ]
    ),
    (
      "IST-2IDT,M3.4.4/26,M10.5.0", 7200,
      [
        ("2027-03-26T00:00:00Z", 10800), ("2027-10-30T23:00:00Z", 7200), ("2028-03-24T00:00:00Z", 10800),
        ("2028-10-28T23:00:00Z", 7200),
      ]
    ),
    (
      "AAA-1BBB,J60,300", 3600,
      [
        ("2027-03-01T01:00:00Z", 7200), ("2027-10-28T00:00:00Z", 3600), ("2028-03-01T01:00:00Z", 7200),
        ("2028-10-27T00:00:00Z", 3600),
      ]
    ),
    (
      "CCC-1DDD,59/-3,J365/23:59:59", 3600,
      [
        ("2027-02-28T20:00:00Z", 7200), ("2027-12-31T21:59:59Z", 3600), ("2028-02-28T20:00:00Z", 7200),
        ("2028-12-31T21:59:59Z", 3600),
      ]
    ),
    (
      "EST5EDT", -18000,
      [
        ("2027-03-14T07:00:00Z", -14400), ("2027-11-07T06:00:00Z", -18000), ("2028-03-12T07:00:00Z", -14400),
        ("2028-11-05T06:00:00Z", -18000),
      ]
    ),
    (
      "<+00>0<+01>-1,M3.5.0/-25,M10.5.0/167", 0,
      [
        ("2027-03-26T23:00:00Z", 3600), ("2027-11-06T22:00:00Z", 0), ("2028-03-24T23:00:00Z", 3600),
        ("2028-11-04T22:00:00Z", 0),
      ]
    ),
    (
      "<-04>4<-03>,M9.1.6/24,M4.1.6/24", -10800,
      [
        ("2027-04-04T03:00:00Z", -14400), ("2027-09-05T04:00:00Z", -10800), ("2028-04-02T03:00:00Z", -14400),
        ("2028-09-03T04:00:00Z", -10800),
      ]
    ),
    (
      "IST-1GMT0,M10.5.0,M3.5.0/1", 0,
      [
        ("2027-03-28T01:00:00Z", 3600), ("2027-10-31T01:00:00Z", 0), ("2028-03-26T01:00:00Z", 3600),
        ("2028-10-29T01:00:00Z", 0),
      ]
    ),
    (
      "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 39600,
      [
        ("2027-04-03T15:00:00Z", 37800), ("2027-10-02T15:30:00Z", 39600), ("2028-04-01T15:00:00Z", 37800),
        ("2028-09-30T15:30:00Z", 39600),
      ]
    ),
  ]
}

// MARK: - Generators (run once with python3 3.9+; not at test time)
//
// --- gen_offset_changes.py ---
// # Expected offset changes 1990-2060 from Python's zoneinfo (public API only: utcoffset()).
// import zoneinfo, datetime
// UTC = datetime.timezone.utc
// EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)
// def offset(tz, t):
//     return int((EPOCH + datetime.timedelta(seconds=t)).astimezone(tz).utcoffset().total_seconds())
// ZONES = ["Europe/Berlin", "America/New_York", "America/Sao_Paulo", "Australia/Sydney",
//          "Australia/Lord_Howe", "Pacific/Auckland", "Pacific/Fiji", "Asia/Tokyo", "Asia/Kolkata",
//          "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns", "Europe/Dublin",
//          "Africa/Casablanca", "UTC", "Etc/UTC"]
// lo = int((datetime.datetime(1990, 1, 1, tzinfo=UTC) - EPOCH).total_seconds())
// hi = int((datetime.datetime(2061, 1, 1, tzinfo=UTC) - EPOCH).total_seconds())
// for name in ZONES:
//     tz = zoneinfo.ZoneInfo(name)
//     t, o, changes = lo, offset(tz, lo), []
//     while t < hi:  # hourly scan, then bisect to the second
//         n = min(t + 3600, hi); on = offset(tz, n)
//         if on != o:
//             a, b = t, n
//             while b - a > 1:
//                 m = (a + b) // 2
//                 if offset(tz, m) == o: a = m
//                 else: b = m
//             changes.append((b, on))
//         t, o = n, on
//     # Compact: minutes since the previous change (base 36) and the new offset in minutes.
//     def b36(n):
//         s = ""
//         while True:
//             n, r = divmod(n, 36); s = "0123456789abcdefghijklmnopqrstuvwxyz"[r] + s
//             if n == 0: return s
//     prev = lo; toks = []
//     for (c, off) in changes:
//         assert (c - prev) % 60 == 0 and off % 60 == 0
//         toks.append(f"{b36((c - prev)//60)}{'+' if off >= 0 else '-'}{abs(off)//60}")
//         prev = c
//     print(name, offset(tz, lo)//60, len(changes), " ".join(toks))
//
// --- gen_edges.py ---
// # DST-edge resolution cases and far-future offsets from Python's zoneinfo (fold semantics).
// import zoneinfo, datetime
// UTC = datetime.timezone.utc
// EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)
// def offset(tz, t):
//     return int((EPOCH + datetime.timedelta(seconds=t)).astimezone(tz).utcoffset().total_seconds())
// def ts(y, m=1, d=1): return int((datetime.datetime(y, m, d, tzinfo=UTC) - EPOCH).total_seconds())
// def changes(tz, a, b):
//     t, o, out = a, offset(tz, a), []
//     while t < b:
//         n = t + 3600; on = offset(tz, n)
//         if on != o:
//             x, y = t, n
//             while y - x > 1:
//                 m = (x + y) // 2
//                 if offset(tz, m) == o: x = m
//                 else: y = m
//             out.append((y, o, on))
//         t, o = n, on
//     return out
// def iso(t): return (EPOCH + datetime.timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%SZ")
// def wall(t, off): return (EPOCH + datetime.timedelta(seconds=t + off)).strftime("%Y-%m-%dT%H:%M:%S")
// def resolve(tz, w):
//     naive = datetime.datetime.strptime(w, "%Y-%m-%dT%H:%M:%S")
//     got = []
//     for fold in (0, 1):
//         t = int(naive.replace(tzinfo=tz, fold=fold).timestamp())
//         back = datetime.datetime.fromtimestamp(t, tz).replace(tzinfo=None)
//         if back == naive and t not in got: got.append(t)
//     got.sort()
//     return got
// CASES = [("Europe/Berlin", 2026), ("America/New_York", 2026), ("America/Sao_Paulo", 2018),
//          ("America/Sao_Paulo", 2019), ("Australia/Sydney", 2026), ("Australia/Lord_Howe", 2026),
//          ("Pacific/Auckland", 2026), ("Pacific/Fiji", 2020), ("Pacific/Chatham", 2026),
//          ("America/St_Johns", 2026), ("Europe/Dublin", 2026), ("Africa/Casablanca", 2026)]
// for name, year in CASES:
//     tz = zoneinfo.ZoneInfo(name)
//     for (t, before, after) in changes(tz, ts(year), ts(year + 1)):
//         d = abs(after - before)
//         if after > before:  # gap: walls [t+before, t+after) do not exist
//             walls = [t + before - 1, t + before, t + before + d // 2, t + after - 1, t + after]
//         else:               # overlap: walls [t+after, t+before) repeat
//             walls = [t + after - 1, t + after, t + after + d // 2, t + before - 1, t + before]
//         for wt in walls:
//             w = (EPOCH + datetime.timedelta(seconds=wt)).strftime("%Y-%m-%dT%H:%M:%S")
//             got = resolve(tz, w)
//             if len(got) == 1: exp = f'.unique("{iso(got[0])}")'
//             elif len(got) == 2: exp = f'.repeated("{iso(got[0])}", "{iso(got[1])}")'
//             else: exp = f'.skipped("{iso(t)}")'
//             print(f'    ("{name}", "{w}", {exp}),')
// print("FAR")
// for name in ["Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe",
//              "Pacific/Chatham", "Europe/Dublin", "America/St_Johns", "Pacific/Auckland",
//              "Africa/Casablanca", "America/Sao_Paulo", "Asia/Kathmandu"]:
//     tz = zoneinfo.ZoneInfo(name)
//     for y in (2040, 2087, 2100, 2101, 2200, 2500):
//         cs = changes(tz, ts(y), ts(y + 1))
//         print(f'    ("{name}", {y}, [' + ", ".join(f'("{iso(t)}", {a})' for t, b, a in cs) + f'], {offset(tz, ts(y))}),')
//
// --- gen_glibc_rules.py ---
// # Offset changes of hand-written POSIX TZ strings, from glibc (time.localtime honours $TZ).
// import os, time, datetime
// UTC = datetime.timezone.utc
// EPOCH = datetime.datetime(1970, 1, 1, tzinfo=UTC)
// def ts(y): return int((datetime.datetime(y, 1, 1, tzinfo=UTC) - EPOCH).total_seconds())
// def iso(t): return (EPOCH + datetime.timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%SZ")
// RULES = ["EST5EDT,0/0,J365/25", "<-02>2<-01>,M3.5.0/-1,M10.5.0/0", "IST-2IDT,M3.4.4/26,M10.5.0",
//          "AAA-1BBB,J60,300", "CCC-1DDD,59/-3,J365/23:59:59", "EST5EDT", "<+00>0<+01>-1,M3.5.0/-25,M10.5.0/167",
//          "<-04>4<-03>,M9.1.6/24,M4.1.6/24", "IST-1GMT0,M10.5.0,M3.5.0/1", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0"]
// for rule in RULES:
//     os.environ["TZ"] = rule; time.tzset()
//     off = lambda t: time.localtime(t).tm_gmtoff
//     t, o, out = ts(2027), off(ts(2027)), []
//     end = ts(2029)
//     while t < end:
//         n = t + 1800; on = off(n)
//         if on != o:
//             a, b = t, n
//             while b - a > 1:
//                 m = (a + b) // 2
//                 if off(m) == o: a = m
//                 else: b = m
//             out.append((b, on))
//         t, o = n, on
//     print(f'    ("{rule}", {off(ts(2027))}, [' + ", ".join(f'("{iso(a)}", {b})' for a, b in out) + "]),")
