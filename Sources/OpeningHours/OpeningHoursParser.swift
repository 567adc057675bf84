// A hand-written recursive-descent parser for `opening_hours`, tolerant where the meaning is clear.
// Every tolerated deviation adds an `OpeningHoursWarning`; every error names the character offset
// and what was expected, in plain words. This file holds the parser's state, its vocabulary and the
// rules of a value; the selectors of a rule are read in DateSelectorParsing.swift,
// WeekdayParsing.swift and ClockTimeParsing.swift.

struct OpeningHoursParser {
  let text: String
  let tokens: [Token]
  /// The text of the words and comments among `tokens` (`spelling(of:)`).
  let spellings: [String]
  var index = 0
  var warnings: [OpeningHoursWarning] = []
  /// How the last time `parseClock` read was written: a bare hour (`10` in `10-12`), with am/pm.
  var lastClockBare = false
  var lastClockMeridiem = false
  /// Whether the last time `parseClock` read wrote its hour with one digit and no am/pm (`5:00`).
  var lastClockSingleDigit = false
  /// Whether the last time read was the word `midnight`.
  var lastClockMidnightWord = false
  /// Whether the rule being read named its days with `daily`, `7/7` or `weekdays`.
  var everyDayWordUsed = false
  /// Whether the rule being read wrote its weekdays after its times (`10am-6pm Mon-Fri`).
  var weekdaysAfterTimes = false
  /// Whether any rule read so far did.
  var valueHasWeekdaysAfterTimes = false
  /// How many `,`, `and` or spaces the weekday lists read since the count was reset continued over,
  /// and the token index of the first (counted without an array: no allocation on the hot path).
  var weekdayListBreakCount = 0
  var firstWeekdayListBreak = -1
  /// Where `parseWeekdayList` stops instead of continuing over a `,` or `and` (a token index).
  var weekdayListStop = -1
  /// Whether the weekday list being read had two items with only a space between them.
  var spaceJoinedWeekdays = false
  /// The second of two single days with only a space between them that are not neighbours.
  var ambiguousWeekdayJoin: Token?
  /// Whether the last rule ended at an `and` that joins it to the next one
  /// (`11am-12am mon-sat and Sunday 1pm-10pm`).
  var andSeparatesRules = false
  /// The state the rule being read wrote before its selectors or times (`Closed Mondays`), if any.
  var earlyState: OpeningState?
  /// The rules (indices) that wrote `closed` before their days.
  var closedWrittenFirst: [Int] = []
  /// A localized closed word that makes a rule alone (`chiuso`).
  var bareLocalizedClosed: Token?

  init(text: String) throws(OpeningHoursParseError) {
    self.text = text
    var warnings: [OpeningHoursWarning] = []
    var spellings: [String] = []
    self.tokens = try OpeningHoursLexer.tokenize(text, spellings: &spellings, warnings: &warnings)
    self.spellings = spellings
    self.warnings = warnings
  }

  // MARK: - Tokens

  var token: Token { tokens[index] }
  func peek(_ k: Int = 1) -> Token { tokens[min(index + k, tokens.count - 1)] }

  /// A word's or comment's text as written; empty for other tokens.
  func spelling(of token: Token) -> String {
    switch token.kind {
    case .word(let i), .comment(let i): spellings[Int(i)]
    default: ""
    }
  }
  mutating func advance() { if index < tokens.count - 1 { index += 1 } }

  mutating func warn(_ code: String, _ range: Range<Int>, _ message: String) {
    warnings.append(OpeningHoursWarning(code: code, range: range, message: message))
  }

  func describe(_ token: Token) -> String {
    switch token.kind {
    case .end: return "end of text"
    case .number(let value, let digits):
      let s = String(value)
      return "'" + String(repeating: "0", count: max(0, digits - s.count)) + s + "'"
    case .word:
      let w = spelling(of: token)
      if let m = token.localized, m.kind == .ambiguous { return "'\(w)', which could be \(m.note)" }
      return "'\(w)'"
    case .comment: return "the comment \"\(spelling(of: token))\""
    case .dash: return "'-'"
    case .colon: return "':'"
    case .comma: return "','"
    case .semicolon: return "';'"
    case .slash: return "'/'"
    case .plus: return "'+'"
    case .leftBracket: return "'['"
    case .rightBracket: return "']'"
    case .leftParen: return "'('"
    case .rightParen: return "')'"
    case .dot: return "'.'"
    case .fallback: return "'||'"
    case .other(let c): return "'\(c)'"
    }
  }

  func error(_ expected: String, at token: Token? = nil) -> OpeningHoursParseError {
    let t = token ?? self.token
    return OpeningHoursParseError(
      text: text, position: t.range.lowerBound, expected: expected, found: describe(t))
  }

  func isKind(_ t: Token, _ kind: TokenKind) -> Bool { t.kind == kind }

  // MARK: - Vocabulary

