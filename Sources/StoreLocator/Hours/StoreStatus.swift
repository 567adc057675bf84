import OpeningHours

/// Whether a store is open at a moment, until when, and how to say so to a person.
public struct StoreStatus: Hashable, Sendable {
  /// The moment asked about.
  public let instant: Instant
  /// Open, closed or unknown, with the rule's comment.
  public let status: OpeningStatus
  /// When the state (open, closed, unknown) next changes, or `nil` when it does not within the
  /// horizon (or is unknown). Changes of comment alone do not count.
  public let nextChange: Instant?
  /// The state from `nextChange` on.
  public let nextState: OpeningState?
  /// The store's time zone, for showing times in its wall clock; `nil` when it has none.
  public let timeZone: TimeZoneRules?
  /// Why there is no schedule, when there is none (no hours, hours that do not parse, no time zone).
  public let unavailableReason: String?
  /// The temporary closure the moment falls in (the store's state), when it does.
  public var temporaryClosure: TemporaryClosure?
  /// Where the hours come from, when a person should know: a service's hours that are the
  /// store's own because the data gives none for the service.
  public var hoursNote: String?

  /// A closure of the store's state that a status falls in.
  public struct TemporaryClosure: Hashable, Sendable {
    /// Why, as staff gave it.
    public let reason: String?
    /// When the closure ends (the store may still be closed then by its hours).
    public let until: Instant

    public init(reason: String?, until: Instant) {
      self.reason = reason
      self.until = until
    }
  }

  public init(
    instant: Instant, status: OpeningStatus, nextChange: Instant?, nextState: OpeningState? = nil,
    timeZone: TimeZoneRules?, unavailableReason: String? = nil
  ) {
    self.instant = instant
    self.status = status
    self.nextChange = nextChange
    self.nextState = nextState
    self.timeZone = timeZone
    self.unavailableReason = unavailableReason
  }

  /// The status of `schedule` at `instant`, looking `horizonDays` ahead for the next change
  /// (a week and a day unless a closure needs longer).
  public init(of schedule: Schedule, at instant: Instant, horizonDays: Int = 8) {
    let status = schedule.status(at: instant)
    let next =
      status.state == .unknown ? nil : schedule.nextStateChange(after: instant, horizonDays: horizonDays)
    self.init(
      instant: instant, status: status, nextChange: next,
      nextState: next.map { schedule.status(at: $0).state },
      timeZone: schedule.timeZone)
  }

  public var state: OpeningState { status.state }

  /// What a person needs in one phrase: `open until 21:00`, `closed, opens Mon 07:00`,
  /// `open 24 hours`, `hours unknown`, with the rule's comment in quotes.
  public var summary: String { String(utf8Writing: { appendSummary(to: &$0) }) }

  /// `summary`'s UTF-8 appended to `bytes`, without making a `String`: answers write one for
  /// every store they list.
  func appendSummary(to bytes: inout [UInt8]) {
    func text(_ literal: StaticString) { literal.withUTF8Buffer { bytes.append(contentsOf: $0) } }
    func text(_ words: String) { bytes.append(contentsOf: words.utf8) }
    if let closure = temporaryClosure {
      text("temporarily closed")
      if let reason = closure.reason {
        text(" \"")
        text(reason)
        text("\"")
      }
      if let change = nextChange, nextState == .open {
        text(", reopens ")
        Self.appendDayAndTime(change, in: displayZone, to: &bytes)
      } else {
        text(" until ")
        Self.appendDayAndTime(closure.until, in: displayZone, to: &bytes)
      }
      return
    }
    switch (status.state, nextChange, timeZone) {
    case (.open, nil, _): text("open 24 hours")
    case (.open, let change?, let zone?):
      text("open until ")
      Self.appendWallTime(change, after: instant, in: zone, to: &bytes)
    case (.closed, let change?, let zone?) where nextState == .unknown:
      text("closed, hours unknown from ")
      Self.appendWallTime(change, after: instant, in: zone, to: &bytes)
    case (.closed, let change?, let zone?):
      text("closed, opens ")
      Self.appendWallTime(change, after: instant, in: zone, to: &bytes)
    case (.closed, _, _): text("closed")
    case (.unknown, _, _):
      text("hours unknown")
      if let unavailableReason {
        text(" (")
        text(unavailableReason)
        text(")")
      }
    default: text(status.state.rawValue)
    }
    if let comment = status.comment {
      text(" \"")
      text(comment)
      text("\"")
    }
    if let hoursNote {
      text(" (")
      text(hoursNote)
      text(")")
    }
  }

