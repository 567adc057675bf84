import CLibFuzzer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// One fuzzing input: the bytes libFuzzer hands over, valid only during the call.
public typealias FuzzInput = UnsafeRawBufferPointer

/// Runs libFuzzer with this process's arguments (`-max_total_time=60`, corpus directories, …) on
/// `body`, and exits with its status.
///
/// Why not the usual `@_cdecl("LLVMFuzzerTestOneInput")` with libFuzzer's own `main`: SwiftPM links
/// an executable with `--defsym main=<module>_main`, so that symbol must exist, and it only does when
/// the target has an entry point; `@main` gives one, and from it we call libFuzzer's driver.
/// - Parameter body: checks one input; traps (`fuzzCheck`) when an invariant fails. A closure
///   without captures, as C calls it.
public func runFuzzer(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> Never {
  var argc = CommandLine.argc
  var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
  exit(LLVMFuzzerRunDriver(&argc, &argv, body))
}

/// The bytes libFuzzer passed, as a buffer (an empty input may come with a null pointer).
public func fuzzInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> FuzzInput {
  guard let data, count > 0 else { return FuzzInput(start: nil, count: 0) }
  return FuzzInput(start: data, count: count)
}

/// Stops the process when an invariant fails, so libFuzzer saves the input as a crash. The message
/// goes to standard error first: a trap alone would not say which invariant.
public func fuzzCheck(
  _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
  line: UInt = #line
) {
  if condition() { return }
  printError("fuzz invariant failed at \(file):\(line): \(message())")
  abort()
}

/// Writes a line to standard error (descriptor 2: the C `stderr` global is not concurrency-safe).
public func printError(_ message: String) {
  let line = message + "\n"
  var written = 0
  line.utf8CString.withUnsafeBytes { bytes in
    let count = bytes.count - 1  // without the terminating NUL
    while written < count {
      let result = write(2, bytes.baseAddress! + written, count - written)
      if result <= 0 { return }
      written += result
    }
  }
}

/// The input as text when it is valid UTF-8 (the readers take `String`s, and a `String` made from
/// invalid UTF-8 would be repaired, so fuzzing those bytes would test the repair, not the reader).
public func utf8Text(_ input: FuzzInput) -> String? {
  String(validating: input, as: UTF8.self)
}

/// The first difference between two arrays, for messages; nil when they are equal.
public func firstDifference<Element: Equatable>(_ found: [Element], _ expected: [Element]) -> String? {
  for (index, (one, other)) in zip(found, expected).enumerated() where one != other {
    return "at \(index): \(one), expected \(other)"
  }
  return found.count == expected.count ? nil : "\(found.count) elements, expected \(expected.count)"
}

/// A file of this process's own under the temporary directory, rewritten for each input: the
/// snapshot reader maps files, it does not read bytes from memory.
public struct ScratchFile: Sendable {
  public let path: String

  public init(_ name: String) {
    let directory = ProcessInfoLite.temporaryDirectory
    path = "\(directory)/stores-fuzz-\(getpid())-\(name)"
  }

  /// Replaces the file's contents with `bytes`.
  public func write(_ bytes: UnsafeRawBufferPointer) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    fuzzCheck(descriptor >= 0, "cannot create \(path)")
    defer { close(descriptor) }
    var written = 0
    while written < bytes.count {
      let result = Glibc.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
      if result < 0, errno == EINTR { continue }
      fuzzCheck(result > 0, "cannot write \(path)")
      written += result
    }
  }

  public func remove() { unlink(path) }
}

/// The environment lookups the targets need, without Foundation.
public enum ProcessInfoLite {
  /// `$TMPDIR`, else /tmp.
  public static var temporaryDirectory: String {
    if let value = getenv("TMPDIR"), let text = String(validatingCString: value), !text.isEmpty {
      return text
    }
    return "/tmp"
  }
}
