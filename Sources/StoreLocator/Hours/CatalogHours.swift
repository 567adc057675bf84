import GeoIndex
import OpeningHours

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension Catalog {
  /// The compiled opening hours of `store`, or `nil` when it has none usable.
  ///
  /// The store is found by its `catalogIndex`, never by id, so stores that share an id keep their
  /// own hours; a record made outside the catalog is found by id only when the id is unique.
  /// - Complexity: O(1).
  public func schedule(for store: Store) -> Schedule? {
    position(of: store).flatMap { schedule(at: $0) }
  }

  /// The rules of the store's time zone (given or inferred), or `nil` when it has none usable.
  ///
  /// - Complexity: O(1): zones are loaded once, when the catalog is built.
  public func timeZone(of store: Store) -> TimeZoneRules? {
    store.timezone.flatMap { timeZone(named: $0) }
  }

  /// Whether `store` is open at `time`, until when, and the phrase for people.
  ///
  /// Like `schedule(for:)`, this follows the record itself (its `catalogIndex`), not its id.
  /// A wall time (`TimeQuery.wallTime`) is read in the store's own time zone.
  /// - Complexity: O(1) for a weekly schedule; a bounded scan for the next change.
  public func status(of store: Store, at time: TimeQuery) -> StoreStatus {
    if let position = position(of: store) { return status(at: position, at: time) }
    return unknownStatus(zone: timeZone(of: store), reason: "no opening_hours", at: time)
  }

  /// The status of the store at `position`, read from its row and its group's schedule.
  func status(at position: Int, at time: TimeQuery) -> StoreStatus {
    guard let schedule = schedule(at: position) else {
      let zone = table.timeZoneName(at: position).flatMap { timeZone(named: $0) }
      return unknownStatus(zone: zone, reason: scheduleGap(at: position) ?? "no opening_hours", at: time)
    }
    let instant = time.instant(in: schedule.timeZone)
    guard let overlay else { return StoreStatus(of: schedule, at: instant) }
    var status: StoreStatus
    if let closure = overlay.closure(at: position, covering: instant) {
      // Far enough ahead to see the reopening after the closure.
      let days = (closure.range.upperBound.secondsSinceEpoch - instant.secondsSinceEpoch) / 86_400
      status = StoreStatus(of: schedule, at: instant, horizonDays: Int(min(days, 400)) + 8)
      status.temporaryClosure = StoreStatus.TemporaryClosure(
        reason: closure.reason, until: closure.range.upperBound)
    } else {
      status = StoreStatus(of: schedule, at: instant)
    }
    status.hoursNote = overlay.service?.note(at: position)
    return status
  }

  private func unknownStatus(zone: TimeZoneRules?, reason: String, at time: TimeQuery) -> StoreStatus {
    StoreStatus(
      instant: time.instant(in: zone ?? .utc), status: .unknown, nextChange: nil, timeZone: zone,
      unavailableReason: reason)
  }

  /// The prefix of a service's hours property: `opening_hours:drive_through`.
  static let serviceHoursPrefix = "opening_hours:"

  /// `character 7` or `characters 19-20`, one-based, for messages about an expression.
  static func characters(_ range: Range<Int>) -> String {
    range.count <= 1
      ? "character \(range.lowerBound + 1)" : "characters \(range.lowerBound + 1)-\(range.upperBound)"
  }

  /// `; write it as `Mo-Fr 09:00-17:00``: the end of a message about a tolerated or doubtful
  /// opening_hours value, naming its canonical form; empty when that is the text itself.
  static func fixIt(for hours: OpeningHours) -> String {
    let normalized = hours.normalized
    return normalized == hours.text ? "" : "; write it as `\(normalized)`"
  }

  /// Parses each store's `opening_hours`, settles its time zone (inferring it from the nearest
  /// populated place when the data has none) and, when the hours name holidays, its holiday
  /// country and region (inferred from the same place when the data lacks them), and compiles a
  /// schedule; says what went wrong, and what was inferred, as diagnostics on the store. Each
  /// store's row is settled (`CatalogAssembly.settle`) as soon as its hours are.
  ///
  /// Stores that settle alike (`SettledStores.Key`) are compiled once; `sharingAlike: false`
  /// compiles each alone, the reference the shared results are tested against.
  static func compileSchedules(
    into assembly: inout CatalogAssembly, with resources: HoursResources, openHoursWindow: Range<Instant>,
    diagnostics: inout [Diagnostic], progress: WorkProgress? = nil, sharingAlike: Bool = true
  ) throws(StoreTableOverflow) -> CompiledSchedules {
    let inputs = assembly.hoursInputs
    let count = inputs.count
    // Stores that share a compiled schedule form a group; the table keeps one schedule a group.
    var groupOfKey: [ScheduleKey: UInt32] = [:]
    var groupSchedules: [Schedule?] = []
    var groupLeaders: [UInt32] = []
    // Stores without a schedule are unknown at every hour, so they may be open at any.
    var openHours: [HoursOfWeek] = Array(repeating: .all, count: count)
    var openHoursByKey: [ScheduleKey: HoursOfWeek] = [:]
    var zones: [String: TimeZoneRules?] = [:]
    // Chains repeat the same hours in the same zones: parse each text once, compile each
    // (text, zone, holiday region) once.
    var parsed: [String: Result<OpeningHours, OpeningHoursParseError>] = [:]
    // The notes of the deviations of an hours property's text, made once a (property, text): a
    // chain whose hours are all written alike has a million of them sharing a few messages.
    // Keyed by bytes: a text that differs only in Unicode normalization is quoted as it is.
    var deviationNotes: [ExactText: [(code: String, severity: Diagnostic.Severity, message: String)]] = [:]
    func deviations(of key: String, _ text: String, _ hours: OpeningHours) -> [(
      code: String, severity: Diagnostic.Severity, message: String
    )] {
      let cacheKey = ExactText(key + "\u{0}" + text)
      if let known = deviationNotes[cacheKey] { return known }
      let fix = hours.warnings.isEmpty ? "" : Catalog.fixIt(for: hours)
      // Most deviations have a clear meaning (a note); a doubtful one may not mean what it says.
      let notes = hours.warnings.map { warning in
        (
          code: warning.isDoubtful ? "opening-hours-doubtful" : "opening-hours-tolerated",
          severity: warning.isDoubtful ? Diagnostic.Severity.warning : .note,
          message: "\(key) \"\(text)\" \(Catalog.characters(warning.range)): "
            + "\(warning.message) [\(warning.code)]\(fix)"
        )
      }
      deviationNotes[cacheKey] = notes
      return notes
    }
    // Building a calendar merges a country's dates with a region's: once per pair.
    var calendars: [HolidayKey: HolidayCalendar?] = [:]
    var added: [Diagnostic] = []
    // Each zone name of the data is looked up once; then the zones of the stores without a
    // usable one are inferred on every core (a tree search each: a seventh of loading a large
    // file without zones when done one store at a time).
    for position in 0..<count {
      if let name = inputs[position].timezone, zones[name] == nil {
        zones[name] = .some(try? TimeZoneRules(identifier: name))
      }
    }
    let usableNames = Set(zones.compactMap { name, rules in rules == nil ? nil : name })
    let locator = resources.timeZoneLocator
    let places = locator.map { locator in
      nearestPlaces(of: inputs, except: usableNames, divisions: resources.holidayDivisions, with: locator)
    }
    // Each place's guess is made once and copied to its stores at their own distances: the
    // texts are shared, not made again a store (1M stores spread over the Earth take theirs
    // from about 36,000 places), and made only for the stores that are compiled or whose place
    // is new to the table.
    var guessOfPlace = [TimeZoneGuess?](repeating: nil, count: locator?.count ?? 0)
    func guess(at neighbor: Neighbor) -> TimeZoneGuess {
      guard var guess = guessOfPlace[neighbor.index] else {
        let guess = locator!.guess(neighbor)
        guessOfPlace[neighbor.index] = guess
        return guess
      }
      guess.distance = neighbor.distance
      return guess
    }
    let knownCountries = Set(resources.holidays.countries)

    /// What the hours of the store at `position` settle, given its nearest place: the notes in
    /// the order they are listed, made for this store or for any that settles alike.
    func compile(_ position: Int, _ store: HoursSubject, nearest: (index: Int, guess: TimeZoneGuess)?)
      -> SettledStores
    {
      var settled = SettledHours(timezone: store.timezone)
      var notes: [SettledStores.Note] = []
      var openHoursOfStore = HoursOfWeek.all
      var sharing = SettledStores.Sharing.byZone
      func note(_ code: String, _ severity: Diagnostic.Severity, _ message: String) {
        notes.append(.message(Diagnostic.Code(code), severity, message))
      }
      func finished() -> SettledStores {
        SettledStores(settled: settled, notes: notes, openHours: openHoursOfStore, sharing: sharing)
      }
      // The notes of what was inferred go together, the zone's then the holidays' (a snapshot
      // makes them again from the row in that order: `InferredZoneNotes`), before the hours'.
      var zoneNote: SettledStores.Note?
      // Time zone: the data's, else inferred from the location.
      var rules: TimeZoneRules?
      if let name = settled.timezone {
        rules = zones[name] ?? nil
        if rules == nil {
          note(
            "unknown-timezone", .warning,
            "the time zone \"\(name)\" is not an IANA zone name (such as Asia/Shanghai); "
              + (store.coordinate == nil
                ? "its hours cannot be evaluated" : "one is inferred from the location"))
          settled.timezone = nil
        }
      }
      if settled.timezone == nil, let guess = nearest?.guess {
        if zones[guess.identifier] == nil {
          zones[guess.identifier] = .some(try? TimeZoneRules(identifier: guess.identifier))
        }
        if let inferred = zones[guess.identifier] ?? nil {
          rules = inferred
          settled.timezone = guess.identifier
          settled.inferredTimezone = guess
          settled.guessPlace = nearest?.index
          // Only a stand-in: the note is made from the row when the table's diagnostics are
          // read, as a snapshot's are, so a million of them cost no text until asked for.
          zoneNote = .inferredZone
        }
      }

      // Capacity values that do not read limit nothing: say so, naming the property.
      for member in store.serviceMembers where member.key.hasPrefix(HoursSubject.capacityPrefix) {
        if let problem = CapacityProperty.problem(key: member.key, value: member.value) {
          note("capacity-invalid", .warning, problem)
        }
      }
      // Each service's hours are read by the same engine, and what it says names the property.
      for member in store.serviceMembers where member.key.hasPrefix(Self.serviceHoursPrefix) {
        guard let text = member.value.stringValue else { continue }
        if parsed[text] == nil {
          parsed[text] = Result { () throws(OpeningHoursParseError) in try OpeningHours(parsing: text) }
        }
        switch parsed[text]! {
        case .failure(let error):
          note(
            "opening-hours-invalid", .warning,
            "\(member.key) \"\(text)\" \(error.description); the \(member.key.dropFirst(Self.serviceHoursPrefix.count)) "
              + "hours count as unknown")
        case .success(let hours):
          for deviation in deviations(of: member.key, text, hours) {
            note(deviation.code, deviation.severity, deviation.message)
          }
        }
      }
      guard let text = store.openingHours else {
        settled.gap = "no opening_hours"
        if let zoneNote { notes.append(zoneNote) }
        return finished()
      }
      if parsed[text] == nil {
        parsed[text] = Result { () throws(OpeningHoursParseError) in try OpeningHours(parsing: text) }
      }
      let hours: OpeningHours
      do {
        hours = try parsed[text]!.get()
      } catch {
        settled.gap = "opening_hours does not parse"
        if let note = zoneNote { notes.append(note) }
        zoneNote = nil
        note(
          "opening-hours-invalid", .warning,
          "opening_hours \"\(text)\" \(error.description); the hours count as unknown")
        return finished()
      }
      // Holidays: the data's country and region, else the place's, when the hours name them.
      if hours.usesPublicHolidays || hours.usesSchoolHolidays, let nearest {
        // What is inferred depends on the place's country and division, not only its zone.
        sharing = .byPlace
        if let inferred = InferredHolidays.inferred(
          country: store.country, region: store.region, from: nearest.guess, knownCountries: knownCountries,
          divisions: resources.holidayDivisions)
        {
          settled.inferredHolidays = inferred
          settled.guessPlace = nearest.index
        }
      }
      if let note = zoneNote { notes.append(note) }
      zoneNote = nil
      if settled.inferredHolidays != nil { notes.append(.inferredHolidays) }
      // Each with the fix-it: the canonical spelling, which parses without warnings and means
      // the same.
      for deviation in deviations(of: "opening_hours", text, hours) {
        note(deviation.code, deviation.severity, deviation.message)
      }
      guard let rules else {
        settled.gap = "no time zone"
        note(
          "no-timezone", .warning,
          "no \"timezone\" property and no location to infer one from; the hours cannot be evaluated")
        return finished()
      }
      let holidayCountry = store.holidayCountry(inferred: settled.inferredHolidays)
      let holidayRegion = store.holidayRegion(inferred: settled.inferredHolidays)
      let calendarKey = HolidayKey(country: holidayCountry, region: holidayRegion)
      if calendars[calendarKey] == nil {
        calendars[calendarKey] = .some(
          resources.holidayCalendar(country: holidayCountry, region: holidayRegion))
      }
      let calendar = calendars[calendarKey] ?? nil
      let key = ScheduleKey(text: text, hours: hours, zone: rules.identifier, calendar: calendar)
      let schedule: Schedule
      if let key, let group = groupOfKey[key] {
        schedule = groupSchedules[Int(group)]!
        settled.group = group
      } else {
        schedule = Schedule(
          hours, timeZone: rules, holidays: calendar, latitude: store.coordinate?.latitude,
          longitude: store.coordinate?.longitude)
        let group = UInt32(groupSchedules.count)
        groupSchedules.append(schedule)
        groupLeaders.append(UInt32(position))
        settled.group = group
        if let key { groupOfKey[key] = group }
      }
      for warning in schedule.warnings {
        note("opening-hours-\(warning.code)", .warning, "opening_hours \"\(text)\": \(warning.message)")
      }
      if let key {
        if openHoursByKey[key] == nil {
          openHoursByKey[key] = schedule.possiblyOpenHours(within: openHoursWindow)
        }
        openHoursOfStore = openHoursByKey[key]!
      } else {
        // Sun times depend on the exact place: this store's schedule is its own.
        sharing = .none
        openHoursOfStore = schedule.possiblyOpenHours(within: openHoursWindow)
      }
      return finished()
    }

    // Stores whose hours read the same texts, and whose nearest places (when they need one) are
    // in the same zone, settle alike: compiled once, the others take the result (settling a
    // million stores one by one was 3 s of one core, hashing texts into the caches above).
    // The entries are read a store at random: what decides whether and how a store takes one is
    // kept beside its number in the table, and which notes it lists in an array of a byte an
    // entry, so that only entries with messages are read for their notes (the entries' cache
    // misses were a sixth of settling 1M stores).
    /// Adds `note` to the diagnostics of the store at `position`.
    func list(_ note: SettledStores.Note, at position: Int) {
      switch note {
      case .message(let code, let severity, let message):
        let identity = assembly.identity(at: position)
        added.append(Diagnostic(code, severity, at: identity.position, storeID: identity.id, message))
      case .inferredZone:
        added.append(
          InferredZoneNotes.placeholder(InferredZoneNotes.code, at: assembly.sourcePosition(at: position)))
      case .inferredHolidays:
        added.append(
          InferredZoneNotes.placeholder(
            InferredZoneNotes.holidayCode, at: assembly.sourcePosition(at: position)))
      }
    }
    var alike: [(stores: SettledStores, row: CatalogAssembly.RowSettling)] = []
    var alikeStandIns: [UInt8] = []
    var alikeByKey: [SettledStores.Key: (entry: Int, sharing: SettledStores.Sharing)] = [:]
    for position in 0..<count {
      let neighbor = places?[position]
      var key = SettledStores.Key(
        inputs: inputs.key(at: position), zone: neighbor.map { Int32(locator!.zoneOfPlace[$0.index]) } ?? -1,
        place: -1)
      var found = alikeByKey[key]
      if let known = found, known.sharing == .byPlace, let neighbor {
        key.place = Int32(neighbor.index)
        found = alikeByKey[key]
      }
      // The entry this store takes: one that settles alike, or its own, made now and let go
      // after it unless others may take it. Read in place: a copy retains each of its texts.
      let entry: Int
      var isKept = true
      if sharingAlike, let known = found, known.sharing != .none {
        entry = known.entry
      } else {
        let store = inputs[position]
        let settling = compile(position, store, nearest: neighbor.map { ($0.index, guess(at: $0)) })
        let row = try assembly.rowSettling(of: store, settling.settled)
        entry = alike.count
        alike.append((settling, row))
        alikeStandIns.append(settling.standIns)
        isKept = found == nil
        if isKept {
          alikeByKey[key] = (entry, settling.sharing)
          if settling.sharing == .byPlace, let neighbor {
            key.place = Int32(neighbor.index)
            alikeByKey[key] = (entry, settling.sharing)
          }
        }
      }
      // Most entries list only stand-ins, told by their byte; the others' notes are read.
      let standIns = alikeStandIns[entry]
      if standIns == SettledStores.messagesNoted {
        for note in alike[entry].stores.notes { list(note, at: position) }
      } else {
        if standIns & SettledStores.inferredZoneNote != 0 { list(.inferredZone, at: position) }
        if standIns & SettledStores.inferredHolidaysNote != 0 { list(.inferredHolidays, at: position) }
      }
      openHours[position] = alike[entry].stores.openHours
      try assembly.settle(
        position, located: key.inputs.located, alike[entry].stores.settled, alike[entry].row,
        nearest: neighbor,
        guessAt: guess(at:))
      if !isKept {
        alike.removeLast()
        alikeStandIns.removeLast()
      }
      if position % WorkProgress.storeStep == 0 { progress?.advance(to: position) }
    }
    if !added.isEmpty { diagnostics = merged(diagnostics, added) }
    return CompiledSchedules(
      zones: zones.compactMapValues { $0 }, openHours: openHours, groupSchedules: groupSchedules,
      groupLeaders: groupLeaders)
  }
}

