import Foundation
import Testing

@testable import GeoIndex
@testable import OpeningHours
@testable import StoreLocator

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// An object of `count` members named `k0`, `k1`, …, then `extra` members.
private func objectText(members count: Int, extra: [String] = []) -> String {
  var text = "{"
  for index in 0..<count { text += "\"k\(index)\":\(index)," }
  for member in extra { text += member + "," }
  text.removeLast()
  return text + "}"
}

@Suite struct JSONObjectLimitTests {
  @Test func repeatedKeysAreFoundPastTheLinearSearch() throws {
    // The 40th member repeats the 3rd, and the 41st the 30th: both past the linear-search limit,
    // so the hashed lookup has to find them.
    let text = objectText(members: 39, extra: ["\"k2\":\"again\"", "\"k29\":true"])
    let value = try JSONValue(parsing: text)
    guard case .object(let object) = value else {
      Issue.record("not an object")
      return
    }
    #expect(object.count == 39)
    #expect(object["k2"] == .string("again"))
    #expect(object["k29"] == .bool(true))
    #expect(object.members.map(\.key) == (0..<39).map { "k\($0)" })
  }

  @Test func anObjectAtTheMemberLimitReadsAndOnePastItIsRefused() throws {
    let limit = JSONScanner.maximumMembers
    guard case .object(let atLimit) = try JSONValue(parsing: objectText(members: limit)) else {
      Issue.record("not an object")
      return
    }
    #expect(atLimit.count == limit)
    #expect {
      try JSONValue(parsing: objectText(members: limit + 1))
    } throws: { error in
      "\(error)".contains("more than \(limit) members")
    }
  }

  @Test func keysInOtherNormalizationFormsAreOtherKeys() throws {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    #expect(composed == decomposed, "Swift's String equality is canonical equivalence")
    let value = try JSONValue(parsing: "{\"\(composed)\":1,\"\(decomposed)\":2}")
    guard case .object(let object) = value else {
      Issue.record("not an object")
      return
    }
    #expect(object.count == 2)
    #expect(object[composed] == .number("1"))
    #expect(object[decomposed] == .number("2"))
  }
}

@Suite struct LRUCacheTests {
  @Test func keepsTheMostRecentlyUsedEntries() {
    var cache = LRUCache<Int, String>(capacity: 3)
    for key in 1...3 { cache.insert("v\(key)", for: key) }
    #expect(cache.value(for: 1) == "v1")  // 1 is now the most recent; 2 the least
    cache.insert("v4", for: 4)
    #expect(cache.count == 3)
    #expect(cache.value(for: 2) == nil)
    #expect(cache.value(for: 1) == "v1")
    #expect(cache.value(for: 3) == "v3")
    #expect(cache.value(for: 4) == "v4")
    cache.insert("v5", for: 5)  // 1 is now the least recent
    #expect(cache.value(for: 1) == nil)
    cache.insert("v3'", for: 3)
    #expect(cache.value(for: 3) == "v3'")
    #expect(cache.count == 3)
  }

  @Test func matchesAReferenceModelOnRandomOperations() {
    var generator = SystemRandomNumberGenerator()
    var cache = LRUCache<Int, Int>(capacity: 8)
    // The reference: keys from least to most recently used.
    var model: [(key: Int, value: Int)] = []
    for step in 0..<5000 {
      let key = Int.random(in: 0..<20, using: &generator)
      if Bool.random(using: &generator) {
        cache.insert(step, for: key)
        model.removeAll { $0.key == key }
        model.append((key, step))
        if model.count > 8 { model.removeFirst() }
      } else {
        let expected = model.first { $0.key == key }?.value
        #expect(cache.value(for: key) == expected)
        if let index = model.firstIndex(where: { $0.key == key }) { model.append(model.remove(at: index)) }
      }
      #expect(cache.count == model.count)
    }
  }
}

