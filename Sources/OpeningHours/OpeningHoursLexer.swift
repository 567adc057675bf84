// Splits an `opening_hours` value into tokens with character offsets. Tolerant: dash variants
// become `-` (with a warning); letters and digits are split apart (`Fr08:00`, `9am`).

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

  var lowercasedWord: String? {
    if case .word(let text) = kind { return text.lowercased() }
    return nil
  }
}

struct OpeningHoursLexer {
  static let dashVariants: Set<Character> = [
    "\u{2010}", "\u{2011}", "\u{2012}", "\u{2013}", "\u{2014}", "\u{2015}", "\u{2212}", "~", "\u{FF5E}",
    "\u{301C}",
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
      if let digit = c.asciiDigit {
        var value = digit
        var digits = 1
        i += 1
        while i < n, let d = characters[i].asciiDigit {
          if digits < 9 { value = value * 10 + d }
          digits += 1
          i += 1
        }
        kind = .number(value, digits: digits)
      } else if c.isLetter {
        i += 1
        while i < n, characters[i].isLetter, characters[i].asciiDigit == nil { i += 1 }
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
          if dashVariants.contains(c) {
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
    return tokens
  }
}

extension Character {
  var asciiDigit: Int? {
    guard let ascii = asciiValue, ascii >= 48, ascii <= 57 else { return nil }
    return Int(ascii - 48)
  }
}
