import Testing

@testable import OpeningHours

/// DST policy (docs/opening-hours.md): the state at an instant is the rules evaluated at the
/// store's wall clock at that instant.
@Suite("Daylight saving time")
struct DSTTests {
  typealias F = Fixture

  static func zone(_ name: String) -> TimeZoneRules? { try? TimeZoneRules(identifier: name) }

  /// The instant of a wall time that exists once.
  static func wall(_ zone: TimeZoneRules, _ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0) -> Instant {
    let local = LocalDateTime(date: LocalDate(year: y, month: m, day: d)!, hour: h, minute: min)
    switch zone.resolve(local) {
    case .unique(let i): return i
    case .skipped(let t): return t
    case .repeated(let first, _): return first
    }
  }

  @Test("spring forward: a boundary at a wall time that does not exist takes effect at the transition")
  func springForward() throws {
    guard let berlin = Self.zone("Europe/Berlin") else {
      print("skipped: no tz database for Europe/Berlin")
      return
    }
    // 2026-03-29: 02:00 CET becomes 03:00 CEST at 01:00Z.
    let s = try F.schedule("Mo-Su 02:30-05:00", zone: berlin)
    let transition = F.at(2026, 3, 29, 1)
    #expect(!s.isOpen(at: transition - 1))
    #expect(s.isOpen(at: transition))
    #expect(s.nextChange(after: F.at(2026, 3, 28, 23)) == transition)
    #expect(s.nextChange(after: transition) == F.at(2026, 3, 29, 3))  // 05:00 CEST
    // An overnight span across the change lasts one hour less in real time.
    let night = try F.schedule("Sa 22:00-04:00", zone: berlin)
    let open = night.intervals(from: F.at(2026, 3, 28, 12), to: F.at(2026, 3, 29, 12)).filter {
      $0.status.state == .open
    }
    #expect(open.count == 1)
    #expect(open.first?.start == F.at(2026, 3, 28, 21))  // 22:00 CET
    #expect(open.first?.end == F.at(2026, 3, 29, 2))  // 04:00 CEST
  }

