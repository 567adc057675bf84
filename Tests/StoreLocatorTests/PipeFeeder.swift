import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A pipe whose write end is fed `payload` from another thread (more than a pipe buffer holds
/// would block a writer on the reading thread), then closed. Returns the read end, which the
/// caller reads and closes.
func pipeFed(with payload: [UInt8]) -> Int32 {
  var descriptors: [Int32] = [0, 0]
  precondition(pipe(&descriptors) == 0, "pipe(2) failed")
  let writeEnd = descriptors[1]
  let writer = Thread {
    payload.withUnsafeBytes { raw in
      var written = 0
      while written < raw.count {
        let count = write(writeEnd, raw.baseAddress! + written, raw.count - written)
        if count <= 0 { break }
        written += count
      }
    }
    close(writeEnd)
  }
  writer.start()
  return descriptors[0]
}
