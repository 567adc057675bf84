/// The key a place name is searched by: what people type and what the data spells compare equal
/// when they differ only in case, accents and punctuation ("zurich", "Zürich" and "ZÜRICH" all
/// fold to `zurich`; "Saint-Étienne" and "saint etienne" to `saint etienne`).
///
/// The rules, scalar by scalar (the library has no Foundation, so no Unicode decomposition table:
/// Latin letters are reduced through their Unicode names instead):
/// - ASCII letters are lower-cased, digits kept; apostrophes (`'`, `’`, `ʼ`, `ʻ`, `‘`) are dropped
///   ("St John's" → `st johns`); every other punctuation, symbol or space is one space, and runs of
///   spaces collapse and are trimmed.
/// - Combining marks are dropped, so a decomposed "u" + U+0308 folds as "ü" does.
/// - A Latin letter with a diacritic folds to its base letter (`LATIN SMALL LETTER U WITH
///   DIAERESIS` → `u`); ligatures and letters that do not decompose fold as people spell them
///   without the key: ß → ss, æ → ae, œ → oe, ø → o, ł → l, đ/ð → d, þ → th, ı → i, ħ → h.
/// - Letters of other scripts are lower-cased (Cyrillic, Greek, ...) and otherwise kept: Greek
///   accents and Cyrillic ё/е stay distinct.
public enum PlaceNameFolding {
  /// The folded key of `text` as UTF-8 bytes.
  public static func key(_ text: some StringProtocol) -> [UInt8] {
    var cache: [Unicode.Scalar: [UInt8]] = [:]
    return key(text, cache: &cache)
  }

  /// The folded key of `text`, as a string (for messages and tests).
  public static func folded(_ text: some StringProtocol) -> String {
    String(decoding: key(text), as: UTF8.self)
  }

  /// `key(_:)` with the folds of non-ASCII scalars remembered in `cache`, for the index's build,
  /// which folds a few hundred thousand names made of a few thousand distinct scalars.
  static func key(_ text: some StringProtocol, cache: inout [Unicode.Scalar: [UInt8]]) -> [UInt8] {
    var output: [UInt8] = []
    output.reserveCapacity(text.utf8.count)
    var pendingSpace = false
    func append(_ byte: UInt8) {
      if byte == space {
        pendingSpace = !output.isEmpty
        return
      }
      if pendingSpace {
        output.append(space)
        pendingSpace = false
      }
      output.append(byte)
    }
    for scalar in text.unicodeScalars {
      let value = scalar.value
      if value < 0x80 {
        let byte = UInt8(value)
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): append(byte + 32)
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): append(byte)
        case UInt8(ascii: "'"), UInt8(ascii: "`"): continue
        default: append(space)
        }
        continue
      }
      let folded: [UInt8]
      if let known = cache[scalar] {
        folded = known
      } else {
        folded = fold(scalar)
        cache[scalar] = folded
      }
      for byte in folded { append(byte) }
    }
    return output
  }

  private static let space = UInt8(ascii: " ")

  /// Letters that do not decompose into a base letter and a mark.
  private static let specialFolds: [Unicode.Scalar: String] = [
    "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
    "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th",
    "ı": "i", "ħ": "h", "Ħ": "h",
  ]

  /// Apostrophes and the letters that stand for one, dropped so "O’Fallon" is `ofallon`.
  private static let apostrophes: Set<Unicode.Scalar> = ["\u{2019}", "\u{2018}", "\u{02BC}", "\u{02BB}"]

  /// The fold of one non-ASCII scalar: empty for a mark or an apostrophe, a space for
  /// punctuation, symbols and separators.
  private static func fold(_ scalar: Unicode.Scalar) -> [UInt8] {
    if apostrophes.contains(scalar) { return [] }
    if let special = specialFolds[scalar] { return Array(special.utf8) }
    let properties = scalar.properties
    switch properties.generalCategory {
    case .nonspacingMark, .enclosingMark: return []
    case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
      .initialPunctuation, .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol,
      .modifierSymbol, .otherSymbol, .spaceSeparator, .lineSeparator, .paragraphSeparator, .control,
      .format:
      return [space]
    default: break
    }
    // "LATIN SMALL LETTER U WITH DIAERESIS" → "u"; "LATIN CAPITAL LETTER O WITH STROKE" → "o".
    if let name = properties.name, name.hasPrefix("LATIN ") {
      let words = name.split(separator: " ")
      if let letter = words.firstIndex(of: "LETTER"), letter + 1 < words.count {
        let base = words[letter + 1]
        let isLastOrWith = letter + 2 == words.count || words[letter + 2] == "WITH"
        if isLastOrWith, (1...2).contains(base.count), base.utf8.allSatisfy({ (65...90).contains($0) }) {
          return base.utf8.map { $0 + 32 }
        }
      }
    }
    return Array(properties.lowercaseMapping.utf8)
  }
}
