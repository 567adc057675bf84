import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import StoresAPI

/// The store picker page and the files it loads: what `GET /` writes into the page, which files
/// are served and how (types, gzip, ETags), and that no request name reaches the file system.
@Suite struct PageRouteTests {
  /// A directory with a stand-in Leaflet: a script, its gzip copy and a stylesheet, with bytes
  /// of this test's own so an answer can be traced to the file it came from.
  static func assetsDirectory(minified: Bool = true) throws -> String {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("stores-page-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let script = minified ? "leaflet.min.js" : "leaflet.js"
    try Data("/* leaflet stand-in */ window.L = {};".utf8).write(to: directory.appendingPathComponent(script))
    try Data([0x1F, 0x8B, 0x08, 0x00, 0x01, 0x02, 0x03]).write(
      to: directory.appendingPathComponent(script + ".gz"))
    try Data(".leaflet-container { color: red }".utf8).write(
      to: directory.appendingPathComponent("leaflet.css"))
    return directory.path
  }

  /// The JSON the page's `page-config` element holds.
  static func configuration(ofPage html: String) throws -> [String: Any] {
    let opening = #"<script id="page-config" type="application/json">"#
    let start = try #require(html.firstRange(of: opening)).upperBound
    let end = try #require(html[start...].firstRange(of: "</script>")).lowerBound
    return try #require(JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as? [String: Any])
  }

  @Test func thePageCarriesItsConfiguration() async throws {
    let tiles = try TileLayer(
      url: "https://{s}.tiles.example/{z}/{x}/{y}.png", attribution: "&copy; Example </script><b>x</b>")
    let page = PageResources(
      assetsDirectory: try Self.assetsDirectory(), basemapPath: PageResources.bundledBasemapPath, tiles: tiles
    )
    #expect(page.warnings.isEmpty)
    try await TestService.application(TestService.service(page: page)).test(.router) { client in
      let response = try await client.get("/")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "text/html; charset=utf-8")
      // The attribution cannot close the element it is written into.
      #expect(response.text.components(separatedBy: "</script>").count == page.scriptElementCount + 1)
      let configuration = try Self.configuration(ofPage: response.text)
      let leaflet = try #require(configuration["leaflet"] as? [String: Any])
      #expect(leaflet["script"] as? String == "/assets/leaflet.min.js")
      #expect(leaflet["stylesheet"] as? String == "/assets/leaflet.css")
      let tileLayer = try #require(configuration["tiles"] as? [String: Any])
      #expect(tileLayer["url"] as? String == tiles.url)
      #expect(tileLayer["attribution"] as? String == tiles.attribution)
      #expect(tileLayer["maxZoom"] as? Int == 19)
      #expect(configuration["basemap"] as? String == "/page/basemap.json")
      // Images may come from the tile server (any subdomain), scripts only from the service.
      let policy = try #require(response.headers[.contentSecurityPolicy])
      #expect(policy.contains("img-src 'self' data: https://*.tiles.example;"))
      #expect(policy.contains("script-src 'self';"))

      // Everything the configuration names is served.
      for path in ["/assets/leaflet.min.js", "/assets/leaflet.css", "/page/basemap.json", "/page/picker.js"] {
        #expect(try await client.get(path).status == .ok, "\(path)")
      }
      let basemap = try await client.get("/page/basemap.json")
      #expect(basemap.headers[.contentType] == "application/geo+json")
      #expect(try basemap.json()["type"] as? String == "FeatureCollection")
    }
  }

  @Test func withoutLeafletBasemapOrTilesThePageSaysSo() async throws {
    let missing = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-\(UUID())").path
    let page = PageResources(assetsDirectory: missing, basemapPath: missing + "/land.geojson", tiles: nil)
    #expect(page.warnings.count == 2)
    #expect(page.warnings.contains { $0.contains("no Leaflet in \(missing)") && $0.contains("--assets") })
    #expect(page.warnings.contains { $0.contains("no basemap at \(missing)/land.geojson") })
    try await TestService.application(TestService.service(page: page)).test(.router) { client in
      let configuration = try Self.configuration(ofPage: try await client.get("/").text)
      #expect(configuration["leaflet"] is NSNull)
      #expect(configuration["tiles"] is NSNull)
      #expect(configuration["basemap"] is NSNull)
      #expect(try await client.get("/assets/leaflet.min.js").status == .notFound)
      #expect(try await client.get("/page/basemap.json").status == .notFound)
    }
  }

  @Test func thePlainScriptIsUsedWhenThereIsNoMinifiedOne() async throws {
    let page = PageResources(
      assetsDirectory: try Self.assetsDirectory(minified: false), basemapPath: nil, tiles: nil)
    try await TestService.application(TestService.service(page: page)).test(.router) { client in
      let configuration = try Self.configuration(ofPage: try await client.get("/").text)
      #expect((configuration["leaflet"] as? [String: Any])?["script"] as? String == "/assets/leaflet.js")
      #expect(try await client.get("/assets/leaflet.js").text.contains("leaflet stand-in"))
    }
  }

