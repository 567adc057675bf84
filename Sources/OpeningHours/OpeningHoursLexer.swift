// Splits an `opening_hours` value into tokens with character offsets. Tolerant: dash variants
// become `-`, fullwidth digits and colons their ASCII forms, typographic quotes `"` (each with a
// warning); letters and digits are split apart (`Fr08:00`, `9am`). Day and month names of other
// languages are resolved here, for the whole value at once (see `LocalizedNames`).

enum TokenKind: Hashable, Sendable {
  case number(Int, digits: Int)
  /// Letters; `text` keeps the original spelling.
  case word(String)
  case dash
  case colon, comma, semicolon, slash, plus, leftBracket, rightBracket, leftParen, rightParen, dot
  /// `||`
  case fallback
  /// `"…"`, without the quotes.
  case comment(String)
  case other(Character)
  case end
}

struct Token: Hashable, Sendable {
  var kind: TokenKind
  /// Character offsets in the text.
  var range: Range<Int>
  /// Whether whitespace precedes the token.
  var spaceBefore: Bool
  /// A day or month name of another language, resolved for the whole value (`LocalizedNames`).
  var localized: LocalizedNames.Meaning? = nil

  var lowercasedWord: String? {
    if case .word(let text) = kind { return text.lowercased() }
    return nil
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

  /// - Throws: an unterminated comment.
  static func tokenize(_ characters: [Character], text: String, warnings: inout [OpeningHoursWarning])
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
      } else if c.isLetter, !dashVariants.contains(c) {
        i += 1
        while i < n, characters[i].isLetter, characters[i].asciiDigit == nil { i += 1 }
        // `segunda-feira`: the Portuguese weekday is one word.
        if i + 6 <= n, characters[i] == "-", String(characters[(i + 1)..<(i + 6)]).lowercased() == "feira",
          i + 6 == n || !characters[i + 6].isLetter
        {
          i += 6
        }
        kind = .word(String(characters[start..<i]))
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
            kind = .other(c)
          }
        case "\"":
          var j = i
          while j < n, characters[j] != "\"" { j += 1 }
          guard j < n else {
            throw OpeningHoursParseError(
              text: text, position: start, expected: "a closing '\"' to end the comment that starts here",
              found: "end of text")
          }
          kind = .comment(String(characters[i..<j]))
          i = j + 1
        default:
          if let closing = quoteVariants[c],
            let j = characters[i...].firstIndex(where: { closing.contains($0) })
          {
            kind = .comment(String(characters[i..<j]))
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
            kind = .other(c)
          }
        }
      }
      tokens.append(Token(kind: kind, range: start..<i, spaceBefore: space))
      space = false
    }
    tokens.append(Token(kind: .end, range: n..<n, spaceBefore: space))
    LocalizedNames.resolve(&tokens)
    return tokens
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

  /// What a localized name was resolved to in its value.
  struct Meaning: Hashable, Sendable {
    var kind: Kind
    /// 0 = Monday … 6 = Sunday, or 1 … 12 for a month.
    var value: Int
    /// The languages read (`German`), or for an ambiguous name what it could be.
    var note: String
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

  static func languages(_ mask: UInt8) -> String {
    let names = languageNames.indices.filter { mask & (1 << $0) != 0 }.map { languageNames[$0] }
    if names.count <= 1 { return names.first ?? "" }
    return names.dropLast().joined(separator: ", ") + " and " + names.last!
  }

  /// Resolves the localized names of one value (see the type's description).
  static func resolve(_ tokens: inout [Token]) {
    var found: [(Int, [Entry])] = []
    var evidence: UInt8 = all
    var narrowing: UInt8 = all
    var weekdayNamed = false
    var marIndices: [Int] = []
    for i in tokens.indices {
      guard case .word(let w) = tokens[i].kind else { continue }
      let lower = w.lowercased()
      if lower == "mar" {
        marIndices.append(i)
        continue
      }
      if let entries = table[lower] {
        found.append((i, entries))
        evidence &= entries.reduce(0) { $0 | $1.languages }
        if entries.contains(where: { !$0.isMonth }) { weekdayNamed = true }
      } else if let mask = canonicalEvidence[lower] {
        narrowing &= mask
      }
    }
    // No language common to every name (`PN-SO`: Polish, German): none is read.
    guard !found.isEmpty, evidence != 0 else { return }
    var languages = evidence
    if languages & narrowing != 0 { languages &= narrowing }
    for (i, entries) in found {
      let mask = languages
      let readings = entries.filter { $0.languages & mask != 0 }
      guard let first = readings.first else { continue }
      if readings.count == 1 {
        tokens[i].localized = Meaning(
          kind: first.isMonth ? .month : .weekday, value: first.value,
          note: Self.languages(first.languages & mask))
      } else {
        let note = readings.map { e in
          (e.isMonth
            ? OpeningHoursParser.monthCanonical[e.value - 1] : OpeningHoursParser.weekdayCanonical[e.value])
            + " in " + Self.languages(e.languages & mask)
        }.joined(separator: ", ")
        tokens[i].localized = Meaning(kind: .ambiguous, value: 0, note: note)
      }
    }
    if weekdayNamed, languages & romance != 0 {
      for i in marIndices {
        tokens[i].localized = Meaning(
          kind: .ambiguous, value: 0,
          note: "Mar (March) in English, Tu in " + Self.languages(languages & romance))
      }
    }
  }
}
