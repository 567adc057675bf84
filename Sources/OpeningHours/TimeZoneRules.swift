#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The rules of one IANA time zone: its UTC offset at any instant and its transitions, read from
/// the system's compiled tz database (TZif files under `$TZDIR`, else /usr/share/zoneinfo).
///
/// The value is immutable and cheap to copy (one reference to its table); load a zone once and
/// keep it. Instants after the file's last transition follow the file's footer rule (a POSIX TZ
/// string), so "slim" files and dates far in the future (2100, 2500) are right too.
///
/// DST policy (DESIGN.md §5) for wall times, see `resolve(_:)`: a wall time in a spring-forward
/// gap is `.skipped` (callers use the instant of the jump); a wall time in a fall-back overlap is
/// `.repeated` (callers use its first occurrence unless they need both).
public struct TimeZoneRules: Hashable, Sendable {
  /// The IANA name, such as `Europe/Berlin`.
  public var identifier: String { table.identifier }

  // The table: the instants at which the local time type changes, ascending, and what is in force
  // from each on. Consecutive identical types are merged; changes of abbreviation or DST flag
  // alone are kept (for `abbreviation(at:)`) and skipped by the transition queries. Beyond the
  // file's own transitions the footer rule is precomputed into the table up to `ruleStart`, so
  // `offset(at:)` is a plain binary search for every instant before that.
  @inline(__always) var times: [Int64] { table.times }
  /// `offsets[i]` is in force from `times[i]` on; kept apart from `typeIndices` so the hot
  /// binary search touches only two flat arrays.
  @inline(__always) var offsets: [Int32] { table.offsets }
  @inline(__always) var typeIndices: [UInt16] { table.typeIndices }
  @inline(__always) var types: [LocalTimeType] { table.types }
  /// The type in force before the first transition (RFC 8536: time type 0).
  @inline(__always) var initialType: Int { table.initialType }
  /// Instants at or after this follow `rule` directly (`Int64.max`: never).
  @inline(__always) var ruleStart: Int64 { table.ruleStart }
  @inline(__always) var rule: POSIXTimeZoneRule? { table.rule }

  /// Every field behind one reference: a zone is copied with every schedule and every store's
  /// status, and seven references and a rule inline made each copy a large move and seven
  /// retains (a tenth of answering ten stores' states).
  private let table: Table

  private final class Table: Sendable {
    let identifier: String
    let times: [Int64]
    let offsets: [Int32]
    let typeIndices: [UInt16]
    let types: [LocalTimeType]
    let initialType: Int
    let ruleStart: Int64
    let rule: POSIXTimeZoneRule?

    init(
      identifier: String, times: [Int64], typeIndices: [UInt16], types: [LocalTimeType], initialType: Int,
      ruleStart: Int64, rule: POSIXTimeZoneRule?
    ) {
      self.identifier = identifier
      self.times = times
      self.typeIndices = typeIndices
      self.offsets = typeIndices.map { types[Int($0)].offset }
      self.types = types
      self.initialType = initialType
      self.ruleStart = ruleStart
      self.rule = rule
    }
  }

  /// The directory zones are read from: `$TZDIR` when set and not empty, else
  /// `/usr/share/zoneinfo`.
  public static var systemDirectory: String {
    if let value = getenv("TZDIR"), value.pointee != 0 { return String(cString: value) }
    return "/usr/share/zoneinfo"
  }

  /// Loads the rules of `identifier` from `systemDirectory`.
  ///
  /// `UTC` and `Etc/UTC` work even where no tz database is installed (minimal containers).
  /// - Throws: `TimeZoneRulesError` when the name is not a known zone (or is not a safe path).
  /// - Complexity: reads one file of a few kilobytes; well under a millisecond.
  public init(identifier: String) throws(TimeZoneRulesError) {
    try self.init(identifier: identifier, directory: Self.systemDirectory)
  }

