import Testing

@testable import OpeningHours

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The repository root, from this file's real path (the test file may be reached through a symlink).
private func repositoryRoot() -> String {
  let path =
    realpath(#filePath, nil).map { pointer -> String in
      defer { free(pointer) }
      return String(cString: pointer)
    } ?? #filePath
  var parts = path.split(separator: "/", omittingEmptySubsequences: false)
  parts.removeLast(3)  // Tests/OpeningHoursTests/HolidayRegistryTests.swift
  return parts.joined(separator: "/")
}

private let bundled: HolidayRegistry = {
  var registry = HolidayRegistry()
  do {
    try registry.addDirectory(repositoryRoot() + "/Data/holidays")
  } catch {
    Issue.record("loading Data/holidays: \(error)")
  }
  return registry
}()

private func day(_ year: Int, _ month: Int, _ day: Int) -> LocalDate {
  LocalDate(year: year, month: month, day: day)!
}

private func temporaryDirectory() -> String {
  var template = Array("/tmp/holiday-tests-XXXXXX".utf8CString)
  let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
  return String(cString: path!)
}

private func writeFile(_ text: String, to path: String) {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
  precondition(fd >= 0)
  let bytes = Array(text.utf8)
  _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
  close(fd)
}

@Suite struct HolidayRegistryTests {
  @Test func loadsEveryBundledCountry() throws {
    let countries = bundled.countries
    for code in [
      "US", "CA", "GB", "DE", "FR", "TW", "JP", "AU", "NZ", "BR", "PH", "IS", "NO", "MX", "ZA", "IN", "SG",
      "FJ", "RU",
    ] {
      #expect(countries.contains(code), "no data for \(code)")
    }
    #expect(countries.count >= 70)
    let germany = try #require(bundled.calendar(country: "DE", region: nil))
    #expect(germany.years == 2025...2031)
    #expect(bundled.name(country: "de") == "Germany")
    #expect(bundled.regions(country: "DE").contains("BY"))
    #expect(bundled.regions(country: "US").count >= 50)
  }

  @Test func germanyNationalAndLaender() throws {
    let national = try #require(bundled.calendar(country: "DE", region: nil))
    #expect(national.holiday(on: day(2026, 12, 25)) == "Christmas Day")
    #expect(national.isHoliday(day(2026, 12, 24)) == false)
    #expect(national.isHoliday(day(2026, 1, 6)) == false)

    let bavaria = try #require(bundled.calendar(country: "DE", region: "BY"))
    #expect(bavaria.region == "BY")
    #expect(bavaria.holiday(on: day(2026, 1, 6)) == "Epiphany")
    #expect(bavaria.holiday(on: day(2026, 12, 25)) == "Christmas Day")  // national dates stay

    let berlin = try #require(bundled.calendar(country: "de", region: "DE-BE"))
    #expect(berlin.region == "BE")
    #expect(berlin.covers(day(2026, 1, 6)))
    #expect(berlin.holiday(on: day(2026, 1, 6)) == nil)
    #expect(berlin.isHoliday(day(2026, 1, 6)) == false)
    #expect(berlin.holiday(on: day(2026, 3, 8)) == "Women's Day")
  }

  @Test func unitedStatesObservedDaysAndStates() throws {
    let national = try #require(bundled.calendar(country: "US", region: nil))
    // 2026-07-04 is a Saturday: the package observes Independence Day on Friday the 3rd.
    #expect(national.holiday(on: day(2026, 7, 3)) == "Independence Day (observed)")
    #expect(national.holiday(on: day(2026, 7, 4)) == "Independence Day")
    #expect(national.holiday(on: day(2026, 10, 12)) == "Columbus Day")
    // A region can take a national date away (`null` in the file).
    let california = try #require(bundled.calendar(country: "US", region: "CA"))
    #expect(california.holiday(on: day(2026, 10, 12)) == nil)
    #expect(california.holiday(on: day(2026, 3, 31)) == "Cesar Chavez Day")
    let massachusetts = try #require(bundled.calendar(country: "US", region: "Massachusetts"))
    #expect(massachusetts.region == "MA")
    #expect(massachusetts.holiday(on: day(2026, 7, 3)) == nil)
    #expect(massachusetts.holiday(on: day(2026, 4, 20)) == "Patriots' Day")
  }

