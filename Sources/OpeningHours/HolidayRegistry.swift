#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A holiday data file that could not be read or does not follow the format of
/// Data/holidays/README.md: which file, where in it (1-based line and column, in Unicode scalars;
/// 0 when the problem is the whole file), and what was expected.
public struct HolidayDataError: Error, Hashable, Sendable, CustomStringConvertible {
  public let file: String
  public let line: Int
  public let column: Int
  public let message: String

  public init(file: String, line: Int, column: Int, message: String) {
    self.file = file
    self.line = line
    self.column = column
    self.message = message
  }

  /// `Data/holidays/DE.json:12:5: expected a date "YYYY-MM-DD", found "2026-13-01"`.
  public var description: String {
    line > 0 ? "\(file):\(line):\(column): \(message)" : "\(file): \(message)"
  }
}

/// Public-holiday data for many countries, loaded from files in the format of
/// Data/holidays/README.md (`{"country":"DE","years":[2025,2031],"national":{…},"regions":{…}}`).
///
/// Files loaded later override and extend earlier ones for the same country: their dates are
/// added (a name replaces the earlier name, `null` removes the date), their years join the
/// covered years, their regions are merged date by date. So a user's `--holidays FILE` can add a
/// year, a company holiday, or take a date away.
public struct HolidayRegistry: Sendable {
  struct CountryData: Sendable {
    var name: String?
    var coveredYears: Set<Int> = []
    /// `nil` value: explicitly not a holiday (a later file removed it).
    var national: [LocalDate: String?] = [:]
    /// Per region code (as spelled in the data): the region's difference from `national`.
    var regions: [String: [LocalDate: String?]] = [:]
    /// Uppercased alias or code → region code.
    var aliases: [String: String] = [:]
  }

  var data: [String: CountryData] = [:]

  /// An empty registry.
  public init() {}

  /// The countries with data, ISO 3166-1 alpha-2, sorted.
  public var countries: [String] { data.keys.sorted() }

  /// The country's name from the data (`Germany`), if a file gave one.
  public func name(country: String) -> String? { data[country.uppercased()]?.name ?? nil }

  /// The region codes the data has for `country`, sorted (`["BB", "BE", "BW", "BY", …]`).
  public func regions(country: String) -> [String] {
    data[country.uppercased()].map { $0.regions.keys.sorted() } ?? []
  }

  /// The data's code for `region` of `country`, or `nil` when the data has no such region.
  ///
  /// Accepts the code in any case (`by`), with the country prefix of ISO 3166-2 (`DE-BY`), a
  /// name or other alias the data lists (`Bayern`, `New South Wales`), and numeric codes without
  /// their leading zero (`3` for Norway's `03`, as some data sets write them).
  public func resolveRegion(country: String, region: String) -> String? {
    guard let entry = data[country.uppercased()] else { return nil }
    var key = region.trimmingSpaces().uppercased()
    let prefix = country.uppercased() + "-"
    if key.hasPrefix(prefix), key.count > prefix.count { key = String(key.dropFirst(prefix.count)) }
    if let code = entry.aliases[key] { return code }
    if !key.isEmpty, key.allSatisfy(\.isASCIIDigitCharacter), key.count < 2 {
      if let code = entry.aliases["0" + key] { return code }
    }
    return nil
  }

  /// The calendar of `country` (case-insensitive), national holidays merged with those of
  /// `region` (see `resolveRegion`); `nil` when the registry has no data for the country.
  ///
  /// `region == nil` gives national holidays only. A region the data does not know also gives
  /// the national calendar, and its `region` is then `nil`: compare with what you asked for to
  /// warn about it.
  public func calendar(country: String, region: String?) -> HolidayCalendar? {
    let code = country.uppercased()
    guard let entry = data[code], let low = entry.coveredYears.min(), let high = entry.coveredYears.max()
    else {
      return nil
    }
    var names: [LocalDate: String] = [:]
    for (date, name) in entry.national {
      if let name { names[date] = name }
    }
    let resolved = region.flatMap { resolveRegion(country: code, region: $0) }
    if let resolved, let diff = entry.regions[resolved] {
      for (date, name) in diff {
        names[date] = name
      }
    }
    let uncovered = Set((low...high).filter { !entry.coveredYears.contains($0) })
    return HolidayCalendar(
      country: code, region: resolved, years: low...high, holidays: names, uncoveredYears: uncovered)
  }

