import Foundation
import GeoIndex
import OpeningHours
import StoreLocator
import Testing

/// The request types the CLI and the service share: what they accept, what they refuse and in
/// which words, and that their answers are the catalog's own.
@Suite struct RequestTests {
  static let catalog: Catalog = try! Catalog.load(contentsOf: DefaultData.bundledPath)
  static let now = Instant(secondsSinceEpoch: 1_795_000_000)

  func query(_ pairs: [(String, String)]) -> RequestParameters {
    RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: .queryString)
  }

  func flags(_ pairs: [(String, String)]) -> RequestParameters {
    RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: .commandLine)
  }

  func error<Request>(_ read: () throws(RequestError) -> Request) -> RequestError? {
    do {
      _ = try read()
      return nil
    } catch {
      return error
    }
  }

  @Test func sentencesNameParametersAsTheRequestSpellsThem() throws {
    let http = try #require(
      error { () throws(RequestError) in try NearestRequest(query([("near", "91,0")])) })
    let cli = try #require(error { () throws(RequestError) in try NearestRequest(flags([("near", "91,0")])) })
    #expect(http.parameter == "near")
    #expect(cli.parameter == "--near")
    #expect(http.message.hasPrefix("near: latitude 91"))
    // The same sentence after the name.
    #expect(http.message.dropFirst("near".count) == cli.message.dropFirst("--near".count))

    let k = try #require(
      error { () throws(RequestError) in try NearestRequest(flags([("near", "1,2"), ("k", "0")])) })
    #expect(k.message == "-k must be 1...1000 (got 0)")
    let openBoth = try #require(
      error { () throws(RequestError) in
        try NearestRequest(query([("near", "1,2"), ("open_now", ""), ("open_at", "2026-12-24T10:00")]))
      })
    #expect(openBoth.message == "give open_now or open_at, not both")
  }

  @Test func unknownAndRepeatedParametersAreRefused() throws {
    let typo = try #require(error { () throws(RequestError) in try NearestRequest(query([("ner", "1,2")])) })
    #expect(typo.kind == .invalid)
    #expect(typo.parameter == "ner")
    #expect(typo.message.contains("unknown parameter 'ner'; did you mean near?"))
    let twice = try #require(
      error { () throws(RequestError) in try NearestRequest(query([("near", "1,2"), ("near", "3,4")])) })
    #expect(twice.message == "near is given 2 times; give it once")
    let many = Array(repeating: ("where", "a=b"), count: RequestParameters.maximumCount + 1)
    let tooMany = try #require(
      error { () throws(RequestError) in try NearestRequest(query([("near", "1,2")] + many)) })
    #expect(tooMany.message.contains("at most \(RequestParameters.maximumCount)"))
    let flag = try #require(
      error { () throws(RequestError) in try NearestRequest(query([("near", "1,2"), ("open_now", "maybe")])) }
    )
    #expect(flag.message == "open_now is true or false (got 'maybe')")
  }

  @Test func nearestAnswersWhatTheCatalogFinds() throws {
    let catalog = Self.catalog
    let request = try NearestRequest(
      query([("near", "47.6062,-122.3321"), ("k", "7"), ("where", "drive_through=yes"), ("within", "50km")]))
    let answer = catalog.answer(request, now: Self.now)
    let direct = catalog.nearest(
      7, to: try Coordinate(parsing: "47.6062,-122.3321"), within: .kilometers(50),
      where: StoreFilter([try StoreFilter.Condition(parsing: "drive_through=yes")]))
    #expect(answer.matches.map(\.store.id) == direct.map(\.store.id))
    #expect(!direct.isEmpty)
    let document = try JSONSerialization.jsonObject(with: Data(answer.jsonText.utf8)) as! [String: Any]
    #expect(document["count"] as? Int == direct.count)
    #expect(document["next_cursor"] == nil)
    let echoed = document["query"] as! [String: Any]
    #expect(echoed["k"] as? Int == 7)
    #expect(echoed["where"] as? [String] == ["drive_through=yes"])
    #expect(echoed["at"] as? String == Self.now.description)
  }

  @Test func withinPagesAddUpToTheWholeAnswer() throws {
    let catalog = Self.catalog
    let whole = try catalog.answer(
      WithinRequest(flags([("near", "51.5074,-0.1278"), ("radius", "5km")])), now: Self.now)
    #expect(whole.matches.count > 5)
    #expect(whole.nextCursor == nil)
    var pages: [StoreMatch] = []
    var cursor: String?
    var pageCount = 0
    repeat {
      var pairs = [("near", "51.5074,-0.1278"), ("radius", "5km"), ("limit", "4")]
      if let cursor { pairs.append(("cursor", cursor)) }
      let page = try catalog.answer(WithinRequest(query(pairs)), now: Self.now)
      #expect(page.matches.count <= 4)
      pages += page.matches
      cursor = page.nextCursor
      pageCount += 1
    } while cursor != nil && pageCount < 1000
    #expect(pages.map(\.store.id) == whole.matches.map(\.store.id))
    #expect(pageCount == (whole.matches.count + 3) / 4)
  }

  /// The line a text page ends with: which stores of how many, and the next page's cursor in
  /// the request's own spelling (issue 26 §5).
  @Test func withinPagesSayWhereTheyStandAndHowToGoOn() throws {
    let catalog = Self.catalog
    let circle = [("near", "51.5074,-0.1278"), ("radius", "5km")]
    let total = try catalog.answer(WithinRequest(flags(circle)), now: Self.now).matches.count
    #expect(total > 6)
    let first = try catalog.answer(WithinRequest(flags(circle + [("limit", "3")])), now: Self.now)
    let cursor = try #require(first.nextCursor)
    #expect(first.pageSummary == "Stores 1–3 of \(total); next page: --cursor \(cursor)")
    #expect(first.firstNumber == 1)
    let second = try catalog.answer(
      WithinRequest(flags(circle + [("limit", "3"), ("cursor", cursor)])), now: Self.now)
    #expect(second.firstNumber == 4)
    #expect(
      second.pageSummary == "Stores 4–6 of \(total); next page: --cursor \(try #require(second.nextCursor))")
    let query = try catalog.answer(WithinRequest(self.query(circle + [("limit", "3")])), now: Self.now)
    #expect(query.pageSummary == "Stores 1–3 of \(total); next page: cursor=\(cursor)")
    let lastStart = "\(cursor.split(separator: ".")[0]).\(total - 2)"
    let last = try catalog.answer(
      WithinRequest(flags(circle + [("limit", "3"), ("cursor", lastStart)])), now: Self.now)
    #expect(last.nextCursor == nil)
    #expect(last.pageSummary == "Stores \(total - 1)–\(total) of \(total); the last page")
    // A whole answer, and nearest, are no page.
    #expect(try catalog.answer(WithinRequest(flags(circle)), now: Self.now).pageSummary == nil)
    #expect(
      try catalog.answer(WithinRequest(flags(circle + [("limit", "900")])), now: Self.now).pageSummary == nil)
    let nearest = catalog.answer(
      try NearestRequest(flags([("near", "51.5074,-0.1278"), ("k", "2")])), now: Self.now)
    #expect(nearest.pageSummary == nil)
    #expect(nearest.firstNumber == 1)
  }

  @Test func withinPagesByDefaultOnlyInAQueryString() throws {
    let catalog = Self.catalog
    let box = [("bbox", "-180,-90,180,90")]
    let http = try catalog.answer(WithinRequest(query(box)), now: Self.now)
    let cli = try catalog.answer(WithinRequest(flags(box)), now: Self.now)
    #expect(http.matches.count == WithinRequest.defaultPageSize)
    #expect(http.nextCursor != nil)
    #expect(cli.matches.count == catalog.indexedCount)
    #expect(cli.nextCursor == nil)
  }

  @Test func cursorsOfOtherDataOrMadeUpAreRefused() throws {
    let catalog = Self.catalog
    let page = try catalog.answer(
      WithinRequest(query([("bbox", "-180,-90,180,90"), ("limit", "2")])), now: Self.now)
    let cursor = try #require(page.nextCursor)
    #expect(cursor.hasPrefix(catalog.dataVersion))
    let other = try load(
      #"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#)
    #expect(other.dataVersion != catalog.dataVersion)
    let stale = try #require(
      error { () throws(RequestError) in
        try other.answer(
          WithinRequest(query([("bbox", "-180,-90,180,90"), ("cursor", cursor)])), now: Self.now)
      })
    #expect(stale.parameter == "cursor")
    #expect(stale.message.contains("belongs to another version of the data"))
    for madeUp in ["x", "\(catalog.dataVersion).-1", "\(catalog.dataVersion).99999999", "a.b.c"] {
      let refused = try #require(
        error { () throws(RequestError) in
          try catalog.answer(
            WithinRequest(query([("bbox", "-180,-90,180,90"), ("cursor", madeUp)])), now: Self.now)
        })
      #expect(refused.message.contains("is not a cursor this service wrote"), "\(madeUp)")
    }
  }

  @Test func dataVersionFollowsTheBytes() throws {
    let text = #"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{}}"#
    let (first, again, changed) = (try load(text), try load(text), try load(text + "\n"))
    #expect(first.dataVersion == again.dataVersion)
    #expect(first.dataVersion != changed.dataVersion)
    #expect(Self.catalog.dataVersion.count == 16)
    #expect(Self.catalog.dataVersion.allSatisfy { $0.isHexDigit })
  }

  @Test func storeRequestsSayWhichIDsExist() throws {
    let catalog = Self.catalog
    let unknown = try #require(
      error { () throws(RequestError) in
        try catalog.answer(StoreRequest(query([("id", "nw-0001x")])), now: Self.now)
      })
    #expect(unknown.kind == .unknownStore)
    #expect(unknown.suggestions.first == "nw-0001")
    #expect(unknown.message.contains("did you mean 'nw-0001'"))
    let empty = try #require(error { () throws(RequestError) in try StoreRequest(query([("id", "")])) })
    #expect(empty.message == "the store id is empty")
    let hours = try catalog.answer(
      HoursRequest(query([("id", "nw-0001"), ("from", "2026-12-24T10:00"), ("days", "3")])), now: Self.now)
    #expect(hours.days.count == 3)
    #expect(hours.days.first?.date.description == "2026-12-24")
    let both = try #require(
      error { () throws(RequestError) in
        try HoursRequest(query([("id", "x"), ("from", "2026-12-24T10:00"), ("at", "2026-12-24T10:00")]))
      })
    #expect(both.message.contains("not both"))
    let days = try #require(
      error { () throws(RequestError) in try HoursRequest(query([("id", "x"), ("days", "367")])) })
    #expect(days.message == "days must be 1...366 (got 367)")
  }

  @Test func hoursWithoutAScheduleKeepTheirShape() throws {
    let catalog = try load(
      #"{"type":"Feature","id":"a","geometry":{"type":"Point","coordinates":[1,2]},"properties":{"opening_hours":"nonsense"}}"#
    )
    let answer = try catalog.answer(HoursRequest(query([("id", "a")])), now: Self.now)
    let withHours = try Self.catalog.answer(HoursRequest(query([("id", "nw-0001")])), now: Self.now)
    #expect(answer.jsonObject.map(\.key) == withHours.jsonObject.map(\.key))
    #expect(answer.jsonObject["state"] == .string("unknown"))
    #expect(answer.jsonObject["days"] == .array([]))
  }

  @Test func openForAnswersTheQuestionAsked() throws {
    let catalog = Self.catalog
    // nw-0001 (Glendale) opens at 08:00 on weekdays; 07:55 wall time on a Wednesday.
    let before = try catalog.answer(
      OpenRequest(query([("id", "nw-0001"), ("at", "2026-11-25T07:55"), ("for", "15m")])), now: Self.now)
    #expect(before.status.state == .closed)
    #expect(before.state == .closed)
    #expect(before.durationText == "so not open for 15 min")
    let during = try catalog.answer(
      OpenRequest(query([("id", "nw-0001"), ("at", "2026-11-25T12:00"), ("for", "1h")])), now: Self.now)
    #expect(during.state == .open)
    #expect(during.jsonObject["open_for"]?.jsonText.contains("\"met\":true") == true)
  }

  @Test func aPickupBodyReadsAsTheSameParameters() throws {
    let catalog = Self.catalog
    let fromBody = try catalog.answer(
      PickupSubmission(
        body: Array(
          #"{"near": {"latitude": 51.5074, "longitude": -0.1278}, "ready_in": "12m", "travel": "bike", "alternatives": 2, "allow_unknown": false, "where": ["drive_through=yes"], "now": "2026-11-25T12:00:00Z"}"#
            .utf8)), now: Self.now)
    let fromFlags = try catalog.answer(
      PickupSubmission(
        flags([
          ("near", "51.5074,-0.1278"), ("ready_in", "12m"), ("travel", "bike"), ("alternatives", "2"),
          ("where", "drive_through=yes"), ("now", "2026-11-25T12:00:00Z"),
        ])), now: Self.now)
    #expect(fromBody.jsonText == fromFlags.jsonText)
    // A whole number written with a fraction or an exponent is the same number.
    for alternatives in ["2.0", "2e0", "0.2E1"] {
      let written = try catalog.answer(
        PickupSubmission(
          body: Array(
            (#"{"near": {"latitude": 51.5074, "longitude": -0.1278}, "ready_in": "12m", "travel": "bike", "#
              + #""alternatives": \#(alternatives), "allow_unknown": false, "where": ["drive_through=yes"], "#
              + #""now": "2026-11-25T12:00:00Z"}"#).utf8)), now: Self.now)
      #expect(written.jsonText == fromFlags.jsonText, "\(alternatives)")
    }
    #expect(fromBody.plan.status == .assigned)
    #expect(fromBody.plan.alternatives.count <= 2)
  }

  @Test func pickupBodiesThatAreNotRequestsAreRefused() throws {
    let cases: [(String, String)] = [
      ("not json", "the body is not JSON"),
      ("[1]", "the body must be a JSON object"),
      (
        #"{"ready_in": ["5m"], "near": "51.5,-0.12"}"#,
        "'ready_in' must be a string, a number or a boolean, not an array"
      ),
      (
        #"{"near": "51.5,-0.12", "ready_in": {"m": 5}}"#,
        "'ready_in' must be a string, a number or a boolean, not an object"
      ),
      (#"{"near": "51.5,-0.12"}"#, "give one of ready_in, ready_at or an order document as the body"),
      (
        #"{"near": "51.5,-0.12", "ready_in": "5m", "alternatives": 101}"#,
        "alternatives must be 0...100 (got 101)"
      ),
      (#"{"near": "51.5,-0.12", "ready_in": "5m", "within": "2000km"}"#, "within must be at most 1000 km"),
      (
        #"{"near": "51.5,-0.12", "ready_in": "5m", "alternatives": 2.5}"#,
        "alternatives must be a whole number (got '2.5')"
      ),
      (#"{"near": "51.5,-0.12", "redy_in": "5m"}"#, "unknown parameter 'redy_in'; did you mean ready_in?"),
      (#"{"items": [], "id": "o"}"#, "order:"),
      // An empty string is no boolean in a body (a bare `reserve` in a query string is true).
      (#"{"near": "51.5,-0.12", "ready_in": "5m", "reserve": ""}"#, #"reserve is true or false (got "")"#),
      (#"{"near": "51.5,-0.12", "ready_in": "5m", "allow_unknown": ""}"#, "allow_unknown is true or false"),
      (#"{"near": "51.5,-0.12", "ready_in": "5m", "reserve": "maybe"}"#, "reserve is true or false"),
    ]
    for (body, expected) in cases {
      let refused = try #require(
        error { () throws(RequestError) in try PickupSubmission(body: Array(body.utf8)) }, "\(body)")
      #expect(refused.kind == .invalid)
      #expect(refused.message.contains(expected), "\(body): \(refused.message)")
    }
    let tooBig = try #require(
      error { () throws(RequestError) in
        try PickupSubmission(body: Array(repeating: UInt8(ascii: " "), count: InputLimits.orderBytes + 1))
      })
    #expect(tooBig.message.contains("over 1 MiB"))
  }

  /// A `near` array is refused with the forms `near` takes and, when its numbers make a point in
  /// GeoJSON's order, that point written in them, ready to copy (issue 26 §5).
  @Test(arguments: [
    (
      #"[-0.12, 51.5]"#,
      #"near takes "LAT,LON" as a string or {"latitude": LAT, "longitude": LON}; an array is not read, "#
        + #"since its order is not certain: [-0.12, 51.5] in GeoJSON's order [longitude, latitude] is "#
        + #""51.5,-0.12" or {"latitude": 51.5, "longitude": -0.12}"#
    ),
    (
      #"[151.2093, -33.8688]"#,
      #"[151.2093, -33.8688] in GeoJSON's order [longitude, latitude] is "-33.8688,151.2093""#
    ),
    // Not a point in GeoJSON's order (a latitude of 151): only the forms.
    (
      #"[-33.8688, 151.2093]"#, #"such as "51.5,-0.12"; an array is not read, since its order is not certain"#
    ),
    (#"[1, 2, 3]"#, #"near takes "LAT,LON" as a string or {"latitude": LAT, "longitude": LON}, such as"#),
    (#"["51.5", "-0.12"]"#, #"such as "51.5,-0.12"; an array is not read"#),
    (#"[]"#, #"such as "51.5,-0.12"; an array is not read"#),
  ])
  func aNearArrayIsRefusedWithTheFormsNearTakes(_ near: String, _ expected: String) throws {
    let body = #"{"near": \#(near), "ready_in": "5m"}"#
    let refused = try #require(
      error { () throws(RequestError) in try PickupSubmission(body: Array(body.utf8)) }, "\(body)")
    #expect(refused.kind == .invalid)
    #expect(refused.parameter == "near")
    #expect(refused.message.contains(expected), "\(refused.message)")
    #expect(!refused.message.contains("must be a string, a number or a boolean"))
  }

  @Test func pickupRefusalsAndUnknownStoresHaveTheirKinds() throws {
    let catalog = Self.catalog
    let far = try #require(
      error { () throws(RequestError) in
        try catalog.answer(
          PickupSubmission(query([("near", "51.5074,-0.1278"), ("ready_in", "40d")])), now: Self.now)
      })
    #expect(far.kind == .refused)
    #expect(far.message.contains("within 30 days"))
    let unknown = try #require(
      error { () throws(RequestError) in
        try catalog.answer(
          PickupSubmission(query([("near", "51.5074,-0.1278"), ("ready_in", "5m"), ("store", "nw-0787x")])),
          now: Self.now)
      })
    #expect(unknown.kind == .unknownStore)
    #expect(unknown.suggestions.contains("nw-0787"))
  }

  /// A speed with a NUL is refused, not read as the number before it (strtod stops at a NUL).
  @Test func aTravelSpeedWithANulIsRefused() {
    #expect(throws: TravelModeError.self) { try TravelMode(parsing: "15\u{0}x km/h") }
    #expect(throws: TravelModeError.self) { try TravelMode(parsing: "15km/h\u{0}") }
    #expect((try? TravelMode(parsing: "15 km/h")) != nil)
  }
}
