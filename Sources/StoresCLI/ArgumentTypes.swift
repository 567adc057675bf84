import ArgumentParser
import GeoIndex
import StoreLocator

/// Parses an option's text with a throwing initialiser, so the error the user sees says exactly
/// what is wrong with the value (ArgumentParser shows the thrown error's description).
func parsed<Value, Failure: Error & CustomStringConvertible>(
  _ parse: @escaping @Sendable (String) throws(Failure) -> Value
) -> @Sendable (String) throws -> Value {
  { text in
    do throws(Failure) { return try parse(text) } catch { throw ValueError(message: error.description) }
  }
}

/// An option value that could not be read, with the reason.
struct ValueError: Error, CustomStringConvertible {
  let message: String
  var description: String { message }
}

/// How results are written.
enum OutputFormat: String, CaseIterable, ExpressibleByArgument {
  /// Aligned columns for people.
  case text
  /// One JSON document: a `query` object and a `stores` array.
  case json
  /// One JSON store object per line.
  case ndjson
  /// A GeoJSON FeatureCollection that opens in any GIS tool.
  case geojson
  /// RFC 4180 comma-separated values with a header row.
  case csv
}

/// The formats of the commands that write one answer (`info`, `hours`, `open`, `pickup`); a type of
/// its own so that `--help` lists, and the parser accepts, only these.
enum DocumentFormat: String, CaseIterable, ExpressibleByArgument {
  /// Lines for people.
  case text
  /// One JSON document.
  case json
}

/// The formats of `stores validate`: a report, or its diagnostics one JSON object a line.
enum ReportFormat: String, CaseIterable, ExpressibleByArgument {
  /// Lines for people.
  case text
  /// One JSON document.
  case json
  /// One JSON diagnostic per line.
  case ndjson
}

/// Units for distances in text output; JSON is always metres.
enum DisplayUnit: String, CaseIterable, ExpressibleByArgument {
  case km
  case mi

  var distanceUnit: DistanceUnit { self == .km ? .kilometers : .miles }
}
