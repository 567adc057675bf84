// Splits an `opening_hours` value into tokens with character offsets. Tolerant: dash variants
// become `-`, fullwidth digits and colons their ASCII forms, typographic quotes `"` (each with a
// warning); letters and digits are split apart (`Fr08:00`, `9am`). Day and month names of other
// languages are resolved here, for the whole value at once (see `LocalizedNames`).

enum TokenKind: Hashable, Sendable {
  case number(Int, digits: Int)
  /// Letters; the original spelling is `spellings[Int(spelling)]` of the lexed text, so that a
  /// token holds no reference and copies as plain bytes (a parser copies tokens all the time).
  case word(spelling: Int32)
  case dash
  case colon, comma, semicolon, slash, plus, leftBracket, rightBracket, leftParen, rightParen, dot
  /// `||`
  case fallback
  /// `"…"`, without the quotes, in `spellings[Int(spelling)]`.
  case comment(spelling: Int32)
  /// A character the parser has no use for; its first scalar (`&`, `=`, `_`, `|`).
  case other(Unicode.Scalar)
  case end
}

struct Token: Hashable, Sendable {
  var kind: TokenKind
  /// Character offsets in the text.
  var range: Range<Int>
  /// Whether whitespace precedes the token.
  var spaceBefore: Bool
  /// What a word's lower-case spelling means to the parser, looked up once by the lexer.
  var word = WordInfo()
  /// A day or month name of another language, resolved for the whole value (`LocalizedNames`).
  var localized: LocalizedNames.Meaning? = nil

  var keyword: Keyword? { word.keyword }
}

/// What a word means to the parser, whatever its case: small codes, so that tokens copy without
/// reference counting beyond their text and the parser never lowercases or hashes a word.
struct WordInfo: Hashable, Sendable {
  var keyword: Keyword?
  /// The English (or canonical) weekday, 0 = Monday … 6 = Sunday, or -1.
  var weekday: Int8 = -1
  /// The English (or canonical) month, 1 … 12, or 0.
  var month: Int8 = 0
  /// The index of the word's readings in `LocalizedNames.readings`, or -1.
  var localized: Int16 = -1
  /// Languages a canonical weekday is also the native abbreviation in (`LocalizedNames.canonicalEvidence`), or 0.
  var evidence: UInt8 = 0
  /// `mar`: March in English, Tuesday in French, Spanish and Italian.
  var isMar = false
  /// `M`, `W`, `F`: a weekday in one letter (`M-F`). `T` and `S` are not: Tuesday or Thursday,
  /// Saturday or Sunday.
  var isSingleLetterDay = false

  /// Every word the parser knows, by its lower-case spelling.
  static let vocabulary: [String: WordInfo] = {
    var vocabulary: [String: WordInfo] = [:]
    for keyword in Keyword.allCases { vocabulary[keyword.rawValue, default: WordInfo()].keyword = keyword }
    for (day, name) in OpeningHoursParser.weekdayCanonical.enumerated() {
      vocabulary[name.lowercased(), default: WordInfo()].weekday = Int8(day)
    }
    for (name, day) in OpeningHoursParser.weekdayEnglish {
      vocabulary[name, default: WordInfo()].weekday = Int8(day)
    }
    for (name, day) in OpeningHoursParser.weekdayOtherScripts {
      vocabulary[name, default: WordInfo()].weekday = Int8(day)
    }
    for (index, name) in OpeningHoursParser.monthCanonical.enumerated() {
      vocabulary[name.lowercased(), default: WordInfo()].month = Int8(index + 1)
    }
    for (name, month) in OpeningHoursParser.monthEnglish {
      vocabulary[name, default: WordInfo()].month = Int8(month)
    }
    for (index, (name, _)) in LocalizedNames.readings.enumerated() {
      vocabulary[name, default: WordInfo()].localized = Int16(index)
    }
    for (name, mask) in LocalizedNames.canonicalEvidence {
      vocabulary[name, default: WordInfo()].evidence = mask
    }
    vocabulary["mar", default: WordInfo()].isMar = true
    for (letter, day) in [("m", 0), ("w", 2), ("f", 4)] {
      vocabulary[letter, default: WordInfo()].weekday = Int8(day)
      vocabulary[letter, default: WordInfo()].isSingleLetterDay = true
    }
    return vocabulary
  }()
}

