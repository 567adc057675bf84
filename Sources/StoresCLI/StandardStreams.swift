import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes one line of diagnostics to standard error, control characters from the data made
/// visible as on standard output (an id or a name quoted in a message cannot drive the terminal).
func standardError(_ line: String) {
  write(visibleControlCharacters(line) + "\n", toDescriptor: 2)
}

/// Writes `text` to standard error as it is, with no line feed: a progress line redrawn in place
/// (`\r`). Its names are made visible as `standardError` makes them.
func standardErrorInPlace(_ text: String) {
  _ = write(visibleControlCharacters(text), toDescriptor: 2)
}

/// Writes `text` to standard output. When the output cannot be written (a full disk, a closed
/// descriptor, a reader that went away), says so on standard error and exits 74 (EX_IOERR) at
/// once: a result that was not delivered must not end in "success", and a batch must not keep
/// computing answers nobody reads.
///
/// Control characters from the data (a NUL or an ESC in a store's name) are written as visible
/// escapes (`\u{0}` becomes `\u0000`), so a record can neither corrupt a line-based reader nor
/// drive the terminal; tab, line feed and carriage return (CSV's line ends) pass. JSON output
/// never holds raw control characters, so it passes unchanged.
func standardOutput(_ text: String) {
  if let failure = write(visibleControlCharacters(text), toDescriptor: 1) {
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

/// `text` with C0 controls other than tab, line feed and carriage return, DEL and C1 controls
/// written as `\u0000`-style escapes.
func visibleControlCharacters(_ text: String) -> String {
  func isHidden(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    return (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || (0x7F...0x9F).contains(value)
  }
  // Nearly all output has none: look before building anything.
  guard text.unicodeScalars.contains(where: isHidden) else { return text }
  var escaped = ""
  escaped.reserveCapacity(text.utf8.count + 16)
  for scalar in text.unicodeScalars {
    if isHidden(scalar) {
      let hex = String(scalar.value, radix: 16, uppercase: true)
      escaped += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    } else {
      escaped.unicodeScalars.append(scalar)
    }
  }
  return escaped
}
