import Foundation
import Testing

/// The size docs/service.md gives for the OpenAPI document is its size (issue 26 found "about
/// 120 KB" said of a 143 KB file).
@Suite struct DocumentSizeTests {
  @Test func serviceDocGivesTheDocumentsSize() throws {
    let root = TestService.repositoryRoot
    let document = try Data(contentsOf: root.appendingPathComponent("Sources/StoresAPI/openapi.json"))
    let service = try String(contentsOf: root.appendingPathComponent("docs/service.md"), encoding: .utf8)
    let section = try #require(service.range(of: "### `GET /openapi.json`"))
    let text = service[section.upperBound...].prefix(600)
    let grouped = String(document.count).reversed().enumerated()
      .map { $0.offset > 0 && $0.offset % 3 == 0 ? ",\($0.element)" : "\($0.element)" }.joined()
    let bytes = String(grouped.reversed())
    #expect(text.contains("\(bytes) bytes"), "docs/service.md should say \(bytes) bytes")
    #expect(text.contains("\(Int((Double(document.count) / 1000).rounded())) KB"))
  }
}
