import GeoIndex
import OpeningHours

/// How a request spells its parameter names: `--open-at` on the command line, `open_at` in a
/// query string. Error sentences name parameters the way the request gave them.
public enum ParameterStyle: Hashable, Sendable {
  case commandLine
  case queryString

  /// The parameter `name` (its query-string spelling, such as `open_at`) as this style writes it:
  /// `--open-at`, `-k`; the command line's store id is its argument, `ID`, and a place search's
  /// text its argument, `QUERY`.
  public func spelling(of name: String) -> String {
    switch self {
    case .queryString: return name
    case .commandLine:
      if name == "id" { return "ID" }
      if name == "q" { return "QUERY" }
      return (name.count == 1 ? "-" : "--") + name.split(separator: "_").joined(separator: "-")
    }
  }
}

/// The named text values of one request, as a query string or command-line options give them,
/// read by the request types (`NearestRequest`, `WithinRequest`, …) that the CLI and the HTTP
/// routes share, so both accept the same values and refuse the same ones with the same sentence.
public struct RequestParameters: Sendable {
  /// The values in the order given; a name may repeat (`where`).
  public let pairs: [(name: String, value: String)]
  public let style: ParameterStyle
  /// The countries of the catalog the request is for (`Catalog.storeCountries`): the last resort
  /// for a `near` name several places have (`nearPoint()`); `nil` when no catalog is at hand.
  public var storeCountries: Set<String>? = nil
  /// Whether a `near` name that only the catalog's countries might settle is let through for
  /// now: the command line checks its options before it loads the catalog, and reads them again
  /// with `storeCountries` after.
  public var defersPlaceChoice = false

  /// - Parameters:
  ///   - pairs: Names in their query-string spelling (`open_at`), values as typed.
  ///   - style: How error sentences name the parameters.
  public init(_ pairs: [(name: String, value: String)], style: ParameterStyle) {
    self.pairs = pairs
    self.style = style
  }

  /// How many values a request may carry, so a query string of a million `where=` parameters is
  /// refused before any of them is read.
  public static let maximumCount = 64

  /// The name of `name` in this request's style, for messages.
  public func spelling(of name: String) -> String { style.spelling(of: name) }

  /// Every value given for `name`, in order.
  public func values(_ name: String) -> [String] { pairs.filter { $0.name == name }.map(\.value) }

  /// The value of `name`, or `nil` when it is not given.
  /// - Throws: `RequestError` when it is given more than once.
  public func value(_ name: String) throws(RequestError) -> String? {
    let found = values(name)
    guard found.count <= 1 else {
      throw RequestError(
        .invalid, parameter: spelling(of: name),
        "\(spelling(of: name)) is given \(found.count) times; give it once")
    }
    return found.first
  }

  /// The value of `name` read by `parse`, or `nil` when not given; a value `parse` refuses
  /// becomes a `RequestError` naming the parameter, with the parser's own sentence.
  public func parse<Value, Failure: Error & CustomStringConvertible>(
    _ name: String, _ parse: (String) throws(Failure) -> Value
  ) throws(RequestError) -> Value? {
    guard let text = try value(name) else { return nil }
    do throws(Failure) { return try parse(text) } catch {
      throw RequestError(
        .invalid, parameter: spelling(of: name), "\(spelling(of: name)): \(error.description)")
    }
  }

  /// A whole number in `range`, or `nil` when not given.
  public func integer(_ name: String, in range: ClosedRange<Int>) throws(RequestError) -> Int? {
    guard let text = try value(name) else { return nil }
    let spelled = spelling(of: name)
    guard let number = Int(text) else {
      throw RequestError(
        .invalid, parameter: spelled, "\(spelled) must be a whole number (got \(MessageText.quoted(text)))")
    }
    guard range.contains(number) else {
      let bounds =
        range.upperBound == .max
        ? "at least \(range.lowerBound)" : "\(range.lowerBound)...\(range.upperBound)"
      throw RequestError(.invalid, parameter: spelled, "\(spelled) must be \(bounds) (got \(number))")
    }
    return number
  }

