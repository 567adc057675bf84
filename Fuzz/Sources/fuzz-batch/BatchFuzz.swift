import FuzzSupport
import OpeningHours
import StoreLocator

/// The `stores hours --batch` protocol on any input: one answer line for every request line (blank
/// lines skipped, as the command does), each a JSON object on one line with the request's `id`;
/// and a second pass over the same lines, answered from the caches, gives the same answers.
@main enum BatchFuzz {
  nonisolated(unsafe) static var holidays = HolidayRegistry()

  static func main() {
    holidays = (try? HoursResources.holidayRegistry(countries: nil)) ?? HolidayRegistry()
    runFuzzer { data, count in
      BatchFuzz.check(fuzzInput(data, count))
      return 0
    }
  }

  static func check(_ input: FuzzInput) {
    // Lines as `readLine(strippingNewline:)` gives them to the command: split at \n, a \r before it
    // dropped, invalid UTF-8 repaired.
    var lines: [String] = []
    for var line in input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
      let text = String(decoding: line, as: UTF8.self)
      if !text.allSatisfy(\.isWhitespace) { lines.append(text) }
    }
    // A fresh batch per input: its caches grow with every distinct line, by design of a run.
    var batch = HoursBatch(holidays: holidays, horizonDays: 30)
    let answers = lines.map { batch.answer($0) }
    for (line, answer) in zip(lines, answers) {
      fuzzCheck(!answer.contains("\n") && !answer.contains("\r"), "an answer spans lines: \(answer)")
      guard case .object(let object) = try? JSONValue(parsing: answer) else {
        fuzzCheck(false, "an answer is not a JSON object: \(answer)")
        return
      }
      fuzzCheck(
        object["error"] != nil || object["state"] != nil || object["next_change"] != nil || isEmptyOps(line),
        "an answer with neither an error nor a result: \(answer)")
      if case .object(let request)? = try? JSONValue(parsing: line) {
        fuzzCheck(object["id"] == (request["id"] ?? .null), "the answer's id is not the request's: \(answer)")
      }
    }
    let again = lines.map { batch.answer($0) }
    fuzzCheck(again == answers, "answers differ from the cache: \(firstDifference(again, answers) ?? "")")
  }

  /// A request with `"ops": []` asks nothing and gets just its id.
  static func isEmptyOps(_ line: String) -> Bool {
    guard case .object(let request)? = try? JSONValue(parsing: line), case .array(let ops)? = request["ops"]
    else {
      return false
    }
    return ops.compactMap(\.stringValue).isEmpty
  }
}