/// The words the parser looks for, each with its lower-case spelling as raw value.
enum Keyword: String, CaseIterable, Hashable, Sendable {
  // Range words: `to`, `til`, German `bis`, French `à`/`au`, Spanish `a`/`hasta`, Portuguese
  // `às`/`até`, Dutch `tot`, Russian `до`.
  case to, through, thru, till, until, til, bis, au, a, hasta, tot, ate
  case aGrave = "à", aAcute = "á", asGrave = "às", `as`, asAcute = "ás", ateAcute = "até", doRussian = "до"
  // Words joining spans or weekdays.
  case and, et, und, y, e, en
  // Words before a time or weekday.
  case from, de, du, von, desde, dalle, dal, vanaf
  case sRussian = "с"
  // Every-day phrases.
  case daily, everyday, every, day, taeglich, jeden, tag, tous, les, jours, todos, los, dias, os, diariamente
  case tutti, i, giorni, dagelijks, elke, dag
  case taeglichUmlaut = "täglich", diasAcute = "días"
  // Weekday groups.
  case weekdays, weekday, wd, weekends, weekend
  // Selectors, states, times.
  case ph, sh, dawn, sunrise, sunset, dusk, easter, week, days, open, closed, off, unknown
  case am, pm, h, p, m, j, uhr, hrs, hr, hs, horas, heures, late, openend, end, opening, hours
  // Holiday phrases: `public holidays`, `day before public holiday`, `Feiertage`.
  case holiday, holidays, `public`, bank, one, before, after, feiertag, feiertage, feiertags, feiertagen
  // Around the clock: `always`, `nonstop`, `anytime` (and `24 hours`, read by the parser).
  case always, nonstop, anytime, all, x
  // Times of day in words: `12noon`, `10am-midnight`.
  case noon, midnight
  case geoeffnetUmlaut = "geöffnet", geoeffnet
  // A label before the value: `Öffnungszeiten: Mo-Fr …`.
  case oeffnungszeitUmlaut = "öffnungszeit", oeffnungszeitenUmlaut = "öffnungszeiten"
  // Appointment phrases: `by appointment`, `nach Vereinbarung`, `sur rendez-vous`.
  case by, on, appointment, appointments, only, nach, vereinbarung, sur, rendez, vous, uniquement
  // Closed in other languages: `Mo geschlossen`, `dimanche fermé`.
  case geschlossen, geschl, ferme, fermeAcute = "fermé", cerrado, chiuso, gesloten, fechado

  /// `to`, `bis`, `à`…: read as `-` where a range dash is expected.
  var isRangeWord: Bool {
    switch self {
    case .to, .through, .thru, .till, .until, .til, .bis, .aGrave, .au, .a, .aAcute, .hasta, .asGrave, .as,
      .asAcute, .ateAcute, .ate, .tot, .doRussian:
      true
    default: false
    }
  }

  /// `and`, `et`, `und`…: read as `,` between time spans or weekdays.
  var isAndWord: Bool {
    switch self {
    case .and, .et, .und, .y, .e, .en: true
    default: false
    }
  }

  /// `from`, `de`, `von`…: skipped before a time or a weekday.
  var isFromWord: Bool {
    switch self {
    case .from, .de, .du, .von, .sRussian, .desde, .dalle, .dal, .vanaf: true
    default: false
    }
  }

  /// `weekdays` (and `wd`) are Monday to Friday, `weekends` Saturday and Sunday.
  var weekdayGroup: (Int, Int)? {
    switch self {
    case .weekdays, .weekday, .wd: (0, 4)
    case .weekends, .weekend: (5, 6)
    default: nil
    }
  }

  var sunEvent: SunEvent? {
    switch self {
    case .dawn: .dawn
    case .sunrise: .sunrise
    case .sunset: .sunset
    case .dusk: .dusk
    default: nil
    }
  }

  /// `holiday`, `public`, `Feiertage`…: a word of a public-holiday phrase (`holidayPhrase()`).
  var isHolidayWord: Bool {
    switch self {
    case .holiday, .holidays, .public, .bank, .feiertag, .feiertage, .feiertags, .feiertagen: true
    default: false
    }
  }