extension Catalog {
  /// The loader's diagnostics and those added per store, in input order: each added one goes
  /// after the loader's ones for its feature (a loader's diagnostic without a position belongs
  /// with the feature before it; an added one without a position goes last).
  ///
  /// Both lists are nearly always in feature order already, and then one pass merges them
  /// (sorting a million "zone inferred" notes took seconds); otherwise they are sorted.
  static func merged(_ loaded: [Diagnostic], _ added: [Diagnostic]) -> [Diagnostic] {
    var feature = -1
    let loadedKeys = loaded.map { diagnostic in
      feature = diagnostic.position?.featureIndex ?? feature
      return feature
    }
    let addedKeys = added.map { $0.position?.featureIndex ?? Int.max }
    func isSorted(_ keys: [Int]) -> Bool { zip(keys, keys.dropFirst()).allSatisfy { $0 <= $1 } }
    let inOrder = isSorted(loadedKeys) && isSorted(addedKeys)
    // One list empty: the other is the answer as it is, not copied (a clean file of a million
    // stores has no loader diagnostic and a million "zone inferred" notes).
    if inOrder, loaded.isEmpty { return added }
    if inOrder, added.isEmpty { return loaded }
    guard inOrder else {
      let keyed =
        loaded.indices.map { (key: loadedKeys[$0], group: 0, offset: $0) }
        + added.indices.map { (key: addedKeys[$0], group: 1, offset: $0) }
      return keyed.sorted { ($0.key, $0.group, $0.offset) < ($1.key, $1.group, $1.offset) }.map {
        $0.group == 0 ? loaded[$0.offset] : added[$0.offset]
      }
    }
    var result: [Diagnostic] = []
    result.reserveCapacity(loaded.count + added.count)
    var next = 0
    for (offset, diagnostic) in loaded.enumerated() {
      while next < added.count, addedKeys[next] < loadedKeys[offset] {
        result.append(added[next])
        next += 1
      }
      result.append(diagnostic)
    }
    result.append(contentsOf: added[next...])
    return result
  }