  @Test func japan2026() throws {
    let japan = try #require(bundled.calendar(country: "JP", region: nil))
    #expect(japan.holiday(on: day(2026, 1, 12)) == "Coming of Age Day")
    #expect(japan.holiday(on: day(2026, 5, 6)) == "Substitute Holiday")
    #expect(japan.holiday(on: day(2026, 9, 22)) == "National Holiday")
    #expect(japan.holiday(on: day(2026, 9, 23)) == "Autumnal Equinox Day")
    #expect(japan.holiday(on: day(2026, 11, 23)) == "Labor Thanksgiving Day")
    #expect(japan.holidays.filter { $0.date.year == 2026 }.count == 18)
  }

  @Test func australianStatesDiffer() throws {
    let nsw = try #require(bundled.calendar(country: "AU", region: "NSW"))
    let vic = try #require(bundled.calendar(country: "AU", region: "AU-VIC"))
    #expect(vic.holiday(on: day(2026, 11, 3)) == "Melbourne Cup Day")
    #expect(nsw.holiday(on: day(2026, 11, 3)) == nil)
    #expect(nsw.holiday(on: day(2026, 10, 5)) == "Labor Day")
    #expect(vic.holiday(on: day(2026, 10, 5)) == nil)
    #expect(vic.holiday(on: day(2026, 3, 9)) == "Labor Day")
    // Australia Day 2025 fell on a Sunday: the states keep Monday the 27th instead.
    let national = try #require(bundled.calendar(country: "AU", region: nil))
    #expect(national.holiday(on: day(2025, 1, 26)) == "Australia Day")
    #expect(nsw.holiday(on: day(2025, 1, 26)) == nil)
    #expect(nsw.holiday(on: day(2025, 1, 27)) == "Australia Day")
    #expect(bundled.resolveRegion(country: "AU", region: "New South Wales") == "NSW")
  }

  @Test func regionSpellings() {
    #expect(bundled.resolveRegion(country: "DE", region: "by") == "BY")
    #expect(bundled.resolveRegion(country: "DE", region: "Bayern") == "BY")
    #expect(bundled.resolveRegion(country: "NO", region: "3") == "03")
    #expect(bundled.resolveRegion(country: "GB", region: "Scotland") == "SCT")
    #expect(bundled.resolveRegion(country: "DE", region: "Atlantis") == nil)
    // An unknown region gives the national calendar, with `region` nil so the caller can warn.
    let unknown = bundled.calendar(country: "DE", region: "Atlantis")
    #expect(unknown?.region == nil)
    #expect(unknown?.holiday(on: day(2026, 12, 25)) == "Christmas Day")
  }

  @Test func countryWithoutDataIsNil() {
    #expect(bundled.calendar(country: "XX", region: nil) == nil)
    #expect(bundled.calendar(country: "M", region: nil) == nil)
    #expect(HolidayRegistry().calendar(country: "DE", region: nil) == nil)
    #expect(HolidayRegistry().countries.isEmpty)
  }

  @Test func yearsOutsideTheDataAreUnknown() throws {
    let germany = try #require(bundled.calendar(country: "DE", region: nil))
    #expect(germany.isHoliday(day(2040, 12, 25)) == nil)
    #expect(!germany.covers(day(2024, 12, 25)))
  }

