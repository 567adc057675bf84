import GeoIndex
import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes an All The Places-style GeoJSON FeatureCollection, one Feature a line, of `count`
/// stores of an invented chain at points uniform on the sphere (`uniformSpherePoints`, same seed,
/// same points, rounded to 6 or 7 decimals).
///
/// The properties come from a second generator, so they never shift the points: about 10% of the
/// stores have `drive_through=yes` (20% `no`, the rest no tag) and about 1% `flag1=yes`.
/// With `places`, the stores sit around real towns instead (`ClusteredPlacement`); the
/// properties are the same either way. Returns the number of bytes written.
func generateGeoJSON(count: Int, seed: UInt64, to path: String, places: ClusteredPlacement? = nil) -> Int {
  guard let file = fopen(path, "w") else { fail("cannot write \(path)") }
  var points = SplitMix64(seed: seed)
  var props = SplitMix64(seed: seed ^ 0x5EED_0F_BEEF)
  var out: [UInt8] = []
  out.reserveCapacity(1 << 21)
  var written = 0
  func flush() {
    out.withUnsafeBufferPointer { _ = fwrite($0.baseAddress, 1, $0.count, file) }
    written += out.count
    out.removeAll(keepingCapacity: true)
  }
  func put(_ text: String) { out.append(contentsOf: text.utf8) }

  put(
    #"{"type":"FeatureCollection","dataset_attributes":{"generator":"stores-benchmarks generate","#
      + #""fictional":true,"seed":\#(seed),"store_count":\#(count),"spider":"meridian_coffee""#
      + (places == nil ? "" : #","placement":"clustered around populated places""#) + "},"
      + #""features":["# + "\n")
  for i in 0..<count {
    let point = places?.nextPoint(&points) ?? nextSpherePoint(&points)
    let ref = zeroPadded(i + 1, 7)
    let city = cities[props.next(below: cities.count)]
    let street = streets[props.next(below: streets.count)]
    let house = 1 + props.next(below: 9998)
    let postcode = zeroPadded(props.next(below: 100_000), 5)
    let phone = city.phone + zeroPadded(props.next(below: 10_000), 4)
    let hours = openingHours[props.next(below: openingHours.count)]
    let cuisine = props.next(below: 10) == 0 ? "coffee_shop;donut" : "coffee_shop"
    let drive = props.nextDouble()
    let flag1 = props.nextDouble() < 0.01
    let decimals = 6 + props.next(below: 2)

    put(#"{"type":"Feature","id":"mc-"#)
    put(ref)
    put(#"","geometry":{"type":"Point","coordinates":["#)
    appendDecimal(point.longitude, decimals, to: &out)
    out.append(UInt8(ascii: ","))
    appendDecimal(point.latitude, decimals, to: &out)
    put(#"]},"properties":{"ref":""#)
    put(ref)
    put(#"","name":"Meridian "#)
    put(city.name)
    put(#"","brand":"Meridian","amenity":"cafe","cuisine":""#)
    put(cuisine)
    put(#"","addr:street_address":""#)
    put(String(house))
    out.append(UInt8(ascii: " "))
    put(street)
    put(#"","addr:city":""#)
    put(city.name)
    put(#"","addr:postcode":""#)
    put(postcode)
    put(#"","addr:country":""#)
    put(city.country)
    put(#"","phone":""#)
    put(phone)
    put(#"","website":"https://meridian.example/s/"#)
    put(ref)
    put(#"","opening_hours":""#)
    put(hours)
    out.append(UInt8(ascii: "\""))
    if drive < 0.10 {
      put(#","drive_through":"yes""#)
    } else if drive < 0.30 {
      put(#","drive_through":"no""#)
    }
    if flag1 { put(#","flag1":"yes""#) }
    put(i + 1 < count ? "}},\n" : "}}\n")
    if out.count >= 1 << 20 { flush() }
  }
  put("]}\n")
  flush()
  guard fclose(file) == 0 else { fail("cannot write \(path)") }
  return written
}

/// Store locations around real towns, for data shaped like a chain's: dense in cities, empty
/// over oceans and deserts, unlike the uniform points, which put every query in the same
/// situation.
///
/// Each point picks a place from a GeoNames list with probability proportional to its weight (its
/// population when the file has a `population` column; otherwise every place counts the same,
/// which still follows where people live, because the list holds only towns of 5,000 or more),
/// then moves a normally distributed distance north and east of it (σ = `sigmaMeters` each).
struct ClusteredPlacement {
  var latitudes: [Double] = []
  var longitudes: [Double] = []
  /// Running totals of the weights, for a binary search on one uniform draw.
  var cumulativeWeights: [Double] = []
  var sigmaMeters = 3_000.0
  var usesPopulation = false

  /// `Data/timezones/places.tsv` of the checkout the benchmarks are built from.
  static var defaultPath: String { DefaultData.dataDirectory + "/timezones/places.tsv" }

  /// Reads a tab-separated places file: `#` comment lines, the last of which before the data
  /// names the columns (`latitude`, `longitude` and optionally `population` are used).
  init(contentsOf path: String) {
    guard let file = fopen(path, "r") else { fail("cannot read \(path)") }
    defer { fclose(file) }
    var latitudeColumn = 0
    var longitudeColumn = 1
    var populationColumn: Int? = nil
    var total = 0.0
    var buffer = [CChar](repeating: 0, count: 4096)
    while fgets(&buffer, Int32(buffer.count), file) != nil {
      let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let fields = line.dropLast(line.hasSuffix("\n") ? 1 : 0).split(
        separator: "\t", omittingEmptySubsequences: false)
      if line.hasPrefix("#") {
        // The header is a comment too: "# latitude<TAB>longitude<TAB>…".
        let names = fields.map { $0.trimmingPrefix("# ").lowercased() }
        if let lat = names.firstIndex(of: "latitude"), let lon = names.firstIndex(of: "longitude") {
          latitudeColumn = lat
          longitudeColumn = lon
          populationColumn = names.firstIndex(of: "population")
        }
        continue
      }
      guard fields.count > max(latitudeColumn, longitudeColumn), let lat = Double(fields[latitudeColumn]),
        let lon = Double(fields[longitudeColumn]), (-90...90).contains(lat), (-180...180).contains(lon)
      else { continue }
      var weight = 1.0
      if let column = populationColumn {
        guard column < fields.count, let population = Double(fields[column]), population > 0 else { continue }
        weight = population
      }
      latitudes.append(lat)
      longitudes.append(lon)
      total += weight
      cumulativeWeights.append(total)
    }
    guard !latitudes.isEmpty else { fail("no places in \(path)") }
    usesPopulation = populationColumn != nil
  }

  var count: Int { latitudes.count }

  /// Three draws a point, in this order: the place, then two for the offset (Box–Muller).
  func nextPoint(_ rng: inout SplitMix64) -> Coordinate {
    let target = rng.nextDouble() * cumulativeWeights[cumulativeWeights.count - 1]
    var low = 0
    var high = cumulativeWeights.count - 1
    while low < high {
      let middle = (low + high) / 2
      if cumulativeWeights[middle] > target { high = middle } else { low = middle + 1 }
    }
    // 1 - u is in (0, 1], so the logarithm is finite.
    let radius = (-2 * log(1 - rng.nextDouble())).squareRoot() * sigmaMeters
    let angle = 2 * Double.pi * rng.nextDouble()
    let metersPerDegree = earthMeanRadiusMeters * .pi / 180
    let latitude = latitudes[low] + radius * cos(angle) / metersPerDegree
    // East-west degrees grow as the parallels shrink; the floor keeps a place at a pole finite.
    let shrink = max(cos(latitudes[low] * .pi / 180), 1e-6)
    let longitude = longitudes[low] + radius * sin(angle) / (metersPerDegree * shrink)
    return Coordinate(
      uncheckedLatitude: min(90, max(-90, latitude)), longitude: wrappedLongitude(longitude))
  }
}

/// `longitude` in [-180, 180): across the antimeridian, 181° is -179°.
func wrappedLongitude(_ longitude: Double) -> Double {
  let wrapped = (longitude + 180).truncatingRemainder(dividingBy: 360)
  return (wrapped < 0 ? wrapped + 360 : wrapped) - 180
}

/// `value` with at most `decimals` decimals, trailing zeros dropped, as a JSON number.
func appendDecimal(_ value: Double, _ decimals: Int, to out: inout [UInt8]) {
  var scale: Int64 = 1
  for _ in 0..<decimals { scale *= 10 }
  let scaled = Int64((abs(value) * Double(scale)).rounded())
  if value < 0 && scaled != 0 { out.append(UInt8(ascii: "-")) }
  out.append(contentsOf: String(scaled / scale).utf8)
  var fraction = scaled % scale
  guard fraction != 0 else { return }
  var digits = decimals
  while fraction % 10 == 0 {
    fraction /= 10
    digits -= 1
  }
  out.append(UInt8(ascii: "."))
  let text = String(fraction)
  out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits - text.count))
  out.append(contentsOf: text.utf8)
}

func zeroPadded(_ value: Int, _ width: Int) -> String {
  let text = String(value)
  return String(repeating: "0", count: max(0, width - text.count)) + text
}

private let cities: [(name: String, country: String, phone: String)] = [
  ("Glendale", "US", "+1 818 555 "), ("Toronto", "CA", "+1 416 555 "),
  ("Leeds", "GB", "+44 113 496 "), ("Lyon", "FR", "+33 4 72 00 "),
  ("München", "DE", "+49 89 1234 "), ("São Paulo", "BR", "+55 11 3000 "),
  ("Osaka", "JP", "+81 6 6000 "), ("Sydney", "AU", "+61 2 9000 "),
  ("Kraków", "PL", "+48 12 400 "), ("Ciudad de México", "MX", "+52 55 5000 "),
  ("Auckland", "NZ", "+64 9 300 "), ("Reykjavík", "IS", "+354 500 "),
]

private let streets = [
  "Kestrel Way", "Copper Street", "Marlow Way", "Harbour Road", "Elm Avenue", "Station Road",
  "Mill Lane", "Queen Street", "Rue de la Paix", "Calle Mayor", "Hauptstraße", "Via Roma",
  "Rua Augusta", "Ulica Długa", "Chūō-dōri", "Laugavegur",
]

private let openingHours = [
  "Mo-Fr 06:30-19:00; Sa,Su 08:00-17:00",
  "Mo-Su 07:00-22:00",
  "Mo-Sa 06:00-21:00; Su 08:00-18:00",
  "24/7",
  "Mo-Su 06:00-20:00",
  "Mo-Fr 05:30-20:30; Sa,Su 07:00-19:00; PH off",
]
