import FuzzSupport
@_spi(Fuzzing) import StoreLocator

@main enum GeoJSONFuzz {
  static func main() {
    runFuzzer { data, count in
      let bytes = Array(fuzzInput(data, count))
      _ = FuzzingHooks.readGeoJSON(bytes, source: "fuzz.geojson", readAheadStretches: nil)
      return 0
    }
  }
}
