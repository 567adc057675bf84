import ArgumentParser
import StoreLocator

/// An option on the command line that the command it follows does not take (`--nera` after
/// `stores nearest`), with the option most likely meant.
///
/// ArgumentParser finds such an option only after the command's values passed `validate()`, so
/// a mistyped required option was reported as missing; `StoresCommand.main()` asks this first
/// when parsing fails. The options a command takes are ArgumentParser's own description of it
/// (`_dumpHelp()`, the document behind `--experimental-dump-help`), so every subcommand is
/// covered, and an option's value (`--near -33.8,151.2`) is never taken for an option.
struct UnknownOption {
  /// The command whose options were read.
  let command: ParsableCommand.Type
  /// The option as written, without any `=VALUE`.
  let option: String
  /// The option of `command` closest to it, spelled as it is written (`--near`).
  let suggestion: String?

  var message: String {
    "unknown option '\(option)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
  }

  /// The first option in `arguments` (the command line after the program's name) that the
  /// subcommand they name does not take; `nil` when there is none.
  static func first(in arguments: ArraySlice<String>, of root: ParsableCommand.Type) -> UnknownOption? {
    let (command, rest) = subcommand(in: arguments, of: root)
    guard let options = OptionNames(of: command) else { return nil }
    var index = rest.startIndex
    while index < rest.endIndex {
      let word = rest[index]
      index += 1
      if word == "--" { return nil }  // everything after it is a value
      guard word.count > 1, word.hasPrefix("-") else { continue }
      let name = String(word.prefix { $0 != "=" })
      let second = word[word.index(after: word.startIndex)]
      // `-33.8,151.2` and `-.5` are values (negative numbers), not options.
      guard second == "-" || second.isLetter else { continue }
      switch options.kind(of: name) {
      case .option(let strategy):
        guard !word.contains("=") else { continue }
        if strategy == "upToNextOption" {
          while index < rest.endIndex, !rest[index].hasPrefix("-") { index += 1 }
        } else if index < rest.endIndex {
          index += 1
        }
      case .flag: continue
      case nil:
        let suggestion = StoresCommand.closestName(
          to: name.drop { $0 == "-" }.description, among: options.longNames)
        return UnknownOption(command: command, option: name, suggestion: suggestion.map { "--\($0)" })
      }
    }
    return nil
  }

  /// The subcommand of `root` that the leading words of `arguments` name, as ArgumentParser reads
  /// them, and the words after them.
  static func subcommand(in arguments: ArraySlice<String>, of root: ParsableCommand.Type)
    -> (ParsableCommand.Type, ArraySlice<String>)
  {
    var command = root
    var rest = arguments
    while let word = rest.first,
      let subcommand = command.configuration.subcommands.first(where: {
        $0._commandName == word || $0.configuration.aliases.contains(word)
      })
    {
      command = subcommand
      rest = rest.dropFirst()
    }
    return (command, rest)
  }

  /// The names of `root` and the subcommands down to `command`: `["stores", "snapshot", "build"]`;
  /// `nil` when `command` is not among them.
  static func commandPath(to command: ParsableCommand.Type, from root: ParsableCommand.Type) -> [String]? {
    if command == root { return [root._commandName] }
    for subcommand in root.configuration.subcommands {
      if let path = commandPath(to: command, from: subcommand) { return [root._commandName] + path }
    }
    return nil
  }
}

/// The options and flags one command takes, by every name they are written with.
private struct OptionNames {
  enum Kind: Equatable {
    /// An option, which takes a value; its parsing strategy as ArgumentParser names it.
    case option(String)
    case flag
  }

  private var kinds: [String: Kind] = ["-h": .flag, "--help": .flag]
  /// The long names without their dashes, for suggestions.
  private(set) var longNames: [String] = []

  /// Reads them from ArgumentParser's description of `command`; `nil` if it cannot be read.
  init?(of command: ParsableCommand.Type) {
    guard case .object(let document)? = try? JSONValue(parsing: command._dumpHelp()),
      case .object(let info)? = document["command"]
    else { return nil }
    guard case .array(let arguments)? = info["arguments"] else { return }
    for case .object(let argument) in arguments {
      let kind: Kind
      switch argument["kind"] {
      case .string("option"):
        guard case .string(let strategy)? = argument["parsingStrategy"] else { continue }
        kind = .option(strategy)
      case .string("flag"): kind = .flag
      default: continue
      }
      guard case .array(let names)? = argument["names"] else { continue }
      for case .object(let name) in names {
        guard case .string(let text)? = name["name"], case .string(let nameKind)? = name["kind"] else {
          continue
        }
        switch nameKind {
        case "long":
          kinds["--" + text] = kind
          longNames.append(text)
        case "short": kinds["-" + text] = kind
        case "longWithSingleDash": kinds["-" + text] = kind
        default: continue
        }
      }
    }
  }

  /// What `name` (`--near`, `-k`, or short flags written together: `-ab`) is to the command;
  /// `nil` when it takes no such option.
  func kind(of name: String) -> Kind? {
    if let kind = kinds[name] { return kind }
    // Short names written together: each a flag, except perhaps the last, which may take a value.
    guard !name.hasPrefix("--"), name.count > 2 else { return nil }
    let letters = name.dropFirst().map { kinds["-\($0)"] }
    guard letters.allSatisfy({ $0 != nil }), letters.dropLast().allSatisfy({ $0 == .flag }) else {
      return nil
    }
    return letters.last!
  }
}
