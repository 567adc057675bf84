import Synchronization

/// The ids of requests that bring none: 16 hex digits, each id of a process a different one, and
/// the ids of two processes unrelated.
///
/// The n-th id is a bijective mix (SplitMix64's finalizer) of a random start plus n, so ids never
/// repeat within 2⁶⁴ requests, and no system call is made a request (the system's random
/// generator was called for each before). Unique, not secret: an id says nothing a caller may
/// not know.
enum RequestIDs {
  private static let start: UInt64 = {
    var generator = SystemRandomNumberGenerator()
    return generator.next()
  }()
  private static let issued = Atomic<UInt64>(0)

  /// The next id.
  static func next() -> String {
    var value = start &+ issued.wrappingAdd(1, ordering: .relaxed).newValue
    value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
    value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
    value ^= value >> 31
    return String(unsafeUninitializedCapacity: 16) { digits in
      for index in 0..<16 {
        let nibble = UInt8(truncatingIfNeeded: value >> UInt64(60 - 4 * index)) & 0xF
        digits[index] = nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
      }
      return 16
    }
  }
}
