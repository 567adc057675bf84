import Foundation
import Testing

@testable import StoreLocator

/// A feature read by `FeatureDrafter` (its draft written from the input's bytes, its properties
/// cut to those read as text) must read as the whole record does: the same record, the same
/// diagnostics, the same hours' inputs, the same draft byte for byte, the scanner in the same place.
@Suite("Loading: drafts written from the input's bytes")
struct FeatureDrafterTests {
  @Test("hand-written features", arguments: FeatureDrafterTests.handWritten)
  func handWrittenFeature(_ text: String) {
    expectSameAsWholeRecord(text, drafted: true)
  }

  /// Features the drafter leaves to the full reader: whatever is wrong with them is found there.
  @Test(
    "features read in full",
    arguments: [
      #"{"type":"Feature","properties":{"ref":"1","ref":"2"}}"#,
      #"{"type":"Feature","properties":{"a":1},"properties":{"b":2}}"#,
      #"{"type":"Feature","type":"Feature","properties":{}}"#,
      #"{"type":"Point","coordinates":[1,2],"properties":{"name":"bare"}}"#,
      #"{"type":"feature","properties":{}}"#,
      #"{"properties":{"name":"no type"}}"#,
      #"{"type":"Feature","properties":{"name":"cut"#,
      #"{"type":"Feature","properties":{"name":"x",}}"#,
      #"{"type":"Feature","properties":{"na\u006De":"escaped twin","name":"x"}}"#,
      #"[1,2]"#,
      "{\"type\":\"Feature\",\"properties\":{\"name\":\"a\u{01}b\"}}",
      "{\"type\":\"Feature\",\"properties\":{"
        + (0...FeatureDrafter.maximumMembers).map { "\"k\($0)\":\($0)" }.joined(separator: ",") + "}}",
    ])
  func featureReadInFull(_ text: String) {
    expectSameAsWholeRecord(text, drafted: false)
  }

  /// Random features whose keys are those the loader reads, their near misses and others, with
  /// values of every kind: each reads as its whole record.
  @Test("generated features", arguments: [1, 2, 3] as [UInt64])
  func generatedFeatures(seed: UInt64) {
    var state = seed
    for _ in 0..<1_000 {
      let text = Self.feature(&state)
      expectSameAsWholeRecord(text, drafted: nil, text)
    }
  }