  /// Loads the rules of `identifier` from the tz database in `directory` (a bundled copy, tests).
  ///
  /// The name must be a relative path inside `directory`: empty names, absolute paths, `..`,
  /// characters that never occur in zone names, and symbolic links that lead outside `directory`
  /// are refused.
  /// - Throws: `TimeZoneRulesError` when the name is unsafe, names no file, or the file is not a
  ///   valid TZif file.
  public init(identifier: String, directory: String) throws(TimeZoneRulesError) {
    func failure(_ reason: String) -> TimeZoneRulesError {
      TimeZoneRulesError(identifier: identifier, reason: reason)
    }
    let example = "IANA names look like Europe/Berlin or Asia/Shanghai"
    guard !identifier.isEmpty else { throw failure("the name is empty; \(example)") }
    guard !identifier.hasPrefix("/") else {
      throw failure("an absolute path is not a zone name; \(example)")
    }
    guard !identifier.contains("..") else {
      throw failure("'..' would leave the zone directory; \(example)")
    }
    // Zone names are made of ASCII letters, digits and `/ _ - + .` (tz "Theory" file).
    guard identifier.utf8.count <= 255,
      identifier.utf8.allSatisfy({ byte in
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
          UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "_"),
          UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."):
          true
        default: false
        }
      })
    else { throw failure("it contains characters that never occur in a zone name; \(example)") }
    guard
      !identifier.split(separator: "/", omittingEmptySubsequences: false)
        .contains(where: { $0.isEmpty || $0 == "." })
    else { throw failure("it has an empty or '.' path component; \(example)") }

    let bytes: [UInt8]
    switch ZoneFileReader.load(identifier: identifier, directory: directory) {
    case .success(let read): bytes = read
    case .failure(let problem):
      if identifier == "UTC" || identifier == "Etc/UTC", problem.isMissing {
        self = .fixed(offsetSeconds: 0, identifier: identifier)
        return
      }
      throw failure(problem.reason(identifier: identifier, directory: directory, example: example))
    }
    try self.init(identifier: identifier, tzifBytes: bytes)
  }

  /// Builds the rules from the bytes of a TZif file (RFC 8536, versions 1 to 4).
  /// - Throws: `TimeZoneRulesError` when the bytes are not a valid TZif file or carry leap
  ///   seconds.
  public init(identifier: String, tzifBytes: [UInt8]) throws(TimeZoneRulesError) {
    let file: TZifFile
    let rule: POSIXTimeZoneRule?
    do {
      file = try TZifFile(bytes: tzifBytes)
      rule = file.footer.isEmpty ? nil : try POSIXTimeZoneRule(parsing: file.footer)
    } catch {
      throw TimeZoneRulesError(identifier: identifier, reason: "malformed zone file: \(error.reason)")
    }
    self.init(identifier: identifier, file: file, rule: rule)
  }

  /// The first year the footer rule is no longer precomputed into the table. Far enough that
  /// everyday queries are a binary search; a few hundred entries per zone.
  static let precomputedThroughYear = 2100

  init(identifier: String, file: TZifFile, rule: POSIXTimeZoneRule?) {
    var types: [LocalTimeType] = []
    func typeIndex(_ type: LocalTimeType) -> Int {
      if let index = types.firstIndex(of: type) { return index }
      types.append(type)
      return types.count - 1
    }
    let fileTypeIndex = file.types.map(typeIndex)
    let initialType = fileTypeIndex[0]
    var times: [Int64] = []
    var typeIndices: [UInt16] = []
    times.reserveCapacity(file.transitionTimes.count)
    typeIndices.reserveCapacity(file.transitionTimes.count)
    var current = initialType
    func append(_ time: Int64, _ index: Int) {
      guard index != current else { return }  // no change at all (fat files' "big bang" entries)
      times.append(time)
      typeIndices.append(UInt16(index))
      current = index
    }
    for (time, index) in zip(file.transitionTimes, file.transitionTypes) {
      append(time, fileTypeIndex[Int(index)])
    }

    var ruleStart = Int64.max
    if let rule, let daylight = rule.daylight {
      if let last = file.transitionTimes.last {
        // Precompute the rule's changes after the last transition through 2100.
        let firstYear = utcYear(last)
        let lastYear = max(Self.precomputedThroughYear, firstYear + 1)
        ruleStart = Int64(LocalDate(year: lastYear + 1, month: 1, day: 1)!.daysSinceEpoch) * 86_400
        let standard = typeIndex(
          LocalTimeType(
            offset: Int32(rule.standardOffset), isDaylight: false, abbreviation: rule.standardAbbreviation))
        let summer = typeIndex(
          LocalTimeType(offset: Int32(daylight.offset), isDaylight: true, abbreviation: daylight.abbreviation)
        )
        for change in rule.changes(years: (firstYear - 1)...(lastYear + 1))
        where change.instant > last && change.instant < ruleStart {
          append(change.instant, change.isDaylight ? summer : standard)
        }
      } else {
        ruleStart = .min  // a rule with no table at all: the rule governs every instant
      }
    }
    table = Table(
      identifier: identifier, times: times, typeIndices: typeIndices, types: types, initialType: initialType,
      ruleStart: ruleStart, rule: ruleStart == .max ? nil : rule)
  }

  /// Coordinated Universal Time, which needs no tz database.
  public static let utc = TimeZoneRules.fixed(offsetSeconds: 0, identifier: "UTC")

  /// A zone with one constant offset and no transitions (`UTC`, tests).
  public static func fixed(offsetSeconds: Int, identifier: String) -> TimeZoneRules {
    TimeZoneRules(identifier: identifier, fixedOffset: offsetSeconds)
  }

  init(identifier: String, fixedOffset: Int) {
    let type = LocalTimeType(
      offset: Int32(fixedOffset), isDaylight: false, abbreviation: numericAbbreviation(fixedOffset))
    table = Table(
      identifier: identifier, times: [], typeIndices: [], types: [type], initialType: 0, ruleStart: .max,
      rule: nil)
  }

  // MARK: Queries

  /// How many table entries are at or before `time` (the index after the one in force).
  private func entriesThrough(_ time: Int64) -> Int {
    times.withUnsafeBufferPointer { times in
      var low = 0
      var high = times.count
      while low < high {
        let middle = (low + high) &>> 1
        if times[middle] <= time { low = middle + 1 } else { high = middle }
      }
      return low
    }
  }

  /// Seconds east of UTC in force at `instant`.
  ///
  /// - Complexity: O(log n) in the number of transitions: a binary search over a few hundred
  ///   entries, about 25 ns in release builds, for every instant before 2101. After that the
  ///   footer rule is evaluated, O(1) but about 0.4 µs (four years of rule dates are computed).
  public func offset(at instant: Instant) -> Int {
    let time = instant.secondsSinceEpoch
    if time >= ruleStart, let rule { return rule.offset(at: time) }
    let count = entriesThrough(time)
    return count == 0 ? Int(types[initialType].offset) : Int(offsets[count - 1])
  }

  /// The time-zone abbreviation in force at `instant`, such as `CEST` or `+0545` (numeric ones
  /// come without the sign's colon, as the tz database writes them: `+0545`, `-03`).
  public func abbreviation(at instant: Instant) -> String { localTimeType(at: instant).abbreviation }

  /// Whether `instant` falls in daylight-saving time. Note that Europe/Dublin's data has
  /// "negative DST": its *winter* time (GMT) is the daylight time, summer (IST) the standard one.
  public func isDaylightSavingTime(at instant: Instant) -> Bool {
    localTimeType(at: instant).isDaylight
  }

  func localTimeType(at instant: Instant) -> LocalTimeType {
    let time = instant.secondsSinceEpoch
    if time >= ruleStart, let rule {
      let daylight = rule.isDaylight(at: time)
      return LocalTimeType(
        offset: Int32(rule.offset(isDaylight: daylight)), isDaylight: daylight,
        abbreviation: rule.abbreviation(isDaylight: daylight))
    }
    let count = entriesThrough(time)
    return types[count == 0 ? initialType : Int(typeIndices[count - 1])]
  }

  /// The wall clock at `instant` in this zone.
  public func localDateTime(at instant: Instant) -> LocalDateTime {
    LocalDateTime(instant, offsetSeconds: offset(at: instant))
  }

  /// Which instants a wall-clock time names in this zone: one, none (it falls in a gap when the
  /// clocks jump forward), or two (it repeats when the clocks go back).
  ///
  /// Every offset in force within ±26 hours of the wall time is tried; an offset counts when the
  /// zone really has that offset at the instant it gives. So `.skipped` carries the instant of the
  /// jump over the wall time (2026-03-29 02:30 in Europe/Berlin → 01:00Z, where the clocks went
  /// from 02:00 to 03:00), and `.repeated` gives the occurrence with the earlier, pre-transition
  /// offset first (2026-10-25 02:30 in Berlin → 00:30Z, then 01:30Z). Should two transitions ever
  /// overlap one wall time three times, `first` and `second` are the earliest and the latest.
  /// - Complexity: O(log n): a few binary searches.
  public func resolve(_ local: LocalDateTime) -> LocalResolution {
    let wall = local.secondsSinceEpochAtUTC
    // Offsets are within ±26 h (RFC 8536), so any instant the wall time can name is in here.
    let low = Instant(secondsSinceEpoch: wall - 93_600)
    let high = Instant(secondsSinceEpoch: wall + 93_600)
    let initial = offset(at: low)
    guard let firstTransition = nextTransitionDetail(after: low), firstTransition.instant <= high else {
      return .unique(Instant(secondsSinceEpoch: wall - Int64(initial)))  // the usual case
    }
    var candidates = [initial, firstTransition.offsetAfter]
    var transitions = [firstTransition]
    var cursor = firstTransition.instant
    while let next = nextTransitionDetail(after: cursor), next.instant <= high {
      transitions.append(next)
      candidates.append(next.offsetAfter)
      cursor = next.instant
    }
    var valid: [Instant] = []
    for candidate in candidates {
      let instant = Instant(secondsSinceEpoch: wall - Int64(candidate))
      if offset(at: instant) == candidate, !valid.contains(instant) { valid.append(instant) }
    }
    valid.sort()
    if valid.count == 1 { return .unique(valid[0]) }
    if let first = valid.first, let last = valid.last, valid.count > 1 {
      return .repeated(first: first, second: last)
    }
    // In a gap: find the forward jump whose skipped wall times contain this one.
    for transition in transitions {
      let time = transition.instant.secondsSinceEpoch
      if time + Int64(transition.offsetBefore) <= wall, wall < time + Int64(transition.offsetAfter) {
        return .skipped(transition: transition.instant)
      }
    }
    // Unreachable with consistent data; the nearest jump is the best answer.
    return .skipped(transition: transitions[0].instant)
  }

  /// The first instant after `instant` at which the offset changes, or `nil` when it never does.
  /// Changes of abbreviation or DST flag alone do not count.
  /// - Complexity: O(log n) within the table, O(1) under the footer rule.
  public func nextTransition(after instant: Instant) -> Instant? {
    nextTransitionDetail(after: instant)?.instant
  }

  /// The first offset change after `instant`, with the offsets on both sides; `nil` when there
  /// is none. Changes of abbreviation or DST flag alone do not count.
  /// - Complexity: O(log n) within the table, O(1) under the footer rule.
  public func nextTransitionDetail(after instant: Instant) -> TimeZoneTransition? {
    let time = instant.secondsSinceEpoch
    if time < ruleStart {
      let before = offset(at: instant)
      var index = entriesThrough(time)
      var previous = before
      while index < times.count {
        let next = Int(offsets[index])
        if next != previous {
          return TimeZoneTransition(
            instant: Instant(secondsSinceEpoch: times[index]), offsetBefore: previous, offsetAfter: next)
        }
        previous = next
        index += 1
      }
      guard let rule, ruleStart != .max else { return nil }
      return rule.nextChange(after: ruleStart - 1).map {
        TimeZoneTransition(
          instant: Instant(secondsSinceEpoch: $0.instant), offsetBefore: rule.offset(at: $0.instant - 1),
          offsetAfter: $0.offset)
      }
    }
    guard let rule else { return nil }
    return rule.nextChange(after: time).map {
      TimeZoneTransition(
        instant: Instant(secondsSinceEpoch: $0.instant), offsetBefore: rule.offset(at: $0.instant - 1),
        offsetAfter: $0.offset)
    }
  }

  /// The last instant before `instant` at which the offset changed, or `nil` when it never did.
  /// - Complexity: O(log n) within the table, O(1) under the footer rule.
  public func previousTransition(before instant: Instant) -> TimeZoneTransition? {
    var time = instant.secondsSinceEpoch
    guard time > .min else { return nil }
    if let rule, time > ruleStart {
      if let change = rule.previousChange(before: time), change.instant >= ruleStart {
        return TimeZoneTransition(
          instant: Instant(secondsSinceEpoch: change.instant),
          offsetBefore: rule.offset(at: change.instant - 1), offsetAfter: change.offset)
      }
      time = ruleStart
    }
    // Entries strictly before `time`.
    var index = entriesThrough(time - 1) - 1
    while index >= 0 {
      let after = Int(offsets[index])
      let before = index == 0 ? Int(types[initialType].offset) : Int(offsets[index - 1])
      if after != before {
        return TimeZoneTransition(
          instant: Instant(secondsSinceEpoch: times[index]), offsetBefore: before, offsetAfter: after)
      }
      index -= 1
    }
    return nil
  }

  /// The offset changes at instants in `range`, in order.
  /// - Complexity: O(log n + k) for k changes.
  public func transitions(in range: Range<Instant>) -> [TimeZoneTransition] {
    var result: [TimeZoneTransition] = []
    guard range.lowerBound.secondsSinceEpoch > .min else { return [] }
    var cursor = range.lowerBound - 1
    while let next = nextTransitionDetail(after: cursor), next.instant < range.upperBound {
      result.append(next)
      cursor = next.instant
    }
    return result
  }

  /// Equal when every field is: the same table, or two loads of the same rules. (`offsets` is
  /// made from `typeIndices` and `types`, so it is not compared again.)
  public static func == (a: TimeZoneRules, b: TimeZoneRules) -> Bool {
    if a.table === b.table { return true }
    return a.identifier == b.identifier && a.times == b.times
      && a.typeIndices == b.typeIndices && a.types == b.types && a.initialType == b.initialType
      && a.ruleStart == b.ruleStart && a.rule == b.rule
  }

  // Equal zones have equal names, so hashing the name (and not hundreds of transitions) is enough.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(identifier)
    hasher.combine(times.count)
  }
}