  /// `geschlossen`, `fermé`, `cerrado`…: `closed` in another language.
  var isLocalizedClosed: Bool {
    switch self {
    case .geschlossen, .geschl, .ferme, .fermeAcute, .cerrado, .chiuso, .gesloten, .fechado: true
    default: false
    }
  }

  /// `h`, `uhr`, `hrs`…: an hour suffix.
  var isHourSuffix: Bool {
    switch self {
    case .h, .uhr, .hrs, .hr, .hs, .horas, .heures: true
    default: false
    }
  }
}

struct OpeningHoursLexer {
  static let dashVariants: Set<Character> = [
    "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}", "~", "\u{FF5E}",
    "\u{301C}", "\u{FF0D}", "\u{2192}", "\u{30FC}",
  ]

  /// Opening typographic quotes and the closing quotes each accepts: read as `"`.
  static let quoteVariants: [Character: Set<Character>] = [
    "\u{201C}": ["\u{201D}", "\u{201C}"], "\u{201E}": ["\u{201C}", "\u{201D}"], "\u{00AB}": ["\u{00BB}"],
    "\u{300C}": ["\u{300D}"], "\u{300E}": ["\u{300F}"], "\u{2018}": ["\u{2019}"],
  ]

  /// Fullwidth punctuation read as its ASCII form.
  static let fullwidthPunctuation: [Character: TokenKind] = [
    "\u{FF1A}": .colon, "\u{FF0C}": .comma, "\u{FF1B}": .semicolon,
  ]

  /// A word token: its text, and what its lower-case spelling means (`lower` is that spelling).
  static func word(_ text: String, lower: String, range: Range<Int>, space: Bool, spellings: inout [String])
    -> Token
  {
    Token(
      kind: .word(spelling: spelling(text, in: &spellings)), range: range, spaceBefore: space,
      word: WordInfo.vocabulary[lower] ?? WordInfo())
  }

  /// Keeps `text` in `spellings`, returning its index.
  static func spelling(_ text: String, in spellings: inout [String]) -> Int32 {
    spellings.append(text)
    return Int32(spellings.count - 1)
  }

  /// - Throws: an unterminated comment.
  static func tokenize(_ text: String, spellings: inout [String], warnings: inout [OpeningHoursWarning])
    throws(OpeningHoursParseError) -> [Token]
  {
    var copy = text
    let ascii = copy.withUTF8 { bytes -> Result<[Token], OpeningHoursParseError>? in
      // Outside ASCII, or a carriage return (`\r\n` is one character): read as characters.
      guard !bytes.contains(where: { $0 >= 0x80 || $0 == 0x0D }) else { return nil }
      return tokenizeASCII(bytes, text: text, spellings: &spellings, warnings: &warnings)
    }
    var tokens: [Token]
    if let ascii {
      tokens = try ascii.get()
    } else {
      tokens = try tokenize(Array(text), text: text, spellings: &spellings, warnings: &warnings)
    }
    LocalizedNames.resolve(&tokens)
    // `M` is Monday only in English: beside names of another language (`Lunes cerrado, M-D 10-20`:
    // martes, mardi) it is no day; nor against a number (`12h30m`: a unit).
    let otherLanguage = tokens.contains { $0.localized != nil }
    for i in tokens.indices where tokens[i].word.isSingleLetterDay {
      var unit = false
      if i > 0, !tokens[i].spaceBefore, case .number = tokens[i - 1].kind { unit = true }
      if unit || otherLanguage {
        tokens[i].word.weekday = -1
        tokens[i].word.isSingleLetterDay = false
      }
    }
    return tokens
  }