  /// The keys each reader reads are among those the drafter keeps, and ordinary ones are not.
  @Test func everyKeyTheReadersReadIsKept() {
    var read =
      ["name", "branch", "brand", "ref", "id", "@id", "osm_id", "timezone", "opening_hours"]
      + Store.addressKeys + Store.addressKeys.map { "addr_" + $0.dropFirst(5) }
      + PropertyAliases.wholeAddressKeys
    read += [Catalog.serviceHoursPrefix + "drive_through", HoursSubject.capacityPrefix + "slot_minutes"]
    for key in read { #expect(Self.isRead(key), "\(key)") }
    for key in ["website", "phone", "amenity", "cuisine", "nam", "names", "opening", "pickup", "b", ""] {
      #expect(!Self.isRead(key), "\(key)")
    }
  }

  private static func isRead(_ key: String) -> Bool {
    Array(key.utf8).withUnsafeBufferPointer { FeatureDrafter.isRead($0) }
  }

  static let handWritten: [String] = [
    #"{"type":"Feature","id":"a1","geometry":{"type":"Point","coordinates":[-122.43,28.89]},"properties":{"ref":"0000001","name":"Meridian Lyon","brand":"Meridian","amenity":"cafe","addr:street_address":"7064 Station Road","addr:city":"Lyon","addr:postcode":"86645","addr:country":"FR","phone":"+33 4 72 00 6440","opening_hours":"Mo-Sa 06:00-21:00","drive_through":"no"}}"#,
    #"{ "type" : "Feature" , "properties" : { "name" : "spaced" , "n" : 1.5e3 , "t" : true , "f" : false , "z" : null } , "geometry" : null }"#,
    "{\"type\":\"Feature\",\r\n\t\"properties\":{\r\n\"website\":\"https://x.example/\",\r\n\"note\":\"tab\\tand \\\"quotes\\\" \\u00e9\"\r\n}}",
    #"{"type":"Feature","properties":{"na\u006De":"name through an escaped key","w\u00e9b":"é"}}"#,
    #"{"type":"Feature","properties":{"nested":{"a":[1,{"b":"c"}],"d":"e\\f"},"list":[],"empty":{}}}"#,
    #"{"type":"Feature","properties":{}}"#,
    #"{"type":"Feature","properties":null,"id":7}"#,
    #"{"type":"Feature","geometry":{"type":"Point","coordinates":[1,2]}}"#,
    #"{"type":"Feature","properties":{"addr_street":"Rue","addr_housenumber":"3","addr_city":"Paris","address":"whole"}}"#,
    #"{"type":"Feature","properties":{"full_address":"1 Main St","@id":"node/5","osm_id":9}}"#,
    #"{"type":"Feature","properties":{"id":"prop-id","branch":"Downtown","brand":"B"}}"#,
    #"{"type":"Feature","properties":{"timezone":"Europe/Berlin","opening_hours":"24/7","opening_hours:drive_through":"Mo-Fr 06:00-22:00","pickup:slot_minutes":15,"pickup:orders_per_slot":"4"}}"#,
    #"{"type":"Feature","properties":{"timezone":5,"opening_hours":["not","text"],"ref":12.50}}"#,
    #"{"type":"Feature","properties":{"name":"","ref":"","addr:full":"","addr:country":"DE","addr:state":"BY"}}"#,
    #"{"type":"Feature","properties":{"name":"half \ud800 a pair"}}"#,
    #"{"type":"Feature","properties":{"東京":"駅","emoji":"☕️👩🏽‍🍳","name":"Caf\u00e9 \"Nord\" \\ Süd"}}"#,
    #"{"type":"Feature","bbox":[0,0,1,1],"crs":null,"properties":{"name":"more members"},"extra":{"x":1}}"#,
    #"{"type":"Feature","properties":{"name":"dup inside","n":{"a":1,"a":2}}}"#,
  ]

  /// Reads `text` with the drafter and in full and expects the same outcome. `drafted`: whether
  /// the drafter should read it (`nil`: either).
  private func expectSameAsWholeRecord(
    _ text: String, drafted: Bool?, _ comment: String = "", sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBufferPointer { buffer in
      let base = buffer.baseAddress!
      var whole = JSONScanner(base: base, start: 0, end: buffer.count)
      let full = try? whole.parseValue()
      var scanner = JSONScanner(base: base, start: 0, end: buffer.count)
      var drafter = FeatureDrafter()
      let read = drafter.read(&scanner)
      if let drafted {
        #expect((read != nil) == drafted, "drafted \(read != nil) \(comment)", sourceLocation: sourceLocation)
      }
      guard let read else { return }
      // The drafter reads nothing the full reader refuses, and stops where it stops.
      guard let full else {
        Issue.record("drafted a feature the full reader refuses \(comment)", sourceLocation: sourceLocation)
        return
      }
      #expect(scanner.offset == whole.offset, "offset \(comment)", sourceLocation: sourceLocation)
      #expect(
        scanner.duplicateKeys.map(\.offset) == whole.duplicateKeys.map(\.offset), "duplicates \(comment)",
        sourceLocation: sourceLocation)
      #expect(
        scanner.loneSurrogates == whole.loneSurrogates, "surrogates \(comment)",
        sourceLocation: sourceLocation)

      let (drafted, draftedNotes) = Self.record(read)
      let (expected, expectedNotes) = Self.record(full)
      #expect(draftedNotes == expectedNotes, "diagnostics \(comment)", sourceLocation: sourceLocation)
      guard let drafted, let expected else {
        #expect(drafted == nil && expected == nil, "record \(comment)", sourceLocation: sourceLocation)
        return
      }
      #expect(drafted.id == expected.id, "id \(comment)", sourceLocation: sourceLocation)
      #expect(drafted.idSource == expected.idSource, "id source \(comment)", sourceLocation: sourceLocation)
      #expect(
        drafted.coordinate == expected.coordinate, "coordinate \(comment)", sourceLocation: sourceLocation)
      #expect(drafted.timezone == expected.timezone, "timezone \(comment)", sourceLocation: sourceLocation)
      #expect(drafted.keys.ref == expected.keys.ref, "ref \(comment)", sourceLocation: sourceLocation)
      #expect(
        drafted.keys.idHash == expected.keys.idHash, "id hash \(comment)", sourceLocation: sourceLocation)
      #expect(
        drafted.keys.aliases == expected.keys.aliases, "aliases \(comment)", sourceLocation: sourceLocation)

      let draftedHours = HoursDraft(timezone: drafted.timezone, properties: drafted.properties)
      let expectedHours = HoursDraft(timezone: expected.timezone, properties: expected.properties)
      #expect(
        Self.describe(draftedHours) == Self.describe(expectedHours), "hours \(comment)",
        sourceLocation: sourceLocation)

      var draft = SnapshotWriter()
      drafter.writeDraft(
        properties: drafted.properties, address: AddressMembers(drafted.properties), into: &draft)
      var expectedDraft = SnapshotWriter()
      var scratch = JSONBytes()
      RowDraft.write(expected.properties, into: &expectedDraft, scratch: &scratch)
      #expect(draft.bytes == expectedDraft.bytes, "draft \(comment)", sourceLocation: sourceLocation)
    }
  }

  private static func record(_ value: JSONValue) -> (FeatureRecord?, [String]) {
    var diagnostics: [(order: Int, diagnostic: Diagnostic)] = []
    let record = GeoJSONReader.readFeature(
      value, start: 0, index: 0, position: SourcePosition(featureIndex: 0, line: 1, column: 1),
      coordinatesUnusable: false, textWarnings: GeoJSONReader.FeatureTextWarnings(), diagnostics: &diagnostics
    )
    return (record, diagnostics.map { "\($0.order) \($0.diagnostic)" })
  }

  private static func describe(_ hours: HoursDraft) -> String {
    "\(hours.timezone ?? "-") \(hours.openingHours ?? "-") \(hours.country ?? "-") \(hours.region ?? "-") "
      + hours.serviceMembers.map { "\($0.key)=\($0.value.jsonText)" }.joined(separator: ",")
      + " \(hours.serviceKey.map { "\($0)" } ?? "-")"
  }

  /// Keys the loader reads, their near misses and ordinary ones; a few written with escapes.
  private static let keys = [
    "name", "branch", "brand", "ref", "id", "@id", "osm_id", "timezone", "opening_hours", "full_address",
    "address", "addr:full", "addr:street_address", "addr:housenumber", "addr:street", "addr:city",
    "addr:state",
    "addr:postcode", "addr:country", "addr_street", "addr_city", "addr_state", "addr_country",
    "addr_postcode",
    "opening_hours:drive_through", "opening_hours:kitchen", "pickup:slot_minutes", "pickup:orders_per_slot",
    "pickup", "opening", "names", "nam", "refs", "website", "phone", "amenity", "cuisine", "addr", "addr:",
    #"na\u006de"#, #"addr\u003acity"#, #"opening_hours\u003adrive"#, "Name", "é", "",
  ]

  /// Values of every kind, strings with escapes and non-ASCII among them.
  private static let values = [
    #""plain""#, #""""#, #""Europe/Berlin""#, #""Mo-Fr 07:00-19:00""#, #""DE""#, #""BY""#, #""12""#,
    #""Caf\u00e9 \"Nord\"""#, #""tab\there""#, #""東京 ☕️""#, #""half \udc00 pair""#, "0", "-12.5e-3", "42",
    "true", "false", "null", "[]", "{}", #"[1,"two",{"three":3}]"#, #"{"a":{"b":[null]}}"#,
    #"{"k":1,"k":2}"#,
  ]

  /// A random Feature of `keys` and `values`, with or without an id, a geometry and spaces.
  private static func feature(_ seed: inout UInt64) -> String {
    func next(_ bound: Int) -> Int {
      seed &+= 0x9E37_79B9_7F4A_7C15
      var z = seed
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((z ^ (z >> 31)) % UInt64(bound))
    }
    let space = ["", " ", "\n  ", "\t"][next(4)]
    var members: [String] = []
    var used = Set<String>()
    for _ in 0..<next(14) {
      let key = keys[next(keys.count)]
      // A repeated key now and then; mostly distinct ones.
      if used.contains(key), next(8) != 0 { continue }
      used.insert(key)
      members.append("\"\(key)\"\(space):\(space)\(values[next(values.count)])")
    }
    var feature = [#""type":"Feature""#, #""properties":{"# + members.joined(separator: ",\(space)") + "}"]
    switch next(4) {
    case 0: feature.append(#""id":"f\#(next(100))""#)
    case 1: feature.append(#""id":\#(next(100))"#)
    default: break
    }
    if next(3) != 0 {
      feature.append(#""geometry":{"type":"Point","coordinates":[\#(next(360) - 180),\#(next(180) - 90)]}"#)
    }
    // The members in any order.
    for index in feature.indices.reversed() { feature.swapAt(index, next(index + 1)) }
    return "{" + space + feature.joined(separator: "," + space) + space + "}"
  }
}
