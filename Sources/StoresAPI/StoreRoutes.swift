import HTTPTypes
import Hummingbird
import NIOCore
import OpeningHours
import StoreLocator

/// The routes about stores. They hold no logic: each turns the path, query string or body into
/// the library's `RequestParameters`, asks the catalog, and writes the answer as `stores … --format
/// json` prints it; every refusal is the library's sentence.
struct StoreRoutes: Sendable {
  let configuration: APIConfiguration

  /// `Cache-Control` of an answer about stores.
  var cacheControl: String { "public, max-age=\(configuration.cacheMaxAge)" }

  /// `GET /v1/stores/nearest`: `stores nearest`, asked with `pairs`, the request's query string
  /// (`QueryString.pairs`: read once by the route, which first tells whether it `isBounded`).
  func nearest(_ pairs: [(name: String, value: String)], _ request: Request, _ context: StoresRequestContext)
    throws(Problem) -> Response
  {
    let loaded = try Self.loaded(context)
    var pairs = pairs
    let format = try AnswerFormat.take(from: &pairs, geoJSON: true)
    let catalog = Self.catalog(loaded, context)
    let query = try Self.reading { () throws(RequestError) in
      try NearestRequest(Self.parameters(pairs, for: catalog))
    }
    let answer = catalog.answer(query, now: .now())
    return search(answer, format: format, request: request)
  }

  /// Whether a `nearest` request with the query string's `pairs` costs little enough to answer
  /// where it arrived (`NearestRequest.isBounded`).
  static func isBounded(_ pairs: [(name: String, value: String)]) -> Bool {
    NearestRequest.isBounded(RequestParameters(pairs.filter { $0.name != "format" }, style: .queryString))
  }

  /// `GET /v1/stores/within`: `stores within`, a page at a time.
  func within(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let loaded = try Self.loaded(context)
    var pairs = try QueryString.pairs(request.uri.query)
    let format = try AnswerFormat.take(from: &pairs, geoJSON: true)
    let answer = try Self.reading { () throws(RequestError) in
      let catalog = Self.catalog(loaded, context)
      let query = try WithinRequest(Self.parameters(pairs, for: catalog))
      return try catalog.answer(query, now: .now())
    }
    return search(answer, format: format, request: request)
  }

  /// `GET /v1/stores/clusters`: `stores clusters`, for a map zoomed out.
  func clusters(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let loaded = try Self.loaded(context)
    let pairs = try QueryString.pairs(request.uri.query)
    let query = try Self.reading { () throws(RequestError) in
      try ClustersRequest(RequestParameters(pairs, style: .queryString))
    }
    return document(
      Self.catalog(loaded, context).answer(query, now: .now()).jsonText, DocumentResponse.json, request)
  }

  /// `GET /v1/stores/{id}`: `stores show ID`.
  func store(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let loaded = try Self.loaded(context)
    var pairs = try Self.pathID(context) + QueryString.pairs(request.uri.query)
    let format = try AnswerFormat.take(from: &pairs, geoJSON: true)
    let answer = try Self.reading { () throws(RequestError) in
      try Self.catalog(loaded, context).answer(
        StoreRequest(RequestParameters(pairs, style: .queryString)), now: .now())
    }
    return format == .geoJSON
      ? document(answer.geoJSONText, DocumentResponse.geoJSON, request)
      : document(answer.jsonText, DocumentResponse.json, request)
  }

  /// `GET /v1/stores/{id}/hours`: `stores hours ID --format json`.
  func hours(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let loaded = try Self.loaded(context)
    var pairs = try Self.pathID(context) + QueryString.pairs(request.uri.query)
    _ = try AnswerFormat.take(from: &pairs, geoJSON: false)
    let answer = try Self.reading { () throws(RequestError) in
      try Self.catalog(loaded, context).answer(
        HoursRequest(RequestParameters(pairs, style: .queryString)), now: .now())
    }
    return document(answer.jsonText, DocumentResponse.json, request)
  }

  /// `GET /v1/stores/{id}/open`: `stores open ID --format json`.
  func open(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let loaded = try Self.loaded(context)
    var pairs = try Self.pathID(context) + QueryString.pairs(request.uri.query)
    _ = try AnswerFormat.take(from: &pairs, geoJSON: false)
    let answer = try Self.reading { () throws(RequestError) in
      try Self.catalog(loaded, context).answer(
        OpenRequest(RequestParameters(pairs, style: .queryString)), now: .now())
    }
    return document(answer.jsonText, DocumentResponse.json, request)
  }

