import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes one line of diagnostics to standard error.
func standardError(_ line: String) {
  write(line + "\n", toDescriptor: 2)
}

/// Writes `text` to standard output. When the output cannot be written (a full disk, a closed
/// descriptor, a reader that went away), says so on standard error and exits 74 (EX_IOERR) at
/// once: a result that was not delivered must not end in "success", and a batch must not keep
/// computing answers nobody reads.
func standardOutput(_ text: String) {
  if let failure = write(text, toDescriptor: 1) {
    write("stores: cannot write the output: \(String(cString: strerror(failure)))\n", toDescriptor: 2)
    exit(ExitCode.ioError.rawValue)
  }
}

/// Writes all of `text`, retrying short writes; the process's streams are plain descriptors here,
/// so output and diagnostics never interleave inside one call.
///
/// - Returns: The `errno` of a failed write, or `nil` when everything was written.
@discardableResult
private func write(_ text: String, toDescriptor descriptor: Int32) -> Int32? {
  var text = text
  return text.withUTF8 { bytes -> Int32? in
    var offset = 0
    while offset < bytes.count {
      let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
      if written < 0, errno == EINTR { continue }
      // write(2) returns 0 only for a zero-byte request; treat it as a failure rather than spin.
      if written <= 0 { return written < 0 ? errno : EIO }
      offset += written
    }
    return nil
  }
}
