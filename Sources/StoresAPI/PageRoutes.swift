import HTTPTypes
import Hummingbird
import NIOCore

/// The store picker page and the files it loads. Only the files `PageResources` read at startup
/// can be answered: a name is looked up in a table, never joined to a path.
struct PageRoutes: Sendable {
  let resources: PageResources
  /// `Content-Security-Policy` of the page: its own scripts and the API only, images from itself
  /// and the tile server. Leaflet sets styles from script, which the policy allows.
  let contentSecurityPolicy: String

  init(resources: PageResources) {
    self.resources = resources
    let tileSource = resources.tiles.flatMap { Self.origin(ofTemplate: $0.url) }.map { " " + $0 } ?? ""
    contentSecurityPolicy =
      "default-src 'self'; img-src 'self' data:\(tileSource); style-src 'self' 'unsafe-inline'; "
      + "script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
  }

  /// `GET /`.
  func index(_ request: Request, _ context: StoresRequestContext) -> Response {
    var response = serve(resources.index, request: request, cacheControl: "no-cache")
    response.headers[.contentSecurityPolicy] = contentSecurityPolicy
    response.headers[.xContentTypeOptions] = "nosniff"
    return response
  }

  /// `GET /page/{name}`: `picker.js`, `picker.css`, `basemap.json`. Revalidated on every use
  /// (`no-cache` with an ETag), since a new build of the service may change them.
  func pageFile(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let name = context.parameters.get("name") ?? ""
    guard let file = resources.pageFiles[name] else {
      throw Self.missing(name, in: "/page/", available: resources.pageFiles.keys)
    }
    return serve(file, request: request, cacheControl: "no-cache")
  }

  /// `GET /assets/{name}`: Leaflet, as found in `--assets`.
  func asset(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let name = context.parameters.get("name") ?? ""
    guard let file = resources.assets[name] else {
      throw Self.missing(name, in: "/assets/", available: resources.assets.keys)
    }
    return serve(file, request: request, cacheControl: "public, max-age=86400")
  }

  /// `file` with its ETag, gzip-encoded when it has a gzip copy and the request accepts gzip;
  /// 304 when `If-None-Match` names the tag of what would be sent.
  private func serve(_ file: PageResources.File, request: Request, cacheControl: String) -> Response {
    var headers: HTTPFields = [.contentType: file.contentType, .cacheControl: cacheControl]
    var body = file.bytes
    var tag = file.entityTag
    if let gzip = file.gzip {
      headers[.vary] = "Accept-Encoding"
      if Self.acceptsGzip(request.headers[.acceptEncoding]) {
        headers[.contentEncoding] = "gzip"
        body = gzip.bytes
        tag = gzip.entityTag
      }
    }
    headers[.eTag] = tag
    if let condition = request.headers[.ifNoneMatch], DocumentResponse.matches(condition, tag) {
      return Response(status: .notModified, headers: headers)
    }
    return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
  }

  /// Whether an `Accept-Encoding` value accepts gzip: `gzip` or `*` listed without `q=0`.
  static func acceptsGzip(_ value: String?) -> Bool {
    guard let value else { return false }
    return value.split(separator: ",").contains { item in
      let parts = item.filter { !$0.isWhitespace }.lowercased().split(separator: ";")
      guard let coding = parts.first, ["gzip", "x-gzip", "*"].contains(coding) else { return false }
      return !parts.dropFirst().contains { $0.hasPrefix("q=") && Double($0.dropFirst(2)) == 0 }
    }
  }

  /// `https://tile.example` from `https://tile.example/{z}/{x}/{y}.png`, with a `{s}` subdomain
  /// as `*`; `nil` when the template has no host.
  static func origin(ofTemplate template: String) -> String? {
    guard let schemeEnd = template.firstRange(of: "://") else { return nil }
    let rest = template[schemeEnd.upperBound...]
    let host = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    guard !host.isEmpty else { return nil }
    let pattern = host.replacing(/\{[a-z]+\}/, with: "*")
    return String(template[..<schemeEnd.upperBound]) + pattern
  }

  static func missing(
    _ name: String, in folder: String, available: Dictionary<String, PageResources.File>.Keys
  )
    -> Problem
  {
    let list = available.sorted().map { folder + $0 }.joined(separator: ", ")
    return Problem(
      "not-found", status: .notFound, title: "No such route",
      detail: "no file \(EchoedText.quoted(folder + name))"
        + (list.isEmpty ? "; the service serves none here" : "; the service serves \(list)"))
  }
}

extension HTTPField.Name {
  static let xContentTypeOptions = HTTPField.Name("X-Content-Type-Options")!
}
