import Testing

@testable import StoresAPI

/// The ETag's hash reads eight bytes a step: every byte of every word and of the tail must count,
/// and so must the length (a body of zero bytes is not the empty body).
@Suite struct EntityTagTests {
  @Test func changingAnyOneByteChangesTheTag() {
    var generator = SystemRandomNumberGenerator()
    for count in 0...40 {
      let body = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
      let tag = DocumentResponse.entityTag(of: body)
      #expect(tag.count == 18 && tag.hasPrefix("\"") && tag.hasSuffix("\""))
      #expect(tag.dropFirst().dropLast().allSatisfy { $0.isHexDigit && !$0.isUppercase })
      for position in 0..<count {
        for flip: UInt8 in [0x01, 0x80] {
          var changed = body
          changed[position] ^= flip
          #expect(
            DocumentResponse.entityTag(of: changed) != tag, "\(count) bytes, byte \(position) ^ \(flip)")
        }
      }
    }
  }

  @Test func bodiesOfZerosOfDifferentLengthsHaveDifferentTags() {
    let tags = (0...64).map { DocumentResponse.entityTag(of: [UInt8](repeating: 0, count: $0)) }
    #expect(Set(tags).count == tags.count)
  }

  @Test func aTextAndItsBytesHaveOneTag() {
    let text = "{\"name\":\"Zürich Hauptbahnhof\",\"count\":10}\n"
    #expect(DocumentResponse.entityTag(of: text) == DocumentResponse.entityTag(of: Array(text.utf8)))
    #expect(DocumentResponse.entityTag(of: text) == DocumentResponse.entityTag(of: text))
  }
}