@Suite struct InputLimitTests {
  @Test func aDeviceIsRefusedWithoutReadingIt() throws {
    #expect {
      try FileBytes.read("/dev/zero", maximumBytes: 1 << 20, what: "store file")
    } throws: { error in
      guard let error = error as? CatalogError else { return false }
      return error.kind == .badData && error.message == "a device, not a file: no store file to read"
    }
  }

  @Test func aPipeIsReadUpToTheLimitAndRefusedThere() throws {
    // A little more than the limit: what the reader leaves fits in the pipe, so the writer ends.
    let limit = 1 << 20
    let overLimit = pipeFed(with: [UInt8](repeating: UInt8(ascii: " "), count: limit + 100))
    defer { close(overLimit) }
    #expect {
      try FileBytes.read(descriptor: overLimit, source: "-", maximumBytes: limit, what: "order")
    } throws: { error in
      (error as? CatalogError)?.description
        == "standard input: larger than 1 MiB, the limit for orders (docs/limits.md)"
    }
    let exact = [UInt8](repeating: UInt8(ascii: " "), count: 4096)
    let atLimit = pipeFed(with: exact)
    defer { close(atLimit) }
    #expect(try FileBytes.read(descriptor: atLimit, source: "-", maximumBytes: 4096, what: "order") == exact)
  }

  @Test func aRegularFileOverTheLimitIsRefusedBeforeReading() throws {
    let path = "/tmp/stores-limit-\(getpid()).json"
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    #expect(descriptor >= 0)
    #expect(ftruncate(descriptor, 4096) == 0)
    close(descriptor)
    defer { unlink(path) }
    #expect(throws: CatalogError.self) { try FileBytes.read(path, maximumBytes: 4095, what: "order") }
    #expect(try FileBytes.read(path, maximumBytes: 4096, what: "order").count == 4096)
  }

  @Test func endlessHolidayFilesAndInvalidUTF8AreRefused() throws {
    var registry = HolidayRegistry()
    #expect {
      try registry.add(contentsOf: "/dev/zero")
    } throws: { error in
      "\(error)".contains("larger than 16 MiB")
    }
    let invalid: [UInt8] =
      Array("{\"country\": \"ZZ\",\n \"name\": \"".utf8) + [0xC3, 0x28] + Array("\"}".utf8)
    #expect {
      try registry.add(json: invalid, file: "bad.json")
    } throws: { error in
      "\(error)".hasPrefix("bad.json:2:") && "\(error)".contains("not valid UTF-8")
    }
  }

  @Test func batchLinesAreCutAtTheLimitAndTheRestStillAnswered() throws {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    let long = String(repeating: "x", count: 300)
    let text = "short\r\n\(long)\nlast"
    let written = text.utf8CString.withUnsafeBufferPointer {
      write(descriptors[1], $0.baseAddress!, text.utf8.count)
    }
    #expect(written == text.utf8.count)
    close(descriptors[1])
    defer { close(descriptors[0]) }
    var lines = try InputLines(descriptor: descriptors[0], maximumLength: 100)
    #expect(try lines.next() == .text("short"))
    #expect(try lines.next() == .tooLong)
    #expect(try lines.next() == .text("last"))
    #expect(try lines.next() == nil)
  }

  /// A line that never ends is reported as soon as it passes the limit (an answer can go out),
  /// and the reader gives up after skipping 64 times the limit: it neither hangs nor grows.
  @Test func aLineWithoutEndIsReportedAtOnceAndEndsTheInputLater() throws {
    var descriptors: [Int32] = [0, 0]
    #expect(pipe(&descriptors) == 0)
    let writeEnd = descriptors[1]
    let writer = Thread {
      let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 4096)
      // Far more than the skip allowance; stops when the reader closes its end.
      for _ in 0..<1000 where chunk.withUnsafeBytes({ write(writeEnd, $0.baseAddress!, $0.count) }) > 0 {}
      close(writeEnd)
    }
    signal(SIGPIPE, SIG_IGN)
    writer.start()
    var lines = try InputLines(descriptor: descriptors[0], maximumLength: 1000)
    #expect(try lines.next() == .tooLong)
    #expect {
      try lines.next()
    } throws: { error in
      (error as? CatalogError)?.message.contains("without a line break") == true
    }
    close(descriptors[0])
  }

  @Test func aDeviceIsNoBatch() {
    let descriptor = open("/dev/zero", O_RDONLY)
    defer { close(descriptor) }
    #expect(throws: CatalogError.self) { try InputLines(descriptor: descriptor) }
  }
}

@Suite struct HoursBatchLimitTests {
  private func answer(_ line: String) throws -> [String: JSONValue] {
    var batch = HoursBatch(holidays: HolidayRegistry())
    guard case .object(let object) = try JSONValue(parsing: batch.answer(line)) else { return [:] }
    return Dictionary(uniqueKeysWithValues: object.members.map { ($0.key, $0.value) })
  }

  private let request = #""id":7,"oh":"Mo-Su 09:00-17:00","tz":"Europe/Berlin","at":"2026-03-29T10:00:00Z""#

  @Test func repeatedOrTooManyOperationsAreRefused() throws {
    let repeated = try answer("{\(request),\"ops\":[\"next_change\",\"next_change\"]}")
    #expect(repeated["error"]?.stringValue?.contains("twice") == true)
    #expect(repeated["id"] == .number("7"))
    let many = Array(repeating: "\"state\"", count: 20_000).joined(separator: ",")
    #expect(try answer("{\(request),\"ops\":[\(many)]}")["error"] != nil)
    let unknown = try answer("{\(request),\"ops\":[\"state\",42]}")
    #expect(unknown["error"]?.stringValue?.contains("unknown op '42'") == true)
    let fine = try answer("{\(request),\"ops\":[\"state\"]}")
    #expect(fine["state"] == .string("open"))
    #expect(fine["next_change"] == nil)
  }