  @Test func laterFilesExtendAndOverride() throws {
    var registry = bundled
    try registry.add(
      json: """
        {"country":"de","years":[2026,2026],"national":{"2026-12-24":"Company holiday","2026-12-26":null},
        "regions":{"BE":{"2026-01-06":"Berlin store day"}}}
        """, file: "company.json")
    try registry.add(json: #"{"country":"DE","years":[2032,2032],"national":{"2032-12-25":"Christmas Day"}}"#)
    try registry.add(json: #"{"country":"DE","years":[2034,2034]}"#)
    let germany = try #require(registry.calendar(country: "DE", region: nil))
    #expect(germany.years == 2025...2034)
    #expect(germany.holiday(on: day(2026, 12, 24)) == "Company holiday")
    #expect(germany.holiday(on: day(2026, 12, 25)) == "Christmas Day")  // kept
    #expect(germany.holiday(on: day(2026, 12, 26)) == nil)  // removed
    #expect(germany.holiday(on: day(2032, 12, 25)) == "Christmas Day")
    #expect(germany.isHoliday(day(2032, 12, 24)) == false)
    #expect(germany.isHoliday(day(2033, 12, 25)) == nil)  // a gap: no file covered 2033
    #expect(germany.isHoliday(day(2034, 12, 25)) == false)
    let berlin = try #require(registry.calendar(country: "DE", region: "BE"))
    #expect(berlin.holiday(on: day(2026, 1, 6)) == "Berlin store day")
    #expect(berlin.holiday(on: day(2026, 3, 8)) == "Women's Day")
  }

  @Test func newCountryFromAFileAndDirectoryOrder() throws {
    let directory = temporaryDirectory()
    writeFile(
      #"{"country":"XK","name":"Kosovo","years":[2026,2026],"national":{"2026-02-17":"Independence Day"}}"#,
      to: directory + "/XK.json")
    writeFile(
      #"{"country":"XK","years":[2026,2026],"national":{"2026-02-17":"Dita e Pavarësisë \u2014 \ud83c\uddfd"}}"#,
      to: directory + "/ZZ-local.json")
    writeFile("not json", to: directory + "/README.md")
    var registry = HolidayRegistry()
    try registry.addDirectory(directory)
    #expect(registry.countries == ["XK"])
    let kosovo = try #require(registry.calendar(country: "xk", region: nil))
    #expect(kosovo.holiday(on: day(2026, 2, 17)) == "Dita e Pavarësisë — \u{1F1FD}")
    #expect(registry.name(country: "XK") == "Kosovo")
  }

  @Test func malformedFilesSayWhereAndWhat() {
    func failure(_ text: String) -> HolidayDataError? {
      var registry = HolidayRegistry()
      do {
        try registry.add(json: text, file: "bad.json")
        return nil
      } catch {
        return error
      }
    }
    let badDate = failure("{\"country\":\"DE\",\"years\":[2026,2026],\n\"national\":{\"2026-13-01\":\"x\"}}")
    #expect(badDate?.line == 2)
    #expect(badDate?.column == 13)
    #expect(badDate?.description.hasPrefix("bad.json:2:13: expected a date \"YYYY-MM-DD\"") == true)

    let missingComma = failure("{\"country\":\"DE\"\n  \"years\":[2026,2026]}")
    #expect(missingComma?.line == 2)
    #expect(missingComma?.column == 3)
    #expect(missingComma?.message.contains("expected ',' or '}'") == true)

    let outside = failure(#"{"country":"DE","years":[2026,2026],"national":{"2027-01-01":"x"}}"#)
    #expect(outside?.message.contains("outside the file's years") == true)

    let noYears = failure(#"{"country":"DE"}"#)
    #expect(noYears?.message.contains("\"years\"") == true)

    let badName = failure(#"{"country":"DE","years":[2026,2026],"national":{"2026-01-01":1}}"#)
    #expect(badName?.column == 62)

    let truncated = failure("{\"country\":\"DÜ")
    #expect(truncated?.line == 1)
    #expect(truncated?.message.contains("closing") == true)

    var registry = HolidayRegistry()
    #expect(throws: HolidayDataError.self) { try registry.add(contentsOf: "/nonexistent/holidays.json") }
    #expect(throws: HolidayDataError.self) { try registry.addDirectory("/nonexistent-directory") }
  }

  @Test func badFileInADirectoryNamesTheFile() {
    let directory = temporaryDirectory()
    writeFile(
      "{\"country\":\"DE\",\"years\":[2026,2026],\n\"national\":{\"2026-01-01\":\"x\",}}",
      to: directory + "/DE.json")
    var registry = HolidayRegistry()
    do {
      try registry.addDirectory(directory)
      Issue.record("expected an error")
    } catch {
      #expect(error.file == directory + "/DE.json")
      #expect(error.line == 2)
      #expect(error.column == 30)
      #expect(error.message.contains("member name"))
    }
  }
}
