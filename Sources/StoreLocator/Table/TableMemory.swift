#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The bytes of a store table: a snapshot file mapped read-only, or the same image built in
/// memory by the loader. Released when the last user (the table, its tree) lets go.
final class TableMemory: @unchecked Sendable {
  let base: UnsafeRawPointer
  let size: Int
  private let isMapped: Bool

  /// Takes over a read-only mapping of `size` bytes at `base`.
  init(mapped base: UnsafeRawPointer, size: Int) {
    self.base = base
    self.size = size
    isMapped = true
  }

  /// Takes over `size` bytes at `base`, allocated with `UnsafeMutableRawPointer.allocate` (page
  /// aligned, so every 8-byte-aligned section is read in place as from a mapped file).
  init(adopting base: UnsafeRawPointer, size: Int) {
    self.base = base
    self.size = size
    isMapped = false
  }

  var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: size) }

  deinit {
    if isMapped {
      munmap(UnsafeMutableRawPointer(mutating: base), size)
    } else {
      UnsafeMutableRawPointer(mutating: base).deallocate()
    }
  }
}
