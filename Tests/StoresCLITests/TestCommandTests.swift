import Foundation
import Testing

/// The README's test command is the one `.ci/run` runs, and it skips the XCTest runner, which has
/// no test here and printed "Executed 0 tests" before the real run (issue 26 §5).
@Suite struct TestCommandTests {
  static func text(_ path: String) throws -> String {
    try String(contentsOf: StoresProcess.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func theReadmeTestCommandIsWhatCIRuns() throws {
    let readme = try Self.text("README.md").split(separator: "\n")
    let command = try #require(readme.first { $0.hasPrefix("swift test") }.map(String.init))
    #expect(command == "swift test --disable-xctest")
    let ci = try Self.text(".ci/run").split(separator: "\n").filter { $0.hasPrefix("swift test") }
    #expect(ci.first?.hasPrefix(command + " ") == true, "\(ci)")
    // Later runs (the PostgreSQL storage tests, with a database the README's command has not
    // started) run a part of what that command built, with its flags; they never rebuild.
    for line in ci.dropFirst() {
      #expect(line.hasPrefix(command + " --skip-build --filter "), "\(line)")
    }
  }

  @Test func noTestNeedsTheXCTestRunner() throws {
    let tests = StoresProcess.repositoryRoot.appendingPathComponent("Tests")
    let files = try #require(FileManager.default.enumerator(atPath: tests.path)).compactMap { $0 as? String }
      .filter { $0.hasSuffix(".swift") }
    #expect(files.count > 50)
    for file in files {
      let source = try String(contentsOf: tests.appendingPathComponent(file), encoding: .utf8)
      let imports = source.split(separator: "\n").filter {
        $0.hasPrefix("import XCTest") || $0.hasPrefix("@testable import XCTest")
      }
      #expect(imports.isEmpty, "\(file)")
    }
  }
}
