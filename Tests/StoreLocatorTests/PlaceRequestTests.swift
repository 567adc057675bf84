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

  /// A nearest store far beyond the customer's town is said, with its distance (issue 34 §4:
  /// Paris answered stores in London with no word); a near one is not.
  @Test func aFarNearestStoreIsSaid() throws {
    let catalog = RequestTests.catalog
    let now = Instant(secondsSinceEpoch: 1_796_202_000)
    // The bundled data's Paris stores have no drive-through: the nearest with one is in London.
    let paris = try NearestRequest(
      parameters([("near", "Paris, FR"), ("where", "drive_through=yes"), ("open_for", "2h"), ("k", "2")]))
    let far = catalog.answer(paris, now: now)
    let first = try #require(far.matches.first?.distance)
    #expect(first > SearchAnswer.farNoteDistance)
    let farNote = far.farNote
    let note = try #require(farNote)
    #expect(note.hasPrefix("the nearest store that matches, \(far.matches[0].store.id) ("), "\(note)")
    #expect(note.contains("is \(first.kilometersText) from Paris, Île-de-France, FR"), "\(note)")
    #expect(far.notes.contains(note))
    let seattle = catalog.answer(try NearestRequest(parameters([("near", "Seattle")])), now: now)
    let nearNote = seattle.farNote
    #expect(nearNote == nil)
    #expect(!seattle.notes.contains { $0.hasPrefix("the nearest store that matches") })
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
        _ = try NearestRequest(parameters([("near", "Springfield")], style: .commandLine))
      })
    #expect(error.kind == .invalid)
    #expect(error.parameter == "--near")
    #expect(error.message.hasPrefix("--near: 'Springfield' names "))
    #expect(error.message.contains("Springfield, Missouri, US (population 170,188)"))
    #expect(
      error.message.hasSuffix(
        "or say where the customer is with --bias LAT,LON, or the country with --country CC"))
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

  /// "London" is London, England, with the other Londons in the answer and the note.
  @Test func aNameOnePlaceOutweighsIsThatPlaceWithTheOthersListed() throws {
    let catalog = try Catalog.load(contentsOf: DefaultData.bundledPath)
    let now = Instant(secondsSinceEpoch: 1_795_629_600)
    let expected = try PlaceIndex.bundled().resolve("London")
    let request = try NearestRequest(parameters([("near", "London"), ("k", "1")]))
    #expect(request.nearPlace?.countryCode == "GB")
    #expect(request.nearAlternatives == expected.alternatives)
    #expect(request.nearAlternatives.first?.label == "London, Ontario, CA")
    let answer = catalog.answer(request, now: now)
    guard case .array(let listed) = try #require(answer.query["near_alternatives"]) else {
      Issue.record("near_alternatives is not an array")
      return
    }
    #expect(listed.count == expected.alternatives.count)
    #expect(listed.first == .object(expected.alternatives[0].jsonObject))
    let note = try #require(answer.notes.first)
    #expect(
      note.hasPrefix("near: London, England, GB (51.5085,-0.1257; population 8,961,989); also named so: "))
    #expect(note.contains("London, Ontario, CA (population 422,324)"))
    // A name that is one place's has none.
    let seattle = catalog.answer(try NearestRequest(parameters([("near", "Seattle")])), now: now)
    #expect(seattle.query["near_alternatives"] == .array([]))
    #expect(seattle.notes.first?.contains("also named") == false)
    // within says the same.
    let within = try WithinRequest(parameters([("near", "London"), ("radius", "1km")]))
    #expect(within.nearAlternatives == expected.alternatives)
    #expect(try catalog.answer(within, now: now).query["near_alternatives"] != nil)
  }

  @Test func biasAndCountrySettleANameSeveralPlacesHave() throws {
    let springfield = try NearestRequest(parameters([("near", "Springfield"), ("bias", "39.8,-89.6")]))
    #expect(springfield.nearPlace?.label == "Springfield, Illinois, US")
    let within = try WithinRequest(
      parameters([("near", "Springfield"), ("bias", "39.8,-89.6"), ("radius", "2km")]))
    #expect(within.nearPlace?.division == "Illinois")
    let ontario = try NearestRequest(parameters([("near", "London"), ("country", "ca")]))
    #expect(ontario.nearPlace?.division == "Ontario")
    // UK, as people write it, is GB.
    let perth = try NearestRequest(parameters([("near", "Perth"), ("country", "UK")]))
    #expect(perth.nearPlace?.label == "Perth, Scotland, GB")
    // In a pickup body, as a string or an object.
    for bias in [#""39.8,-89.6""#, #"{"latitude": 39.8, "longitude": -89.6}"#] {
      let submission = try PickupSubmission(
        body: Array(#"{"near": "Springfield", "bias": \#(bias), "ready_in": "10m"}"#.utf8))
      #expect(submission.nearPlace?.division == "Illinois", "\(bias)")
    }
    // An order document's customer needs no name: a malformed country is still refused.
    let order = refusal { () throws(RequestError) in
      _ = try PickupSubmission(parameters([("country", "")]), order: nil)
    }
    #expect(order?.parameter == "country")
    // A coordinate `near` ignores them.
    let typed = try NearestRequest(parameters([("near", "47.6,-122.3"), ("bias", "39.8,-89.6")]))
    #expect(typed.nearPlace == nil)
  }

  @Test(arguments: [
    ([("near", "Springfield"), ("bias", "Chicago")], "bias: "),
    ([("near", "Springfield"), ("bias", "91,0")], "bias: "),
    ([("near", "Springfield"), ("country", "USA")], "country is a country's two-letter ISO 3166-1 code"),
    ([("near", "Springfield"), ("country", "US")], "near: 'Springfield' names 11 places there"),
    // Malformed even where no name needs them: a coordinate, or no near at all.
    ([("near", "47.6,-122.3"), ("country", "")], "country is a country's two-letter ISO 3166-1 code"),
    ([("near", "47.6,-122.3"), ("bias", "x")], "bias: "),
  ])
  func badBiasesAndCountriesAreRefused(_ pairs: [(String, String)], _ message: String) {
    let error = refusal { () throws(RequestError) in _ = try NearestRequest(parameters(pairs)) }
    #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "accepted")")
  }

  /// The catalog's countries, as the CLI and the service pass them; the command line's check
  /// before loading lets a name they may settle through.
  @Test func theCatalogsCountriesAreReadWithTheRequest() throws {
    var read = parameters([("near", "Springfield")])
    read.storeCountries = ["AU"]
    #expect(try NearestRequest(read).nearPlace?.countryCode == "AU")
    var early = parameters([("near", "Springfield")], style: .commandLine)
    early.defersPlaceChoice = true
    #expect(try NearestRequest(early).nearPlace?.name == "Springfield")
    let catalog = try Catalog.load(contentsOf: DefaultData.bundledPath)
    #expect(catalog.storeCountries.isSuperset(of: ["US", "GB", "AU"]))
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
    ([("q", "zur"), ("near", "Springfield")], "near: 'Springfield' names"),
    ([("q", "zur"), ("qq", "x")], "unknown parameter 'qq'"),
    ([("q", "")], "q is empty: give the start of a place name"),
  ])
  func placesRequestRefusesBadValues(_ pairs: [(String, String)], _ message: String) {
    let error = refusal { () throws(RequestError) in _ = try PlacesRequest(parameters(pairs)) }
    #expect(error?.message.hasPrefix(message) == true, "\(error?.message ?? "accepted")")
  }
}