  /// The `service` parameter: a service name as OpenStreetMap writes it after `opening_hours:`
  /// (`drive_through`), or `nil` for the stores' own hours.
  public func service() throws(RequestError) -> String? {
    guard let name = try value("service") else { return nil }
    guard ServiceName.isValid(name) else {
      throw RequestError(
        .invalid, parameter: spelling(of: "service"),
        "\(spelling(of: "service")) \(ServiceName.problem(name))")
    }
    return name
  }

  /// A yes/no switch: absent is `false`; on the command line a flag given is `true`; in a query
  /// string `true`, `1`, `yes` or an empty value are `true`, and `false`, `0`, `no` are `false`.
  public func flag(_ name: String) throws(RequestError) -> Bool {
    guard let text = try value(name) else { return false }
    switch text.lowercased() {
    case "", "true", "1", "yes": return true
    case "false", "0", "no": return false
    default:
      throw RequestError(
        .invalid, parameter: spelling(of: name),
        "\(spelling(of: name)) is true or false (got \(MessageText.quoted(text)))")
    }
  }

  /// Refuses any parameter not in `accepted`, naming the closest accepted one, so a typo such as
  /// `ner=` is an error instead of a parameter silently ignored.
  /// - Throws: `RequestError` naming the first unknown parameter, or too many values.
  public func checkNames(accepted: [String]) throws(RequestError) {
    guard pairs.count <= Self.maximumCount else {
      throw RequestError(
        .invalid, parameter: nil,
        "the request has \(pairs.count) parameters; at most \(Self.maximumCount) are read")
    }
    for (name, _) in pairs where !accepted.contains(name) {
      let hint =
        EditDistance.closest(to: name, among: accepted, below: 3).map {
          "; did you mean \(spelling(of: $0))?"
        }
        ?? ""
      throw RequestError(
        .invalid, parameter: MessageText.shortened(name),
        "unknown parameter \(MessageText.quoted(spelling(of: name)))\(hint) (accepted: "
          + accepted.map(spelling(of:)).joined(separator: ", ") + ")")
    }
  }

  /// The instant `now` stands for: the `now` parameter (an instant, for answers that can be
  /// reproduced), else `clock`.
  public func now(default clock: Instant) throws(RequestError) -> Instant {
    guard let time = try parse("now", TimeQuery.init(parsing:)) else { return clock }
    guard case .instant(let instant) = time else {
      throw RequestError(
        .invalid, parameter: spelling(of: "now"),
        "\(spelling(of: "now")) needs an offset or Z (such as 2026-11-22T07:45:00Z): it is one instant everywhere"
      )
    }
    return instant
  }
}

/// A request the library cannot answer as given, with the sentence to show and the parameter it
/// is about. The CLI prints the sentence; the service sends it as an RFC 9457 problem.
public struct RequestError: Error, Sendable, CustomStringConvertible {
  public enum Kind: String, Sendable {
    /// A value is malformed, out of range, or parameters contradict each other (HTTP 400, exit 64).
    case invalid
    /// No store has the id (HTTP 404, exit 66); `suggestions` holds the most similar ids.
    case unknownStore
    /// Several stores share the id, so it does not name one (HTTP 409, exit 64); `candidates`
    /// lists them.
    case ambiguousStore
    /// The pickup planner refuses the request as a whole, such as an order ready beyond 30 days
    /// (HTTP 422, exit 64).
    case refused
  }

  public let kind: Kind
  /// The parameter the error is about, spelled as the request spelled it; `nil` for the request
  /// as a whole.
  public let parameter: String?
  /// The sentence, without a final full stop.
  public let message: String
  /// Similar store ids, best first (`unknownStore`).
  public let suggestions: [String]
  /// The stores an ambiguous id names (`ambiguousStore`).
  public let candidates: [Store]
  /// The places a `near` name may mean, or the close names of an unknown one, best first
  /// (`invalid`), so an app can offer them as choices.
  public let places: [Place]

  public init(
    _ kind: Kind, parameter: String?, _ message: String, suggestions: [String] = [], candidates: [Store] = [],
    places: [Place] = []
  ) {
    self.kind = kind
    self.parameter = parameter
    self.message = message
    self.suggestions = suggestions
    self.candidates = candidates
    self.places = places
  }

  public var description: String { message }
}
