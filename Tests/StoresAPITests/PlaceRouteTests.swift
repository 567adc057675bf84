import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import OpeningHours
import StoreLocator
import Testing

@testable import StoresAPI

/// `GET /v1/places`, and a place name as `near=` on the other routes.
@Suite struct PlaceRouteTests {
  @Test func placesIsTheLibrarysAnswer() async throws {
    let expected = try PlaceIndex.bundled().answer(
      PlacesRequest(
        RequestParameters([("q", "Zür"), ("limit", "5"), ("near", "47.6062,-122.3321")], style: .queryString))
    ).jsonText
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get("/v1/places?q=Z%C3%BCr&limit=5&near=47.6062,-122.3321")
      #expect(response.status == .ok)
      #expect(response.headers[.contentType] == "application/json")
      #expect(response.text == expected)
      let places = try #require(try response.json()["places"] as? [[String: Any]])
      #expect(places.count == 5)
      #expect(places.allSatisfy { $0["distance_m"] is Double })
      #expect(response.headers[.eTag] == DocumentResponse.entityTag(of: expected))
    }
  }

  @Test(arguments: [
    ("/v1/places", "q", "q is required"),
    ("/v1/places?q=zur&limit=0", "limit", "limit must be 1...50 (got 0)"),
    ("/v1/places?q=zur&limit=99", "limit", "limit must be 1...50 (got 99)"),
    ("/v1/places?q=zur&near=Springfield", "near", "near: 'Springfield' names"),
    ("/v1/stores/nearest?near=Springfield&bias=Chicago", "bias", "bias: "),
    (
      "/v1/stores/nearest?near=London&country=USA", "country",
      "country is a country's two-letter ISO 3166-1 code"
    ),
    ("/v1/places?q=", "q", "q is empty"),
    ("/v1/stores/nearest?near=Springfield", "near", "near: 'Springfield' names"),
    ("/v1/stores/nearest?near=Seatle", "near", "near: no place is named 'Seatle'"),
  ])
  func badValuesAreProblems(_ path: String, _ parameter: String, _ detail: String) async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get(path)
      #expect(response.status == .badRequest)
      #expect(response.headers[.contentType] == "application/problem+json")
      let body = try response.json()
      #expect(body["type"] as? String == "urn:stores:problem:invalid-request")
      #expect(body["parameter"] as? String == parameter)
      #expect((body["detail"] as? String)?.hasPrefix(detail) == true, "\(body)")
    }
  }

  /// A `near` name several places have lists them in `places`, as the library's lookup finds
  /// them (an app offers them as choices); an unknown one lists the close names; a bad
  /// coordinate lists none.
  @Test(arguments: [
    ("/v1/stores/nearest?near=Portland", "Portland"),
    ("/v1/stores/within?near=Springfield&radius=1km", "Springfield"),
    ("/v1/stores/nearest?near=Seatle", "Seatle"), ("/v1/places?q=a&near=St.%20Petersburg", "St. Petersburg"),
  ])
  func aNearNameThatIsNotOnePlaceListsThePlacesItMayMean(_ path: String, _ name: String) async throws {
    let expected: [Place]
    do {
      _ = try PlaceIndex.bundled().resolve(name)
      Issue.record("\(name) names one place")
      return
    } catch {
      expected = error.candidates.isEmpty ? error.suggestions : error.candidates
    }
    #expect(!expected.isEmpty)
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get(path)
      #expect(response.status == .badRequest)
      let places = try #require(try response.json()["places"] as? [[String: Any]], "\(response.text)")
      #expect(places.map { $0["name"] as? String } == expected.map(\.name))
      #expect(places.map { $0["division"] as? String } == expected.map(\.division))
      #expect(places.map { $0["latitude"] as? Double } == expected.map(\.coordinate.latitude))
      #expect(places.map { $0["population"] as? Int } == expected.map(\.population))
    }
  }

  @Test func aBadCoordinateListsNoPlaces() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get("/v1/stores/nearest?near=91,0")
      #expect(response.status == .badRequest)
      #expect(try response.json()["places"] == nil)
      #expect(try response.json()["parameter"] as? String == "near")
    }
  }

  /// The big cities typed alone are those cities, with the others of the name in
  /// `query.near_alternatives` and in the note, as the library resolves them.
  @Test(arguments: ["London", "Berlin", "Sydney", "Moscow", "Delhi", "Cologne"])
  func aBigCityTypedAloneIsThatCity(_ name: String) async throws {
    let expected = try PlaceIndex.bundled().resolve(name)
    #expect(!expected.alternatives.isEmpty)
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get("/v1/stores/nearest?near=\(name)&k=1&now=\(TestService.now)")
      #expect(response.status == .ok, "\(response.text)")
      let query = try #require(try response.json()["query"] as? [String: Any])
      let place = try #require(query["near_place"] as? [String: Any])
      #expect(place["name"] as? String == expected.place.name)
      #expect(place["country"] as? String == expected.place.countryCode)
      let alternatives = try #require(query["near_alternatives"] as? [[String: Any]])
      #expect(alternatives.map { $0["country"] as? String } == expected.alternatives.map(\.countryCode))
      #expect(alternatives.map { $0["population"] as? Int } == expected.alternatives.map(\.population))
      let note = try #require(response.headers[values: .storesNote].first?.removingPercentEncoding)
      #expect(note.hasPrefix("near: \(expected.place.label)"))
      #expect(note.contains("also named so: \(expected.alternatives[0].labelWithPopulation)"))
    }
  }

  @Test func aBiasSettlesSpringfield() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let refused = try await client.get("/v1/stores/nearest?near=Springfield")
      #expect(refused.status == .badRequest)
      let response = try await client.get("/v1/stores/nearest?near=Springfield&bias=39.8,-89.6&k=1")
      #expect(response.status == .ok, "\(response.text)")
      let query = try #require(try response.json()["query"] as? [String: Any])
      #expect((query["near_place"] as? [String: Any])?["division"] as? String == "Illinois")
      let within = try await client.get("/v1/stores/within?near=Springfield&bias=39.8,-89.6&radius=5km")
      #expect(within.status == .ok, "\(within.text)")
      let pickup = try await client.post(
        "/v1/pickup",
        json: #"{"near": "Springfield", "bias": {"latitude": 39.8, "longitude": -89.6}, "ready_in": "12m"}"#)
      #expect(pickup.status == .ok, "\(pickup.text)")
      #expect(
        pickup.headers[values: .storesNote].first?.removingPercentEncoding?.hasPrefix(
          "near: Springfield, Illinois, US") == true)
      let places = try await client.get("/v1/places?q=sea&limit=1")
      #expect((try places.json()["places"] as? [[String: Any]])?.first?["name"] as? String == "Seattle")
      let qualified = try await client.get("/v1/places?q=seattle,%20wa&limit=1")
      #expect((try qualified.json()["places"] as? [[String: Any]])?.first?["name"] as? String == "Seattle")
    }
  }

  @Test func nearestByPlaceNameEchoesThePlace() async throws {
    try await TestService.application(TestService.service()).test(.router) { client in
      let response = try await client.get("/v1/stores/nearest?near=Seattle,%20WA&k=2&now=\(TestService.now)")
      #expect(response.status == .ok)
      let query = try #require(try response.json()["query"] as? [String: Any])
      let place = try #require(query["near_place"] as? [String: Any])
      #expect(place["name"] as? String == "Seattle")
      #expect(place["division_code"] as? String == "WA")
      let note = response.headers[values: .storesNote].first?.removingPercentEncoding
      #expect(note == "near: Seattle, Washington, US (47.6062,-122.3321; population 780,995)")

      let pickup = try await client.post(
        "/v1/pickup", json: #"{"near": "Seattle", "ready_in": "12m", "now": "\#(TestService.now)"}"#)
      #expect(pickup.status == .ok)
      #expect(
        pickup.headers[values: .storesNote].first?.removingPercentEncoding?.hasPrefix("near: Seattle") == true
      )
    }
  }
}