  /// `instant` as ISO 8601 with the store's offset then (UTC when the store has no time zone).
  public func formatted(_ instant: Instant) -> String {
    iso8601(instant, in: displayZone)
  }

  /// `formatted(instant)` as a JSON string, written into `output` without making a `String`.
  func writeFormatted(_ instant: Instant, to output: inout JSONBytes) {
    output.append(UInt8(ascii: "\""))
    appendISO8601(instant, in: displayZone, to: &output.bytes)
    output.append(UInt8(ascii: "\""))
  }

  /// The zone times are shown in.
  private var displayZone: TimeZoneRules { timeZone ?? .utc }

  /// `21:00` on the same local day, `Mon 07:00` within a week, `2026-12-27 07:00` beyond.
  static func wallTime(_ instant: Instant, after reference: Instant, in zone: TimeZoneRules) -> String {
    String(utf8Writing: { appendWallTime(instant, after: reference, in: zone, to: &$0) })
  }

  /// `wallTime`'s UTF-8 appended to `bytes`.
  static func appendWallTime(
    _ instant: Instant, after reference: Instant, in zone: TimeZoneRules, to bytes: inout [UInt8]
  ) {
    let local = zone.localDateTime(at: instant)
    let today = zone.localDateTime(at: reference).date
    let days = local.date.daysSinceEpoch - today.daysSinceEpoch
    if days == 1 && local.secondsIntoDay == 0 {
      bytes.append(contentsOf: "midnight".utf8)
      return
    }
    if days != 0 {
      if days < 7 {
        bytes.append(contentsOf: weekdayNames[local.date.weekday].utf8)
      } else {
        local.date.appendDescription(to: &bytes)
      }
      bytes.append(UInt8(ascii: " "))
    }
    local.appendHourAndMinute(to: &bytes)
  }

  static let weekdayNames = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
  static let monthNames = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]

  /// `Mon 19 Jan 07:00`: a day people read without counting, for a reopening weeks ahead.
  static func dayAndTime(_ instant: Instant, in zone: TimeZoneRules) -> String {
    String(utf8Writing: { appendDayAndTime(instant, in: zone, to: &$0) })
  }

  /// `dayAndTime`'s UTF-8 appended to `bytes`.
  static func appendDayAndTime(_ instant: Instant, in zone: TimeZoneRules, to bytes: inout [UInt8]) {
    let local = zone.localDateTime(at: instant)
    let day = "\(weekdayNames[local.date.weekday]) \(local.date.day) \(monthNames[local.date.month - 1]) "
    bytes.append(contentsOf: day.utf8)
    local.appendHourAndMinute(to: &bytes)
  }

  /// `Mon` … `Sun`.
  public static func weekdayName(_ date: LocalDate) -> String { weekdayNames[date.weekday] }
}

/// A condition on opening hours that a query's stores must meet, checked inside the search.
public struct OpeningRequirement: Hashable, Sendable {
  /// The moment (or each store's local wall time) the store must be open at.
  public let time: TimeQuery
  /// How long it must stay open from then, in seconds; 0 for just that moment.
  public let seconds: Int64
  /// Whether stores whose state is unknown there pass.
  public let allowsUnknown: Bool

  public init(time: TimeQuery, seconds: Int64 = 0, allowsUnknown: Bool = false) {
    self.time = time
    self.seconds = seconds
    self.allowsUnknown = allowsUnknown
  }

  /// True when `schedule` meets the requirement. A store without a schedule has unknown hours.
  public func isMet(by schedule: Schedule?) -> Bool {
    switch state(of: schedule) {
    case .open: true
    case .unknown: allowsUnknown
    case .closed: false
    }
  }

  /// Open when the store is open for the whole time asked, closed when it is closed at any point
  /// of it, else unknown (no schedule, or unknown hours somewhere in it).
  public func state(of schedule: Schedule?) -> OpeningState {
    guard let schedule else { return .unknown }
    let start = time.instant(in: schedule.timeZone)
    if seconds == 0 { return schedule.status(at: start).state }
    // The common answer first: a table lookup and one scan.
    if schedule.isOpen(throughout: start, seconds: seconds) { return .open }
    return schedule.state(throughout: start, seconds: seconds)
  }
}
