import Testing

@testable import StoreLocator

/// `trimmingWhitespaceAndNewlines` decides on the bytes whether a text is already trimmed; the
/// answer must always be what splitting on whitespace characters gives.
@Suite struct WhitespaceTrimmingTests {
  /// Pieces that test every branch of the byte check: ASCII and non-ASCII letters, a space, ASCII
  /// controls, each non-ASCII lead byte that can start whitespace (C2, E1, E2, E3) with and without
  /// being whitespace, and a combining mark that joins a preceding space.
  static let pieces = [
    "a", "é", "日", " ", "\t", "\n", "\u{00A0}", "\u{0085}", "\u{00B7}", "\u{1680}", "\u{1E00}",
    "\u{2009}", "\u{2028}", "\u{2122}", "\u{3000}", "\u{3042}", "\u{0301}", "\u{7F}",
  ]

  @Test func agreesWithSplittingOnWhitespaceForEveryShortCombination() {
    func check(_ text: String) {
      let expected = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
      #expect(text.trimmingWhitespaceAndNewlines == expected, "\(Array(text.unicodeScalars))")
    }
    for a in Self.pieces {
      for b in Self.pieces {
        for c in Self.pieces {
          check(a + b + c)
          for d in ["a", " ", "é", "\u{0301}"] { check(a + b + c + d) }
        }
      }
    }
  }

  @Test func everydayTextsAreAlreadyTrimmed() {
    for text in ["7064 Station Road", "Rua São João 12", "東京都千代田区", "Straße 5", "", "x"] {
      #expect(text.isTrimmed, "\(text)")
      #expect(text.trimmingWhitespaceAndNewlines == text)
    }
    for text in [" lead", "trail ", "two  spaces", "tab\there", "nbsp\u{00A0}here", "ideo\u{3000}space"] {
      #expect(!text.isTrimmed, "\(text)")
    }
  }
}