  static let weekdayCanonical = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]
  static let weekdayEnglish: [String: Int] = [
    "mon": 0, "monday": 0, "mondays": 0,
    "tue": 1, "tues": 1, "tuesday": 1, "tuesdays": 1,
    "wed": 2, "weds": 2, "wednesday": 2, "wednesdays": 2,
    "thu": 3, "thur": 3, "thurs": 3, "thursday": 3, "thursdays": 3,
    "fri": 4, "friday": 4, "fridays": 4,
    "sat": 5, "saturday": 5, "saturdays": 5,
    "sun": 6, "sunday": 6, "sundays": 6,
  ]
  /// Full weekday names in scripts no other language shares a spelling with (Japanese, Georgian,
  /// Thai, Arabic): each names one day, so they are read wherever they appear.
  static let weekdayOtherScripts: [String: Int] = [
    "月曜日": 0, "火曜日": 1, "水曜日": 2, "木曜日": 3, "金曜日": 4, "土曜日": 5, "日曜日": 6,
    "ორშაბათი": 0, "სამშაბათი": 1, "ოთხშაბათი": 2, "ხუთშაბათი": 3, "პარასკევი": 4, "შაბათი": 5, "კვირა": 6,
    "วันจันทร์": 0, "วันอังคาร": 1, "วันพุธ": 2, "วันพฤหัสบดี": 3, "วันศุกร์": 4, "วันเสาร์": 5, "วันอาทิตย์": 6,
    "الاثنين": 0, "الإثنين": 0, "الثلاثاء": 1, "الأربعاء": 2, "الخميس": 3, "الجمعة": 4, "السبت": 5,
    "الأحد": 6,
  ]
  static let monthCanonical = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
  ]
  static let monthEnglish: [String: Int] = [
    "january": 1, "february": 2, "march": 3, "april": 4, "june": 6, "july": 7, "august": 8,
    "sept": 9, "september": 9, "october": 10, "november": 11, "december": 12,
  ]

  /// Weekday index of a word, without side effects.
  static func weekday(of token: Token) -> Int? {
    if let m = token.localized { return m.kind == .weekday ? Int(m.value) : nil }
    return token.word.weekday >= 0 ? Int(token.word.weekday) : nil
  }

  static func month(of token: Token) -> Int? {
    if let m = token.localized { return m.kind == .month ? Int(m.value) : nil }
    return token.word.month > 0 ? Int(token.word.month) : nil
  }

  static func holiday(of token: Token) -> HolidayKind? {
    switch token.keyword {
    case .ph: .publicHoliday
    case .sh: .schoolHoliday
    default: nil
    }
  }

  static func sunEvent(of token: Token) -> SunEvent? { token.keyword?.sunEvent }

  func isWord(_ t: Token, _ keyword: Keyword) -> Bool { t.keyword == keyword }

  /// Consumes a weekday word, warning about non-canonical spellings.
  mutating func takeWeekday() -> Int? {
    let t = token
    guard case .word = t.kind, let day = Self.weekday(of: t) else { return nil }
    let w = spelling(of: t)
    if let m = t.localized {
      warn("localized-weekday", t.range, "write '\(Self.weekdayCanonical[day])' for '\(w)' (\(m.note))")
    } else if t.word.isSingleLetterDay {
      warn("single-letter-day", t.range, "write '\(Self.weekdayCanonical[day])' for '\(w)'")
    } else if w.count == 2 {
      if w != Self.weekdayCanonical[day] {
        warn("keyword-case", t.range, "write '\(Self.weekdayCanonical[day])' for '\(w)'")
      }
    } else {
      warn("weekday-name", t.range, "write '\(Self.weekdayCanonical[day])' for '\(w)'")
    }
    advance()
    return day
  }

  mutating func takeMonth() -> Int? {
    let t = token
    guard case .word = t.kind, let m = Self.month(of: t) else { return nil }
    let w = spelling(of: t)
    let canonical = Self.monthCanonical[m - 1]
    if let meaning = t.localized {
      warn("localized-month", t.range, "write '\(canonical)' for '\(w)' (\(meaning.note))")
    } else if w.count == 3 {
      if w != canonical { warn("keyword-case", t.range, "write '\(canonical)' for '\(w)'") }
    } else {
      warn("month-name", t.range, "write '\(canonical)' for '\(w)'")
    }
    advance()
    // `Sept.`, `Mon.`: a dot after an abbreviation.
    return m
  }

  /// Consumes a keyword (case-insensitively), warning when the case differs from `canonical`
  /// (the keyword's spelling by default).
  mutating func takeKeyword(_ keyword: Keyword, _ canonical: String? = nil) -> Bool {
    let t = token
    guard t.keyword == keyword, case .word = t.kind else { return false }
    let w = spelling(of: t)
    let canonical = canonical ?? keyword.rawValue
    if w != canonical { warn("keyword-case", t.range, "write '\(canonical)' for '\(w)'") }
    advance()
    return true
  }

  /// Whether token `k` is a range dash (`-`, a dash variant, or a range word such as `to`,
  /// `Keyword.isRangeWord`).
  func atRangeDash(_ k: Int = 0) -> Bool {
    let t = peek(k)
    if case .dash = t.kind { return true }
    return t.keyword?.isRangeWord ?? false
  }

  mutating func takeRangeDash() -> Bool {
    if case .dash = token.kind {
      advance()
      return true
    }
    if let k = token.keyword, k.isRangeWord {
      warn("range-word", token.range, "write '-' for '\(k.rawValue)'")
      advance()
      return true
    }
    return false
  }

  func isYear(_ t: Token) -> Bool {
    if case .number(let v, let digits) = t.kind, digits == 4, v >= 1900 { return true }
    return false
  }

  func startsDatePoint(_ k: Int) -> Bool {
    let t = peek(k)
    if Self.month(of: t) != nil || isWord(t, .easter) { return true }
    if isYear(t) {
      let u = peek(k + 1)
      return Self.month(of: u) != nil || isWord(u, .easter)
    }
    return false
  }

  func startsWeekdaySelector(_ t: Token) -> Bool {
    Self.weekday(of: t) != nil || Self.holiday(of: t) != nil || Self.startsEveryDay(t)
      || t.keyword?.isHolidayWord == true
  }

  /// Whether token `k` starts `PH`, `SH` or a public-holiday phrase.
  func startsHoliday(_ k: Int) -> Bool { Self.holiday(of: peek(k)) != nil || holidayPhrase(at: k) != nil }

  /// A public-holiday phrase at token `k`: `holidays`, `public holiday`, `Feiertage`, `day after
  /// public holiday`, `one day before public holidays` (read as `PH`, `PH +1 day`, `PH -1 day`);
  /// its number of tokens and day offset, or nil.
  func holidayPhrase(at k: Int) -> (length: Int, offsetDays: Int)? {
    var n = k
    var offset = 0
    if isWord(peek(n), .one), isWord(peek(n + 1), .day) { n += 1 }
    if isWord(peek(n), .day) {
      if isWord(peek(n + 1), .before) {
        offset = -1
      } else if isWord(peek(n + 1), .after) {
        offset = 1
      } else {
        return nil
      }
      n += 2
    }
    if let w = peek(n).keyword, w == .public || w == .bank { n += 1 }
    guard let w = peek(n).keyword, w.isHolidayWord, w != .public, w != .bank else { return nil }
    return (n + 1 - k, offset)
  }

  /// Words for "every day": `daily`, `täglich`, `tous les jours`… (each phrase as its words).
  static let everyDayPhrases: [[Keyword]] = [
    [.daily], [.everyday], [.every, .day], [.taeglichUmlaut], [.taeglich], [.jeden, .tag],
    [.tous, .les, .jours],
    [.todos, .los, .diasAcute], [.todos, .los, .dias], [.todos, .os, .dias], [.diariamente],
    [.tutti, .i, .giorni],
    [.dagelijks], [.elke, .dag],
  ]
  static let everyDayFirstWords = Set(everyDayPhrases.map { $0[0] })

  static func startsEveryDay(_ t: Token) -> Bool {
    guard let k = t.keyword else { return false }
    return everyDayFirstWords.contains(k) || k.weekdayGroup != nil
  }

  /// Whether the current token is `and`, `&`, `et`, `und`, `y`… (`Keyword.isAndWord`): read as `,`.
  func atAndWord() -> Bool {
    if case .other("&") = token.kind { return true }
    return token.keyword?.isAndWord ?? false
  }

  /// Skips a word that only introduces a time or a weekday (`Keyword.isFromWord`) when one follows
  /// it: `from 9 to 5`, `de 9h à 18h`, `du lundi au vendredi`, `с 9:00 до 18:00`, `von 9 bis 18 Uhr`.
  mutating func skipFromWord() {
    guard let k = token.keyword, k.isFromWord, startsTime(1) || Self.weekday(of: peek()) != nil
    else { return }
    warn("from-word", token.range, "no '\(k.rawValue)' before a time or weekday")
    advance()
  }

  /// `7/7`, `7j/7`, `7 days a week`, `7 days`: every day; the number of tokens, or 0.
  func sevenDaysLength() -> Int {
    guard case .number(7, 1) = token.kind else { return 0 }
    if case .slash = peek().kind, case .number(7, 1) = peek(2).kind { return 3 }
    if isWord(peek(), .j), !peek().spaceBefore, case .slash = peek(2).kind, case .number(7, 1) = peek(3).kind
    {
      return 4
    }
    if isWord(peek(), .days) {
      return isWord(peek(2), .a) && isWord(peek(3), .week) ? 4 : 2
    }
    return 0
  }

  /// The number of tokens of an every-day phrase at the current token, or 0.
  func everyDayPhraseLength() -> Int {
    let seven = sevenDaysLength()
    if seven > 0 { return seven }
    guard let first = token.keyword, Self.everyDayFirstWords.contains(first) else { return 0 }
    for phrase in Self.everyDayPhrases where phrase.indices.allSatisfy({ peek($0).keyword == phrase[$0] }) {
      return phrase.count
    }
    return 0
  }

  /// Whether a time starts at token `k`; `compact` also accepts `0900` (a 3–4 digit time) when a
  /// range of such numbers follows, as in `Mo-Fr 0900-1730`.
  func startsTime(_ k: Int, compact: Bool = true) -> Bool {
    let t = peek(k)
    switch t.kind {
    case .number(let v, let digits):
      if digits == 3 || digits == 4 {
        guard compact, Self.isCompactTime(v), case .dash = peek(k + 1).kind,
          case .number(let w, let d2) = peek(k + 2).kind, d2 == 3 || d2 == 4, Self.isCompactTime(w)
        else { return false }
        // `2026-2027 Sa 10:00-12:00` is a year range: years are followed by more selectors or a
        // `/step`, compact times are not.
        if (1900...2099).contains(v), (1900...2099).contains(w) {
          switch peek(k + 3).kind {
          case .word, .slash: return false
          default: break
          }
          // `week 05 Feb 2012-2014`: after a month, as likely years as times.
          if index + k > 0, Self.month(of: tokens[index + k - 1]) != nil { return false }
        }
        return true
      }
      guard digits <= 2 else { return false }
      // `24/7` is not a time; `Jan 12` day numbers are consumed before times are looked for.
      let u = peek(k + 1)
      if case .slash = u.kind { return false }
      return true
    case .leftParen: return Self.sunEvent(of: peek(k + 1)) != nil
    case .word: return Self.sunEvent(of: t) != nil || t.keyword == .noon || t.keyword == .midnight
    default: return false
    }
  }

  static func isCompactTime(_ v: Int) -> Bool { v / 100 <= 24 && v % 100 < 60 }

  // MARK: - Expression

  mutating func parse() throws(OpeningHoursParseError) -> [Rule] {
    let rules = try parseRules()
    if rules.count > 1, let word = bareLocalizedClosed {
      // `…; Mo off; chiuso; Su[1] 15:00-19:00`: alone in a rule, the word closes every day.
      throw error("days or times for '\(textOf(word.range))' (alone in a rule it closes every day)", at: word)
    }
    if !warnings.isEmpty, rules.count > 1,
      let allDay = rules.first(where: {
        $0.times.isEmpty && !$0.is247 && $0.modifier.state == nil && $0.modifier.comment == nil
          && !$0.hasNoSelector
          && !Self.namesDatesOnly($0)
      })
    {
      // `April to October;Fri: 8:00 AM-1:00 PM`, `Mo-Sa; So geschlossen`: weekdays or months alone
      // make a rule open around the clock, which a value written this loosely hardly means beside
      // other rules. Dates alone (`Jan 01,Dec 24-25; Nov Th[4]`) are a list of whole days.
      throw OpeningHoursParseError(
        text: text, position: allDay.range.lowerBound,
        expected: "times or a state for '\(textOf(allDay.range))' (days alone are open around the clock)",
        found: "days without times")
    }
    for (k, rule) in rules.enumerated() where rule.modifier.state == .closed && closedWrittenFirst.contains(k)
    {
      // `Closed Mondays. Everyday 11:00-19:00`: a later rule would open the closed days again.
      let closedDays = Self.weekdaysCovered(by: rule)
      for later in rules[(k + 1)...]
      where !later.times.isEmpty && later.monthdays.isEmpty && later.years.isEmpty {
        if !Self.weekdaysCovered(by: later).isDisjoint(with: closedDays) {
          throw OpeningHoursParseError(
            text: text, position: later.range.lowerBound,
            expected:
              "the closed days last (a later rule replaces them: write '\(textOf(rule.range))' at the end)",
            found: "a rule for the same days")
        }
      }
    }
    return rules
  }

  /// Whether a rule names single days of the year (`Dec 24-25`, `Nov Th[4]`): dates, or nth weekdays
  /// of months, and no weeks, whole months alone or every-week weekdays.
  static func namesDatesOnly(_ rule: Rule) -> Bool {
    guard rule.weeks.isEmpty, !rule.monthdays.isEmpty else { return false }
    if let selector = rule.weekdays {
      return selector.holidays.isEmpty && !selector.weekdays.isEmpty
        && selector.weekdays.allSatisfy { !$0.nth.isEmpty }
    }
    return rule.monthdays.allSatisfy { if case .dates = $0 { true } else { false } }
  }

  /// Whether a rule names no days: no weekdays, holidays, dates or weeks.
  static func hasNoDays(_ rule: Rule) -> Bool {
    rule.weekdays == nil && rule.years.isEmpty && rule.monthdays.isEmpty && rule.weeks.isEmpty
  }

  /// The weekdays a rule's weekday selector names (every weekday without one; none for holidays only).
  static func weekdaysCovered(by rule: Rule) -> Set<Int> {
    guard let selector = rule.weekdays else { return Set(0...6) }
    var days = Set<Int>()
    for item in selector.weekdays {
      var day = item.from
      while true {
        days.insert(day)
        if day == item.to { break }
        day = (day + 1) % 7
      }
    }
    return days
  }

  mutating func parseRules() throws(OpeningHoursParseError) -> [Rule] {
    if case .end = token.kind {
      throw error("opening hours such as 'Mo-Fr 09:00-18:00'")
    }
    skipKeyPrefix()
    var rules: [Rule] = []
    var separator = RuleSeparator.normal
    var withoutSeparator = false
    var startedByAndWord = false
    while true {
      let start = token
      let rule = try parseRule(separator: separator)
      if withoutSeparator || startedByAndWord, rule.times.isEmpty, !rule.is247, rule.modifier.state == nil,
        rule.modifier.comment == nil
      {
        // `Mo-Fr 10:00-18:00 Sa`, `Mo-Fr 9:00-12:00 und Sa`: a new rule without times would mean
        // "open all day", where the times before are as likely meant.
        throw error("';' before the next rule, and times for it", at: start)
      }
      startedByAndWord = false
      let noTimes =
        rule.times.isEmpty && !rule.is247 && rule.modifier.state == nil && rule.modifier.comment == nil
      if noTimes, everyDayWordUsed {
        // `daily`, `7 days`, `weekdays` alone say which days, not "around the clock".
        throw error("times for \(spanText(start))", at: token)
      }
      if noTimes, rule.separator == .additional, !warnings.isEmpty, rule.weekdays != nil, rule.years.isEmpty,
        rule.monthdays.isEmpty, rule.weeks.isEmpty, let previous = rules.last, previous.weekdays == nil,
        !previous.times.isEmpty, previous.years.isEmpty, previous.monthdays.isEmpty, previous.weeks.isEmpty
      {
        // `9:00-22:00, Pon-Sob` reads as "9-22 every day, and Monday to Saturday all day", which no
        // one means; refused in a value that already needed tolerance.
        throw error("times for the weekdays after ',' (write the weekdays before the times)", at: start)
      }
      if !warnings.isEmpty, let previous = rules.last {
        try refuseMisplacedDays(rule, after: previous, start: start)
      }
      withoutSeparator = false
      if earlyState == .closed { closedWrittenFirst.append(rules.count) }
      rules.append(rule)
      switch token.kind {
      case .end:
        return rules
      case .semicolon:
        let first = token
        advance()
        while case .semicolon = token.kind {
          warn("empty-rule", token.range, "two ';' in a row")
          advance()
        }
        if case .end = token.kind {
          warn("trailing-separator", first.range, "nothing follows the last ';'")
          return rules
        }
        separator = .normal
      case .fallback:
        advance()
        separator = .fallback
      case .comma:
        let comma = token
        advance()
        if case .end = token.kind {
          warn("trailing-separator", comma.range, "nothing follows the last ','")
          return rules
        }
        separator = .additional
      default:
        if atAndWord(),
          andSeparatesRules
            || rule.weekdays != nil && !weekdaysAfterTimes && !rule.times.isEmpty
              && startsWeekdaySelector(peek())
        {
          // `… mon-sat and Sunday 1pm-10pm`: the `and` joins two rules.
          warn("and-word", token.range, "write ',' between rules")
          advance()
          separator = .additional
          startedByAndWord = true
          continue
        }
        if startsWeekdaySelector(token), rule.times.isEmpty, !rule.is247, rule.modifier.state == nil,
          rule.modifier.comment == nil, rule.weekdays != nil
        {
          // `Tu We[3] off`, `Sa, Su  Mo off`: "Tuesday all day; the third Wednesday closed" or
          // "Tuesday and the third Wednesday closed"?
          throw error("',' between weekdays, or times for the weekdays before", at: token)
        }
        // `… Oct Tu-Su 10:00-14:30 Nov off`: a rule that starts with a month after one with times or a state.
        let monthStartsRule =
          startsDatePoint(0) && (!rule.times.isEmpty || rule.modifier.state != nil) && !isYear(token)
        guard startsWeekdaySelector(token) || monthStartsRule, !rule.is247,
          rule.weekdays != nil || !rule.monthdays.isEmpty || !rule.years.isEmpty || !rule.weeks.isEmpty
            || !rule.times.isEmpty
        else {
          throw error(expectedAfterRule(rule))
        }
        // `Mo-Fr 08:00-18:00 Sa 09:00-12:00`: the meaning of the missing `;` is clear.
        let t = token
        warn(
          "missing-rule-separator", t.range.lowerBound..<t.range.lowerBound, "insert '; ' before a new rule")
        if !t.spaceBefore, index > 0 {
          warn("missing-space", tokens[index - 1].range.upperBound..<t.range.lowerBound, "insert a space")
        }
        separator = .normal
        withoutSeparator = true
      }
    }
  }

  /// `opening_hours=Mo-Fr …`: the key written before the value.
  mutating func skipKeyPrefix() {
    if let k = token.keyword, k == .oeffnungszeitUmlaut || k == .oeffnungszeitenUmlaut {
      // `Öffnungszeiten: Mo-Fr …`: a label, as on a sign.
      var end = token.range.upperBound
      advance()
      if case .colon = token.kind {
        end = token.range.upperBound
        advance()
      }
      warn("key-prefix", tokens[0].range.lowerBound..<end, "write the value without its label")
      return
    }
    guard isWord(token, .opening), case .other("_") = peek().kind, isWord(peek(2), .hours),
      !peek().spaceBefore, !peek(2).spaceBefore
    else { return }
    var k = 3
    if case .other("=") = peek(k).kind {
      k += 1
    } else if case .colon = peek(k).kind {
      k += 1
    } else {
      return
    }
    let range = token.range.lowerBound..<peek(k - 1).range.upperBound
    for _ in 0..<k { advance() }
    warn("key-prefix", range, "write the value without 'opening_hours='")
  }

  func expectedAfterRule(_ rule: Rule) -> String {
    if rule.times.isEmpty, rule.modifier.state == nil, rule.modifier.comment == nil {
      return "a time such as 09:00-18:00, 'off', or ';' before the next rule"
    }
    return "';' before the next rule"
  }

  /// Refuses a rule whose days depend on a reading no one would defend, in a value that already
  /// needed tolerance (issue 13): the weekdays or times of one rule moved to other days.
  func refuseMisplacedDays(_ rule: Rule, after previous: Rule, start: Token) throws(OpeningHoursParseError) {
    let timesOnly =
      !rule.times.isEmpty && rule.weekdays == nil && rule.years.isEmpty && rule.monthdays.isEmpty
      && rule.weeks.isEmpty
    let previousHasSelector =
      previous.weekdays != nil || !previous.years.isEmpty || !previous.monthdays.isEmpty
      || !previous.weeks.isEmpty
    if timesOnly, rule.separator == .additional, previousHasSelector {
      // `4pm-11pm Mon-Thu, 4pm-12am`: every day, or the days of the rule before, or the others?
      throw error("weekdays for the times after ',' (the rule before names its days)", at: start)
    }
    if timesOnly, rule.separator == .normal, previousHasSelector, rule.modifier.state == nil {
      // `Lu-Do 12:00-16:00;20:00-00:30`: after ';' the times would replace every day's hours.
      throw error("',' between the spans, or weekdays for the times after ';'", at: start)
    }
    let previousTimesOnly =
      !previous.times.isEmpty && !previousHasSelector && previous.modifier.state == nil
      && previous.modifier.comment == nil
    if weekdaysAfterTimes, rule.separator == .normal, previousTimesOnly {
      // `9:00-13:00; 16:00-18:00 Mo-Fr`: the weekdays after the times are as likely those of both.
      throw error(
        "weekdays before the times, or ',' between the spans (which days have the times before ';'?)",
        at: start)
    }
  }

  mutating func parseRule(separator: RuleSeparator) throws(OpeningHoursParseError) -> Rule {
    var rule = Rule()
    rule.separator = separator
    everyDayWordUsed = false
    weekdaysAfterTimes = false
    andSeparatesRules = false
    earlyState = nil
    let startToken = token
    if case .number(24, _) = token.kind, case .slash = peek().kind, case .number(7, _) = peek(2).kind {
      advance()
      advance()
      advance()
      rule.is247 = true
      if case .colon = token.kind {
        warn("stray-colon", token.range, "no ':' after 24/7")
        advance()
      }
    } else if case let length = aroundTheClockLength(), length > 0 {
      // `always`, `nonstop`, `24 hours`, `24 hours 7 days a week`.
      let range = token.range.lowerBound..<peek(length - 1).range.upperBound
      for _ in 0..<length { advance() }
      warn("around-the-clock-word", range, "write '24/7' for '\(textOf(range))'")
      rule.is247 = true
    } else {
      try parseEarlyModifier(&rule, timesOnly: false)
      try parseWideRange(&rule)
      skipFromWord()
      try parseWeekdaySelector(&rule)
      if rule.weekdays != nil { try parseEarlyModifier(&rule, timesOnly: true) }
      if rule.weekdays != nil, try parseLateWideRange(&rule) {
        // `Mo-Su week 05 Feb 10:00-12:00`
      }
      if let days = rule.weekdays, case .colon = token.kind {
        let written = days.weekdays.isEmpty ? "holidays" : days.holidays.isEmpty ? "weekdays" : "days"
        warn("stray-colon", token.range, "no ':' after \(written)")
        advance()
      }
      // `Sa, 10:00-12:00` and `Du lundi au vendredi, de 9h à 18h`: the times of those days.
      if rule.weekdays != nil, case .comma = token.kind,
        startsTime(1, compact: true) || (peek().keyword?.isFromWord == true && startsTime(2))
      {
        warn("comma-before-time", token.range, "no ',' between weekdays and times")
        advance()
        skipFromWord()
      }
      if case .number(24, _) = token.kind, case .slash = peek().kind, case .number(7, _) = peek(2).kind {
        // `Mo-Su 24/7`: around the clock on those days.
        warn(
          "24-7-after-selector", token.range.lowerBound..<peek(2).range.upperBound,
          "write 00:00-24:00 after a selector")
        advance()
        advance()
        advance()
        rule.times = [TimeSpan(start: .clock(minutes: 0), end: .clock(minutes: 1440), openEnd: false)]
      } else {
        try parseTimes(&rule, after: rule.weekdays != nil)
      }
      if rule.weekdays == nil, rule.years.isEmpty, rule.monthdays.isEmpty, rule.weeks.isEmpty,
        !rule.times.isEmpty, case .comma = token.kind, startsWeekdaySelector(peek())
      {
        // `9am-5pm, Monday-Friday`: as without the comma, when the rule ends after the weekdays.
        _ = try parseWeekdaysEndingRule(&rule, skippingComma: true)
      }
      if rule.weekdays == nil, rule.years.isEmpty, rule.monthdays.isEmpty, rule.weeks.isEmpty,
        !rule.times.isEmpty,
        startsWeekdaySelector(token) || sevenDaysLength() > 0
      {
        // `10am-6pm Mon-Fri`: weekdays after the times, when nothing else follows in the rule.
        let at = token
        let attempt = try parseWeekdaysEndingRule(&rule, skippingComma: false)
        if !attempt.read {
          // Where the list ends is a question only when it has a `,`, an `and` or a space in it.
          // `9am-9pm Monday-Saturday, Sunday 1pm-9pm`: Sunday has its own times, so the list ends at
          // its one break; `8am-11:30am Saturday, Sunday Closed` ends there too when an earlier rule
          // of the value wrote its weekdays after its times, but alone it could as well be "every day
          // 8-11:30; Saturday and Sunday closed".
          if attempt.breaks == 1, attempt.ownTimesFollow || valueHasWeekdaysAfterTimes {
            weekdayListStop = attempt.firstBreak
            defer { weekdayListStop = -1 }
            try parseWeekdaySelector(&rule)
            warn("weekday-after-time", at.range, "write the weekdays before the times")
            weekdaysAfterTimes = true
            valueHasWeekdaysAfterTimes = true
            andSeparatesRules = atAndWord()
          } else if attempt.breaks > 0 {
            // `9-17 Mo-Fr, Sa, Su 10-12`: which of the listed days have the times before them?
            throw error("';' after the weekdays of these times", at: tokens[attempt.firstBreak])
          }
        }
      }
    }
    if !rule.is247, !rule.times.isEmpty {
      parseSelectorsAfterTimes(&rule)
    }
    if rule.modifier.state == nil, rule.modifier.comment == nil {
      let at = token
      parseModifier(&rule)
      if rule.hasNoSelector, at.keyword?.isLocalizedClosed == true { bareLocalizedClosed = at }
    }
    if let state = earlyState, !rule.is247 {
      if state != .closed, rule.times.isEmpty {
        // `Open daily`, `open Mo-Sa`: which days, not "around the clock".
        throw error(
          "times after '\(textOf(startToken.range))' (without them the rule is open around the clock)")
      }
      if state == .closed, !rule.times.isEmpty, !Self.hasNoDays(rule) {
        // `Closed Monday, Tuesday-Saturday 8am-10pm`: which days are closed?
        throw error("';' after the closed days (or the times before 'closed')", at: startToken)
      }
    }
    if rule.hasNoSelector, rule.modifier.state == nil, rule.modifier.comment == nil {
      throw error("a weekday, a time, a date, '24/7' or 'off'", at: startToken)
    }
    let last = tokens[max(index - 1, 0)]
    rule.range = startToken.range.lowerBound..<max(startToken.range.lowerBound, last.range.upperBound)
    return rule
  }

  /// Weekdays written after the times (`10am-6pm Mon-Fri`; with `skippingComma`, `9am-5pm,
  /// Monday-Friday`), read when the rule ends right after them. Otherwise nothing is read, and what
  /// the attempt saw is returned: how many `,`, `and` or spaces the list ran over, the first of them,
  /// and whether times followed it.
  mutating func parseWeekdaysEndingRule(_ rule: inout Rule, skippingComma: Bool)
    throws(OpeningHoursParseError)
    -> (read: Bool, breaks: Int, firstBreak: Int, ownTimesFollow: Bool)
  {
    let saved = (index, warnings.count, rule)
    let at = token
    if skippingComma { advance() }
    (weekdayListBreakCount, firstWeekdayListBreak) = (0, -1)
    try parseWeekdaySelector(&rule)
    switch token.kind {
    case .end, .semicolon, .comma, .fallback:
      warn(
        "weekday-after-time", at.range,
        skippingComma
          ? "write the weekdays before the times, without ','" : "write the weekdays before the times")
      weekdaysAfterTimes = true
      valueHasWeekdaysAfterTimes = true
      return (true, 0, -1, false)
    default:
      let attempt = (false, weekdayListBreakCount, firstWeekdayListBreak, startsTime(0))
      (index, rule) = (saved.0, saved.2)
      warnings.removeLast(warnings.count - saved.1)
      return attempt
    }
  }

  /// The number of tokens of a word or phrase for "around the clock" at the start of a rule
  /// (`always`, `nonstop`, `anytime`, `24 hours`, `24 hours 7 days a week`) when the rule ends after
  /// it or a state or comment follows; 0 otherwise.
  func aroundTheClockLength() -> Int {
    var n = 0
    if let k = token.keyword, k == .always || k == .nonstop || k == .anytime {
      n = 1
    } else if isWord(token, .all), isWord(peek(), .day) {
      n = 2  // `all day`
    } else if case .number(24, 2) = token.kind, isWord(peek(), .hours) {
      n = 2
      if case .number(7, 1) = peek(2).kind, isWord(peek(3), .days), isWord(peek(4), .a),
        isWord(peek(5), .week)
      {
        n = 6
      }
    } else if case .number(24, 2) = token.kind, isWord(peek(), .x), case .number(7, 1) = peek(2).kind,
      !peek().spaceBefore, !peek(2).spaceBefore
    {
      n = 3  // `24x7`
    }
    guard n > 0 else { return 0 }
    // `nonstop geöffnet`: "open" in German, said of the whole phrase.
    if let k = peek(n).keyword, k == .geoeffnetUmlaut || k == .geoeffnet { n += 1 }
    switch peek(n).kind {
    case .end, .semicolon, .comma, .fallback: return n
    default: return startsModifier(n) ? n : 0
    }
  }

  /// Selectors written after the times, in any order (`10:00-12:00 week 05 Feb`, `00:00-24:00 Mo-Su
  /// week 05 Feb`, `00:00-24:00 2012 week 05 Feb`), each of a kind the rule does not have yet: read
  /// only when the rule ends right after them (or a state or comment follows); otherwise nothing is
  /// read here and the rest of the value is read as before.
  mutating func parseSelectorsAfterTimes(_ rule: inout Rule) {
    // The common case, a rule that ends after its times, costs one look at the next token.
    switch token.kind {
    case .end, .semicolon, .comma, .fallback, .comment: return
    default: break
    }
    let saved = (index, warnings.count, rule, weekdaysAfterTimes)
    var read = false
    while true {
      let start = token.range.lowerBound
      do {
        // A year and a month apart (`2012 … Feb`) have no canonical spelling of their own: `2012 Feb`
        // is one dated month; so a late year is not read beside months, nor a late month beside years.
        if rule.years.isEmpty, rule.monthdays.isEmpty, isYear(token), isWord(peek(), .week) {
          rule.years = try parseYears()
        } else if rule.weeks.isEmpty, isWord(token, .week), isNumberToken(peek()) {
          _ = takeKeyword(.week)
          rule.weeks = try parseWeeks()
        } else if rule.monthdays.isEmpty, rule.years.isEmpty, startsDatePoint(0) {
          rule.monthdays = try parseMonthdays()
        } else if rule.weekdays == nil, startsWeekdaySelector(token) {
          (weekdayListBreakCount, firstWeekdayListBreak) = (0, -1)
          try parseWeekdaySelector(&rule)
          weekdaysAfterTimes = true
        } else {
          break
        }
      } catch {
        read = false
        break
      }
      warn(
        "selector-order", start..<tokens[index - 1].range.upperBound,
        "write years, dates and weeks first, then weekdays, then times")
      read = true
    }
    switch token.kind {
    case .end, .semicolon, .comma, .fallback: if read { return }
    default: if read, startsModifier(0) { return }
    }
    (index, rule, weekdaysAfterTimes) = (saved.0, saved.2, saved.3)
    warnings.removeLast(warnings.count - saved.1)
  }

  /// The state a word at token `k` names: `open`, `closed`, `off`, `unknown`, or `closed` in
  /// another language (`geschlossen`, `fermé`).
  func stateWord(at k: Int) -> OpeningState? {
    guard let keyword = peek(k).keyword else { return nil }
    switch keyword {
    case .open: return .open
    case .closed, .off: return .closed
    case .unknown: return .unknown
    default: return keyword.isLocalizedClosed ? .closed : nil
    }
  }

  /// Whether a state or a comment is at token `k`.
  func startsModifier(_ k: Int) -> Bool {
    if case .comment = peek(k).kind { return true }
    return stateWord(at: k) != nil || appointmentPhraseLength(at: k) > 0
  }

  /// `by appointment`, `on appointment only`, `nach Vereinbarung`, `sur rendez-vous`: the same
  /// words quoted are the specification's own example of a comment.
  static let appointmentPhrases: [[Keyword]] = [
    [.by, .appointment], [.by, .appointments], [.on, .appointment], [.nach, .vereinbarung],
    [.sur, .rendez, .vous],
  ]

  /// The number of tokens of an unquoted appointment phrase at token `k` (words joined by spaces,
  /// `_` or `-`, with a trailing `only`), or 0.
  func appointmentPhraseLength(at k: Int) -> Int {
    guard let first = peek(k).keyword, first == .by || first == .on || first == .nach || first == .sur else {
      return 0
    }
    phrases: for phrase in Self.appointmentPhrases where phrase[0] == first {
      var n = k + 1
      for word in phrase.dropFirst() {
        switch peek(n).kind {
        case .other("_"), .dash:
          if peek(n).spaceBefore || peek(n + 1).spaceBefore { continue phrases } else { n += 1 }
        default: break
        }
        guard peek(n).keyword == word else { continue phrases }
        n += 1
      }
      if let w = peek(n).keyword, w == .only || w == .uniquement { n += 1 }
      return n - k
    }
    return 0
  }

  mutating func parseModifier(_ rule: inout Rule) {
    if let state = stateWord(at: 0), let k = token.keyword {
      if k.isLocalizedClosed {
        let start = token.range.lowerBound
        advance()
        // `geschl.`: the abbreviation's dot.
        if case .dot = token.kind, !token.spaceBefore { advance() }
        warn("localized-state", start..<tokens[index - 1].range.upperBound, "write 'closed'")
      } else {
        _ = takeKeyword(k)
      }
      rule.modifier.state = state
      if case .colon = token.kind, case .comment = peek().kind {
        // `24/7 closed: "always closed"`.
        warn("stray-colon", token.range, "no ':' before a comment")
        advance()
      }
    }
    if case .comment = token.kind {
      rule.modifier.comment = spelling(of: token)
      advance()
    } else if case let length = appointmentPhraseLength(at: 0), length > 0 {
      let range = token.range.lowerBound..<peek(length - 1).range.upperBound
      let words = String(Array(text)[range]).replacing("_", with: " ")
      for _ in 0..<length { advance() }
      rule.modifier.comment = words
      warn("unquoted-comment", range, "write the comment in double quotes: \"\(words)\"")
    }
  }

  /// A state or comment written before the selectors or times it belongs to (`Off 14:00-16:00`,
  /// `We "call us" 10:00-16:00`, `"call us" We 10:00-16:00`): read as if written after them, when
  /// a selector or time follows it directly.
  /// After weekdays (`timesOnly`), only times may follow it, and the state may not be closed.
  mutating func parseEarlyModifier(_ rule: inout Rule, timesOnly: Bool) throws(OpeningHoursParseError) {
    guard rule.modifier.state == nil, rule.modifier.comment == nil, startsModifier(0) else { return }
    let state = stateWord(at: 0)
    var k = state != nil ? 1 : 0
    if case .comment = peek(k).kind { k += 1 } else { k += appointmentPhraseLength(at: k) }
    guard startsTime(k) || !timesOnly && (startsWeekdaySelector(peek(k)) || startsDatePoint(k)) else {
      return
    }
    if timesOnly, state == .closed {
      // `Fr off 16:00-23:00`: closed all day, closed during those times, or open then?
      throw error(
        "the times before '\(textOf(token.range))', or ';' after it (closed all day, or at these times?)")
    }
    earlyState = state
    let start = token.range.lowerBound
    parseModifier(&rule)
    let end = tokens[index - 1].range.upperBound
    let written = String(Array(text)[start..<end])
    warn("modifier-before-selector", start..<end, "write '\(written)' after the times")
  }
}
