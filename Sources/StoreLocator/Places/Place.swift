import GeoIndex

/// A populated place of the bundled GeoNames extract (`Data/timezones/places.tsv`), as searches
/// by name answer it.
public struct Place: Hashable, Sendable {
  /// The place's GeoNames name, such as `Zürich`.
  public let name: String
  /// The ISO 3166-1 alpha-2 country code, such as `CH`.
  public let countryCode: String
  /// GeoNames' first-level division code (`WA`, `ZH`, `08`); may be empty.
  public let divisionCode: String
  /// The division's name (`Washington`, `Western Australia`); `nil` for the few divisions the
  /// data names by code only.
  public let divisionName: String?
  public let coordinate: Coordinate
  /// GeoNames' population figure.
  public let population: Int

  public init(
    name: String, countryCode: String, divisionCode: String, divisionName: String?,
    coordinate: Coordinate, population: Int
  ) {
    self.name = name
    self.countryCode = countryCode
    self.divisionCode = divisionCode
    self.divisionName = divisionName
    self.coordinate = coordinate
    self.population = population
  }

  /// The division as people read it: its name where the data has one, else its code.
  public var division: String { divisionName ?? divisionCode }

  /// `Seattle, Washington, US`; `Fremantle, Western Australia, AU`; without the division when there
  /// is none.
  public var label: String {
    ([name] + (division.isEmpty ? [] : [division]) + [countryCode]).joined(separator: ", ")
  }

  /// `Seattle, Washington, US (population 780,995)`, as candidate lists write a place.
  public var labelWithPopulation: String {
    "\(label) (population \(Self.grouped(population)))"
  }

  /// `780995` → `780,995`.
  static func grouped(_ number: Int) -> String {
    let digits = String(number)
    var output = ""
    for (offset, character) in digits.enumerated() {
      if offset > 0, (digits.count - offset) % 3 == 0 { output.append(",") }
      output.append(character)
    }
    return output
  }

  /// The members every answer writes a place with: `name`, `division`, `division_code`,
  /// `country`, `latitude`, `longitude`, `population`.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    object["name"] = .string(name)
    object["division"] = .string(division)
    object["division_code"] = .string(divisionCode)
    object["country"] = .string(countryCode)
    object["latitude"] = JSONValue(coordinate.latitude)
    object["longitude"] = JSONValue(coordinate.longitude)
    object["population"] = JSONValue(population)
    return object
  }
}

/// One answer of a place search.
public struct PlaceMatch: Hashable, Sendable {
  public let place: Place
  /// The alternate name the query matched (`Zurigo` for Zürich), or `nil` when it matched the
  /// place's own name.
  public let matchedName: String?
  /// How far the place is from the search's `near` point, when one was given.
  public let distance: Distance?
  /// The ranking score (see `PlaceIndex.search`); higher is better.
  public let score: Double
  /// For a name resolved (`PlaceIndex.resolve`): the other places it may have meant, which the
  /// place outweighs; empty for a search's match.
  public var alternatives: [Place]

  public init(
    place: Place, matchedName: String?, distance: Distance?, score: Double, alternatives: [Place] = []
  ) {
    self.place = place
    self.matchedName = matchedName
    self.distance = distance
    self.score = score
    self.alternatives = alternatives
  }

  /// The place's members, `matched_name` when an alternate name matched, and `distance_m` when
  /// the search had a `near` point.
  public var jsonObject: JSONObject {
    var object = JSONObject()
    let placeObject = place.jsonObject
    for member in placeObject {
      object[member.key] = member.value
      if member.key == "name", let matchedName { object["matched_name"] = .string(matchedName) }
    }
    if let distance { object["distance_m"] = JSONValue(meters: distance.meters) }
    return object
  }
}

/// What settles a name several places share (`PlaceIndex.resolve`), besides their sizes: where
/// the person is, the country they mean, and, as the last resort, the countries of the catalog's
/// stores.
public struct PlacePreference: Hashable, Sendable {
  /// A point near the person (the request's `bias`: a map's centre, a last known position):
  /// nearer places weigh more.
  public var bias: Coordinate?
  /// The ISO 3166-1 alpha-2 code of the country meant (the request's `country`), upper case.
  public var country: String?
  /// The countries of the catalog's stores (`Catalog.storeCountries`), weighed when the request
  /// gives neither `bias` nor `country`.
  public var storeCountries: Set<String>

  public init(bias: Coordinate? = nil, country: String? = nil, storeCountries: Set<String> = []) {
    self.bias = bias
    self.country = country
    self.storeCountries = storeCountries
  }
}
