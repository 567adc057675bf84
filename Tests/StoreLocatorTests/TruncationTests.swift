import Testing

@testable import StoreLocator

/// A file cut off while being written or copied loads its complete records, with one error that
/// says where the input ends and which record was the last loaded (issue 9, item 8).
@Suite struct TruncationTests {
  static let features = [
    #"{"type":"Feature","id":"a","properties":{"name":"A"},"geometry":{"type":"Point","coordinates":[1,2]}}"#,
    #"{"type":"Feature","id":"b","properties":{"name":"B"},"geometry":{"type":"Point","coordinates":[3,4]}}"#,
    #"{"type":"Feature","id":"c","properties":{"name":"C"},"geometry":{"type":"Point","coordinates":[5,6]}}"#,
  ]

  static func truncation(_ text: String) throws -> (Catalog, Diagnostic) {
    let catalog = try load(text)
    let diagnostic = try #require(catalog.truncation, "no truncation in \(catalog.codes)")
    return (catalog, diagnostic)
  }

  @Test func cutInsideAFeatureNamesTheOffsetAndTheLastRecord() throws {
    let whole =
      "{\"type\":\"FeatureCollection\",\"features\":[\n" + Self.features.joined(separator: ",\n") + "\n]}\n"
    let text = String(whole.prefix(whole.count - 40))
    let (catalog, truncated) = try Self.truncation(text)
    #expect(catalog.stores.map(\.id) == ["a", "b"])
    #expect(truncated.severity == .error)
    #expect(truncated.position?.featureIndex == 2)
    #expect(truncated.message.contains("byte offset \(text.utf8.count)"), "\(truncated.message)")
    #expect(truncated.message.contains("the last record loaded is id \"b\" at feature 1 (line 3:1)"))
    #expect(truncated.message.contains("cut off"))
  }

  @Test func cutBetweenFeaturesNamesTheLastRecord() throws {
    let text =
      "{\"type\":\"FeatureCollection\",\"features\":[\n" + Self.features.joined(separator: ",\n") + ",\n"
    let (catalog, truncated) = try Self.truncation(text)
    #expect(catalog.stores.count == 3)
    #expect(truncated.message.contains("byte offset \(text.utf8.count)"))
    #expect(truncated.message.contains("id \"c\""))
  }

  /// Newline-delimited GeoJSON whose last line was cut mid-record.
  @Test func newlineDelimitedLastLineCut() throws {
    let lines = Self.features.joined(separator: "\n")
    let text = String(lines.prefix(lines.count - 25))
    let (catalog, truncated) = try Self.truncation(text)
    #expect(catalog.stores.map(\.id) == ["a", "b"])
    #expect(truncated.position?.line == 3)
    #expect(truncated.message.contains("inside this record"))
    #expect(truncated.message.contains("the last record loaded is id \"b\""))
  }

  @Test func strictModeRefusesATruncatedFile() throws {
    let text = "{\"type\":\"FeatureCollection\",\"features\":[\n" + Self.features[0] + ",\n"
    let error = try #require(loadError(text, strict: true))
    #expect(error.kind == .strictFailure)
    #expect(error.message.contains("truncated"))
  }

  @Test func aCompleteFileHasNoTruncation() throws {
    let catalog = try load(
      "{\"type\":\"FeatureCollection\",\"features\":[" + Self.features.joined(separator: ",") + "]}")
    #expect(catalog.truncation == nil)
  }
}
