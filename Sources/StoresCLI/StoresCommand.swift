import ArgumentParser

/// The `stores` command: finds stores near a place, checks a chain's store file.
@main
struct StoresCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "stores",
    abstract: "Find the nearest stores of a chain, exactly, anywhere on Earth.",
    discussion: """
      Data comes from --data PATH, else $STORES_DATA, else the bundled data set \
      (Data/stores.geojson). Input is GeoJSON: a FeatureCollection, newline-delimited Features \
      or RFC 8142 text sequences; '-' reads standard input. A snapshot ('stores snapshot build') \
      is read the same way, without parsing.

      Locations are LAT,LON in degrees (--near -33.8688,151.2093). Distances: 500m, 2km, 1.5mi; \
      a bare number is metres.

      Times are ISO 8601: with Z or an offset an instant, without one (2026-11-22T07:45) the wall \
      time at each store; the default is now. Durations: 90s, 15m, 1h30m, PT15M.

      Exit codes: 0 success, 64 usage error, 65 bad data, 66 input or store missing; \
      'stores open' exits 0 open, 1 closed, 2 unknown; 'stores pickup' exits 3 when no store is eligible.
      """,
    version: "0.1.0",
    subcommands: [
      Nearest.self, Within.self, Show.self, Hours.self, Open.self, Pickup.self, Info.self, Validate.self,
      Snapshot.self,
    ]
  )
}
