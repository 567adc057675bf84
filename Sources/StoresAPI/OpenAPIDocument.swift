/// The service's contract, served at `GET /openapi.json`: OpenAPI 3.1, whose schemas are JSON
/// Schema 2020-12, kept in `openapi.json` beside this file and built into the binary.
///
/// The only copy in the repository. `ContractTests` holds its paths equal to `APIRoute.all`;
/// `.ci/run` runs schemathesis against a live server with it (scripts/service/check_contract.py)
/// and generates the Swift and Python clients from it, failing on any generator warning
/// (scripts/client/), so a route, a parameter or a body shape that changes without this document,
/// or a document a generator cannot take whole, fails CI.
///
/// Patterns are what the contract promises: where the service also reads more (upper-case units,
/// the long unit names, years 1900 and 9997), the description says so, and the pattern keeps to
/// values the service accepts for certain, so a client that validates against it is never refused.
enum OpenAPIDocument {
  /// The document as served, byte for byte the file.
  static let json = String(decoding: PackageResources.openapi_json, as: UTF8.self)
}
