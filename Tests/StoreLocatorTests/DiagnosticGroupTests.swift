import Testing

@testable import StoreLocator

/// Diagnostics grouped by code and severity, for the summaries of `validate` and `info`.
@Suite struct DiagnosticGroupTests {
  @Test func groupsAreErrorsFirstThenMostFrequent() {
    func diagnostic(_ code: String, _ severity: Diagnostic.Severity) -> Diagnostic {
      Diagnostic(Diagnostic.Code(code), severity, at: nil, "m")
    }
    let diagnostics =
      Array(repeating: diagnostic("timezone-inferred", .note), count: 5) + [
        diagnostic("duplicate-ref", .warning), diagnostic("missing-geometry", .warning),
        diagnostic("missing-geometry", .warning), diagnostic("truncated", .error),
        diagnostic("invalid-type", .error), diagnostic("invalid-type", .warning),
      ]
    let groups = diagnostics.groupedByCode.map { "\($0.severity.rawValue) \($0.code) \($0.count)" }
    #expect(
      groups == [
        "error invalid-type 1", "error truncated 1", "warning missing-geometry 2", "warning duplicate-ref 1",
        "warning invalid-type 1", "note timezone-inferred 5",
      ])
  }
}