  /// `GET /v1/places`: `stores places QUERY --format json`, the suggestions of a search box. It
  /// needs no store data, only the bundled places (indexed on first use).
  func places(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let pairs = try QueryString.pairs(request.uri.query)
    let query = try Self.reading { () throws(RequestError) in
      try PlacesRequest(RequestParameters(pairs, style: .queryString))
    }
    let index: PlaceIndex
    do throws(PlaceLookupError) { index = try PlaceIndex.bundled() } catch {
      throw Problem(
        "not-ready", status: .serviceUnavailable, title: "The service is not ready", detail: error.message)
    }
    return document(index.answer(query).jsonText, DocumentResponse.json, request)
  }

  /// The body of `POST /v1/pickup`, read to `--max-body-bytes` and no further (a larger body is
  /// refused as it arrives, 413), once its type is JSON.
  func pickupBody(_ request: Request) async throws -> [UInt8] {
    if let length = request.headers[.contentLength].flatMap({ Int($0) }),
      length > configuration.maximumBodyBytes
    {
      throw Problem.bodyTooLarge(limit: configuration.maximumBodyBytes)
    }
    try Self.requireJSON(request)
    let body = try await request.body.collect(upTo: configuration.maximumBodyBytes)
    return Array(body.readableBytesView)
  }

  /// What `pickup` did: answered, or found a request to hold a slot, which goes to the storage
  /// (`ReservationRoutes.reserve`) off the query thread.
  enum PickupRouting: Sendable {
    case answered(Response)
    case reserve(PickupSubmission)
  }

  /// `POST /v1/pickup`: `stores pickup`, the body (`pickupBody`) an order document or a pickup
  /// request.
  func pickup(_ request: Request, _ context: StoresRequestContext, body: [UInt8]) throws(Problem)
    -> PickupRouting
  {
    let loaded = try Self.loaded(context)
    let pairs = try QueryString.pairs(request.uri.query)
    let catalog = Self.catalog(loaded, context)
    let submission = try Self.reading { () throws(RequestError) in
      try PickupSubmission(body: body, parameters: Self.parameters(pairs, for: catalog))
    }
    if submission.reserve { return .reserve(submission) }
    let answer = try Self.reading { () throws(RequestError) in
      try catalog.answer(submission, now: .now())
    }
    var response = DocumentResponse.make(
      answer.jsonText, contentType: DocumentResponse.json, cacheControl: nil, request: request)
    // What `stores pickup` warns on standard error: a location that looks typed as LON,LAT.
    for note in answer.notes {
      response.headers.append(HTTPField(name: .storesNote, value: Self.headerText(note)))
    }
    return .answered(response)
  }

  /// `GET /v1/info`: `stores info --format json`.
  func info(_ request: Request, _ context: StoresRequestContext) throws(Problem) -> Response {
    let loaded = try Self.loaded(context)
    let pairs = try QueryString.pairs(request.uri.query)
    if let first = pairs.first {
      throw Problem(
        "invalid-request", status: .badRequest, title: "The request is not valid",
        detail: "unknown parameter \(EchoedText.quoted(first.name)) (info takes no parameters)",
        parameter: EchoedText.shortened(first.name))
    }
    return document(loaded.infoJSONText, DocumentResponse.json, request)
  }

  // MARK: Pieces

  /// A query string's parameters for a request about `catalog`: a `near` name several places
  /// have is read with its stores' countries as the last resort.
  static func parameters(_ pairs: [(name: String, value: String)], for catalog: Catalog) -> RequestParameters
  {
    var parameters = RequestParameters(pairs, style: .queryString)
    parameters.storeCountries = catalog.storeCountries
    return parameters
  }

  /// A search answer, with what the CLI says beside it on standard error (why it is empty, a
  /// LON,LAT hint) as `X-Stores-Note` headers: the body stays the CLI's, and an empty answer is
  /// never empty in silence.
  private func search(_ answer: SearchAnswer, format: AnswerFormat, request: Request) -> Response {
    var response =
      format == .geoJSON
      ? document(utf8: answer.geoJSONUTF8, DocumentResponse.geoJSON, request)
      : document(utf8: answer.jsonUTF8, DocumentResponse.json, request)
    for note in answer.notes {
      response.headers.append(HTTPField(name: .storesNote, value: Self.headerText(note)))
    }
    return response
  }

