import Foundation
import Testing

/// `stores within --limit N` in text says which stores of how many a page shows and how to get
/// the next page (issue 26 §5); the JSON answer's `next_cursor` is the same cursor.
@Suite struct WithinPagingCommandTests {
  static let question = [
    "within", "--near", "47.6062,-122.3321", "--radius", "5km", "--now", "2026-11-26T12:00:00Z",
  ]

  /// The ids of a text table's rows and their `#` numbers.
  static func rows(_ text: String) -> [(number: Int, id: String)] {
    text.split(separator: "\n").dropFirst().compactMap { line in
      let fields = line.split(separator: " ")
      guard fields.count > 3, let number = Int(fields[0]) else { return nil }
      // "1     165 m  nw-0145  …": the id is the first field that starts like one.
      guard let id = fields.first(where: { $0.hasPrefix("nw-") }) else { return nil }
      return (number, String(id))
    }
  }

  @Test func aTextPageSaysHowToGetTheNext() throws {
    let all = try StoresProcess.run(Self.question + ["--format", "json"])
    let everything = try #require((try all.json() as? [String: Any])?["stores"] as? [[String: Any]])
    let ids = everything.compactMap { $0["id"] as? String }
    try #require(ids.count > 4, "the question needs more than two pages")

    let first = try StoresProcess.run(Self.question + ["--limit", "2"])
    #expect(first.status == 0, "\(first.standardError)")
    let json = try StoresProcess.run(Self.question + ["--limit", "2", "--format", "json"])
    let cursor = try #require((try json.json() as? [String: Any])?["next_cursor"] as? String)
    let lines = first.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.suffix(2) == ["Stores 1–2 of \(ids.count); next page: --cursor \(cursor)", ""])
    #expect(Self.rows(first.standardOutput).map(\.id) == Array(ids[0..<2]))

    // The cursor printed continues where the page ended, and the rows go on being numbered.
    let second = try StoresProcess.run(Self.question + ["--limit", "2", "--cursor", cursor])
    #expect(second.status == 0, "\(second.standardError)")
    #expect(Self.rows(second.standardOutput).map(\.number) == [3, 4])
    #expect(Self.rows(second.standardOutput).map(\.id) == Array(ids[2..<4]))
    #expect(second.standardOutput.contains("Stores 3–4 of \(ids.count); next page: --cursor "))

    // The last page says so.
    let lastCursor = cursor.split(separator: ".")[0] + ".\(ids.count - 1)"
    let last = try StoresProcess.run(Self.question + ["--limit", "2", "--cursor", String(lastCursor)])
    #expect(Self.rows(last.standardOutput).map(\.id) == [ids[ids.count - 1]])
    #expect(
      last.standardOutput.hasSuffix("\nStores \(ids.count)–\(ids.count) of \(ids.count); the last page\n"))
  }

  @Test func aWholeAnswerAndOtherFormatsHaveNoPageLine() throws {
    let whole = try StoresProcess.run(Self.question)
    #expect(whole.status == 0)
    #expect(!whole.standardOutput.contains("Stores "))
    #expect(!whole.standardOutput.contains("next page"))
    let enough = try StoresProcess.run(Self.question + ["--limit", "1000"])
    #expect(enough.standardOutput == whole.standardOutput)
    for format in ["csv", "ndjson", "geojson"] {
      let paged = try StoresProcess.run(Self.question + ["--limit", "2", "--format", format])
      #expect(!paged.standardOutput.contains("next page"), "\(format)")
      #expect(!paged.standardError.contains("next page"), "\(format)")
    }
  }
}
