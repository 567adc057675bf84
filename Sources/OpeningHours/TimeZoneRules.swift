// API CONTRACT (placeholder body: fixed offsets only). The time-zone helper replaces the bodies
// with a TZif reader; every public signature stays.

/// The rules of one IANA time zone: its UTC offset at any instant and its transitions, read from
/// the system's compiled tz database (TZif files under `$TZDIR`, else /usr/share/zoneinfo).
public struct TimeZoneRules: Hashable, Sendable {
  /// The IANA name, such as `Europe/Berlin`.
  public let identifier: String
  let fixedOffset: Int

  /// Loads the rules of `identifier`.
  /// - Throws: `TimeZoneRulesError` when the name is not a known zone (or is not a safe path).
  public init(identifier: String) throws(TimeZoneRulesError) {
    guard identifier == "UTC" || identifier == "Etc/UTC" else {
      throw TimeZoneRulesError(identifier: identifier, reason: "placeholder knows only UTC")
    }
    self.identifier = identifier
    self.fixedOffset = 0
  }

  /// A zone with one constant offset and no transitions (`UTC`, tests).
  public static func fixed(offsetSeconds: Int, identifier: String) -> TimeZoneRules {
    TimeZoneRules(identifier: identifier, fixedOffset: offsetSeconds)
  }

  init(identifier: String, fixedOffset: Int) {
    self.identifier = identifier
    self.fixedOffset = fixedOffset
  }

  /// Seconds east of UTC in force at `instant`.
  public func offset(at instant: Instant) -> Int { fixedOffset }

  /// The wall clock at `instant` in this zone.
  public func localDateTime(at instant: Instant) -> LocalDateTime {
    LocalDateTime(instant, offsetSeconds: offset(at: instant))
  }

  /// Which instants a wall-clock time names in this zone: one, none (it falls in a gap when the
  /// clocks jump forward), or two (it repeats when the clocks go back).
  public func resolve(_ local: LocalDateTime) -> LocalResolution {
    .unique(Instant(secondsSinceEpoch: local.secondsSinceEpochAtUTC - Int64(fixedOffset)))
  }

  /// The first instant after `instant` at which the offset changes, or `nil` when it never does.
  public func nextTransition(after instant: Instant) -> Instant? { nil }
}

/// How a wall-clock time maps to instants in a zone.
public enum LocalResolution: Hashable, Sendable {
  /// The usual case: exactly one instant.
  case unique(Instant)
  /// The wall time does not exist (spring forward); `transition` is the instant the clocks jumped,
  /// which is where the wall clock would have shown this time.
  case skipped(transition: Instant)
  /// The wall time happens twice (fall back): first with the earlier (summer) offset, then again.
  case repeated(first: Instant, second: Instant)
}

/// A time-zone name that could not be loaded.
public struct TimeZoneRulesError: Error, Hashable, Sendable, CustomStringConvertible {
  public let identifier: String
  public let reason: String
  public var description: String { "unknown time zone '\(identifier)': \(reason)" }
}
