import ArgumentParser
import GeoIndex
import OpeningHours
import StoreLocator

extension StoresCommand {
  struct Hours: ParsableCommand {
    static let configuration = CommandConfiguration(
      abstract: "Show a store's opening hours: open now or at a time, and the days ahead.",
      discussion: """
        Three ways in:
          stores hours ID [--at T] [--days N]
          stores hours --expression EXPR --timezone TZ [--country CC[-RR]] [--at T]
          stores hours --expression EXPR --near LAT,LON|PLACE [--at T]
          stores hours --expression EXPR --normalize
          stores hours --batch < requests.jsonl

        With --near and without --timezone or --country, the time zone and the public holidays \
        (country, and region where the place's division maps to one) are those of the nearest \
        populated place, as for a store without them, each said in a note on standard error; a \
        --country without a region gets the place's region only when the place is in it.

        --normalize prints the expression's canonical form (`mo-fri 9am-5pm` is written \
        `Mo-Fr 09:00-17:00`), which parses without warnings and means the same at every instant; \
        each tolerated deviation is a note on standard error. With --format json: {"expression", \
        "normalized", "changed", "warnings": [{"code", "start", "end", "message"}]} (0-based \
        character offsets). An expression that does not parse exits 65.

        Evaluating, a warning line follows the hours when a later rule erases a night that an \
        earlier one runs past midnight into (spill-erased: `Mo-Th 05:30-02:30; Fr 05:30-03:30` \
        closes Thursday night at midnight, as the specification reads it), with the value that \
        keeps the night; the answers stay the specification's.

        --batch reads one JSON object a line, {"id": 1, "oh": "Mo-Fr 09:00-18:00; PH off", \
        "tz": "Europe/Berlin", "country": "DE", "at": "2026-03-29T00:59:00Z", "ops": ["state", \
        "next_change"]}, and writes one a line: {"id": 1, "state": "open|closed|unknown", \
        "comment": …, "next_change": "ISO 8601 with offset"|null} or {"id": 1, "error": "…"}; \
        next_change looks a century ahead (null: nothing changes within it).

        A store ID that no store has exits 66 (with the most similar ids); one that several \
        stores share exits 64 (they are listed).

        Semantics and the DST policy: docs/opening-hours.md.
        """)

    @Argument(help: "The store's id.")
    var id: String?

    @Option(
      help: ArgumentHelp("An opening_hours expression to evaluate instead of a store's.", valueName: "expr"))
    var expression: String?

    @Option(
      help: ArgumentHelp(
        "The IANA time zone for --expression (Europe/Berlin); default: inferred from --near.", valueName: "tz"
      ))
    var timezone: String?

    @Option(
      help: ArgumentHelp(
        "Country, optionally with region, whose public holidays PH means (DE, DE-BY); default: inferred "
          + "from --near.", valueName: "cc"))
    var country: String?

    @Option(
      name: .long, parsing: .unconditional,
      help: ArgumentHelp(
        "Where the --expression place is (LAT,LON or a place name): for sunrise and sunset, and the "
          + "zone and holidays not given.",
        valueName: "lat,lon|place"))
    var near: String?

    @Flag(help: "Answer JSON-lines requests from standard input (see above).")
    var batch = false

    @Flag(help: "Print the --expression in its canonical form instead of evaluating it (see above).")
    var normalize = false

    @Option(
      help: ArgumentHelp(
        "The time to evaluate at (ISO 8601 with a time of day; without an offset it is the store's "
          + "wall time); the days listed start on its date; default: now.",
        valueName: "time"))
    var at: String?

    // Unconditional, so '--days -1' reaches the library's check and hears the range.
    @Option(parsing: .unconditional, help: "How many days ahead to list (1...366; default 7).")
    var days: String?

    @OptionGroup var serviceOption: ServiceOption
    @OptionGroup var clock: ClockOptions
    @OptionGroup var dataOptions: DataOptions
    @OptionGroup var stateOption: StateOption
    @Option(name: .long, help: "Output format: text or json.")
    var format: DocumentFormat = .text

    func validate() throws {
      let modes = [id != nil, expression != nil, batch].filter { $0 }.count
      guard modes == 1 else {
        throw ValidationError("give a store ID, or --expression with --timezone or --near, or --batch")
      }
      if normalize, expression == nil {
        throw ValidationError("--normalize needs --expression")
      }
      if expression != nil, timezone == nil, near == nil, !normalize {
        throw ValidationError("--expression needs --timezone (such as Europe/Berlin) or --near LAT,LON")
      }
      if expression != nil { _ = try nearPoint() }
      guard [.text, .json].contains(format) else { throw ValidationError("hours writes text or json") }
      if id != nil { _ = try parameters.read(HoursRequest.init) }
    }

    /// The options as the library reads them (HoursRequest, as the service's path and query).
    var parameters: CommandParameters {
      var parameters = CommandParameters()
      parameters.add("id", id)
      parameters.add("at", at)
      parameters.add("days", days)
      serviceOption.add(to: &parameters)
      clock.add(to: &parameters)
      return parameters
    }

