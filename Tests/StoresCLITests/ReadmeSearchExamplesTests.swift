import Foundation
import Testing

/// The README's "Search by place" examples show what they promise: each command runs, and each
/// search finds stores on the bundled data (`within --near zurich --radius 3km` found none).
@Suite struct ReadmeSearchExamplesTests {
  /// The `swift run stores …` lines of the section's first shell block, as argument lists
  /// (double quotes group words; a `#` after the command starts a comment).
  static func examples() throws -> [[String]] {
    let readme = try String(
      contentsOf: StoresProcess.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "### Search by place"))
    let start = try #require(readme.range(of: "```sh\n", range: section.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    return readme[start.upperBound..<end.lowerBound].split(separator: "\n").compactMap { line in
      guard line.hasPrefix("swift run stores ") else { return nil }
      return words(String(line.dropFirst("swift run stores ".count)))
    }
  }

  static func words(_ line: String) -> [String] {
    var words: [String] = []
    var word = ""
    var quoted = false
    for character in line {
      if character == "\"" {
        quoted.toggle()
      } else if character == "#", !quoted, word.isEmpty {
        break
      } else if character == " ", !quoted {
        if !word.isEmpty { words.append(word) }
        word = ""
      } else {
        word.append(character)
      }
    }
    if !word.isEmpty { words.append(word) }
    return words
  }

  @Test func everySearchExampleFindsStores() throws {
    let examples = try Self.examples()
    #expect(examples.count >= 5)
    for arguments in examples {
      let outcome = try StoresProcess.run(arguments, currentDirectory: StoresProcess.repositoryRoot.path)
      #expect(outcome.status == 0, "stores \(arguments.joined(separator: " ")): \(outcome.standardError)")
      #expect(!outcome.standardOutput.isEmpty, "stores \(arguments.joined(separator: " "))")
      if ["nearest", "within"].contains(arguments.first) {
        #expect(
          outcome.standardOutput.contains("nw-"),
          "stores \(arguments.joined(separator: " ")) found no store:\n\(outcome.standardOutput)")
      }
    }
  }
}
