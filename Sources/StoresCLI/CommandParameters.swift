import ArgumentParser
import StoreLocator

/// The options of a command as the library's request types read them: the same named text values
/// an HTTP query string gives, so `stores` and `stores-server` parse them with the same code and
/// refuse them with the same sentences.
struct CommandParameters {
  private(set) var pairs: [(name: String, value: String)] = []

  /// Adds `value` under `name` (its query-string spelling, such as `open_at`) when given.
  mutating func add(_ name: String, _ value: String?) {
    if let value { pairs.append((name, value)) }
  }

  /// Adds every value under `name`.
  mutating func add(_ name: String, _ values: [String]) {
    for value in values { pairs.append((name, value)) }
  }

  /// Adds a flag that is set.
  mutating func add(_ name: String, _ flag: Bool) {
    if flag { pairs.append((name, "true")) }
  }

  /// The catalog's countries, for a `--near` name several places have (`RequestParameters`).
  var storeCountries: Set<String>? = nil
  /// Set by `validate()`, which runs before the catalog is loaded: a name only the catalog's
  /// countries might settle waits for `run()`.
  var defersPlaceChoice = false

  var requestParameters: RequestParameters {
    var parameters = RequestParameters(pairs, style: .commandLine)
    parameters.storeCountries = storeCountries
    parameters.defersPlaceChoice = defersPlaceChoice
    return parameters
  }

  /// Reads the request with `read`; a request the library refuses ends the command as a usage
  /// error (exit 64) with the library's sentence, as ArgumentParser reports its own.
  func read<Request>(_ read: (RequestParameters) throws(RequestError) -> Request) throws -> Request {
    do throws(RequestError) { return try read(requestParameters) } catch {
      throw ValidationError(error.message)
    }
  }

  /// These parameters as `validate()` reads them, before the catalog is loaded.
  var beforeLoading: CommandParameters {
    var parameters = self
    parameters.defersPlaceChoice = true
    return parameters
  }

  /// These parameters with the countries of `catalog`'s stores.
  func with(_ catalog: Catalog) -> CommandParameters {
    var parameters = self
    parameters.storeCountries = catalog.storeCountries
    return parameters
  }
}

/// `--bias` and `--country`: what settles a `--near` name several places have.
struct PlaceBiasOptions: ParsableArguments {
  @Option(
    parsing: .unconditional,
    help: ArgumentHelp(
      "For a --near name several places have: a point near the customer, LAT,LON (nearer places weigh more).",
      valueName: "lat,lon"))
  var bias: String?

  @Option(
    help: ArgumentHelp(
      "For a --near name several places have: the country meant (ISO 3166-1 alpha-2, such as US).",
      valueName: "code"))
  var country: String?

  func add(to parameters: inout CommandParameters) {
    parameters.add("bias", bias)
    parameters.add("country", country)
  }
}

extension Catalog {
  /// Reports a request the library could not answer on standard error and returns the exit
  /// code: 66 for an unknown id (with the most similar ids), 64 for an id several stores share
  /// (they are listed, with where each is in the file) and for anything else.
  func exitCode(reporting error: RequestError) -> ExitCode {
    standardError("stores: \(error.message)" + (error.candidates.isEmpty ? "" : ":"))
    switch error.kind {
    case .unknownStore: return ExitCode.inputMissing
    case .ambiguousStore:
      let rows = error.candidates.map { store in
        [
          "line \(store.position.line):\(store.position.column)", "feature \(store.position.featureIndex)",
          store.name ?? "(no name)", store.coordinate?.description ?? "no location",
        ]
      }
      let columns = [
        TextTable.Column("", width: 16), TextTable.Column("", width: 16), TextTable.Column("", width: 40),
        TextTable.Column("", width: 40),
      ]
      // The header row is blank here, and splitting leaves blank lines out.
      for line in TextTable(columns: columns, rows: rows).rendered.split(separator: "\n") {
        standardError("  " + line)
      }
      return ExitCode.usage
    case .invalid, .refused: return ExitCode.usage
    }
  }

  /// `answer`, or the command's exit after `exitCode(reporting:)`.
  func answering<Answer>(_ answer: (Catalog) throws(RequestError) -> Answer) throws -> Answer {
    do throws(RequestError) { return try answer(self) } catch { throw exitCode(reporting: error) }
  }
}