    func run() throws {
      if batch { return try runBatch() }
      if normalize { return try runNormalize() }
      let (title, answer) = try hoursToShow()
      guard let schedule = answer.schedule else {
        // A store without usable hours: its status says why.
        let name = answer.store.map { $0.name ?? $0.id } ?? ""
        standardOutput(format == .json ? answer.jsonText : "\(name): \(answer.status.summary)\n")
        return
      }
      if format == .json { return standardOutput(answer.jsonText) }
      let service = answer.service.map { " (\($0))" } ?? ""
      var text = title + "\n" + "Hours\(service)  " + (answer.hoursText ?? schedule.hours.text) + "\n"
      for warning in schedule.hours.warnings + schedule.warnings {
        text += "       \(warning.isDoubtful ? "warning" : "note"): \(warning)\n"
      }
      if !schedule.hours.warnings.isEmpty, schedule.hours.normalized != schedule.hours.text {
        text += "       write it as `\(schedule.hours.normalized)`\n"
      }
      text +=
        "At     \(Self.moment(answer.status.instant, in: schedule.timeZone)): \(answer.status.summary)\n\n"
      text += answer.days.map(Self.line).joined()
      // The week of each service the data gives hours for, where this store's come from.
      for (service, source, week) in answer.services {
        guard !week.days.isEmpty, source != "not offered" else {
          // Nothing to list: one line says why (not offered, or no hours known).
          text += "\n\(service): \(source == "not offered" ? "not offered" : week.status.summary)\n"
          continue
        }
        text += "\n\(service) (\(source))" + (week.hoursText.map { "  \($0)" } ?? "") + "\n"
        text += "At     \(week.status.summary)\n"
        text += week.days.map(Self.line).joined()
      }
      standardOutput(text)
    }

    /// What to list: a title, and the hours answered by the library (a store's, or the
    /// expression's evaluated at the time asked).
    func hoursToShow() throws -> (String, HoursAnswer) {
      guard id != nil else {
        // The expression has no store: the same time and day parameters, read by the library.
        let (time, dayCount, now) = try parameters.read { parameters throws(RequestError) in
          (
            try parameters.parse("at", TimeQuery.init(parsing:)),
            try parameters.integer("days", in: HoursRequest.dayRange) ?? HoursRequest.defaultDays,
            try parameters.now(default: .now())
          )
        }
        let (schedule, title) = try expressionSchedule()
        let answer = HoursAnswer(
          store: nil, schedule: schedule, at: (time ?? .instant(now)).instant(in: schedule.timeZone),
          days: dayCount)
        return (title, answer)
      }
      let request = try parameters.read(HoursRequest.init)
      let catalog = try stateOption.applied(to: dataOptions.loadCatalog(), data: dataOptions)
      let answer = try catalog.answering { catalog throws(RequestError) in
        try catalog.answer(request, now: .now())
      }
      let store = answer.store!
      let title =
        "\(store.name ?? store.id) (\(store.id)), \(answer.schedule?.timeZone.identifier ?? "")"
        + (store.inferredTimezone.map { " [\($0.note)]" } ?? "")
        + (store.inferredHolidays.map { ", public holidays of \($0.code) [\($0.place.note)]" } ?? "")
      return (title, answer)
    }

    /// `count` whole local days of `schedule`, from the start of the local day of `instant` (the
    /// days `stores hours` and `stores show` list).
    static func days(of schedule: Schedule, from instant: Instant, count: Int) -> [ScheduleDay] {
      schedule.days(from: schedule.timeZone.localDateTime(at: instant).date, count: count)
    }

    /// `Sun 2026-11-22 07:45 (+08:00)`: `instant` on the wall clock of `zone`.
    static func moment(_ instant: Instant, in zone: TimeZoneRules) -> String {
      let local = zone.localDateTime(at: instant)
      return "\(StoreStatus.weekdayName(local.date)) \(local.date) \(local.hourAndMinute) "
        + "(\(formattedOffset(zone.offset(at: instant))))"
    }

    /// `Mon 2026-11-23  07:00–12:00, 13:00–19:00`; `all day`; `22:00–02:00 (+1d)`; `closed`.
    static func line(_ day: ScheduleDay) -> String {
      let spans = day.spans.map { span -> String in
        let fromMidnight = span.start == nil || span.start?.secondsIntoDay == 0
        let toMidnight = span.end.map { $0.date > day.date } ?? true
        var text: String
        if fromMidnight && toMidnight {
          text = "all day"
        } else {
          text = (span.start?.hourAndMinute ?? "…") + "–"
          if let end = span.end {
            let laterDays = end.date.daysSinceEpoch - day.date.daysSinceEpoch
            if laterDays == 1 && end.secondsIntoDay == 0 {
              text += "24:00"
            } else {
              text += end.hourAndMinute + (laterDays > 0 ? " (+\(laterDays)d)" : "")
            }
          } else {
            text += "…"
          }
        }
        if span.status.state == .unknown { text += " unknown" }
        if let comment = span.status.comment { text += " \"\(comment)\"" }
        return text
      }
      return "\(StoreStatus.weekdayName(day.date)) \(day.date)  "
        + (spans.isEmpty ? "closed" : spans.joined(separator: ", ")) + "\n"
    }

