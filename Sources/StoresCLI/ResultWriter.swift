import GeoIndex
import StoreLocator

/// Turns query results into the text of each output format. Decisions live in the library; this
/// only lays them out.
struct ResultWriter {
  let format: OutputFormat
  let units: DisplayUnit

  /// The whole output for `matches`, answering the query described by `query`.
  ///
  /// - Parameters:
  ///   - emptyMessage: What text output says when nothing matched.
  func render(_ matches: [StoreMatch], query: JSONObject, emptyMessage: @autoclosure () -> String) -> String {
    switch format {
    case .text: return matches.isEmpty ? emptyMessage() + "\n" : table(matches)
    case .json:
      var document = JSONObject()
      document["query"] = .object(query)
      document["count"] = JSONValue(matches.count)
      document["stores"] = .array(matches.map { .object($0.jsonObject) })
      return JSONValue.object(document).jsonText + "\n"
    case .ndjson:
      return matches.map { JSONValue.object($0.jsonObject).jsonText + "\n" }.joined()
    case .geojson:
      return ResultWriter.featureCollection(matches.map(\.geoJSONFeature), query: query)
    case .csv:
      return csv(matches)
    }
  }

  static func featureCollection(_ features: [JSONObject], query: JSONObject?) -> String {
    // One feature a line keeps big results readable and diffable.
    var text = "{\"type\":\"FeatureCollection\""
    if let query {
      text += ",\"query\":"
      JSONValue.object(query).write(to: &text)
    }
    text += ",\"features\":["
    for (position, feature) in features.enumerated() {
      text += position == 0 ? "\n" : ",\n"
      JSONValue.object(feature).write(to: &text)
    }
    return text + "\n]}\n"
  }

  // MARK: Text

  func table(_ matches: [StoreMatch]) -> String {
    let hasDistance = matches.contains { $0.distance != nil }
    var columns: [TextTable.Column] = [TextTable.Column("#", width: 6, rightAligned: true)]
    if hasDistance { columns.append(TextTable.Column("DISTANCE", width: 12, rightAligned: true)) }
    columns += [
      TextTable.Column("ID", width: 24), TextTable.Column("NAME", width: 34),
      TextTable.Column("ADDRESS", width: 44), TextTable.Column("OPEN", width: .max),
    ]
    let rows = matches.enumerated().map { position, match in
      (["\(position + 1)"] + (hasDistance ? [match.distance.map(formatted) ?? ""] : []))
        + [
          match.store.id,
          match.store.name ?? "(no name)",
          match.store.address ?? "",
          match.status?.summary ?? match.store.openingHours ?? "hours unknown",
        ]
    }
    return TextTable(columns: columns, rows: rows).rendered
  }

  func formatted(_ distance: Distance) -> String {
    let value = distance.value(in: units.distanceUnit)
    if units == .km, value < 1 { return "\(Int(distance.meters.rounded())) m" }
    return "\(Self.decimal(value, places: value < 10 ? 2 : 1)) \(units.rawValue)"
  }

  static func decimal(_ value: Double, places: Int) -> String {
    // Beyond what an integer holds exactly, plain notation says nothing useful anyway.
    guard abs(value) < 1e12 else { return "\(value)" }
    var scale = 1.0
    for _ in 0..<places { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let whole = scaled / Int(scale)
    var fraction = String(scaled % Int(scale))
    while fraction.count < places { fraction = "0" + fraction }
    return places == 0 ? "\(whole)" : "\(whole).\(fraction)"
  }

  // MARK: CSV

  static let csvColumns = [
    "id", "name", "brand", "address", "latitude", "longitude", "distance_m", "timezone", "opening_hours",
    "state", "next_change", "phone", "website",
  ]

  func csv(_ matches: [StoreMatch]) -> String {
    var text = Self.csvColumns.joined(separator: ",") + "\r\n"
    for match in matches {
      let object = match.jsonObject
      let fields = Self.csvColumns.map { column -> String in
        switch object[column] {
        case .string(let value): return Self.csvField(value)
        case .number(let literal): return literal
        default: return ""
        }
      }
      text += fields.joined(separator: ",") + "\r\n"
    }
    return text
  }

  /// RFC 4180: quote fields holding a comma, quote, or line break; double the quotes.
  static func csvField(_ value: String) -> String {
    guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return value }
    return "\"" + value.replacing("\"", with: "\"\"") + "\""
  }
}

/// Columns padded to the widest cell, long cells cut with an ellipsis.
struct TextTable {
  struct Column {
    let title: String
    let width: Int
    let rightAligned: Bool
    init(_ title: String, width: Int, rightAligned: Bool = false) {
      self.title = title
      self.width = width
      self.rightAligned = rightAligned
    }
  }

  let columns: [Column]
  let rows: [[String]]

  var rendered: String {
    let cells = ([columns.map(\.title)] + rows).map { row in
      zip(row, columns).map { cell, column in
        TextTable.fitted(cell.split(whereSeparator: \.isNewline).joined(separator: " "), to: column.width)
      }
    }
    var widths = Array(repeating: 0, count: columns.count)
    for row in cells {
      for (position, cell) in row.enumerated() { widths[position] = max(widths[position], cell.count) }
    }
    var text = ""
    for row in cells {
      var line = ""
      for (position, cell) in row.enumerated() {
        let padding = String(repeating: " ", count: widths[position] - cell.count)
        if position > 0 { line += "  " }
        line += columns[position].rightAligned ? padding + cell : cell + padding
      }
      while line.last == " " { line.removeLast() }
      text += line + "\n"
    }
    return text
  }

  /// Cuts `text` to `width` characters, ending in an ellipsis when it was longer.
  static func fitted(_ text: String, to width: Int) -> String {
    width == .max || text.count <= width ? text : String(text.prefix(width - 1)) + "…"
  }
}
