import GeoIndex
import OpeningHours
import Testing

@testable import StoreLocator

/// `fields=`: an answer with some members is the default answer with the others left out, and
/// costs no opening-hours evaluation when it leaves the states out.
@Suite struct StoreFieldsTests {
  static let catalog: Catalog = try! Catalog.load(contentsOf: DefaultData.bundledPath)
  static let now = "2026-11-25T17:30:00Z"
  static let points = ["47.6062,-122.3321", "40.7128,-74.006", "51.5072,-0.1276", "-33.8688,151.2093"]

  static func nearest(_ pairs: [(String, String)]) throws -> SearchAnswer {
    let parameters = RequestParameters(pairs.map { (name: $0.0, value: $0.1) }, style: .queryString)
    return catalog.answer(try NearestRequest(parameters), now: Instant(secondsSinceEpoch: 0))
  }

  static func parsed(_ bytes: [UInt8]) throws -> JSONObject {
    guard case .object(let object) = try JSONValue(parsing: String(decoding: bytes, as: UTF8.self)) else {
      throw JSONShapeError()
    }
    return object
  }

  struct JSONShapeError: Error {}

  /// `object` with only the members named in `names`, in its own order.
  static func projected(_ object: JSONObject, _ names: [String]) -> JSONObject {
    JSONObject(object.filter { names.contains($0.key) })
  }

  /// Random selections (seeded), each checked at every point against the default answer.
  @Test func aSelectionIsTheDefaultAnswerWithTheOtherMembersLeftOut() throws {
    var generator = SplitMix64(seed: 35)
    var selections: [[String]] = [
      ["id", "distance_m"], ["name", "id"], ["state", "status_text", "distance_m"],
    ]
    for _ in 0..<12 {
      selections.append(StoreMatch.memberNames.filter { _ in Bool.random(using: &generator) })
    }
    for point in Self.points {
      let base: [(String, String)] = [("near", point), ("k", "10"), ("now", Self.now)]
      let whole = try Self.parsed(Self.nearest(base).jsonUTF8)
      for selection in selections where !selection.isEmpty {
        let answer = try Self.nearest(base + [("fields", selection.joined(separator: ","))])
        let names = StoreMatch.memberNames.filter { $0 == "id" || selection.contains($0) }
        let lean = try Self.parsed(answer.jsonUTF8)
        if names.count == StoreMatch.memberNames.count {
          #expect(answer.jsonUTF8 == (try Self.nearest(base).jsonUTF8))
          continue
        }
        #expect(lean.map(\.key) == ["query", "fields", "count", "stores"])
        #expect(lean["fields"] == .array(names.map(JSONValue.string)))
        #expect(lean["query"] == whole["query"])
        #expect(lean["count"] == whole["count"])
        guard case .array(let stores)? = lean["stores"], case .array(let wholeStores)? = whole["stores"]
        else {
          Issue.record("no stores array")
          continue
        }
        #expect(stores.count == wholeStores.count)
        for (store, wholeStore) in zip(stores, wholeStores) {
          guard case .object(let store) = store, case .object(let wholeStore) = wholeStore else { continue }
          #expect(store.map(\.key) == names, "\(selection) at \(point)")
          #expect(store == Self.projected(wholeStore, names), "\(selection) at \(point)")
        }
      }
    }
  }