    /// `--near` read by the library as every command's is: `LAT,LON`, or a name of one place.
    func nearPoint() throws -> NearPoint? {
      var parameters = CommandParameters()
      parameters.add("near", near)
      return try parameters.read { (read: RequestParameters) throws(RequestError) in try read.nearPoint() }
    }

    /// The expression's schedule and the heading of its answer; what was inferred from --near is
    /// said on standard error.
    func expressionSchedule() throws -> (Schedule, String) {
      guard let expression else { throw ExitCode.usage }
      let nearPoint = try nearPoint()
      let near = nearPoint?.coordinate
      var zone: TimeZoneRules?
      if let timezone {
        do { zone = try TimeZoneRules(identifier: timezone) } catch {
          throw ValidationError("--timezone: " + TimeZoneSuggestions.message(for: error))
        }
      }
      let hours = try parsedExpression(expression)
      let setting: ExpressionSetting?
      do {
        setting = try ExpressionSetting.settle(
          timeZone: zone, country: country, near: near, extraHolidayFiles: dataOptions.holidayFiles)
      } catch {
        standardError("stores: \(error.description)")
        throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
      }
      guard let setting else {
        throw ValidationError("--expression needs --timezone (such as Europe/Berlin) or --near LAT,LON")
      }
      if let placeNote = nearPoint?.placeNote { standardError("stores: note: \(placeNote)") }
      for note in setting.notes { standardError("stores: note: \(note)") }
      let schedule = Schedule(
        hours, timeZone: setting.timeZone, holidays: setting.holidays, latitude: near?.latitude,
        longitude: near?.longitude)
      return (schedule, setting.title)
    }

    /// The expression parsed; one that does not parse is shown with a caret under the problem and
    /// exits 65.
    func parsedExpression(_ expression: String) throws -> OpeningHours {
      do { return try OpeningHours(parsing: expression) } catch {
        standardError("stores: opening_hours \"\(expression)\" \(error.description)")
        standardError("  \(expression)\n  " + String(repeating: " ", count: error.position) + "^")
        throw ExitCode.badData
      }
    }

    /// `--normalize`: the canonical form on standard output, the tolerated deviations as notes on
    /// standard error (text), or one JSON object.
    func runNormalize() throws {
      guard let expression else { throw ExitCode.usage }
      let hours = try parsedExpression(expression)
      let normalized = hours.normalized
      if format == .json {
        var object = JSONObject()
        object["expression"] = .string(expression)
        object["normalized"] = .string(normalized)
        object["changed"] = .bool(normalized != expression)
        object["warnings"] = .array(
          hours.warnings.map { warning in
            var item = JSONObject()
            item["code"] = .string(warning.code)
            item["start"] = JSONValue(warning.range.lowerBound)
            item["end"] = JSONValue(warning.range.upperBound)
            item["message"] = .string(warning.message)
            return .object(item)
          })
        return standardOutput(JSONValue.object(object).jsonText + "\n")
      }
      for warning in hours.warnings { standardError("stores: note: \(warning)") }
      standardOutput(normalized + "\n")
    }

    /// The next line of standard input; a line with no end exits 65, a read error 66.
    func readBatchLine(_ lines: inout InputLines) throws -> InputLines.Line? {
      do {
        return try lines.next()
      } catch {
        standardError("stores: \(error.description)")
        throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
      }
    }

    /// Standard input as lines; a device such as /dev/zero exits 65.
    func batchLines() throws -> InputLines {
      do {
        return try InputLines(descriptor: 0)
      } catch {
        standardError("stores: \(error.description)")
        throw ExitCode.badData
      }
    }

    func loadHolidays(countries: Set<String>?) throws -> HolidayRegistry {
      do {
        return try HoursResources.holidayRegistry(countries: countries, extraFiles: dataOptions.holidayFiles)
      } catch {
        standardError("stores: \(error.description)")
        throw error.kind == .inputMissing ? ExitCode.inputMissing : ExitCode.badData
      }
    }

    func runBatch() throws {
      var answers = HoursBatch(holidays: try loadHolidays(countries: nil))
      var output = ""
      var lines = try batchLines()
      var number = 0
      while true {
        let next: InputLines.Line?
        do {
          next = try readBatchLine(&lines)
        } catch {
          standardOutput(output)  // the answers so far, before the error ends the batch
          throw error
        }
        guard let line = next else { break }
        number += 1
        if case .text(let text) = line, text.allSatisfy(\.isWhitespace) { continue }
        output += answers.answer(line, number: number) + "\n"
        if output.utf8.count > 1 << 16 {
          standardOutput(output)
          output = ""
        }
      }
      standardOutput(output)
    }
  }
}
