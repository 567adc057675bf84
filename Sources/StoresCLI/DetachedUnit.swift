/// A number and its unit written apart on the command line (`--within 2 km`, `--ready-in 15 min`):
/// the shell makes them two words, ArgumentParser reads the unit as an extra argument and says
/// only "Unexpected argument 'km'". `StoresCommand.main()` asks this first when parsing fails and
/// says how to write it.
struct DetachedUnit {
  /// The option the number follows (`--within`).
  let option: String
  let number: String
  let unit: String

  /// The units the options' values take: distances (`2km`, `500m`, `3mi`, `800ft`) and durations
  /// (`15m`, `2h`, `90s`, `1d`, `15min`), and a speed's (`12km/h`).
  static let units: Set<String> = ["km", "m", "mi", "ft", "h", "min", "s", "d", "km/h", "mph"]

  var message: String {
    "'\(unit)' after '\(option) \(number)' was read as an argument of its own: write the number and its unit "
      + "together, '\(option) \(number)\(unit)'"
  }

  /// The first option in `arguments` whose value is a bare number followed by a word that is a unit;
  /// `nil` when there is none.
  static func first(in arguments: ArraySlice<String>) -> DetachedUnit? {
    var index = arguments.startIndex
    while index + 2 < arguments.endIndex {
      let option = arguments[index]
      let number = arguments[index + 1]
      let unit = arguments[index + 2]
      index += 1
      guard option.hasPrefix("--"), !option.contains("="), isNumber(number), units.contains(unit.lowercased())
      else { continue }
      return DetachedUnit(option: option, number: number, unit: unit)
    }
    return nil
  }

  /// `2`, `1.5`, `.5`: digits with at most one point.
  private static func isNumber(_ word: String) -> Bool {
    !word.isEmpty && word.contains(where: \.isNumber)
      && word.allSatisfy { $0.isASCII && ($0.isNumber || $0 == ".") } && word.filter { $0 == "." }.count <= 1
  }
}