  /// The nearest place of each store that has a location and either no usable zone of its own
  /// or hours that may name holidays without the data saying where (no country; or a country with
  /// holiday regions and no region), `nil` for the others. The place is the one the zone is
  /// inferred from (`TimeZoneLocator`, preferring the store's own country), so a store's zone and
  /// holidays never come from two places.
  ///
  /// The stores that need a place are found on the processors, then their places searched for
  /// all at once (`TimeZoneLocator.nearestPlaces(to:countries:parts:)`), which batches the
  /// searches of those whose nearest place is not in their country: two tree searches each, one
  /// by one, they were about a sixth of loading a million generated stores.
  ///
  /// - Parameters:
  ///   - usableNames: The zone names that exist; a store naming one keeps it.
  ///   - divisions: The countries whose regions can be inferred.
  static func nearestPlaces(
    of stores: HoursInputs, except usableNames: Set<String>, divisions: HolidayDivisions?,
    with locator: TimeZoneLocator
  )
    -> [Neighbor?]
  {
    @Sendable func needsPlace(_ store: HoursSubject) -> Bool {
      guard store.coordinate != nil else { return false }
      if let name = store.timezone, usableNames.contains(name), !mayLackHolidays(store) { return false }
      return true
    }
    @Sendable func mayLackHolidays(_ store: HoursSubject) -> Bool {
      guard let hours = store.openingHours, HoursResources.mayNameHolidays(hours) else { return false }
      guard let country = store.country.flatMap(InferredHolidays.countryCode) else { return true }
      return store.region == nil && divisions?.hasRegions(country: country) == true
    }
    let count = stores.count
    let parts = ActiveProcessors.parts(for: count)
    // Per store: `notSought`, or the key of its country (0: none).
    let notSought = UInt32.max
    let sought = [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
      let shared = SharedSlots(slots: buffer)
      ActiveProcessors.run(parts: parts) { part in
        for position in ActiveProcessors.range(part, of: parts, in: count) {
          let store = stores[position]
          let country =
            needsPlace(store) ? UInt32(store.country.flatMap(TimeZoneLocator.countryKey) ?? 0) : notSought
          (shared.slots.baseAddress! + position).initialize(to: country)
        }
      }
      initialized = count
    }
    var points: [Coordinate] = []
    var countries: [UInt16] = []
    var positions: [Int] = []
    // The stores that need one, in order, with their points and countries.
    for (position, country) in sought.enumerated() where country != notSought {
      points.append(stores.coordinates[position]!)
      countries.append(UInt16(country))
      positions.append(position)
    }
    var places = [Neighbor?](repeating: nil, count: count)
    for (point, place) in locator.nearestPlaces(to: points, countries: countries, parts: parts).enumerated() {
      places[positions[point]] = place
    }
    return places
  }
}

