import Testing

// The edge cases of ../shared/corpus/geojson/edge_cases.jsonl, copied here so the behaviour is
// tested without ../shared, each with the behaviour decided for it (see docs/diagnostics.md).
// Generated once from the corpus file; keep the texts byte-identical to it.

struct EdgeCase: Sendable, CustomTestStringConvertible {
  enum Outcome: Sendable, Equatable {
    /// Loads with this many records, of which `indexed` have a location.
    case loads(stores: Int, indexed: Int)
    /// Throws `CatalogError` with `.badData`.
    case badData
  }

  let name: String
  let outcome: Outcome
  /// The diagnostic codes expected, in order.
  let codes: [String]
  /// The GeoJSON text, exactly as in the corpus.
  let text: String

  var testDescription: String { name }
}

extension EdgeCase {
  static let all: [EdgeCase] = [
    EdgeCase(
      name: "point_2d", outcome: .loads(stores: 1, indexed: 1), codes: [],
      text:
        "{\"type\":\"Feature\",\"id\":\"a\",\"properties\":{\"name\":\"A\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[-122.33,47.61]}}"
    ),
    EdgeCase(
      name: "point_with_altitude", outcome: .loads(stores: 1, indexed: 1), codes: ["generated-id"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[-122.33,47.61,56.0]}}"
    ),
    EdgeCase(
      name: "point_with_4_values", outcome: .loads(stores: 1, indexed: 1),
      codes: ["generated-id", "extra-coordinate-values"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2,3,4]}}"
    ),
    EdgeCase(
      name: "id_number", outcome: .loads(stores: 1, indexed: 1), codes: [],
      text:
        "{\"type\":\"Feature\",\"id\":42,\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
    ),
    EdgeCase(
      name: "id_float_big", outcome: .loads(stores: 1, indexed: 1), codes: [],
      text:
        "{\"type\":\"Feature\",\"id\":9007199254740993,\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
    ),
    EdgeCase(
      name: "id_missing_ref_in_props", outcome: .loads(stores: 1, indexed: 1), codes: [],
      text:
        "{\"type\":\"Feature\",\"properties\":{\"ref\":\"849-2059\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[-74.006,40.7115]}}"
    ),
    EdgeCase(
      name: "geometry_null", outcome: .loads(stores: 1, indexed: 0), codes: ["missing-geometry"],
      text: "{\"type\":\"Feature\",\"properties\":{\"ref\":\"x\"},\"geometry\":null}"),
    EdgeCase(
      name: "properties_null", outcome: .loads(stores: 1, indexed: 1), codes: ["generated-id"],
      text:
        "{\"type\":\"Feature\",\"properties\":null,\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"),
    EdgeCase(
      name: "multipoint_single", outcome: .loads(stores: 1, indexed: 1), codes: ["generated-id"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPoint\",\"coordinates\":[[19.405002,50.131627]]}}"
    ),
    EdgeCase(
      name: "multipoint_many", outcome: .loads(stores: 1, indexed: 1),
      codes: ["generated-id", "multiple-points"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"MultiPoint\",\"coordinates\":[[1,2],[1.001,2.001]]}}"
    ),
    EdgeCase(
      name: "polygon_building", outcome: .loads(stores: 1, indexed: 1),
      codes: ["generated-id", "polygon-representative-point"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[115.76,-32.11],[115.77,-32.11],[115.77,-32.10],[115.76,-32.11]]]}}"
    ),
    EdgeCase(
      name: "bbox_member", outcome: .loads(stores: 0, indexed: 0), codes: [],
      text: "{\"type\":\"FeatureCollection\",\"bbox\":[100.0,0.0,105.0,1.0],\"features\":[]}"),
    EdgeCase(
      name: "bbox_antimeridian", outcome: .loads(stores: 0, indexed: 0), codes: [],
      text: "{\"type\":\"FeatureCollection\",\"bbox\":[177.0,-20.0,-178.0,-16.0],\"features\":[]}"),
    EdgeCase(
      name: "foreign_members", outcome: .loads(stores: 0, indexed: 0), codes: [],
      text:
        "{\"type\":\"FeatureCollection\",\"dataset_attributes\":{\"@spider\":\"x\"},\"generator\":\"overpass-turbo\",\"features\":[]}"
    ),
    EdgeCase(
      name: "legacy_crs_member", outcome: .loads(stores: 0, indexed: 0), codes: ["legacy-crs"],
      text:
        "{\"type\":\"FeatureCollection\",\"crs\":{\"type\":\"name\",\"properties\":{\"name\":\"urn:ogc:def:crs:OGC:1.3:CRS84\"}},\"features\":[]}"
    ),
    EdgeCase(
      name: "projected_coords", outcome: .loads(stores: 1, indexed: 0),
      codes: ["generated-id", "projected-coordinates"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[-411852.28,4927604.99]}}"
    ),
    EdgeCase(
      name: "lat_lon_swapped_detectable", outcome: .loads(stores: 1, indexed: 0),
      codes: ["generated-id", "coordinates-out-of-range"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[39.7115,-465.2989]}}"
    ),
    EdgeCase(
      name: "lat_lon_swapped_plausible", outcome: .loads(stores: 1, indexed: 1), codes: ["generated-id"],
      text:
        "{\"type\":\"Feature\",\"properties\":{\"addr:country\":\"US\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[40.7115,-74.006]}}"
    ),
    EdgeCase(
      name: "null_island", outcome: .loads(stores: 1, indexed: 0), codes: ["generated-id", "null-island"],
      text: "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[0,0]}}"
    ),
    EdgeCase(
      name: "nan_literal", outcome: .badData, codes: ["invalid-json"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[NaN,NaN]}}"
    ),
    EdgeCase(
      name: "infinity_literal", outcome: .badData, codes: ["invalid-json"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[Infinity,1]}}"
    ),
    EdgeCase(
      name: "coords_as_strings", outcome: .loads(stores: 1, indexed: 0),
      codes: ["generated-id", "invalid-coordinates"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[\"-122.33\",\"47.61\"]}}"
    ),
    EdgeCase(
      name: "coords_false", outcome: .loads(stores: 1, indexed: 0),
      codes: ["generated-id", "invalid-coordinates"],
      text: "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":false}}"
    ),
    EdgeCase(
      name: "empty_coords", outcome: .loads(stores: 1, indexed: 0),
      codes: ["generated-id", "missing-geometry"],
      text: "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[]}}"),
    EdgeCase(
      name: "lon_181", outcome: .loads(stores: 1, indexed: 0),
      codes: ["generated-id", "coordinates-out-of-range"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[181.0,10.0]}}"
    ),
    EdgeCase(
      name: "lon_minus_180", outcome: .loads(stores: 1, indexed: 1), codes: ["generated-id"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[-180.0,-17.0]}}"
    ),
    EdgeCase(
      name: "exponent_number", outcome: .loads(stores: 1, indexed: 1), codes: ["generated-id"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1.2E1,-3e-1]}}"
    ),
    EdgeCase(
      name: "type_wrong_case", outcome: .badData, codes: ["invalid-type"],
      text: "{\"type\":\"feature\",\"properties\":{},\"geometry\":{\"type\":\"point\",\"coordinates\":[1,2]}}"
    ),
    EdgeCase(
      name: "duplicate_keys", outcome: .loads(stores: 1, indexed: 1),
      codes: ["generated-id", "duplicate-key"],
      text:
        "{\"type\":\"Feature\",\"properties\":{\"name\":\"A\",\"name\":\"B\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}"
    ),
    EdgeCase(
      name: "bom_prefix", outcome: .loads(stores: 0, indexed: 0), codes: [],
      text: "\u{FEFF}{\"type\":\"FeatureCollection\",\"features\":[]}"),
    EdgeCase(
      name: "bare_geometry_top_level", outcome: .loads(stores: 1, indexed: 1), codes: ["bare-geometry"],
      text: "{\"type\":\"Point\",\"coordinates\":[1,2]}"),
    EdgeCase(
      name: "geometry_collection", outcome: .loads(stores: 1, indexed: 1),
      codes: ["generated-id", "geometry-collection"],
      text:
        "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"GeometryCollection\",\"geometries\":[{\"type\":\"Point\",\"coordinates\":[1,2]}]}}"
    ),
    EdgeCase(
      name: "truncated_file", outcome: .loads(stores: 1, indexed: 1), codes: ["truncated"],
      text:
        "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"properties\":{\"ref\":\"1\"},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}},\n"
    ),
    EdgeCase(
      name: "empty_file", outcome: .badData, codes: [],
      text: ""),
  ]

  static func named(_ name: String) -> EdgeCase? { all.first { $0.name == name } }
}