  /// The calendar for an ISO 3166 code as people write it: `DE` (national) or `DE-BY` (a region,
  /// resolved as `resolveRegion` does); `nil` when there is no data for the country.
  public func calendar(isoCode code: String) -> HolidayCalendar? {
    let parts = code.split(separator: "-", maxSplits: 1).map(String.init)
    guard let country = parts.first else { return nil }
    return calendar(country: country, region: parts.count > 1 ? parts[1] : nil)
  }

  /// Loads one file in the format of Data/holidays/README.md.
  public mutating func add(contentsOf path: String) throws(HolidayDataError) {
    let bytes = try HolidayFile.readAll(path)
    try add(json: bytes, file: path)
  }

  /// Loads one document given as text; `file` names it in errors.
  public mutating func add(json text: String, file: String = "<string>") throws(HolidayDataError) {
    try add(json: Array(text.utf8), file: file)
  }

  /// Loads every `*.json` file of `path`, in byte order of their names (so `ZZ-extra.json`
  /// comes after `DE.json` and extends it). Subdirectories and other files are skipped.
  public mutating func addDirectory(_ path: String) throws(HolidayDataError) {
    guard let dir = opendir(path) else {
      throw HolidayDataError(
        file: path, line: 0, column: 0, message: "cannot open directory: \(HolidayFile.errnoText())")
    }
    var names: [String] = []
    while let entry = readdir(dir) {
      let name = withUnsafePointer(to: &entry.pointee.d_name) { pointer in
        pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name))
        {
          String(cString: $0)
        }
      }
      if name.hasSuffix(".json"), !name.hasPrefix(".") { names.append(name) }
    }
    closedir(dir)
    names.sort { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    let base = path.hasSuffix("/") ? path : path + "/"
    for name in names {
      let file = base + name
      var info = stat()
      if stat(file, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG { continue }
      try add(contentsOf: file)
    }
  }

  mutating func add(json bytes: [UInt8], file: String) throws(HolidayDataError) {
    if let offset = HolidayFile.firstInvalidUTF8(in: bytes) {
      let before = bytes[..<offset]
      let line = before.count { $0 == UInt8(ascii: "\n") } + 1
      let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
      throw HolidayDataError(
        file: file, line: line, column: column,
        message:
          "the file is not valid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)) at "
          + "offset \(offset)); holiday files are UTF-8 JSON")
    }
    var parser = MiniJSON(bytes: bytes, file: file)
    let root = try parser.parseDocument()
    let update = try HolidayFile.interpret(root, parser: parser)
    var entry = data[update.country] ?? CountryData()
    if let name = update.name { entry.name = name }
    entry.coveredYears.formUnion(update.years)
    for (date, name) in update.national { entry.national[date] = name }
    for (region, diff) in update.regions {
      entry.aliases[region.uppercased()] = region
      var merged = entry.regions[region] ?? [:]
      for (date, name) in diff { merged[date] = name }
      entry.regions[region] = merged
    }
    for (alias, code) in update.aliases where entry.regions[code] != nil {
      // A region's own code always wins over another region's alias.
      let key = alias.uppercased()
      if let existing = entry.aliases[key], existing.uppercased() == key { continue }
      entry.aliases[key] = code
    }
    data[update.country] = entry
  }
}

// MARK: - The file format

enum HolidayFile {
  struct Update {
    var country: String
    var name: String?
    var years: ClosedRange<Int>
    var national: [(LocalDate, String?)]
    var regions: [(String, [(LocalDate, String?)])]
    var aliases: [(String, String)]
  }