/// What compiling a catalog's opening hours produced, per schedule group (and, for the search
/// masks, the hours each store may be open).
struct CompiledSchedules {
  var zones: [String: TimeZoneRules]
  var openHours: [HoursOfWeek]
  var groupSchedules: [Schedule?]
  /// Per group, its first store.
  var groupLeaders: [UInt32]
}

/// What compiling the hours settled for the stores that settle alike (`Key`): made for the first,
/// taken by the others with their own nearest place and notes.
private struct SettledStores {
  /// What makes stores settle alike: the texts their hours read, and the zone of their nearest
  /// place (-1: none); `place` is that place's number (-1 unless what they settle depends on it).
  struct Key: Hashable {
    let inputs: HoursInputs.Key
    let zone: Int32
    var place: Int32
  }

  /// A diagnostic to add to each such store, in order.
  enum Note {
    case message(Diagnostic.Code, Diagnostic.Severity, String)
    /// A stand-in for the `timezone-inferred` note (`InferredZoneNotes`).
    case inferredZone
    /// A stand-in for the `holidays-inferred` note.
    case inferredHolidays
  }

  /// Which other stores may take this result.
  enum Sharing {
    /// Every store with the same key but `place`.
    case byZone
    /// Only those whose nearest place is the same (their holidays are inferred from it).
    case byPlace
    /// None: its schedule uses sun times, which depend on the exact location.
    case none
  }