  /// `text` as a header value: printable ASCII as it is, every other byte (and `%`)
  /// percent-encoded, so a sentence naming `Zürich` survives any proxy and decodes back.
  static func headerText(_ text: String) -> String {
    var value = ""
    for byte in text.utf8 {
      if (0x20...0x7E).contains(byte), byte != UInt8(ascii: "%") {
        value.unicodeScalars.append(Unicode.Scalar(byte))
      } else {
        value +=
          "%" + String(byte >> 4, radix: 16, uppercase: true) + String(byte & 0xF, radix: 16, uppercase: true)
      }
    }
    return value
  }

  private func document(_ text: String, _ contentType: String, _ request: Request) -> Response {
    DocumentResponse.make(text, contentType: contentType, cacheControl: cacheControl, request: request)
  }

  private func document(utf8 body: [UInt8], _ contentType: String, _ request: Request) -> Response {
    DocumentResponse.make(utf8: body, contentType: contentType, cacheControl: cacheControl, request: request)
  }

  /// The catalog the request was given, or 503 before the first load.
  static func loaded(_ context: StoresRequestContext) throws(Problem) -> LoadedCatalog {
    guard let loaded = context.loaded else { throw Problem.notReady }
    return loaded
  }

  /// The catalog the request is answered from: the data it was given with the state it was given.
  static func catalog(_ loaded: LoadedCatalog, _ context: StoresRequestContext) -> Catalog {
    let catalog = loaded.catalog(applying: context.states, from: context.stateSource)
    return context.bookings.isEmpty ? catalog : catalog.counting(context.bookings)
  }

  /// The `{id}` of the path, percent-decoded, as the first parameter.
  static func pathID(_ context: StoresRequestContext) throws(Problem) -> [(name: String, value: String)] {
    [("id", try QueryString.pathSegment(context.parameters.get("id") ?? ""))]
  }

  /// `read()`, with a refusal of the library as its problem.
  static func reading<T>(_ read: () throws(RequestError) -> T) throws(Problem) -> T {
    do throws(RequestError) { return try read() } catch { throw Problem(error) }
  }

  /// 415 unless the body is declared JSON (`application/json`, or any `+json` type).
  static func requireJSON(_ request: Request) throws(Problem) {
    let declared = request.headers[.contentType] ?? ""
    let mediaType = String(declared.prefix { $0 != ";" }).lowercased().filter { !$0.isWhitespace }
    if mediaType == "application/json"
      || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    {
      return
    }
    throw Problem(
      "unsupported-media-type", status: .unsupportedMediaType, title: "The body is not JSON",
      detail: declared.isEmpty
        ? "the body needs Content-Type: application/json (an order document or a pickup request)"
        : "the body is \(EchoedText.quoted(declared)); send application/json (an order document or a pickup request)"
    )
  }
}

/// The body format a GET asks for with `format=`: the CLI's `--format json` or `geojson`.
enum AnswerFormat {
  case json
  case geoJSON

  /// Removes `format` from `pairs` and reads it; JSON when absent.
  /// - Parameter geoJSON: Whether the route also writes GeoJSON.
  /// - Throws: `Problem` (400) for another value, or `format` given twice.
  static func take(from pairs: inout [(name: String, value: String)], geoJSON: Bool) throws(Problem)
    -> AnswerFormat
  {
    let values = pairs.filter { $0.name == "format" }.map(\.value)
    pairs.removeAll { $0.name == "format" }
    let accepted = geoJSON ? ["json", "geojson"] : ["json"]
    guard values.count <= 1 else {
      throw Problem(
        "invalid-request", status: .badRequest, title: "The request is not valid",
        detail: "format is given \(values.count) times; give it once", parameter: "format")
    }
    switch values.first {
    case nil, "json": return .json
    case "geojson" where geoJSON: return .geoJSON
    case let other?:
      throw Problem(
        "invalid-request", status: .badRequest, title: "The request is not valid",
        detail: "format must be \(accepted.joined(separator: " or ")) (got \(EchoedText.quoted(other)))",
        parameter: "format")
    }
  }
}