/// A change of a zone's UTC offset.
public struct TimeZoneTransition: Hashable, Sendable, CustomStringConvertible {
  /// The first instant with the new offset.
  public let instant: Instant
  /// Seconds east of UTC just before `instant`.
  public let offsetBefore: Int
  /// Seconds east of UTC from `instant` on.
  public let offsetAfter: Int

  public init(instant: Instant, offsetBefore: Int, offsetAfter: Int) {
    self.instant = instant
    self.offsetBefore = offsetBefore
    self.offsetAfter = offsetAfter
  }

  /// `2026-03-29T01:00:00Z +3600→+7200`.
  public var description: String { "\(instant) \(offsetBefore)→\(offsetAfter)" }
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

/// `+09`, `+0545`, `-0330`, `UTC`: the tz database's style of numeric abbreviation.
func numericAbbreviation(_ offset: Int) -> String {
  if offset == 0 { return "UTC" }
  let magnitude = abs(offset)
  var text = (offset < 0 ? "-" : "+") + LocalDate.pad(magnitude / 3600, 2)
  if magnitude % 3600 != 0 { text += LocalDate.pad(magnitude / 60 % 60, 2) }
  if magnitude % 60 != 0 { text += LocalDate.pad(magnitude % 60, 2) }
  return text
}

// MARK: - Reading zone files

/// Reads a zone file with the C library only (the module does not use Foundation).
enum ZoneFileReader {
  enum Problem: Error {
    case directoryMissing
    case notFound
    case outside
    case notAFile
    case unreadable(Int32)
    case tooLarge

