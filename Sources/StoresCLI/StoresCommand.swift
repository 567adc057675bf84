import ArgumentParser
import StoreLocator

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
      Nearest.self, Within.self, Clusters.self, Places.self, Show.self, Hours.self, Open.self, Pickup.self,
      Info.self,
      Validate.self,
      Snapshot.self,
      State.self,
      Slots.self,
      Reservations.self,
    ]
  )
}

extension StoresCommand {
  /// Runs the command line, naming the mistake a person most likely made first.
  ///
  /// - A mistyped subcommand: ArgumentParser reads an unknown first word as an unexpected
  ///   argument and then complains about the options after it ("Unknown option '--near'" for
  ///   `stores near --near …`), which sends people looking in the wrong place; this says which
  ///   word is not a command, and which command was meant.
  /// - A mistyped option: ArgumentParser checks a command's values (`validate()`) before it
  ///   looks for options the command does not take, so `stores nearest --nera 47.6,-122.3` heard
  ///   only that `--near` is missing; when parsing fails, an unknown option is named first, with
  ///   the option meant.
  /// - A number and its unit apart (`--within 2 km`): said so, with the value as it is written
  ///   (`DetachedUnit`), rather than "Unexpected argument 'km'".
  /// - An error found while running (a `ValidationError` from `run()`, such as an unknown
  ///   `--timezone`): ArgumentParser would print the usage of `stores` itself; this prints the
  ///   usage of the command that was run.
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let message = unknownSubcommand(in: Self.self, arguments: arguments[...]) {
      exit(withError: ValidationError(message))
    }
    var command: ParsableCommand
    do {
      command = try parseAsRoot(arguments)
    } catch {
      // Help and version requests end parsing as errors too; they are left as they are.
      if exitCode(for: error) != .success,
        let unknown = UnknownOption.first(in: arguments[...], of: Self.self)
      {
        exitWithUsageError(unknown.message, of: unknown.command)
      }
      if exitCode(for: error) != .success, let detached = DetachedUnit.first(in: arguments[...]) {
        exitWithUsageError(
          detached.message, of: UnknownOption.subcommand(in: arguments[...], of: Self.self).0)
      }
      exit(withError: error)
    }
    do {
      try command.run()
    } catch let error as ValidationError where type(of: command) != Self.self {
      exitWithUsageError(error.message, of: type(of: command))
    } catch {
      exit(withError: error)
    }
  }

  /// Ends the process as ArgumentParser ends it on a usage error (exit 64), with `subcommand`'s
  /// usage under the message rather than that of `stores` itself.
  static func exitWithUsageError(_ message: String, of subcommand: ParsableCommand.Type) -> Never {
    // ArgumentParser's own layout: "Usage: " with the lines after the first indented under it.
    let usage = usageString(for: subcommand).split(separator: "\n", omittingEmptySubsequences: false)
      .joined(separator: "\n       ")
    let path = (UnknownOption.commandPath(to: subcommand, from: Self.self) ?? [_commandName]).joined(
      separator: " ")
    standardError("Error: \(message)")
    standardError("Usage: \(usage)")
    standardError("  See '\(path) --help' for more information.")
    exit(withError: ExitCode.usage)
  }

  /// A sentence naming the first word of `arguments` that should be a subcommand of `command`
  /// (or of the subcommand it names, and so on down) but is none; `nil` when every such word is
  /// a command, or when the words are left to the parser (options, `help`, default subcommands).
  static func unknownSubcommand(in command: ParsableCommand.Type, arguments: ArraySlice<String>) -> String? {
    let configuration = command.configuration
    guard !configuration.subcommands.isEmpty, configuration.defaultSubcommand == nil,
      let word = arguments.first, !word.hasPrefix("-"), word != "help"
    else { return nil }
    // `_commandName` is the name ArgumentParser itself matches (configured, else derived).
    let names = configuration.subcommands.map { ($0._commandName, $0) }
    if let (_, subcommand) = names.first(where: { $0.0 == word || $0.1.configuration.aliases.contains(word) })
    {
      return unknownSubcommand(in: subcommand, arguments: arguments.dropFirst())
    }
    let path = command == Self.self ? "" : "\(command._commandName) "
    guard let suggestion = closestName(to: word, among: names.map(\.0)) else {
      return "unknown command '\(path)\(word)' (commands: \(names.map(\.0).joined(separator: ", ")))"
    }
    return "unknown command '\(path)\(word)'; did you mean '\(path)\(suggestion)'?"
  }

  /// The name `word` most likely abbreviates or misspells: one it begins (`near` → `nearest`),
  /// else the nearest by edit distance, within a third of the word's length (at least 2).
  static func closestName(to word: String, among names: [String]) -> String? {
    let word = word.lowercased()
    if let prefixed = names.first(where: { $0.hasPrefix(word) }), word.count >= 2 { return prefixed }
    let limit = max(2, word.count / 3)
    return names.compactMap { name in EditDistance.between(word, name, below: limit + 1).map { (name, $0) } }
      .min { $0.1 < $1.1 }?.0
  }
}