  /// The common case, plain ASCII without `\r`: every byte is one character, so byte offsets are
  /// character offsets. Gives the same tokens and warnings as the character lexer.
  static func tokenizeASCII(
    _ bytes: UnsafeBufferPointer<UInt8>, text: String, spellings: inout [String],
    warnings: inout [OpeningHoursWarning]
  ) -> Result<[Token], OpeningHoursParseError> {
    func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    let n = bytes.count
    var tokens: [Token] = []
    tokens.reserveCapacity(n / 2 + 1)
    var i = 0
    var space = false
    while i < n {
      let c = bytes[i]
      // `Character.isWhitespace` in ASCII: tab, line feed, vertical tab, form feed, space.
      if c == 0x20 || (c >= 0x09 && c <= 0x0C) {
        space = true
        i += 1
        continue
      }
      let start = i
      var kind: TokenKind
      if isDigit(c) {
        var value = Int(c - 0x30)
        var digits = 1
        i += 1
        while i < n, isDigit(bytes[i]) {
          if digits < 9 { value = value * 10 + Int(bytes[i] - 0x30) }
          digits += 1
          i += 1
        }
        kind = .number(value, digits: digits)
      } else if isLetter(c) {
        i += 1
        while i < n, isLetter(bytes[i]) { i += 1 }
        // `segunda-feira`: the Portuguese weekday is one word.
        if i + 6 <= n, bytes[i] == UInt8(ascii: "-"), bytes[i + 1] | 0x20 == UInt8(ascii: "f"),
          bytes[i + 2] | 0x20 == UInt8(ascii: "e"), bytes[i + 3] | 0x20 == UInt8(ascii: "i"),
          bytes[i + 4] | 0x20 == UInt8(ascii: "r"), bytes[i + 5] | 0x20 == UInt8(ascii: "a"),
          i + 6 == n || !isLetter(bytes[i + 6])
        {
          i += 6
        }
        let spelling = UnsafeBufferPointer(rebasing: bytes[start..<i])
        let lower = String(unsafeUninitializedCapacity: spelling.count) { buffer in
          for (k, b) in spelling.enumerated() { buffer[k] = b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
          return spelling.count
        }
        tokens.append(
          word(
            String(decoding: spelling, as: UTF8.self), lower: lower, range: start..<i, space: space,
            spellings: &spellings))
        space = false
        continue
      } else {
        i += 1
        switch c {
        case UInt8(ascii: "-"): kind = .dash
        case UInt8(ascii: ":"): kind = .colon
        case UInt8(ascii: ","): kind = .comma
        case UInt8(ascii: ";"): kind = .semicolon
        case UInt8(ascii: "/"): kind = .slash
        case UInt8(ascii: "+"): kind = .plus
        case UInt8(ascii: "["): kind = .leftBracket
        case UInt8(ascii: "]"): kind = .rightBracket
        case UInt8(ascii: "("): kind = .leftParen
        case UInt8(ascii: ")"): kind = .rightParen
        case UInt8(ascii: "."): kind = .dot
        case UInt8(ascii: "|"):
          if i < n, bytes[i] == UInt8(ascii: "|") {
            i += 1
            kind = .fallback
          } else {
            kind = .other("|")
          }
        case UInt8(ascii: "\""):
          var j = i
          while j < n, bytes[j] != UInt8(ascii: "\"") { j += 1 }
          guard j < n else {
            return .failure(
              OpeningHoursParseError(
                text: text, position: start, expected: "a closing '\"' to end the comment that starts here",
                found: "end of text"))
          }
          kind = .comment(
            spelling: spelling(
              String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<j]), as: UTF8.self), in: &spellings))
          i = j + 1
        case UInt8(ascii: "~"):
          kind = .dash
          warnings.append(
            OpeningHoursWarning(
              code: "dash-variant", range: start..<i, message: "'~' used as a range dash; write '-'"))
        default:
          kind = .other(Unicode.Scalar(c))
        }
      }
      tokens.append(Token(kind: kind, range: start..<i, spaceBefore: space))
      space = false
    }
    tokens.append(Token(kind: .end, range: n..<n, spaceBefore: space))
    return .success(tokens)
  }

  /// Any text, one `Character` at a time.
  /// - Throws: an unterminated comment.
  static func tokenize(
    _ characters: [Character], text: String, spellings: inout [String], warnings: inout [OpeningHoursWarning]
  )
    throws(OpeningHoursParseError) -> [Token]
  {
    var tokens: [Token] = []
    tokens.reserveCapacity(characters.count / 2 + 1)
    var i = 0
    var space = false
    let n = characters.count
    while i < n {
      let c = characters[i]
      if c.isWhitespace {
        space = true
        i += 1
        continue
      }
      let start = i
      var kind: TokenKind
      if let digit = c.digitValue {
        var value = digit
        var digits = 1
        var fullwidth = c.asciiDigit == nil
        i += 1
        while i < n, let d = characters[i].digitValue {
          if digits < 9 { value = value * 10 + d }
          if characters[i].asciiDigit == nil { fullwidth = true }
          digits += 1
          i += 1
        }
        kind = .number(value, digits: digits)
        if fullwidth {
          warnings.append(
            OpeningHoursWarning(
              code: "fullwidth-character", range: start..<i, message: "write the digits as 0-9"))
        }
      } else if let run = raisedDigits(characters, at: i) {
        // `9⁰⁰`, `12°°`, `⁰⁰:³⁰`: minutes written raised (a shop sign's style), or a time in
        // superscript or subscript digits.
        i += run.length
        kind = .number(run.value, digits: run.length)
        let afterNumber: Bool
        if case .number = tokens.last?.kind, !space, tokens.last?.range.upperBound == start, run.raised {
          afterNumber = true
        } else {
          afterNumber = false
        }
        warnings.append(
          OpeningHoursWarning(
            code: "digit-variant", range: start..<i,
            message: afterNumber ? "write the minutes after ':', in digits 0-9" : "write the digits as 0-9"))
        if afterNumber {
          tokens.append(Token(kind: .colon, range: start..<start, spaceBefore: false))
        }
      } else if c.isLetter, !dashVariants.contains(c) {
        i += 1
        while i < n, characters[i].isLetter, characters[i].asciiDigit == nil { i += 1 }
        // `segunda-feira`: the Portuguese weekday is one word.
        if i + 6 <= n, characters[i] == "-", String(characters[(i + 1)..<(i + 6)]).lowercased() == "feira",
          i + 6 == n || !characters[i + 6].isLetter
        {
          i += 6
        }
        let text = String(characters[start..<i])
        tokens.append(
          word(text, lower: text.lowercased(), range: start..<i, space: space, spellings: &spellings))
        space = false
        continue
      } else {
        i += 1
        switch c {
        case "-": kind = .dash
        case ":": kind = .colon
        case ",": kind = .comma
        case ";": kind = .semicolon
        case "/": kind = .slash
        case "+": kind = .plus
        case "[": kind = .leftBracket
        case "]": kind = .rightBracket
        case "(": kind = .leftParen
        case ")": kind = .rightParen
        case ".": kind = .dot
        case "|":
          if i < n, characters[i] == "|" {
            i += 1
            kind = .fallback
          } else {
            kind = .other(c.unicodeScalars.first!)
          }
        case "\"":
          var j = i
          while j < n, characters[j] != "\"" { j += 1 }
          guard j < n else {
            throw OpeningHoursParseError(
              text: text, position: start, expected: "a closing '\"' to end the comment that starts here",
              found: "end of text")
          }
          kind = .comment(spelling: spelling(String(characters[i..<j]), in: &spellings))
          i = j + 1
        default:
          if let closing = quoteVariants[c],
            let j = characters[i...].firstIndex(where: { closing.contains($0) })
          {
            kind = .comment(spelling: spelling(String(characters[i..<j]), in: &spellings))
            i = j + 1
            warnings.append(
              OpeningHoursWarning(
                code: "quote-variant", range: start..<i,
                message:
                  "write comments in straight double quotes: \"\(String(characters[(start + 1)..<j]))\""))
          } else if let punctuation = fullwidthPunctuation[c] {
            kind = punctuation
            warnings.append(
              OpeningHoursWarning(
                code: "fullwidth-character", range: start..<i, message: "write '\(c)' as its ASCII form"))
          } else if dashVariants.contains(c) {
            kind = .dash
            warnings.append(
              OpeningHoursWarning(
                code: "dash-variant", range: start..<i,
                message: "'\(c)' used as a range dash; write '-'"))
          } else {
            kind = .other(c.unicodeScalars.first!)
          }
        }
      }
      tokens.append(Token(kind: kind, range: start..<i, spaceBefore: space))
      space = false
    }
    tokens.append(Token(kind: .end, range: n..<n, spaceBefore: space))
    return tokens
  }
}

