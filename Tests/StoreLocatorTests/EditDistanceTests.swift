import StoreLocator
import Testing

/// `EditDistance.between`: the one bounded Levenshtein distance the "did you mean" hints share.
@Suite struct EditDistanceTests {
  @Test func countsInsertionsDeletionsAndSubstitutions() {
    #expect(EditDistance.between("kitten", "sitting") == 3)
    #expect(EditDistance.between("nearest", "nearest") == 0)
    #expect(EditDistance.between("nearst", "nearest") == 1)
    #expect(EditDistance.between("flaw", "lawn") == 2)
    #expect(EditDistance.between("abc", "cba") == 2)
  }

  @Test func theBoundIsExclusive() {
    #expect(EditDistance.between("kitten", "sitting", below: 4) == 3)
    #expect(EditDistance.between("kitten", "sitting", below: 3) == nil)
    #expect(EditDistance.between("same", "same", below: 1) == 0)
    #expect(EditDistance.between("same", "same", below: 0) == nil)
    // The length difference alone reaches the bound; so does a row of the table.
    #expect(EditDistance.between("a", "abcdef", below: 5) == nil)
    #expect(EditDistance.between("abcdef", "uvwxyz", below: 3) == nil)
    #expect(EditDistance.between("abcdef", "uvwxyz", below: 7) == 6)
  }

  @Test func emptyStringsCostTheirLength() {
    #expect(EditDistance.between("", "") == 0)
    #expect(EditDistance.between("", "abc") == 3)
    #expect(EditDistance.between("abc", "") == 3)
    #expect(EditDistance.between("", "abc", below: 3) == nil)
    #expect(EditDistance.between("", "abc", below: 4) == 3)
    #expect(EditDistance.between("", "", below: 1) == 0)
  }

  @Test func countsWhatItIsGiven() {
    // Characters: "é" as e + U+0301 is one character and equals the precomposed one.
    #expect(EditDistance.between("café", "cafe\u{301}") == 0)
    #expect(EditDistance.between("東京駅", "京都駅") == 2)
    #expect(EditDistance.between("🏪 store", "🏬 store") == 1)
    // Scalars: the combining accent is one more element.
    #expect(EditDistance.between(Array("cafe".unicodeScalars), Array("cafe\u{301}".unicodeScalars)) == 1)
    #expect(EditDistance.between(Array("café".unicodeScalars), Array("cafe\u{301}".unicodeScalars)) == 2)
  }
}
