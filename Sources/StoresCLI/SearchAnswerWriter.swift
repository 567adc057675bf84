import GeoIndex
import StoreLocator

/// Writes a search's answer in `format`, and on standard error what the library says beside it:
/// the place a `--near` name stood for (in text, the answer's first line), a location that looks
/// typed as LON,LAT, a nearest store far away, and why an empty answer is empty (text output shows
/// the sentence; a reason it already states is not repeated beside it).
func writeSearchAnswer(_ answer: SearchAnswer, format: OutputFormat, units: DisplayUnit) {
  // The place a `--near` name stood for: the first line of the text, a note beside the others.
  let placeNote = answer.nearPlaceNote
  if let placeNote, format != .text { standardError("stores: \(placeNote)") }
  if let hint = answer.swappedHint { standardError("stores: warning: \(hint)") }
  // A nearest store far beyond the customer's town: said beside every format.
  if let farNote = answer.farNote { standardError("stores: note: \(farNote)") }
  let writer = ResultWriter(units: units)
  let explanation = answer.emptyExplanation { writer.formatted($0) }
  for reason in explanation?.reasons ?? []
  where format != .text || !(explanation?.sentence.contains(reason.message) ?? false) {
    standardError("stores: \(reason)")
  }
  switch format {
  case .text:
    if let placeNote { standardOutput(placeNote + "\n") }
    standardOutput(
      answer.matches.isEmpty
        ? (explanation?.sentence ?? "") + "\n"
        : writer.table(answer.matches, numberedFrom: answer.firstNumber)
          + (answer.pageSummary.map { "\n\($0)\n" } ?? ""))
  case .json: standardOutput(answer.jsonText)
  case .ndjson: standardOutput(answer.ndjsonText)
  case .geojson: standardOutput(answer.geoJSONText)
  case .csv: standardOutput(answer.csvText)
  }
}
