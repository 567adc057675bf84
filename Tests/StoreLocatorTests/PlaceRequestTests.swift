import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// A place name where a location is asked for (`near`), and the place search's request.
@Suite struct PlaceRequestTests {
  func parameters(_ pairs: [(String, String)], style: ParameterStyle = .queryString) -> RequestParameters {
    RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: style)
  }

  func refusal(_ read: () throws(RequestError) -> Void) -> RequestError? {
    do throws(RequestError) {
      try read()
      return nil
    } catch { return error }
  }

  @Test func aPlaceNameIsThePlacesCoordinate() throws {
    let seattle = try PlaceIndex.bundled().resolve("Seattle").place
    let request = try NearestRequest(parameters([("near", "Seattle")]))
    #expect(request.near == seattle.coordinate)
    #expect(request.nearPlace == seattle)
    let within = try WithinRequest(parameters([("near", "seattle, wa"), ("radius", "5km")]))
    #expect(within.nearPlace == seattle)
    guard case .circle(let center, _) = within.area else {
      Issue.record("not a circle")
      return
    }
    #expect(center == seattle.coordinate)
  }

  @Test func latLonIsReadExactlyAsBefore() throws {
    for text in ["47.6062,-122.3321", " 47.6 , -122.3 ", "1e1,2", "-0,0"] {
      let request = try NearestRequest(parameters([("near", text)]))
      #expect(request.near == (try Coordinate(parsing: text)))
      #expect(request.nearPlace == nil)
    }
    // The coordinate's own sentences, as before: a NUL, a swapped pair, a bad number.
    for text in ["47.6\u{0}abc,-122.3", "-122.3,47.6", "47.6", "", "nan,1", "10115"] {
      let error = refusal { () throws(RequestError) in _ = try NearestRequest(parameters([("near", text)])) }
      var expected = ""
      do throws(CoordinateError) { _ = try Coordinate(parsing: text) } catch { expected = "near: \(error)" }
      #expect(error?.message == expected, "\(text)")
    }
  }

  @Test func anAmbiguousNameIsRefusedWithItsCandidates() throws {
    let error = try #require(
      refusal { () throws(RequestError) in
        _ = try NearestRequest(parameters([("near", "Paris")], style: .commandLine))
      })
    #expect(error.kind == .invalid)
    #expect(error.parameter == "--near")
    #expect(error.message.hasPrefix("--near: 'Paris' names "))
    #expect(error.message.contains("Paris, Île-de-France, FR (population 2,138,551)"))
    let unknown = try #require(
      refusal { () throws(RequestError) in _ = try NearestRequest(parameters([("near", "Seatle")])) })
    #expect(unknown.message.contains("did you mean Seattle, Washington, US"))
  }

  @Test func answersSayWhichPlaceTheyUsed() throws {
    let catalog = try Catalog.load(contentsOf: DefaultData.bundledPath)
    let now = Instant(secondsSinceEpoch: 1_795_629_600)
    let named = catalog.answer(try NearestRequest(parameters([("near", "Seattle"), ("k", "3")])), now: now)
    let typed = catalog.answer(
      try NearestRequest(parameters([("near", "47.6062,-122.3321"), ("k", "3")])), now: now)
    #expect(named.matches.map(\.store.id) == typed.matches.map(\.store.id))
    let place = try #require(named.query["near_place"])
    guard case .object(let object) = place else {
      Issue.record("near_place is not an object")
      return
    }
    #expect(object["name"] == .string("Seattle"))
    #expect(object["division"] == .string("Washington"))
    #expect(object["division_code"] == .string("WA"))
    #expect(object["country"] == .string("US"))
    #expect(typed.query["near_place"] == nil)
    #expect(named.notes.first == "near: Seattle, Washington, US (47.6062,-122.3321; population 780,995)")
    #expect(typed.notes.isEmpty)
    #expect(named.jsonText.contains("\"near_place\":{\"name\":\"Seattle\""))
  }

  @Test func aPickupRequestTakesAPlaceName() throws {
    let submission = try PickupSubmission(body: Array(#"{"near": "Seattle", "ready_in": "10m"}"#.utf8))
    #expect(submission.near == (try PlaceIndex.bundled().resolve("Seattle").place.coordinate))
    #expect(submission.nearPlace?.name == "Seattle")
  }

  // MARK: The place search's request

  @Test func placesRequestReadsItsParameters() throws {
    let request = try PlacesRequest(parameters([("q", "zur"), ("limit", "3"), ("near", "47.3,8.5")]))
    #expect(request.query == "zur")
    #expect(request.limit == 3)
    #expect(request.near?.coordinate == Coordinate(uncheckedLatitude: 47.3, longitude: 8.5))
    #expect(try PlacesRequest(parameters([("q", "zur")])).limit == 10)
    let answer = try PlaceIndex.bundled().answer(request)
    #expect(answer.matches.count == 3)
    #expect(answer.jsonText.hasPrefix("{\"places\":[{\"name\":\"Zürich\","))
    #expect(answer.text.split(separator: "\n").count == 3)
    let nothing = try PlaceIndex.bundled().answer(try PlacesRequest(parameters([("q", "!!!")])))
    #expect(nothing.jsonText == "{\"places\":[]}\n")
    #expect(nothing.text.hasPrefix("no place has a name starting with '!!!'"))
  }

  @Test(arguments: [
    ([("limit", "3")], "q is required: the start of a place name"),
    ([("q", String(repeating: "a", count: 101))], "q is at most 100 characters (got 101)"),
    ([("q", "zur"), ("limit", "0")], "limit must be 1...50 (got 0)"),
    ([("q", "zur"), ("limit", "51")], "limit must be 1...50 (got 51)"),
    ([("q", "zur"), ("limit", "many")], "limit must be a whole number (got 'many')"),
    ([("q", "zur"), ("near", "Paris")], "near: 'Paris' names"),
    ([("q", "zur"), ("qq", "x")], "unknown parameter 'qq'"),
    ([("q", "")], "q is empty: give the start of a place name"),
  ])
  func placesRequestRefusesBadValues(_ pairs: [(String, String)], _ message: String) {
    let error = refusal { () throws(RequestError) in _ = try PlacesRequest(parameters(pairs)) }
    #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "accepted")")
  }
}