    /// The database or the zone is absent (as opposed to present but unusable).
    var isMissing: Bool {
      switch self {
      case .directoryMissing, .notFound: true
      default: false
      }
    }

    func reason(identifier: String, directory: String, example: String) -> String {
      switch self {
      case .directoryMissing: "the time zone directory \(directory) does not exist (is tzdata installed?)"
      case .notFound: "no such zone in \(directory); \(example)"
      case .outside: "it resolves to a file outside \(directory)"
      case .notAFile: "'\(identifier)' in \(directory) is a directory, not a zone; \(example)"
      case .unreadable(let code): "cannot read it from \(directory): \(String(cString: strerror(code)))"
      case .tooLarge: "the file in \(directory) is too large to be a zone file"
      }
    }
  }

  /// The canonical absolute path of `path` (symbolic links resolved), or `nil` with `errno` set.
  static func canonicalPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
  }

  static func load(identifier: String, directory: String) -> Result<[UInt8], Problem> {
    guard let root = canonicalPath(directory) else { return .failure(.directoryMissing) }
    guard let path = canonicalPath(directory + "/" + identifier) else {
      return .failure(errno == ENOENT || errno == ENOTDIR ? .notFound : .unreadable(errno))
    }
    // Symbolic links inside the database are normal (UTC → Etc/UTC); leaving it is not
    // (Debian's `localtime` → /etc/localtime).
    let prefix = root.hasSuffix("/") ? root : root + "/"
    guard path.hasPrefix(prefix) else { return .failure(.outside) }

    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return .failure(.unreadable(errno)) }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else { return .failure(.unreadable(errno)) }
    guard (status.st_mode & S_IFMT) == S_IFREG else { return .failure(.notAFile) }
    let size = Int(status.st_size)
    // The largest real zone file is under 5 kB (fat ones); anything huge is not a zone.
    guard size <= 1 << 20 else { return .failure(.tooLarge) }
    var bytes = [UInt8](repeating: 0, count: size)
    var filled = 0
    while filled < size {
      let count = bytes.withUnsafeMutableBytes { buffer in
        read(descriptor, buffer.baseAddress! + filled, size - filled)
      }
      if count < 0 {
        if errno == EINTR { continue }
        return .failure(.unreadable(errno))
      }
      if count == 0 { break }
      filled += count
    }
    bytes.removeSubrange(filled...)
    return .success(bytes)
  }
}
