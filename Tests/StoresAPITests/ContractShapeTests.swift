import Foundation
import Testing

@testable import StoresAPI

/// The document keeps to what client generators take whole (DESIGN §12): a construct on this list
/// is valid OpenAPI 3.1 but makes swift-openapi-generator or openapi-python-client drop a member,
/// a body shape or an error with a warning. `.ci/run` runs both generators and fails on any
/// warning (scripts/client/); these checks say which construct, and where, in seconds.
@Suite struct ContractShapeTests {
  /// Every schema object of the document with its JSON pointer.
  static func schemas() throws -> [(pointer: String, schema: [String: Any])] {
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    var found: [(String, [String: Any])] = []
    func visit(_ value: Any, _ pointer: String) {
      if let object = value as? [String: Any] {
        if object["type"] != nil || object["oneOf"] != nil || object["enum"] != nil || object["const"] != nil
          || object["allOf"] != nil || object["anyOf"] != nil || object["if"] != nil
        {
          found.append((pointer, object))
        }
        for (key, member) in object { visit(member, pointer + "/" + key) }
      } else if let array = value as? [Any] {
        for (index, member) in array.enumerated() { visit(member, pointer + "/\(index)") }
      }
    }
    visit(document, "#")
    return found
  }

  /// `oneOf: [X, {type: null}]` is dropped by swift-openapi-generator: null is `type: [T, "null"]`
  /// or a `$ref` to a schema that is.
  @Test func nullIsATypeNeverABranch() throws {
    for (pointer, schema) in try Self.schemas() {
      for key in ["oneOf", "anyOf"] {
        let branches = schema[key] as? [[String: Any]] ?? []
        #expect(!branches.contains { $0["type"] as? String == "null" }, "\(pointer)/\(key)")
      }
      #expect(schema["type"] as? String != "null", "\(pointer): a schema that is only null")
    }
  }

  /// An `enum` or `const` without `type` is generated untyped.
  @Test func everyEnumAndConstHasAType() throws {
    for (pointer, schema) in try Self.schemas() where schema["enum"] != nil || schema["const"] != nil {
      #expect(schema["type"] != nil, "\(pointer)")
    }
  }

  /// `if`/`then`/`else` is not read by swift-openapi-generator; a rule goes in the description.
  /// `allOf` is kept only where a schema extends another (`OrderWithPickup`), never for errors.
  @Test func noConditionalSchemas() throws {
    for (pointer, schema) in try Self.schemas() {
      #expect(schema["if"] == nil && schema["then"] == nil && schema["else"] == nil, "\(pointer)")
      #expect(schema["allOf"] == nil || pointer == "#/components/schemas/OrderWithPickup", "\(pointer)")
    }
  }

  /// A member that is only `required` (in a `oneOf` branch or an object without `properties`) is
  /// skipped by swift-openapi-generator: every required member has a schema beside it.
  @Test func everyRequiredMemberHasASchema() throws {
    for (pointer, schema) in try Self.schemas() {
      guard let required = schema["required"] as? [String] else { continue }
      let properties = schema["properties"] as? [String: Any] ?? [:]
      for name in required { #expect(properties[name] != nil, "\(pointer): \(name)") }
    }
  }

  /// Errors are `$ref` Problem (openapi-python-client drops `allOf [Problem, {status: const}]`),
  /// and no response header is required: a proxy or CDN may drop one, and a generated client
  /// throws on a required header it does not find.
  @Test func errorsAreProblemsAndHeadersAreOptional() throws {
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    let components = try #require(document["components"] as? [String: Any])
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    var responses: [(String, [String: Any])] = (components["responses"] as? [String: [String: Any]] ?? [:])
      .map { ("#/components/responses/\($0.key)", $0.value) }
    for (path, item) in paths {
      for case (let method, let operation as [String: Any]) in item {
        for case (let status, let response as [String: Any]) in operation["responses"] as? [String: Any]
          ?? [:]
        {
          responses.append(("\(method.uppercased()) \(path) \(status)", response))
        }
      }
    }
    for (name, response) in responses {
      let content = response["content"] as? [String: [String: Any]] ?? [:]
      if let problem = content["application/problem+json"] {
        #expect(problem["schema"] as? [String: String] == ["$ref": "#/components/schemas/Problem"], "\(name)")
      }
      for case (let header, let definition as [String: Any]) in response["headers"] as? [String: Any] ?? [:] {
        #expect(definition["required"] as? Bool != true, "\(name): \(header)")
      }
    }
    for case (let header, let definition as [String: Any]) in components["headers"] as? [String: Any] ?? [:] {
      #expect(definition["required"] as? Bool != true, "\(header)")
    }
  }

  /// The pickup route's query parameters have no `default`: a generated client sends a default,
  /// and the service refuses query parameters beside a plain pickup request.
  @Test func pickupParametersHaveNoDefault() throws {
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let pickup = try #require(paths["/v1/pickup"]?["post"] as? [String: Any])
    let parameters = try #require(pickup["parameters"] as? [[String: Any]])
    #expect(parameters.count > 5)
    for parameter in parameters {
      let schema = parameter["schema"] as? [String: Any] ?? [:]
      #expect(schema["default"] == nil, "\(parameter["name"] ?? parameter)")
    }
  }
}