  @Test func gzipCopiesGoOnlyToClientsThatAcceptThem() async throws {
    let directory = try Self.assetsDirectory()
    let page = PageResources(assetsDirectory: directory, basemapPath: nil, tiles: nil)
    let plain = try Data(contentsOf: URL(fileURLWithPath: directory + "/leaflet.min.js"))
    let gzip = try Data(contentsOf: URL(fileURLWithPath: directory + "/leaflet.min.js.gz"))
    try await TestService.application(TestService.service(page: page)).test(.router) { client in
      for (accept, compressed) in [
        ("gzip, deflate, br", true), ("br;q=1.0, gzip;q=0.8", true), ("*", true), ("identity", false),
        ("gzip;q=0", false), ("gzip; q=0.0, br", false), ("", false),
      ] {
        let response = try await client.get("/assets/leaflet.min.js", headers: [.acceptEncoding: accept])
        #expect(response.status == .ok)
        #expect(response.headers[.vary] == "Accept-Encoding")
        #expect(
          response.headers[.contentEncoding] == (compressed ? "gzip" : nil), "Accept-Encoding: \(accept)")
        #expect(Data(buffer: response.body) == (compressed ? gzip : plain), "Accept-Encoding: \(accept)")
      }
      // Each encoding has its own tag, and revalidation compares against what would be sent.
      let zipped = try await client.get("/assets/leaflet.min.js", headers: [.acceptEncoding: "gzip"])
      let unzipped = try await client.get("/assets/leaflet.min.js")
      let tag = try #require(zipped.headers[.eTag])
      #expect(tag != unzipped.headers[.eTag])
      let revalidated = try await client.get(
        "/assets/leaflet.min.js", headers: [.acceptEncoding: "gzip", .ifNoneMatch: tag])
      #expect(revalidated.status == .notModified)
      #expect(try await client.get("/assets/leaflet.min.js", headers: [.ifNoneMatch: tag]).status == .ok)
      // Files without a gzip copy do not vary.
      #expect(try await client.get("/page/picker.js").headers[.vary] == nil)
    }
  }

  @Test func thePageRevalidatesAndLeafletIsCachedForADay() async throws {
    let page = PageResources(assetsDirectory: try Self.assetsDirectory(), basemapPath: nil, tiles: nil)
    try await TestService.application(TestService.service(page: page)).test(.router) { client in
      for path in ["/", "/page/picker.js", "/page/picker.css"] {
        let response = try await client.get(path)
        #expect(response.headers[.cacheControl] == "no-cache", "\(path)")
        let tag = try #require(response.headers[.eTag])
        let again = try await client.get(path, headers: [.ifNoneMatch: tag])
        #expect(again.status == .notModified, "\(path)")
        #expect(again.body.readableBytes == 0)
      }
      #expect(try await client.get("/assets/leaflet.css").headers[.cacheControl] == "public, max-age=86400")
      #expect(try await client.get("/page/picker.css").headers[.contentType] == "text/css; charset=utf-8")
    }
  }

  @Test(arguments: [
    "/page/..%2F..%2FPackage.swift", "/page/index.html", "/page/.picker.js", "/assets/leaflet.css.gz",
    "/assets/..%2Fleaflet.css", "/assets/leaflet.js", "/assets/images%2Fmarker-icon.png",
    "/page/picker.js.gz",
  ])
  func onlyTheFilesReadAtStartupAreServed(path: String) async throws {
    let page = PageResources(assetsDirectory: try Self.assetsDirectory(), basemapPath: nil, tiles: nil)
    try await TestService.application(TestService.service(page: page)).test(.router) { client in
      let response = try await client.get(path)
      #expect(response.status == .notFound)
      #expect(response.headers[.contentType] == "application/problem+json")
      let detail = try #require(try response.json()["detail"] as? String)
      #expect(detail.contains("the service serves /"), "\(detail)")
    }
  }

  @Test func otherMethodsOnThePageAre405() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      for path in ["/", "/page/picker.js", "/assets/leaflet.css"] {
        let response = try await client.execute(uri: path, method: .post)
        #expect(response.status == .methodNotAllowed, "\(path)")
        #expect(response.headers[.allow] == "GET, HEAD", "\(path)")
      }
      #expect(try await client.execute(uri: "/", method: .head).status == .ok)
    }
  }

  @Test func tileOptionsAreCheckedWithSentences() {
    func refusal(_ url: String, _ attribution: String, zoom: Int = 19) -> String? {
      do {
        _ = try TileLayer(url: url, attribution: attribution, maximumZoom: zoom)
        return nil
      } catch { return error.description }
    }
    #expect(refusal("tile.example/{z}/{x}/{y}.png", "x")?.contains("http:// or https://") == true)
    #expect(refusal("https://tile.example/{z}/{x}.png", "x")?.contains("{y} is missing") == true)
    #expect(refusal("https://tile.example/{z}/{x}/{y}.png", " ")?.contains("--tiles-attribution") == true)
    #expect(refusal("https://tile.example/{z}/{x}/{y}.png", "x", zoom: 30)?.contains("0...24") == true)
    #expect(refusal("https://tile.example/{z}/{x}/{y}.png", "x") == nil)
    #expect(
      PageRoutes.origin(ofTemplate: "https://{s}.tile.example:8443/{z}/{x}/{y}.png")
        == "https://*.tile.example:8443")
    #expect(PageRoutes.origin(ofTemplate: "http://127.0.0.1:9000/{z}/{x}/{y}") == "http://127.0.0.1:9000")
  }
}

extension PageResources {
  /// How many script elements the page itself has (`</script>` occurrences in index.html).
  var scriptElementCount: Int {
    String(decoding: PackageResources.index_html, as: UTF8.self).components(separatedBy: "</script>").count
      - 1
  }
}