  let settled: SettledHours
  let notes: [Note]
  let openHours: HoursOfWeek
  let sharing: Sharing

  /// The notes in a byte: `inferredZoneNote`, then `inferredHolidaysNote`, when the notes are
  /// only those stand-ins (in that order, as they are made); `messagesNoted` when any is a
  /// message, and the notes are to be read one by one.
  var standIns: UInt8 {
    var bits: UInt8 = 0
    for note in notes {
      switch note {
      case .message:
        return Self.messagesNoted
      case .inferredZone:
        guard bits == 0 else { return Self.messagesNoted }
        bits |= Self.inferredZoneNote
      case .inferredHolidays:
        guard bits & Self.inferredHolidaysNote == 0 else { return Self.messagesNoted }
        bits |= Self.inferredHolidaysNote
      }
    }
    return bits
  }

  static let inferredZoneNote: UInt8 = 1
  static let inferredHolidaysNote: UInt8 = 2
  static let messagesNoted: UInt8 = 0x80
}

/// What compiling settled of one store, for its row.
struct SettledHours {
  /// Its time zone: the data's when usable, else the inferred one (`inferredTimezone`).
  var timezone: String?
  var inferredTimezone: TimeZoneGuess?
  var inferredHolidays: InferredHolidays?
  /// Why it has no schedule; `nil` when it has one.
  var gap: String?
  /// The group whose compiled schedule it shares.
  var group: UInt32?
  /// The number in the zone locator of the place its zone or holidays were inferred from.
  var guessPlace: Int?
}

/// What makes two stores' compiled schedules the same.
struct ScheduleKey: Hashable {
  let text: String
  let zone: String
  let country: String?
  let region: String?

  /// The key of `hours` (written `text`) in `zone` with `calendar`, or `nil` when the schedule
  /// cannot be shared: sun times depend on the exact place. Holidays matter only to hours that
  /// name them, so other hours share across regions.
  init?(text: String, hours: OpeningHours, zone: String, calendar: HolidayCalendar?) {
    guard !hours.usesSunEvents else { return nil }
    let usesHolidays = hours.usesPublicHolidays || hours.usesSchoolHolidays
    self.text = text
    self.zone = zone
    self.country = usesHolidays ? calendar?.country : nil
    self.region = usesHolidays ? calendar?.region : nil
  }
}

/// The properties that choose a store's holiday calendar.
private struct HolidayKey: Hashable {
  let country: String?
  let region: String?
}
