import ArgumentParser

// sysexits(3) values, which scripts around the tool can tell apart.
extension ExitCode {
  /// EX_USAGE: the command line was wrong.
  static let usage = ExitCode(64)
  /// EX_DATAERR: the input data was wrong.
  static let badData = ExitCode(65)
  /// EX_NOINPUT: the input file, or the store asked for, does not exist.
  static let inputMissing = ExitCode(66)
  /// EX_IOERR: the output could not be written.
  static let ioError = ExitCode(74)
}
