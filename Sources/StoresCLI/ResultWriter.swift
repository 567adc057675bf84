import GeoIndex
import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lays query results out for people: aligned columns, distances in the units asked. Decisions
/// live in the library; this only lays them out.
struct ResultWriter {
  /// Distance units in text output.
  var units: DisplayUnit = .km
  /// How wide a text line may be; `nil` when not known (nothing is cut then).
  var lineWidth: Int? = Terminal.lineWidth()

  // MARK: Text

  /// One row a store. Ids are never cut (people paste them into `stores show`); when the line is
  /// too narrow, names and addresses give up characters instead. Rows are numbered from
  /// `firstNumber`, so a later page of `within` goes on from the page before.
  func table(_ matches: [StoreMatch], numberedFrom firstNumber: Int = 1) -> String {
    let hasDistance = matches.contains { $0.distance != nil }
    var columns: [TextTable.Column] = [TextTable.Column("#", rightAligned: true)]
    if hasDistance { columns.append(TextTable.Column("DISTANCE", rightAligned: true)) }
    columns += [
      TextTable.Column("ID"), TextTable.Column("NAME", shrinksTo: 12),
      TextTable.Column("ADDRESS", shrinksTo: 12), TextTable.Column("OPEN"),
    ]
    let rows = matches.enumerated().map { position, match in
      (["\(firstNumber + position)"] + (hasDistance ? [match.distance.map(formatted) ?? ""] : []))
        + [
          match.store.id,
          match.store.name ?? "(no name)",
          match.store.address ?? "",
          match.status?.summary ?? match.store.openingHours ?? "hours unknown",
        ]
    }
    return TextTable(columns: columns, rows: rows, lineWidth: lineWidth).rendered
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
}

/// The width of the line standard output writes to.
enum Terminal {
  /// How many columns a line of standard output may use: `$COLUMNS` when it is a positive number
  /// (wherever the output goes, a file or pipe too), else the terminal's width when standard
  /// output is a terminal, else `nil`.
  ///
  /// `nil` means neither is known: output goes to a file or a pipe without `$COLUMNS`, where a
  /// cut would lose data that `grep` or a script wants; text tables then keep every character.
  static func lineWidth(environment: [String: String] = currentEnvironment()) -> Int? {
    if let columns = environment["COLUMNS"].flatMap({ Int($0) }), columns > 0 { return columns }
    guard isatty(1) == 1 else { return nil }
    var size = winsize()
    guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
    return Int(size.ws_col)
  }
}

/// Columns padded to the widest cell; when a line width is given, the shrinkable columns give up
/// characters (ending in an ellipsis) until the table fits.
struct TextTable {
  struct Column {
    let title: String
    /// Cells longer than this are cut; `.max` for none.
    let width: Int
    let rightAligned: Bool
    /// How narrow the column may get to fit the line width; `nil` for a column that is never cut
    /// to fit (ids, numbers, the answer itself).
    let minimumWidth: Int?

    init(_ title: String, width: Int = .max, rightAligned: Bool = false, shrinksTo minimumWidth: Int? = nil) {
      self.title = title
      self.width = width
      self.rightAligned = rightAligned
      self.minimumWidth = minimumWidth
    }
  }

  let columns: [Column]
  let rows: [[String]]
  /// The widest a line may be; `nil` for no limit. A table whose unshrinkable columns alone are
  /// wider stays wider: the terminal wraps it rather than the table losing an id.
  var lineWidth: Int? = nil

  var rendered: String {
    var cells = ([columns.map(\.title)] + rows).map { row in
      zip(row, columns).map { cell, column in
        TextTable.fitted(cell.split(whereSeparator: \.isNewline).joined(separator: " "), to: column.width)
      }
    }
    var widths = Array(repeating: 0, count: columns.count)
    for row in cells {
      for (position, cell) in row.enumerated() {
        widths[position] = max(widths[position], TextTable.displayWidth(of: cell))
      }
    }
    if let lineWidth {
      widths = fitting(widths, into: lineWidth)
      cells = cells.map { row in row.enumerated().map { TextTable.fitted($1, to: widths[$0]) } }
    }
    var text = ""
    for row in cells {
      var line = ""
      for (position, cell) in row.enumerated() {
        let padding = String(
          repeating: " ", count: max(0, widths[position] - TextTable.displayWidth(of: cell)))
        if position > 0 { line += "  " }
        line += columns[position].rightAligned ? padding + cell : cell + padding
      }
      while line.last == " " { line.removeLast() }
      text += line + "\n"
    }
    return text
  }

  /// `widths` narrowed to fit `lineWidth`: the widest shrinkable column gives up a character at a
  /// time, so long names and long addresses share the cut.
  private func fitting(_ widths: [Int], into lineWidth: Int) -> [Int] {
    var widths = widths
    var total = widths.reduce(0, +) + 2 * max(0, widths.count - 1)
    while total > lineWidth {
      let candidates = widths.indices.filter { position in
        columns[position].minimumWidth.map { widths[position] > $0 } ?? false
      }
      // The widest first; between equals, the later column (addresses before names).
      guard let widest = candidates.max(by: { (widths[$0], $0) < (widths[$1], $1) }) else { break }
      widths[widest] -= 1
      total -= 1
    }
    return widths
  }

  /// Cuts `text` to `width` terminal columns, ending in an ellipsis when it was longer.
  static func fitted(_ text: String, to width: Int) -> String {
    guard width != .max, displayWidth(of: text) > width else { return text }
    var result = ""
    var used = 0
    for character in text {
      let characterWidth = displayWidth(of: character)
      if used + characterWidth > width - 1 { break }
      result.append(character)
      used += characterWidth
    }
    return result + "…"
  }

  /// How many terminal columns `text` takes: two for each East Asian wide character (CJK, Hangul,
  /// full-width forms, most emoji), one for any other character.
  static func displayWidth(of text: String) -> Int {
    text.reduce(0) { $0 + displayWidth(of: $1) }
  }

  static func displayWidth(of character: Character) -> Int {
    guard let scalar = character.unicodeScalars.first?.value, scalar >= 0x1100 else { return 1 }
    return wideRanges.contains { $0.contains(scalar) } ? 2 : 1
  }

  /// The scalars `displayWidth(of:)` counts as two columns (by the first scalar of a character).
  private static let wideRanges: [ClosedRange<UInt32>] = [
    0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
    0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
    0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD,
  ]
}
