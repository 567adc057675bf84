#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

extension TimeZoneRules {
  /// The zone names of the tz database in `directory`, zones and their links (`Europe/Berlin`,
  /// `US/Pacific`), as its `tzdata.zi` lists them, else its `zone1970.tab` and `zone.tab`; empty
  /// when the database ships none of these. For suggesting a name, never for checking one (a
  /// name is known when its file loads).
  /// - Complexity: reads one file of about 100 KB.
  public static func identifiers(in directory: String = systemDirectory) -> [String] {
    var names = Set<String>()
    if let text = readText("\(directory)/tzdata.zi") {
      // `Z NAME …` starts a zone, `L TARGET NAME` links a name to it.
      for line in text.split(separator: "\n") {
        let fields = line.split(separator: " ")
        if fields.count >= 2, fields[0] == "Z" { names.insert(String(fields[1])) }
        if fields.count >= 3, fields[0] == "L" { names.insert(String(fields[2])) }
      }
    } else {
      // `CODES COORDINATES NAME …`, tab-separated, `#` comments.
      for file in ["zone1970.tab", "zone.tab"] {
        for line in (readText("\(directory)/\(file)") ?? "").split(separator: "\n") where !line.hasPrefix("#")
        {
          let fields = line.split(separator: "\t")
          if fields.count >= 3 { names.insert(String(fields[2])) }
        }
      }
    }
    return names.sorted()
  }

  /// The text of a small file, or `nil` when it cannot be read (or is over 4 MB).
  private static func readText(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while bytes.count <= 4 << 20 {
      let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
      if got < 0, errno == EINTR { continue }
      guard got > 0 else { return got == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
      bytes += chunk[..<got]
    }
    return nil
  }
}
