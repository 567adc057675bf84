import Testing

@testable import StoreLocator

/// Files not in the All The Places schema: ogr2ogr's `osm_id` and `addr_*`, a plain `address`
/// (issue 9, item 17).
@Suite struct PropertyAliasTests {
  static func feature(_ properties: String, id: String? = nil) -> String {
    #"{"type":"Feature","# + (id.map { "\"id\":\"\($0)\"," } ?? "")
      + #""properties":{\#(properties)},"geometry":{"type":"Point","coordinates":[-105,39.7]}}"#
  }

  static func collection(_ features: [String]) -> String {
    #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
  }

  static func aliasNotes(_ catalog: Catalog) -> [Diagnostic] { catalog.diagnostics("property-alias") }

  @Test func ogr2ogrKeysGiveTheIdAndTheAddress() throws {
    let catalog = try load(
      Self.collection([
        Self.feature(
          #""osm_id":"440624971","name":"Devil's Food","address":null,"addr_housenumber":"1024","#
            + #""addr_street":"South Gaylord Street","addr_city":"Denver","addr_state":"CO","addr_postcode":null"#
        ),
        Self.feature(#""osm_id":"49633772","name":"The Bean Cycle","addr_street":null"#),
      ]))
    #expect(catalog.stores.map(\.id) == ["440624971", "49633772"])
    #expect(catalog.stores.map(\.idSource) == [.property, .property])
    #expect(catalog.stores[0].address == "1024 South Gaylord Street, Denver, CO")
    #expect(catalog.stores[0].region == "CO")
    #expect(catalog.stores[1].address == nil)
    // Properties stay as they came.
    #expect(catalog.stores[0].properties["addr_street"] == .string("South Gaylord Street"))
    #expect(catalog.stores[0].properties["addr:street"] == nil)
    // One note per alias for the whole file, none per store, and no generated ids.
    let notes = Self.aliasNotes(catalog)
    #expect(notes.count == 2)
    #expect(notes.allSatisfy { $0.severity == .note && $0.position == nil })
    #expect(notes[0].message.contains("the ids of 2 stores are their \"osm_id\" property"))
    #expect(notes[1].message.contains("addr_street for addr:street (1 store)"))
    #expect(notes[1].message.contains("addr_housenumber for addr:housenumber (1 store)"))
    #expect(catalog.diagnostics("generated-id").isEmpty)
  }

  @Test func aPlainAddressPropertyIsTheAddress() throws {
    let catalog = try load(
      Self.collection([
        Self.feature(#""id":"9MsJi3NZ","type":"dunkindonuts","address":"20 Main St""#),
        Self.feature(#""id":"x2","full_address":"230 Revere Street, Winthrop, MA""#),
      ]))
    #expect(catalog.stores.map(\.address) == ["20 Main St", "230 Revere Street, Winthrop, MA"])
    let messages = Self.aliasNotes(catalog).map(\.message)
    #expect(messages.count == 3)
    #expect(messages.contains { $0.contains("the address of 1 store is their \"address\" property") })
    #expect(messages.contains { $0.contains("the address of 1 store is their \"full_address\" property") })
    #expect(messages.contains { $0.contains("the ids of 2 stores are their \"id\" property") })
  }

  /// The schema's own keys win: an alias is read only where they are absent or empty.
  @Test func allThePlacesKeysComeFirst() throws {
    let catalog = try load(
      Self.collection([
        Self.feature(
          #""ref":"r1","addr:street_address":"1 Pike St","addr:city":"Seattle","address":"elsewhere","#
            + #""addr_street":"Other St","addr:country":"US","addr_country":"CA""#),
        Self.feature(#""ref":"r2","addr:city":"","addr_city":"Boulder""#),
      ]))
    #expect(catalog.stores[0].address == "1 Pike St, Seattle")
    #expect(catalog.stores[0].country == "US")
    #expect(catalog.stores[1].address == "Boulder")
    let notes = Self.aliasNotes(catalog)
    #expect(
      notes.map(\.message) == [
        "address keys were read in ogr2ogr's spelling, with '_' for ':': addr_city for addr:city (1 store); "
          + "the properties are kept as they came"
      ])
  }

  @Test func aFileInTheAllThePlacesSchemaHasNoAliasNote() throws {
    let catalog = try load(
      Self.collection([
        Self.feature(#""ref":"1","addr:street":"Main St","amenity":"cafe","area_m2":"12""#, id: "a")
      ]))
    #expect(Self.aliasNotes(catalog).isEmpty)
    #expect(catalog.stores[0].address == "Main St")
  }
}
