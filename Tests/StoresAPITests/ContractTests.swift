import Foundation
import Testing

@testable import StoresAPI

/// The router and the OpenAPI document list the same routes.
@Suite struct ContractTests {
  /// `METHOD /path` for every operation of the document.
  static func documentedRoutes() throws -> Set<String> {
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(OpenAPIDocument.json.utf8)) as? [String: Any])
    let paths = try #require(document["paths"] as? [String: [String: Any]])
    let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
    return Set(
      paths.flatMap { path, item in
        item.keys.filter(methods.contains).map { "\($0.uppercased()) \(path)" }
      })
  }

  @Test func everyRouteIsDocumentedAndEveryDocumentedRouteExists() throws {
    let routed = Set(APIRoute.all.map(\.description))
    let documented = try Self.documentedRoutes()
    #expect(routed.subtracting(documented).isEmpty, "routes the document lacks")
    #expect(documented.subtracting(routed).isEmpty, "documented routes the router lacks")
  }

  @Test func theServedDocumentIsTheContract() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get("/openapi.json")
      #expect(response.text == OpenAPIDocument.json)
      #expect(response.headers[.eTag] != nil)
    }
  }

  @Test func theRouterAnswersEveryListedRoute() async throws {
    // Not 404 or 405 for any route of the list (the id is unknown, so a store route is a 404
    // problem of another kind).
    let configuration = APIConfiguration(adminToken: "t")
    let page = PageResources(
      assetsDirectory: try PageRouteTests.assetsDirectory(), basemapPath: nil, tiles: nil)
    try await TestService.application(TestService.service(configuration: configuration, page: page)).test(
      .router
    ) { client in
      for route in APIRoute.all {
        let path = route.path.replacingOccurrences(of: "{id}", with: "nw-0145")
          .replacingOccurrences(of: "{name}", with: route == .asset ? "leaflet.css" : "picker.js")
        let response = try await client.execute(uri: path, method: route.method)
        #expect(response.status != .methodNotAllowed, "\(route)")
        if response.status == .notFound {
          #expect(try response.json()["type"] as? String != "urn:stores:problem:not-found", "\(route)")
        }
      }
    }
  }
}