  @Test func everyFormatWritesTheSelection() throws {
    let base: [(String, String)] = [("near", Self.points[0]), ("k", "4"), ("now", Self.now)]
    let answer = try Self.nearest(base + [("fields", "distance_m,name")])
    let whole = try Self.nearest(base)
    // GeoJSON: the features' properties, and `fields` beside the query.
    let collection = try Self.parsed(answer.geoJSONUTF8)
    #expect(collection.map(\.key) == ["type", "query", "fields", "features"])
    guard case .array(let features)? = collection["features"],
      case .array(let wholeFeatures)? = try Self.parsed(whole.geoJSONUTF8)["features"]
    else {
      Issue.record("no features")
      return
    }
    for (feature, wholeFeature) in zip(features, wholeFeatures) {
      guard case .object(let feature) = feature, case .object(let wholeFeature) = wholeFeature,
        case .object(let properties)? = feature["properties"],
        case .object(let wholeProperties)? = wholeFeature["properties"]
      else {
        Issue.record("a feature without properties")
        continue
      }
      #expect(feature["geometry"] == wholeFeature["geometry"])
      #expect(properties == Self.projected(wholeProperties, ["id", "name", "distance_m"]))
    }
    // NDJSON: a line a store, each the JSON answer's store.
    let lines = answer.ndjsonText.split(separator: "\n").map(String.init)
    guard case .array(let stores)? = try Self.parsed(answer.jsonUTF8)["stores"] else {
      Issue.record("no stores")
      return
    }
    #expect(try lines.map { try JSONValue(parsing: $0) } == stores)
    // CSV: the columns of the selection.
    let rows = answer.csvText.split(separator: "\r\n").map(String.init)
    #expect(rows.first == "id,name,distance_m")
    #expect(rows.count == 1 + answer.matches.count)
  }

  @Test func aSelectionWithoutTheStatesEvaluatesNoHours() throws {
    let base: [(String, String)] = [("near", Self.points[0]), ("k", "10"), ("now", Self.now)]
    let lean = try Self.nearest(base + [("fields", "id,distance_m,name,address,phone")])
    #expect(lean.matches.count == 10)
    #expect(lean.matches.allSatisfy { $0.status == nil })
    for members in ["state", "next_change", "status_text", "comment", "ordering", "ordering_note"] {
      let answer = try Self.nearest(base + [("fields", "distance_m," + members)])
      #expect(answer.matches.allSatisfy { $0.status != nil }, "fields with \(members)")
    }
    // An opening condition still chooses the stores by their hours.
    let open = try Self.nearest(base + [("fields", "id"), ("open_now", "true")])
    let wholeOpen = try Self.nearest(base + [("open_now", "true")])
    #expect(open.matches.map(\.id) == wholeOpen.matches.map(\.id))
  }

  @Test(arguments: [
    ("distance", "'distance' is not a store member; did you mean distance_m?"),
    ("id,,name", "name 2 of 3 is empty"),
    ("", "fields: names no member"),
    ("open", "'open' is not a store member"),
    (String(repeating: "id,", count: 70), "at most 64 are read"),
  ])
  func badSelectionsAreRefusedNamingTheParameter(text: String, expected: String) {
    do {
      _ = try Self.nearest([("near", Self.points[0]), ("fields", text)])
      Issue.record("fields=\(text) was accepted")
    } catch let error as RequestError {
      #expect(error.parameter == "fields")
      #expect(error.message.contains(expected), "\(error.message)")
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func spacesAroundNamesAndRepeatsAreRead() throws {
    let answer = try Self.nearest([("near", Self.points[0]), ("fields", " name , distance_m,name")])
    #expect(answer.fields.names == ["id", "name", "distance_m"])
    let repeated = try Self.nearest([("near", Self.points[0]), ("fields", "phone"), ("fields", "name")])
    #expect(repeated.fields.names == ["id", "name", "phone"])
  }

  @Test(arguments: [
    ("near=47.6,-122.3", true),
    ("near=47.6,-122.3&k=20&within=5km&fields=id,distance_m&now=2026-11-25T17:30:00Z", true),
    ("near=47.6,-122.3&k=21", false),
    ("near=47.6,-122.3&k=ten", false),
    ("near=Seattle", false),
    ("near=47.6", true),  // refused when read, as cheaply
    ("near=47.6,-122.3&where=drive_through=yes", false),
    ("near=47.6,-122.3&open_now=true", false),
    ("near=47.6,-122.3&open_for=30m", false),
    ("near=47.6,-122.3&service=drive_through", false),
    ("k=3", false),
  ])
  func boundedRequestsAreTheCheapOnes(query: String, bounded: Bool) {
    let pairs = query.split(separator: "&").map { pair in
      let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
      return (name: parts[0], value: parts.count > 1 ? parts[1] : "")
    }
    #expect(NearestRequest.isBounded(RequestParameters(pairs, style: .queryString)) == bounded)
  }
}
