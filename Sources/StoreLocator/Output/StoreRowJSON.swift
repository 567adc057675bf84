import GeoIndex

// Answers rendered straight from the store table: each member of `StoreMatch.jsonObject` is
// copied from the row's pre-rendered JSON text (the properties, the name and address lines) or
// written from a number, without making a `Store` or a `JSONValue` tree. The bytes are those of
// `JSONValue.object(match.jsonObject).jsonText` (a test holds the two equal on every store of the
// fixtures and the corpus); a match made from a `Store` takes the tree path.

extension StoreMatch {
  /// Appends the store object of `jsonObject` to `output`, with the members of `fields`.
  func writeJSON(to output: inout JSONBytes, fields: StoreFields = .all) {
    guard case .row(let table, let position) = record else {
      output.append(fields.isAll ? jsonObject : JSONObject(jsonObject.filter { fields.contains($0.key) }))
      return
    }
    table.checkRow(position)
    let keys = table.answerKeys
    func text(_ value: String?) {
      if let value { output.appendString(value) } else { output.append(ascii: "null") }
    }
    output.append(UInt8(ascii: "{"))
    for member in StoreMember.allCases where fields.contains(member) {
      output.appendKey(of: member, first: member == .id)
      switch member {
      case .id: output.appendString(utf8: table.idBytes(at: position))
      case .name: output.append(table.displayJSON(0, at: position))
      case .brand: writeScalarText(table, keys.brand, position, to: &output)
      case .address: output.append(table.displayJSON(1, at: position))
      case .latitude: output.append(number: table.coordinate(at: position)?.latitude)
      case .longitude: output.append(number: table.coordinate(at: position)?.longitude)
      case .distance: output.append(number: distance.map { JSONValue.millimetres($0.meters) })
      case .timeZone:
        if let zone = table.timeZoneNameBytes(at: position) {
          output.appendString(utf8: zone)
        } else {
          output.append(ascii: "null")
        }
      case .openingHours: writeScalarText(table, keys.openingHours, position, to: &output)
      case .state: text(status?.state.rawValue)
      case .comment: text(status?.status.comment)
      case .nextChange:
        if let status, let change = status.nextChange {
          status.writeFormatted(change, to: &output)
        } else {
          output.append(ascii: "null")
        }
      case .statusText:
        if let status {
          output.appendString { status.appendSummary(to: &$0) }
        } else {
          output.append(ascii: "null")
        }
      case .ordering: output.appendString(ordering.name)
      case .orderingNote: text(ordering.note)
      case .phone: writeScalarText(table, keys.phone, position, to: &output)
      case .website: writeScalarText(table, keys.website, position, to: &output)
      case .properties:
        output.append(UInt8(ascii: "{"))
        var first = true
        table.forEachMember(at: position) { key, value in
          if !first { output.append(UInt8(ascii: ",")) }
          first = false
          output.appendString(utf8: key)
          output.append(UInt8(ascii: ":"))
          output.append(value)
        }
        output.append(UInt8(ascii: "}"))
      }
    }
    output.append(UInt8(ascii: "}"))
  }

  /// A property as `Store.subscript(property:)` reads it, written as JSON: a string as it is,
  /// a number or boolean as the string of its text, anything else `null`.
  private func writeScalarText(
    _ table: StoreTable, _ key: UInt32?, _ position: Int, to output: inout JSONBytes
  ) {
    guard let key, let value = table.valueJSON(key: key, at: position), let first = value.first else {
      output.append(ascii: "null")
      return
    }
    switch first {
    case UInt8(ascii: "\""): output.append(value)
    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      output.append(UInt8(ascii: "\""))
      output.append(value)
      output.append(UInt8(ascii: "\""))
    default: output.append(ascii: "null")
    }
  }

  /// Appends the GeoJSON Feature of `geoJSONFeature` to `output`, its `properties` with the
  /// members of `fields`.
  func writeGeoJSONFeature(to output: inout JSONBytes, fields: StoreFields = .all) {
    output.append(ascii: "{\"type\":\"Feature\",\"id\":")
    output.appendString(id)
    output.appendKey("geometry")
    if let coordinate = coordinate {
      output.append(ascii: "{\"type\":\"Point\",\"coordinates\":[")
      output.append(number: coordinate.longitude)
      output.append(UInt8(ascii: ","))
      output.append(number: coordinate.latitude)
      output.append(ascii: "]}")
    } else {
      output.append(ascii: "null")
    }
    output.appendKey("properties")
    writeJSON(to: &output, fields: fields)
    output.append(UInt8(ascii: "}"))
  }

  /// The store's location, read from its row when it has one.
  var coordinate: GeoIndex.Coordinate? {
    switch record {
    case .row(let table, let position): table.coordinate(at: position)
    case .store(let store): store.coordinate
    }
  }

  /// `matches` as one JSON text a line (NDJSON), each with the members of `fields`.
  public static func ndjsonText(_ matches: [StoreMatch], fields: StoreFields = .all) -> String {
    var output = JSONBytes(capacity: matches.count * 1024)
    for match in matches {
      match.writeJSON(to: &output, fields: fields)
      output.append(UInt8(ascii: "\n"))
    }
    return output.text
  }
}

extension StoreTable {
  /// The key numbers of the properties every answer writes beside `properties`.
  struct AnswerKeys {
    var brand: UInt32?
    var openingHours: UInt32?
    var phone: UInt32?
    var website: UInt32?
  }
}
