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

  var requestParameters: RequestParameters { RequestParameters(pairs, style: .commandLine) }

  /// Reads the request with `read`; a request the library refuses ends the command as a usage
  /// error (exit 64) with the library's sentence, as ArgumentParser reports its own.
  func read<Request>(_ read: (RequestParameters) throws(RequestError) -> Request) throws -> Request {
    do throws(RequestError) { return try read(requestParameters) } catch {
      throw ValidationError(error.message)
    }
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