extension OpeningHoursLexer {
  /// Superscript digits and `°` (a raised zero), or subscript digits: the value and length of the
  /// run at `i`, and whether it is raised; nil unless the run has a digit (a lone `°` is a degree).
  static func raisedDigits(_ characters: [Character], at i: Int) -> (value: Int, length: Int, raised: Bool)? {
    func digit(_ c: Character) -> (Int, raised: Bool)? {
      guard let scalar = c.unicodeScalars.first, c.unicodeScalars.count == 1 else { return nil }
      switch scalar.value {
      case 0x2070, 0x00B0: return (0, true)
      case 0x00B9: return (1, true)
      case 0x00B2: return (2, true)
      case 0x00B3: return (3, true)
      case 0x2074...0x2079: return (Int(scalar.value) - 0x2070, true)
      case 0x2080...0x2089: return (Int(scalar.value) - 0x2080, false)
      default: return nil
      }
    }
    guard let first = digit(characters[i]) else { return nil }
    var value = 0
    var length = 0
    var hasDigit = false
    while i + length < characters.count, let (d, raised) = digit(characters[i + length]),
      raised == first.raised,
      length < 9
    {
      value = value * 10 + d
      if characters[i + length] != "\u{00B0}" { hasDigit = true }
      length += 1
    }
    if !hasDigit, first.raised {
      // `12°°`: degree signs count as zeros only as two minute digits right after a number (`20°C` is
      // a temperature).
      guard length == 2, i > 0, characters[i - 1].digitValue != nil else { return nil }
    }
    return (value, length, first.raised)
  }
}

