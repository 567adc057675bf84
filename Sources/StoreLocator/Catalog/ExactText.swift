#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A string compared and hashed by its UTF-8 bytes.
///
/// Swift's `String` equality is Unicode canonical equivalence: "café" written with a precomposed
/// "é" (NFC) equals "café" written "e" + combining acute (NFD). JSON, All The Places and a
/// snapshot's sorted id order compare bytes, so ids and property keys do too, everywhere: two
/// stores whose ids differ only in normalization are two stores, as in the file.
struct ExactText: Hashable, Sendable {
  let text: String

  init(_ text: String) { self.text = text }

  static func == (lhs: ExactText, rhs: ExactText) -> Bool { lhs.text.hasSameBytes(as: rhs.text) }

  func hash(into hasher: inout Hasher) {
    var text = text
    text.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
  }
}

extension String {
  /// Whether the two strings have the same UTF-8 bytes (not merely canonically equivalent ones).
  ///
  /// - Complexity: O(n); O(1) when the lengths differ.
  @inline(__always)
  func hasSameBytes(as other: String) -> Bool {
    let count = utf8.count
    guard count == other.utf8.count else { return false }
    var left = self
    var right = other
    return left.withUTF8 { left in
      right.withUTF8 { right in count == 0 || memcmp(left.baseAddress!, right.baseAddress!, count) == 0 }
    }
  }

  /// Whether the two strings are canonically equivalent but written with different bytes, such
  /// as NFC and NFD forms of the same word: worth a word in a diagnostic, since they are told apart.
  func isOnlyCanonicallyEqual(to other: String) -> Bool { self == other && !hasSameBytes(as: other) }
}