  @Test(arguments: [
    (#""lat":95,"lon":10"#, "latitude"), (#""lat":45,"lon":181"#, "longitude"), (#""lat":45"#, "both"),
    (#""lat":"north","lon":10"#, "numbers"),
  ])
  func placesAreCheckedAsTheCommandLineChecksThem(place: String, complaint: String) throws {
    let answered = try answer("{\(request),\(place)}")
    #expect(answered["state"] == nil)
    #expect(answered["error"]?.stringValue?.contains(complaint) == true)
  }

  @Test func tooLongLinesGetAnErrorAnswerWithTheirLineNumber() {
    var batch = HoursBatch(holidays: HolidayRegistry())
    let text = batch.answer(.tooLong, number: 12)
    #expect(text.contains("\"id\":null"))
    #expect(text.contains("line 12 is longer than 64 KiB"))
  }
}

@Suite struct HostileFileTests {
  private func load(_ text: String) throws -> Catalog {
    try Catalog(geoJSON: Array(text.utf8), source: "test.geojson", options: .loaderOnly)
  }

  private func feature(id: String, longitude: String = "13.4") -> String {
    #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[\#(longitude),52.5]},"properties":{}}"#
  }

  @Test func idsInOtherNormalizationFormsAreTwoStoresAndSaidToLookAlike() throws {
    let catalog = try load(
      #"{"type":"FeatureCollection","features":[\#(feature(id: "caf\u{E9}")),\#(feature(id: "cafe\u{301}"))]}"#
    )
    #expect(catalog.stores.count == 2)
    #expect(!catalog.diagnostics.contains { $0.code.rawValue == "duplicate-id" })
    let lookalike = try #require(
      catalog.diagnostics.first { $0.code.rawValue == "duplicate-id-normalization" })
    #expect(lookalike.severity == .warning)
    #expect(lookalike.storeID?.hasSameBytes(as: "cafe\u{301}") == true)
  }

  @Test func aSecondFeaturesArrayIsLoadedAndFlagged() throws {
    let catalog = try load(
      #"{"type":"FeatureCollection","features":[\#(feature(id: "a"))],"features":[\#(feature(id: "b"))]}"#)
    #expect(catalog.stores.map(\.id) == ["a", "b"])
    let warning = try #require(catalog.diagnostics.first { $0.code.rawValue == "duplicate-key" })
    #expect(warning.message.contains("second \"features\" member"))
  }

  /// The collection's own members are read by the loader, not the scanner: they get the same cap
  /// and the same hashed repeat check (20,000 of them took 35 s, with no error).
  @Test func theCollectionsOwnMembersAreBoundedToo() throws {
    func collection(members count: Int, repeating: Int? = nil) -> String {
      var text = #"{"type":"FeatureCollection","#
      for index in 0..<count { text += "\"k\(index)\":\(index)," }
      if let repeating { text += "\"k\(repeating)\":\"again\"," }
      return text + #""features":[\#(feature(id: "a"))]}"#
    }
    let repeated = try load(collection(members: 100, repeating: 40))
    #expect(repeated.stores.map(\.id) == ["a"])
    #expect(
      repeated.diagnostics.contains { $0.code.rawValue == "duplicate-key" && $0.message.contains("k40") })
    let tooMany = try load(collection(members: JSONScanner.maximumMembers + 5))
    #expect(tooMany.stores.map(\.id) == ["a"])
    #expect(
      tooMany.diagnostics.contains { $0.severity == .error && $0.message.contains("more than 10000 members") }
    )
  }

  @Test func aMillionDigitCoordinateIsNotEchoedInFull() throws {
    let digits = String(repeating: "1", count: 1_000_000)
    let catalog = try load(
      #"{"type":"FeatureCollection","features":[\#(feature(id: "a", longitude: digits))]}"#)
    let error = try #require(catalog.diagnostics.first { $0.severity == .error })
    #expect(error.message.utf8.count < 300)
    #expect(error.message.contains("1000000 bytes"))
  }

  @Test func hugeDayOffsetsAreToleratedWithAWarning() throws {
    let hours = try OpeningHours(parsing: "easter +999999999 days 10:00-12:00")
    #expect(hours.warnings.map(\.code) == ["large-day-offset"])
    let truncated = try OpeningHours(parsing: "Dec 25 +12345678901 days off")
    #expect(truncated.warnings.first?.message.contains("11 digits") == true)
    #expect(try OpeningHours(parsing: "easter -2 days off").warnings.isEmpty)
    // In a store file it is a warning, listed by `validate` by default, not a note among thousands.
    let text =
      #"{"type":"Feature","id":"e","geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
      + #""properties":{"opening_hours":"easter +999999999 days 10:00-12:00"}}"#
    let catalog = try Catalog(geoJSON: Array(text.utf8), source: "easter.geojson")
    let doubtful = try #require(catalog.diagnostics.first { $0.code.rawValue == "opening-hours-doubtful" })
    #expect(doubtful.severity == .warning)
  }
}

@Suite struct TimeBoundTests {
  private let now = Instant(secondsSinceEpoch: 1_798_127_400)  // 2026-12-24T15:50:00Z
  private let london = try! Coordinate(latitude: 51.5074, longitude: -0.1278)