  static func interpret(_ root: MiniJSON.Node, parser: MiniJSON) throws(HolidayDataError) -> Update {
    guard case .object(let members) = root.value else {
      throw parser.error(
        at: root.offset, "expected a JSON object {\"country\": …, \"years\": […], \"national\": {…}}")
    }
    func member(_ key: String) -> MiniJSON.Node? { members.last { $0.key == key }?.value }

    guard let countryNode = member("country") else {
      throw parser.error(
        at: root.offset, "expected a \"country\" member (ISO 3166-1 alpha-2, such as \"DE\")")
    }
    guard case .string(let rawCountry) = countryNode.value, rawCountry.count == 2,
      rawCountry.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("a"..."z").contains($0) })
    else {
      throw parser.error(
        at: countryNode.offset, "expected \"country\" to be a two-letter code such as \"DE\"")
    }
    let country = rawCountry.uppercased()

    var name: String?
    if let node = member("name") {
      guard case .string(let text) = node.value else {
        throw parser.error(at: node.offset, "expected \"name\" to be a string")
      }
      name = text
    }

    guard let yearsNode = member("years") else {
      throw parser.error(at: root.offset, "expected a \"years\" member, [first, last] such as [2025, 2031]")
    }
    guard case .array(let bounds) = yearsNode.value, bounds.count == 2,
      case .number(let first) = bounds[0].value, case .number(let last) = bounds[1].value,
      let firstYear = Int(exactly: first), let lastYear = Int(exactly: last),
      (1...9999).contains(firstYear), (firstYear...9999).contains(lastYear)
    else {
      throw parser.error(
        at: yearsNode.offset,
        "expected \"years\" to be [first, last], two whole years with first ≤ last, such as [2025, 2031]")
    }
    let years = firstYear...lastYear

    func dates(_ node: MiniJSON.Node, what: String) throws(HolidayDataError) -> [(LocalDate, String?)] {
      guard case .object(let entries) = node.value else {
        throw parser.error(at: node.offset, "expected \(what) to be an object {\"YYYY-MM-DD\": \"name\", …}")
      }
      var result: [(LocalDate, String?)] = []
      for entry in entries {
        guard let date = parseDate(entry.key) else {
          throw parser.error(
            at: entry.keyOffset, "expected a date \"YYYY-MM-DD\" in \(what), found \"\(entry.key)\"")
        }
        guard years.contains(date.year) else {
          throw parser.error(
            at: entry.keyOffset,
            "date \(entry.key) in \(what) is outside the file's years \(years.lowerBound)–\(years.upperBound)"
          )
        }
        switch entry.value.value {
        case .string(let holiday): result.append((date, holiday))
        case .null: result.append((date, nil))
        default:
          throw parser.error(
            at: entry.value.offset,
            "expected the holiday's name (a string) or null for \(entry.key) in \(what)")
        }
      }
      return result
    }

    var national: [(LocalDate, String?)] = []
    if let node = member("national") { national = try dates(node, what: "\"national\"") }

    var regions: [(String, [(LocalDate, String?)])] = []
    if let node = member("regions") {
      guard case .object(let entries) = node.value else {
        throw parser.error(
          at: node.offset, "expected \"regions\" to be an object {\"BY\": {\"YYYY-MM-DD\": \"name\", …}, …}")
      }
      for entry in entries {
        guard !entry.key.isEmpty else {
          throw parser.error(at: entry.keyOffset, "expected a region code, found \"\"")
        }
        regions.append((entry.key, try dates(entry.value, what: "region \"\(entry.key)\"")))
      }
    }

    var aliases: [(String, String)] = []
    if let node = member("aliases") {
      guard case .object(let entries) = node.value else {
        throw parser.error(at: node.offset, "expected \"aliases\" to be an object {\"Bayern\": \"BY\", …}")
      }
      for entry in entries {
        guard case .string(let code) = entry.value.value else {
          throw parser.error(
            at: entry.value.offset, "expected a region code (a string) for alias \"\(entry.key)\"")
        }
        aliases.append((entry.key, code))
      }
    }
    return Update(
      country: country, name: name, years: years, national: national, regions: regions, aliases: aliases)
  }

  /// `YYYY-MM-DD`, exactly.
  static func parseDate(_ text: String) -> LocalDate? {
    let bytes = Array(text.utf8)
    guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = bytes[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
    return LocalDate(year: year, month: month, day: day)
  }

  static func errnoText() -> String {
    let code = errno
    if let text = strerror(code) { return String(cString: text) }
    return "errno \(code)"
  }

  /// The most a holiday file may hold: 16 MiB. The bundled files are a few kB each; the limit
  /// keeps `--holidays /dev/zero` an error rather than a process that fills memory.
  static let maximumFileBytes = 16 << 20

  /// The offset of the first byte that is not part of well-formed UTF-8, or `nil`.
  static func firstInvalidUTF8(in bytes: [UInt8]) -> Int? {
    var parser = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
      switch parser.parseScalar(from: &iterator) {
      case .valid(let scalar): offset += scalar.count
      case .emptyInput: return nil
      case .error: return offset
      }
    }
  }

  /// The whole file, with POSIX `open`/`read`, refusing more than `maximumFileBytes`.
  static func readAll(_ path: String) throws(HolidayDataError) -> [UInt8] {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else {
      throw HolidayDataError(file: path, line: 0, column: 0, message: "cannot open: \(errnoText())")
    }
    defer { close(fd) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65_536)
    while true {
      let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
      if count > 0 {
        result.append(contentsOf: buffer[0..<count])
        if result.count > maximumFileBytes {
          throw HolidayDataError(
            file: path, line: 0, column: 0,
            message: "the file is larger than 16 MiB, the limit for holiday files (docs/limits.md)")
        }
      } else if count == 0 {
        return result
      } else if errno != EINTR {
        throw HolidayDataError(file: path, line: 0, column: 0, message: "cannot read: \(errnoText())")
      }
    }
  }
}

