import Foundation
import StoreLocator
import Testing

/// Every output format carries the same store members (issue 9, item 12), the ones the README's
/// JSON example lists, for every command that writes stores.
@Suite struct OutputContractTests {
  /// A fixed "now", so the open states are the same in every run.
  let now = "2026-11-23T09:00:00+11:00"

  /// The members of a store in the README's JSON example (`### JSON output`), which is a valid
  /// JSON document.
  static func readmeStoreMembers() throws -> Set<String> {
    let readme = try String(
      contentsOf: StoresProcess.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
    let section = try #require(readme.range(of: "### JSON output"))
    let start = try #require(readme.range(of: "```json\n", range: section.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(readme[start.upperBound..<end.lowerBound].utf8))
        as? [String: Any])
    let store = try #require((document["stores"] as? [[String: Any]])?.first)
    return Set(store.keys)
  }

  @Test func theREADMEListsTheMembersTheLibraryWrites() throws {
    #expect(try Self.readmeStoreMembers() == Set(StoreMatch.memberNames))
    #expect(Set(StoreMatch.memberNames).count == StoreMatch.memberNames.count, "a member listed twice")
  }

  /// The members of the first store in each format's output of `arguments`.
  func membersByFormat(_ arguments: [String]) throws -> [String: [String: Any]] {
    var result: [String: [String: Any]] = [:]
    let json = try StoresProcess.run(arguments + ["--format", "json"])
    #expect(json.status == 0, "\(json.standardError)")
    let document = try #require(try json.json() as? [String: Any])
    // `show` writes the store object itself; the searches wrap it in a document.
    result["json"] = try #require((document["stores"] as? [[String: Any]])?.first ?? document)

    let ndjson = try StoresProcess.run(arguments + ["--format", "ndjson"])
    let line = try #require(ndjson.standardOutput.split(separator: "\n").first)
    result["ndjson"] = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])

    let geojson = try StoresProcess.run(arguments + ["--format", "geojson"])
    let collection = try #require(try geojson.json() as? [String: Any])
    let feature = try #require((collection["features"] as? [[String: Any]])?.first)
    result["geojson"] = try #require(feature["properties"] as? [String: Any])

    let csv = try StoresProcess.run(arguments + ["--format", "csv"])
    let rows = csv.standardOutput.components(separatedBy: "\r\n")
    let header = rows[0].split(separator: ",").map(String.init)
    let values = try Self.csvFields(try #require(rows.dropFirst().first))
    #expect(header.count == values.count, "\(rows[1])")
    result["csv"] = Dictionary(uniqueKeysWithValues: zip(header, values.map { $0 as Any }))
    return result
  }

  /// The fields of one RFC 4180 record.
  static func csvFields(_ line: String) throws -> [String] {
    var fields: [String] = []
    var field = ""
    var quoted = false
    var characters = line.makeIterator()
    while let character = characters.next() {
      if quoted {
        if character == "\"" {
          // A doubled quote is a quote; a single one ends the quoted part.
          if let next = characters.next() {
            if next == "\"" {
              field.append("\"")
            } else {
              quoted = false
              if next == "," {
                fields.append(field)
                field = ""
              } else {
                field.append(next)
              }
            }
          } else {
            quoted = false
          }
        } else {
          field.append(character)
        }
      } else if character == "\"" {
        quoted = true
      } else if character == "," {
        fields.append(field)
        field = ""
      } else {
        field.append(character)
      }
    }
    fields.append(field)
    return fields
  }

  @Test(arguments: [
    ["nearest", "--near", "-33.8688,151.2093", "-k", "2"],
    ["nearest", "--near", "-33.8688,151.2093", "-k", "2", "--open-now"],
    ["within", "--near", "51.5074,-0.1278", "--radius", "2km"],
    ["within", "--bbox", "177,-20,-178,-15"],
    ["show", "nw-1486"],
  ])
  func everyFormatCarriesTheSameMembers(_ arguments: [String]) throws {
    let readme = try Self.readmeStoreMembers()
    let formats = try membersByFormat(arguments + ["--now", now])
    #expect(formats.count == 4)
    for (format, members) in formats {
      #expect(Set(members.keys) == readme, "\(format) of \(arguments.joined(separator: " "))")
    }
    // The same store in the same state in each.
    let json = try #require(formats["json"])
    let state = try #require(json["state"] as? String)
    let statusText = try #require(json["status_text"] as? String)
    for (format, members) in formats {
      #expect(members["id"] as? String == json["id"] as? String, "\(format)")
      #expect(members["state"] as? String == state, "\(format)")
      #expect(members["status_text"] as? String == statusText, "\(format)")
    }
    if arguments.contains("--open-now") { #expect(state == "open") }
  }

  @Test(arguments: [
    ["nearest", "--near", "-33.8688,151.2093", "-k", "2"],
    ["within", "--near", "51.5074,-0.1278", "--radius", "2km"],
  ])
  func fieldsChoosesTheMembersOfEveryMachineFormat(_ arguments: [String]) throws {
    let formats = try membersByFormat(arguments + ["--now", now, "--fields", "status_text,distance_m"])
    let whole = try membersByFormat(arguments + ["--now", now])
    #expect(formats.count == 4)
    for (format, members) in formats {
      #expect(Set(members.keys) == ["id", "distance_m", "status_text"], "\(format)")
      #expect(members["status_text"] as? String == whole[format]?["status_text"] as? String, "\(format)")
    }
  }

  @Test func fieldsIsRefusedWithTheTextTableAndForAnUnknownMember() throws {
    let text = try StoresProcess.run(["nearest", "--near", "47.6,-122.3", "--fields", "id"])
    #expect(text.status == 64)
    #expect(text.standardError.contains("--fields chooses the members of --format json"))
    let unknown = try StoresProcess.run([
      "nearest", "--near", "47.6,-122.3", "--fields", "id,distnce_m", "--format", "json",
    ])
    #expect(unknown.status == 64)
    #expect(
      unknown.standardError.contains("--fields: 'distnce_m' is not a store member; did you mean distance_m?"))
  }

  @Test func csvCarriesTheCommentAndThePropertiesAsJSON() throws {
    let path = try StoresProcess.temporaryFile(
      #"{"type":"Feature","id":"c1","properties":{"name":"Quoted, \"too\"","opening_hours":"Mo-Su 08:00-20:00 \"ring the bell\"","timezone":"Europe/Berlin"},"geometry":{"type":"Point","coordinates":[13.4,52.5]}}"#
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let formats = try membersByFormat([
      "nearest", "--near", "52.5,13.4", "--data", path, "--now", "2026-11-23T10:00:00Z",
    ])
    let csv = try #require(formats["csv"])
    #expect(csv["comment"] as? String == "ring the bell")
    #expect(csv["status_text"] as? String == "open until 20:00 \"ring the bell\"")
    #expect(csv["name"] as? String == "Quoted, \"too\"")
    let properties = try #require(csv["properties"] as? String)
    let parsed = try JSONSerialization.jsonObject(with: Data(properties.utf8)) as? [String: Any]
    #expect(parsed?["name"] as? String == "Quoted, \"too\"")
    #expect((formats["geojson"]?["properties"] as? [String: Any])?["name"] as? String == "Quoted, \"too\"")
  }

  @Test func theRecordsOwnKeysDoNotOverwriteTheMembers() throws {
    // ogr2ogr-style records have their own `state` and `address`; GeoJSON output keeps them under
    // `properties` so `state` still means the open state.
    let path = try StoresProcess.temporaryFile(
      #"{"type":"Feature","id":"s1","properties":{"name":"S","state":"CA","address":"1 Main St","opening_hours":"24/7","timezone":"America/Los_Angeles"},"geometry":{"type":"Point","coordinates":[-118.2,34.0]}}"#
    )
    defer { try? FileManager.default.removeItem(atPath: path) }
    let formats = try membersByFormat(["show", "s1", "--data", path])
    let geojson = try #require(formats["geojson"])
    #expect(geojson["state"] as? String == "open")
    #expect((geojson["properties"] as? [String: Any])?["state"] as? String == "CA")
  }

  @Test func pickupStoresHaveTheSameMembers() throws {
    let outcome = try StoresProcess.run([
      "pickup", "--near", "51.5074,-0.1278", "--ready-in", "5m", "--now", "2026-12-24T15:50:00Z", "--format",
      "json",
    ])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    let plan = try #require(try outcome.json() as? [String: Any])
    let store = try #require(plan["store"] as? [String: Any])
    #expect(Set(store.keys) == (try Self.readmeStoreMembers()))
  }
}