extension Character {
  var asciiDigit: Int? {
    guard let ascii = asciiValue, ascii >= 48, ascii <= 57 else { return nil }
    return Int(ascii - 48)
  }

  /// An ASCII or fullwidth (`０`–`９`) digit.
  var digitValue: Int? {
    if let d = asciiDigit { return d }
    guard let scalar = unicodeScalars.first, unicodeScalars.count == 1,
      (0xFF10...0xFF19).contains(scalar.value)
    else { return nil }
    return Int(scalar.value - 0xFF10)
  }
}

/// Day and month names in German, French, Spanish, Italian, Portuguese and Dutch, and Russian and Polish day names.
///
/// Several abbreviations name different days in different languages (`Di` is Tuesday in German
/// and Dutch, Sunday in French; `Do` Thursday in German and Dutch, Sunday in Spanish and Italian;
/// `Ma` Tuesday in French, Spanish and Italian, Monday in Dutch). So the languages a value can be
/// in are worked out from all its localized names together, and a name is read only when every
/// language left gives it the same meaning: `Mo-Do` (German: `Mo` is not Spanish or Italian) is
/// Monday to Thursday, `ma-vr` (Dutch: `vr`) Monday to Friday, while `Di-Sa` alone (German or
/// French) is refused. Canonical English spellings (`Mo`, `Mar`, `Sept`) always keep their meaning;
/// `Mar` in a value with French, Spanish or Italian weekday names could be March or Tuesday, and is
/// refused. `pn` is left out: Monday in Polish, Friday in Lithuanian (opening_hours.js reads it so).
enum LocalizedNames {
  enum Kind: Hashable, Sendable { case weekday, month, ambiguous }

  /// What a localized name was resolved to in its value (small codes: the note is made only when
  /// a warning or an error names it).
  struct Meaning: Hashable, Sendable {
    var kind: Kind
    /// 0 = Monday … 6 = Sunday, or 1 … 12 for a month.
    var value: Int8
    /// The languages read; for an ambiguous name, the languages of the value.
    var languages: UInt8
    /// For an ambiguous name, the index of its readings in `readings`; -1 for `Mar`.
    var readings: Int16 = -1

    /// The languages read (`German`), or for an ambiguous name what it could be.
    var note: String {
      guard kind == .ambiguous else { return LocalizedNames.languages(languages) }
      guard readings >= 0 else {
        return "Mar (March) in English, Tu in " + LocalizedNames.languages(languages)
      }
      let mask = languages
      return LocalizedNames.readings[Int(readings)].1.filter { $0.languages & mask != 0 }.map { e in
        (e.isMonth
          ? OpeningHoursParser.monthCanonical[e.value - 1] : OpeningHoursParser.weekdayCanonical[e.value])
          + " in " + LocalizedNames.languages(e.languages & mask)
      }.joined(separator: ", ")
    }
  }