// MARK: - A small JSON reader (RFC 8259) that remembers where each value starts

struct MiniJSON {
  indirect enum Value {
    case object([(key: String, keyOffset: Int, value: Node)])
    case array([Node])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
  }

  struct Node {
    let value: Value
    /// Byte offset of the value's first character.
    let offset: Int
  }

  let bytes: [UInt8]
  let file: String
  var index = 0
  var depth = 0

  init(bytes: [UInt8], file: String) {
    self.bytes = bytes
    self.file = file
  }

  /// 1-based line and column (in Unicode scalars) of a byte offset.
  func position(of offset: Int) -> (line: Int, column: Int) {
    var line = 1
    var column = 1
    var index = 0
    let end = min(offset, bytes.count)
    while index < end {
      let byte = bytes[index]
      if byte == 0x0A {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      index += 1
    }
    return (line, column)
  }

  func error(at offset: Int, _ message: String) -> HolidayDataError {
    let (line, column) = position(of: offset)
    return HolidayDataError(file: file, line: line, column: column, message: message)
  }

  private func found() -> String {
    guard index < bytes.count else { return "the end of the file" }
    let byte = bytes[index]
    if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
    return "byte 0x\(String(byte, radix: 16, uppercase: true))"
  }

  mutating func parseDocument() throws(HolidayDataError) -> Node {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    skipSpace()
    let node = try parseValue()
    skipSpace()
    guard index == bytes.count else {
      throw error(at: index, "expected the end of the file after the JSON value, found \(found())")
    }
    return node
  }

  private mutating func skipSpace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private mutating func parseValue() throws(HolidayDataError) -> Node {
    let start = index
    guard index < bytes.count else { throw error(at: index, "expected a value, found the end of the file") }
    switch bytes[index] {
    case UInt8(ascii: "{"): return Node(value: try parseObject(), offset: start)
    case UInt8(ascii: "["): return Node(value: try parseArray(), offset: start)
    case UInt8(ascii: "\""): return Node(value: .string(try parseString()), offset: start)
    case UInt8(ascii: "t"): try literal("true"); return Node(value: .bool(true), offset: start)
    case UInt8(ascii: "f"): try literal("false"); return Node(value: .bool(false), offset: start)
    case UInt8(ascii: "n"): try literal("null"); return Node(value: .null, offset: start)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return Node(value: .number(try parseNumber()), offset: start)
    default:
      throw error(
        at: index, "expected a value (object, array, string, number, true, false or null), found \(found())")
    }
  }

  private mutating func literal(_ word: String) throws(HolidayDataError) {
    let expected = Array(word.utf8)
    guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected
    else {
      throw error(
        at: index, "expected a value (object, array, string, number, true, false or null), found \(found())")
    }
    index += expected.count
  }

  private mutating func nest() throws(HolidayDataError) {
    depth += 1
    if depth > 64 { throw error(at: index, "expected at most 64 nested objects and arrays") }
  }

  private mutating func parseObject() throws(HolidayDataError) -> Value {
    try nest()
    defer { depth -= 1 }
    index += 1
    var members: [(key: String, keyOffset: Int, value: Node)] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw error(at: index, "expected a member name in double quotes, found \(found())")
      }
      let keyOffset = index
      let key = try parseString()
      skipSpace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
        throw error(at: index, "expected ':' after the member name \"\(key)\", found \(found())")
      }
      index += 1
      skipSpace()
      members.append((key: key, keyOffset: keyOffset, value: try parseValue()))
      skipSpace()
      guard index < bytes.count else {
        throw error(at: index, "expected ',' or '}', found the end of the file")
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "}") {
        index += 1
        return .object(members)
      }
      throw error(at: index, "expected ',' or '}' after the value of \"\(key)\", found \(found())")
    }
  }

  private mutating func parseArray() throws(HolidayDataError) -> Value {
    try nest()
    defer { depth -= 1 }
    index += 1
    var elements: [Node] = []
    skipSpace()
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipSpace()
      elements.append(try parseValue())
      skipSpace()
      guard index < bytes.count else {
        throw error(at: index, "expected ',' or ']', found the end of the file")
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
        continue
      }
      if bytes[index] == UInt8(ascii: "]") {
        index += 1
        return .array(elements)
      }
      throw error(at: index, "expected ',' or ']' in the array, found \(found())")
    }
  }

  private mutating func parseNumber() throws(HolidayDataError) -> Double {
    let start = index
    func digits(_ parser: inout MiniJSON) -> Int {
      var count = 0
      while parser.index < parser.bytes.count, parser.bytes[parser.index] >= UInt8(ascii: "0"),
        parser.bytes[parser.index] <= UInt8(ascii: "9")
      {
        parser.index += 1
        count += 1
      }
      return count
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    let leadingZero = index < bytes.count && bytes[index] == UInt8(ascii: "0")
    let integerDigits = digits(&self)
    guard integerDigits > 0, !(leadingZero && integerDigits > 1) else {
      throw error(at: start, "expected a number such as 2026")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      guard digits(&self) > 0 else {
        throw error(at: index, "expected digits after the decimal point, found \(found())")
      }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
        index += 1
      }
      guard digits(&self) > 0 else {
        throw error(at: index, "expected digits in the exponent, found \(found())")
      }
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let value = Double(text) else { throw error(at: start, "expected a number, found \(text)") }
    return value
  }

  private mutating func hex4() throws(HolidayDataError) -> UInt32 {
    guard index + 4 <= bytes.count else { throw error(at: index, "expected four hex digits after \\u") }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error(at: index, "expected four hex digits after \\u, found \(found())")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }

  private mutating func parseString() throws(HolidayDataError) -> String {
    let start = index
    index += 1
    var scalars = String.UnicodeScalarView()
    var runStart = index
    func flush(_ parser: MiniJSON, _ from: Int, _ to: Int, into view: inout String.UnicodeScalarView) {
      if from < to {
        view.append(contentsOf: String(decoding: parser.bytes[from..<to], as: UTF8.self).unicodeScalars)
      }
    }
    while true {
      guard index < bytes.count else {
        throw error(at: start, "expected the closing '\"' of this string, found the end of the file")
      }
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        flush(self, runStart, index, into: &scalars)
        index += 1
        return String(scalars)
      }
      if byte < 0x20 {
        throw error(
          at: index,
          byte == 0x0A
            ? "expected the closing '\"' of the string before the end of the line"
            : "expected no control characters in a string (write \\t, \\n or \\u00XX)")
      }
      if byte != UInt8(ascii: "\\") {
        index += 1
        continue
      }
      flush(self, runStart, index, into: &scalars)
      let escape = index
      index += 1
      guard index < bytes.count else {
        throw error(at: escape, "expected an escape after '\\', found the end of the file")
      }
      let kind = bytes[index]
      index += 1
      switch kind {
      case UInt8(ascii: "\""): scalars.append("\"")
      case UInt8(ascii: "\\"): scalars.append("\\")
      case UInt8(ascii: "/"): scalars.append("/")
      case UInt8(ascii: "b"): scalars.append("\u{08}")
      case UInt8(ascii: "f"): scalars.append("\u{0C}")
      case UInt8(ascii: "n"): scalars.append("\n")
      case UInt8(ascii: "r"): scalars.append("\r")
      case UInt8(ascii: "t"): scalars.append("\t")
      case UInt8(ascii: "u"):
        var code = try hex4()
        if (0xD800..<0xDC00).contains(code) {
          guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
            bytes[index + 1] == UInt8(ascii: "u")
          else {
            throw error(at: escape, "expected a low surrogate \\uDC00–\\uDFFF after this high surrogate")
          }
          index += 2
          let low = try hex4()
          guard (0xDC00..<0xE000).contains(low) else {
            throw error(at: escape, "expected a low surrogate \\uDC00–\\uDFFF after this high surrogate")
          }
          code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else {
          throw error(at: escape, "expected a Unicode scalar, found a lone surrogate")
        }
        scalars.append(scalar)
      default:
        throw error(at: escape, "expected an escape \\\" \\\\ \\/ \\b \\f \\n \\r \\t or \\uXXXX")
      }
      runStart = index
    }
  }
}

extension String {
  fileprivate func trimmingSpaces() -> String {
    let scalars = unicodeScalars
    guard let first = scalars.firstIndex(where: { $0 != " " && $0 != "\t" }),
      let last = scalars.lastIndex(where: { $0 != " " && $0 != "\t" })
    else { return "" }
    return String(scalars[first...last])
  }
}

extension Character {
  fileprivate var isASCIIDigitCharacter: Bool { ("0"..."9").contains(self) }
}