  @Test("fall back: the repeated hour is evaluated by the wall clock both times")
  func fallBack() throws {
    guard let berlin = Self.zone("Europe/Berlin") else {
      print("skipped: no tz database for Europe/Berlin")
      return
    }
    // 2026-10-25: 03:00 CEST becomes 02:00 CET at 01:00Z; 02:00-03:00 happens twice.
    let s = try F.schedule("Mo-Su 02:30-05:00", zone: berlin)
    let spans = s.intervals(from: F.at(2026, 10, 24, 22), to: F.at(2026, 10, 25, 6)).map {
      ($0.start, $0.end, $0.status.state)
    }
    #expect(spans.count == 5)
    #expect(spans.map(\.2) == [.closed, .open, .closed, .open, .closed])
    #expect(
      spans.map(\.0) == [
        F.at(2026, 10, 24, 22), F.at(2026, 10, 25, 0, 30), F.at(2026, 10, 25, 1), F.at(2026, 10, 25, 1, 30),
        F.at(2026, 10, 25, 4),
      ])
    // Closing at 02:30: the store closes at the first 02:30, reopens when the clock goes back to 02:00.
    let bar = try F.schedule("Sa 20:00-02:30", zone: berlin)
    #expect(bar.nextChange(after: F.at(2026, 10, 24, 23)) == F.at(2026, 10, 25, 0, 30))
    #expect(bar.status(at: F.at(2026, 10, 25, 1, 10)).state == .open)  // 02:10 CET, second time round
    #expect(bar.nextChange(after: F.at(2026, 10, 25, 1, 10)) == F.at(2026, 10, 25, 1, 30))
  }

  static let zones = [
    "Europe/Berlin", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "Pacific/Auckland",
    "Asia/Tokyo",
  ]
  static let expressions = [
    "Mo-Fr 09:00-18:00; Sa 10:00-14:00", "Mo-Su 02:30-05:00", "Fr-Sa 22:00-03:00; Su 01:00-02:15",
    "Mo-Su 00:00-02:00,02:30-03:00,22:00-26:00", "24/7; Su 02:00-03:00 off", "Mo-Su 10:00-18:00; PH off",
    "Sa 20:00-02:30 \"late\"; Su 01:45-02:15 unknown",
  ]

  /// A small deterministic generator (SplitMix64).
  struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
    mutating func below(_ n: Int64) -> Int64 { Int64(next() % UInt64(n)) }
  }

  @Test("status, nextChange and intervals agree around DST changes", arguments: zones)
  func agreement(zoneName: String) throws {
    guard let zone = Self.zone(zoneName) else {
      print("skipped: no tz database for \(zoneName)")
      return
    }
    var transitions: [Instant] = []
    var t = F.at(2025, 12, 1)
    while let next = zone.nextTransition(after: t), next < F.at(2027, 1, 1) {
      transitions.append(next)
      t = next
    }
    if transitions.isEmpty { transitions = [F.at(2026, 3, 29, 1), F.at(2026, 10, 25, 1)] }  // Tokyo: no DST
    var random = Random(state: UInt64(zoneName.utf8.count) &* 7919)
    for text in Self.expressions {
      let s = try F.schedule(text, zone: zone)
      for transition in transitions {
        for _ in 0..<12 {
          let start = transition + (random.below(3 * 86_400) - 2 * 86_400)
          // nextChange is the first instant where status differs (minute resolution is enough:
          // every boundary falls on a whole minute).
          let reference = s.status(at: start)
          let change = s.nextChange(after: start, horizonDays: 8)
          var probe = start + 1
          var expected: Instant?
          let end = start + 4 * 86_400
          // First whole minute after `start`, then minute by minute.
          probe = Instant(secondsSinceEpoch: (probe.secondsSinceEpoch + 59) / 60 * 60)
          while probe < end {
            if s.status(at: probe) != reference {
              expected = probe
              break
            }
            probe = probe + 60
          }
          if let expected {
            #expect(change == expected, "\(zoneName) \(text) after \(start)")
          } else {
            #expect(change == nil || change! >= end, "\(zoneName) \(text) after \(start)")
          }
          // Intervals are built from the same boundaries.
          let intervals = s.intervals(from: start, to: start + 2 * 86_400)
          #expect(intervals.first?.start == start)
          #expect(intervals.last?.end == start + 2 * 86_400)
          for (i, interval) in intervals.enumerated() {
            #expect(interval.start < interval.end)
            #expect(s.status(at: interval.start) == interval.status)
            #expect(s.status(at: interval.end - 1) == interval.status, "\(zoneName) \(text) \(interval)")
            if i > 0 {
              #expect(intervals[i - 1].end == interval.start)
              #expect(intervals[i - 1].status != interval.status)
            }
          }
        }
      }
    }
  }

  @Test("Lord Howe's half-hour shift and Auckland's southern summer")
  func unusualZones() throws {
    guard let lordHowe = Self.zone("Australia/Lord_Howe"), let auckland = Self.zone("Pacific/Auckland") else {
      print("skipped: no tz database")
      return
    }
    // Lord Howe: 2026-04-05 02:00 (+11) becomes 01:30 (+10:30); 01:30-02:00 repeats.
    let s = try F.schedule("Su 01:45-03:00", zone: lordHowe)
    let open = s.intervals(from: Self.wall(lordHowe, 2026, 4, 4, 12), to: Self.wall(lordHowe, 2026, 4, 5, 12))
      .filter { $0.status.state == .open }
    #expect(open.count == 2)  // 01:45-02:00 (+11), then 01:45 (+10:30)-03:00
    // Auckland: 2026-09-27 02:00 NZST becomes 03:00 NZDT.
    let a = try F.schedule("Su 02:15-02:45", zone: auckland)
    #expect(
      a.intervals(from: Self.wall(auckland, 2026, 9, 26, 12), to: Self.wall(auckland, 2026, 9, 27, 12)).count
        == 1)
  }
}