  @Test(arguments: [
    "9999-12-31T23:59:59-18:00", "9998-01-01T00:00", "1899-12-31T23:59:59Z", "0000-01-01T00:00Z",
    "9997-12-31T23:59-18:00", "1900-01-01T00:00+01:00",
  ])
  func timesOutsideTheSupportedYearsAreRefused(text: String) {
    #expect {
      try TimeQuery(parsing: text)
    } throws: { error in
      "\(error)".contains("outside the years 1900–9997")
    }
  }

  @Test func theSupportedYearsStillParse() throws {
    #expect(try TimeQuery(parsing: "9997-12-31T23:59:59Z") != TimeQuery(parsing: "1900-01-01T00:00Z"))
  }

  @Test func everyWayOfGivingTheReadyTimeHasTheSameBound() throws {
    let tooMany = OrderItem(name: "Flat white", quantity: 999_999_999, preparationMinutes: 4)
    let far = try TimeQuery(parsing: "2027-03-01T10:00:00Z")
    let refused: [ReadyTime] = [
      .after(seconds: 31 * 86_400), .at(far), .preparing([tooMany]),
      .preparing([OrderItem(name: "Tea", preparationMinutes: 2)], notBefore: far),
    ]
    for ready in refused {
      let request = PickupRequest(customer: london, orderedAt: now, ready: ready)
      #expect(throws: PickupError.self, "\(ready)") { try request.checkLeadTime() }
    }
    let fine: [ReadyTime] = [
      .after(seconds: 30 * 86_400), .at(try TimeQuery(parsing: "2027-01-20T10:00")),
      .preparing([OrderItem(name: "Flat white", quantity: 2, preparationMinutes: 4)]),
    ]
    // An order so close to the end of 9997 that its pickup could fall after it cannot be read back.
    let late = Instant(secondsSinceEpoch: 253_339_228_800 - 120)
    #expect(throws: PickupError.self) {
      try PickupRequest(customer: london, orderedAt: late, ready: .after(seconds: 300)).checkLeadTime()
    }
    for ready in fine {
      #expect(throws: Never.self) {
        try PickupRequest(customer: london, orderedAt: now, ready: ready).checkLeadTime()
      }
    }
  }
}

@Suite struct ExactIDTests {
  /// "café" written NFC (open mornings) and NFD (open evenings): two stores, and the same answer
  /// for each from the GeoJSON and from its snapshot (they differed: canonical equivalence in
  /// memory, bytes in the snapshot).
  @Test func idsMatchByBytesInMemoryAndInASnapshot() throws {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    func feature(_ id: String, _ hours: String) -> String {
      #"{"type":"Feature","id":"\#(id)","geometry":{"type":"Point","coordinates":[13.4,52.5]},"#
        + #""properties":{"opening_hours":"\#(hours)","timezone":"Europe/Berlin"}}"#
    }
    let text =
      #"{"type":"FeatureCollection","features":[\#(feature(composed, "Mo-Su 08:00-12:00")),"#
      + #"\#(feature(decomposed, "Mo-Su 16:00-20:00"))]}"#
    let loaded = try Catalog(geoJSON: Array(text.utf8), source: "cafe.geojson")
    let path = "/tmp/stores-exact-ids-\(getpid()).snap"
    try loaded.writeSnapshot(to: path)
    defer { unlink(path) }
    let mapped = try Catalog(snapshotAt: path)
    let morning = try TimeQuery(parsing: "2026-11-23T09:00")
    for catalog in [loaded, mapped] {
      let first = try #require(catalog.stores(withID: composed).first)
      let second = try #require(catalog.stores(withID: decomposed).first)
      #expect(catalog.stores(withID: composed).count == 1)
      #expect(catalog.stores(withID: decomposed).count == 1)
      #expect(first.openingHours == "Mo-Su 08:00-12:00")
      #expect(second.openingHours == "Mo-Su 16:00-20:00")
      #expect(catalog.status(of: first, at: morning).status.state == .open)
      #expect(catalog.status(of: second, at: morning).status.state == .closed)
    }
  }
}