  struct Entry {
    var languages: UInt8
    var isMonth: Bool
    var value: Int
  }

  static let languageNames = [
    "German", "French", "Spanish", "Italian", "Portuguese", "Dutch", "Russian", "Polish",
  ]
  static let (de, fr, es, it, pt, nl, ru, pl): (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (
    1, 2, 4, 8, 16, 32, 64, 128
  )
  static let all: UInt8 = 0xFF
  static let romance: UInt8 = fr | es | it

  /// Names per language, Monday first; several spellings of one day separated by `|`.
  static let weekdayNames: [(UInt8, [String])] = [
    (
      de,
      [
        "montag|montags|mo", "dienstag|dienstags|di", "mittwoch|mittwochs|mi", "donnerstag|donnerstags|do",
        "freitag|freitags|fr", "samstag|samstags|sonnabend|sonnabends|sa", "sonntag|sonntags|so",
      ]
    ),
    (
      fr,
      [
        "lundi|lundis|lu|lun", "mardi|mardis|ma|mar", "mercredi|mercredis|me|mer", "jeudi|jeudis|je|jeu",
        "vendredi|vendredis|ve|ven", "samedi|samedis|sa|sam", "dimanche|dimanches|di|dim",
      ]
    ),
    (
      es,
      [
        "lunes|lu|lun", "martes|ma|mar", "miércoles|miercoles|mi|mié|mie", "jueves|ju|jue", "viernes|vi|vie",
        "sábado|sabado|sábados|sabados|sa|sáb|sab", "domingo|domingos|do|dom",
      ]
    ),
    (
      it,
      [
        "lunedì|lunedi|lu|lun", "martedì|martedi|ma|mar", "mercoledì|mercoledi|me|mer",
        "giovedì|giovedi|gi|gio",
        "venerdì|venerdi|ve|ven", "sabato|sa|sab", "domenica|do|dom",
      ]
    ),
    (
      pt,
      [
        "segunda|segunda-feira|segundas|seg", "terça|terca|terça-feira|terca-feira|terças|ter",
        "quarta|quarta-feira|quartas|qua", "quinta|quinta-feira|quintas|qui", "sexta|sexta-feira|sextas|sex",
        "sábado|sabado|sábados|sabados|sáb|sab", "domingo|domingos|dom",
      ]
    ),
    (
      nl,
      [
        "maandag|maandags|ma", "dinsdag|dinsdags|di", "woensdag|woensdags|wo", "donderdag|donderdags|do",
        "vrijdag|vrijdags|vr", "zaterdag|zaterdags|za", "zondag|zondags|zo",
      ]
    ),
    (
      ru,
      [
        "понедельник|пн", "вторник|вт", "среда|ср", "четверг|чт", "пятница|пт", "суббота|сб",
        "воскресенье|воскресение|вс",
      ]
    ),
    (
      pl,
      [
        "poniedziałek|poniedzialek|pon", "wtorek|wt", "środa|sroda|śr|sr", "czwartek|cz|czw",
        "piątek|piatek|pt|pią",
        "sobota|sb|sob", "niedziela|nd|niedz|nie",
      ]
    ),
  ]

  /// Month names per language, January first.
  static let monthNames: [(UInt8, [String])] = [
    (
      de,
      [
        "januar|jänner|jän", "februar", "märz|mär|mrz", "april", "mai", "juni", "juli", "august", "september",
        "oktober|okt", "november", "dezember|dez",
      ]
    ),
    (
      fr,
      [
        "janvier|janv", "février|fevrier|févr|fevr", "mars", "avril|avr", "mai", "juin", "juillet|juil",
        "août|aout", "septembre", "octobre", "novembre", "décembre|decembre|déc",
      ]
    ),
    (
      es,
      [
        "enero|ene", "febrero", "marzo", "abril|abr", "mayo", "junio", "julio", "agosto|ago",
        "septiembre|setiembre", "octubre", "noviembre", "diciembre|dic",
      ]
    ),
    (
      it,
      [
        "gennaio|gen", "febbraio", "marzo", "aprile", "maggio|mag", "giugno|giu", "luglio|lug", "agosto|ago",
        "settembre|set", "ottobre|ott", "novembre", "dicembre|dic",
      ]
    ),
    (
      pt,
      [
        "janeiro", "fevereiro|fev", "março|marco", "abril|abr", "maio|mai", "junho", "julho", "agosto|ago",
        "setembro|set", "outubro|out", "novembro", "dezembro|dez",
      ]
    ),
    (
      nl,
      [
        "januari", "februari", "maart|mrt", "april", "mei", "juni", "juli", "augustus", "september",
        "oktober|okt",
        "november", "december",
      ]
    ),
  ]

  /// Lower-case spellings that are canonical English (`mo`, `mar`, `monday`, `sept`): never localized.
  static let english: Set<String> = {
    var set = Set(OpeningHoursParser.weekdayEnglish.keys).union(OpeningHoursParser.monthEnglish.keys)
    for d in OpeningHoursParser.weekdayCanonical { set.insert(d.lowercased()) }
    for m in OpeningHoursParser.monthCanonical { set.insert(m.lowercased()) }
    return set
  }()

  /// The languages in which a canonical weekday is also the native abbreviation (`Mo`, `Fr` in
  /// German): evidence that narrows the languages of the other names (`Mo-Do`).
  static let canonicalEvidence: [String: UInt8] = ["mo": de, "fr": de, "sa": de | fr | es | it]

  static let table: [String: [Entry]] = {
    var table: [String: [Entry]] = [:]
    func add(_ lists: [(UInt8, [String])], isMonth: Bool) {
      for (language, names) in lists {
        for (index, spellings) in names.enumerated() {
          for spelling in spellings.split(separator: "|").map(String.init) {
            let value = isMonth ? index + 1 : index
            if english.contains(spelling), spelling != "mar" { continue }
            var entries = table[spelling, default: []]
            if let k = entries.firstIndex(where: { $0.isMonth == isMonth && $0.value == value }) {
              entries[k].languages |= language
            } else {
              entries.append(Entry(languages: language, isMonth: isMonth, value: value))
            }
            table[spelling] = entries
          }
        }
      }
    }
    add(weekdayNames, isMonth: false)
    add(monthNames, isMonth: true)
    return table
  }()

  /// The readings of every localized spelling, in a fixed order (`WordInfo.localized` indexes it).
  static let readings: [(String, [Entry])] = table.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }

  static func languages(_ mask: UInt8) -> String {
    let names = languageNames.indices.filter { mask & (1 << $0) != 0 }.map { languageNames[$0] }
    if names.count <= 1 { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names.last!
  }

  /// Resolves the localized names of one value (see the type's description), from what the lexer
  /// looked up for each word (`Token.word`).
  static func resolve(_ tokens: inout [Token]) {
    var found: [Int] = []
    var evidence: UInt8 = all
    var narrowing: UInt8 = all
    var weekdayNamed = false
    var marIndices: [Int] = []
    for i in tokens.indices {
      let word = tokens[i].word
      if word.isMar {
        marIndices.append(i)
        continue
      }
      if word.localized >= 0 {
        let entries = readings[Int(word.localized)].1
        found.append(i)
        evidence &= entries.reduce(0) { $0 | $1.languages }
        if entries.contains(where: { !$0.isMonth }) { weekdayNamed = true }
      } else if word.evidence != 0 {
        narrowing &= word.evidence
      }
    }
    // No language common to every name (`PN-SO`: Polish, German): none is read.
    guard !found.isEmpty, evidence != 0 else { return }
    var languages = evidence
    if languages & narrowing != 0 { languages &= narrowing }
    for i in found {
      let index = tokens[i].word.localized
      let mask = languages
      let readings = Self.readings[Int(index)].1.filter { $0.languages & mask != 0 }
      guard let first = readings.first else { continue }
      if readings.count == 1 {
        tokens[i].localized = Meaning(
          kind: first.isMonth ? .month : .weekday, value: Int8(first.value), languages: first.languages & mask
        )
      } else {
        tokens[i].localized = Meaning(kind: .ambiguous, value: 0, languages: mask, readings: index)
      }
    }
    if weekdayNamed, languages & romance != 0 {
      for i in marIndices {
        tokens[i].localized = Meaning(kind: .ambiguous, value: 0, languages: languages & romance)
      }
    }
  }
}
