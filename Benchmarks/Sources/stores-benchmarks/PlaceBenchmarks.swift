import GeoIndex
import StoreLocator

/// The queries of `places`: what a search box sends as someone types, from one letter to a whole
/// name, in several scripts and spellings.
let placeQueries = [
  "s", "se", "sea", "seat", "seattle", "z", "zur", "zürich", "munc", "spring", "springfield", "paris",
  "san", "sao paulo", "new y", "fremantle", "bei", "mosk", "москва", "東京", "st john", "los a", "kr", "xyzzy",
]

/// The bundled places' search (`PlaceIndex`): the index's build from `Data/timezones/places.tsv`
/// (what the first search or `--near NAME` of a process pays), a prefix search per query of
/// `placeQueries` with and without `near`, and the resolution of names to one place.
func benchmarkPlaces(repeats: Int) {
  let path = TimeZoneLocator.bundledPath
  var index: PlaceIndex?
  let build = best(of: repeats) { index = try! PlaceIndex(contentsOf: path) }
  guard let index else { fail("no index") }
  var table = Table("Place search over \(path) (\(index.count) places, \(index.nameCount) names)")
  table.add("index build", fixed(build * 1000, 0) + " ms")
  record("places.build_ms", build * 1000)
  let near = Coordinate(uncheckedLatitude: 47.6, longitude: -122.3)
  for (key, label, point) in [
    ("plain", "search, limit 10", nil), ("near", "search with near, limit 10", near),
  ] {
    var found = 0
    var worst = 0.0
    var total = 0.0
    for query in placeQueries {
      let time =
        best(of: repeats) {
          for _ in 0..<20 { found &+= index.search(query, near: point, limit: 10).count }
        } / 20
      worst = max(worst, time)
      total += time
    }
    consume(found)
    table.add(
      "\(label), mean of \(placeQueries.count) queries",
      fixed(total / Double(placeQueries.count) * 1e6, 1) + " µs")
    table.add("\(label), slowest (one letter)", fixed(worst * 1e6, 1) + " µs")
    record("places.\(key)_mean_us", total / Double(placeQueries.count) * 1e6)
    record("places.\(key)_max_us", worst * 1e6)
  }
  let names = ["Seattle", "Springfield, Illinois, US", "Paris", "Seatle"]
  let resolve =
    best(of: repeats) {
      for _ in 0..<20 {
        for name in names { consume((try? index.resolve(name)) == nil ? 0 : 1) }
      }
    } / Double(20 * names.count)
  table.add("resolve (one place, qualified, ambiguous, unknown), mean", fixed(resolve * 1e6, 1) + " µs")
  record("places.resolve_mean_us", resolve * 1e6)
  table.print()
}
