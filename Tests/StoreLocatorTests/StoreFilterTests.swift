import GeoIndex
import Testing

@testable import StoreLocator

@Suite struct StoreFilterTests {
  func store(_ properties: [(String, JSONValue)]) -> Store {
    Store(
      id: "s", idSource: .feature, coordinate: Coordinate(uncheckedLatitude: 0, longitude: 0),
      properties: JSONObject(properties.map { JSONObject.Member(key: $0.0, value: $0.1) }), timezone: nil,
      position: SourcePosition(featureIndex: 0, line: 1, column: 1))
  }

  @Test func parsesTheThreeForms() throws {
    #expect(try StoreFilter.Condition(parsing: "drive_through=yes").test == .equals("yes"))
    #expect(try StoreFilter.Condition(parsing: "brand!=Dunkin'").test == .notEquals("Dunkin'"))
    #expect(try StoreFilter.Condition(parsing: "wheelchair").test == .present)
    #expect(try StoreFilter.Condition(parsing: "addr:full=a=b").key == "addr:full")
    #expect(throws: StoreFilterError.self) { try StoreFilter.Condition(parsing: "=yes") }
  }

  @Test func presentMeansThereAndNotNo() throws {
    let condition = try StoreFilter.Condition(parsing: "drive_through")
    #expect(condition.matches(store([("drive_through", .string("yes"))])))
    #expect(condition.matches(store([("drive_through", .string("only"))])))
    #expect(!condition.matches(store([("drive_through", .string("no"))])))
    #expect(!condition.matches(store([("drive_through", .null)])))
    #expect(!condition.matches(store([("drive_through", .bool(false))])))
    #expect(condition.matches(store([("drive_through", .bool(true))])))
    #expect(!condition.matches(store([])))
  }

  @Test func equalsMatchesListsArraysNumbersAndBooleans() throws {
    #expect(
      try StoreFilter.Condition(parsing: "cuisine=donut").matches(
        store([("cuisine", .string("coffee_shop;donut"))])))
    #expect(
      try StoreFilter.Condition(parsing: "cuisine=coffee_shop;donut").matches(
        store([("cuisine", .string("coffee_shop;donut"))])))
    #expect(
      !(try StoreFilter.Condition(parsing: "cuisine=don").matches(
        store([("cuisine", .string("coffee_shop;donut"))]))))
    #expect(
      try StoreFilter.Condition(parsing: "features=DR").matches(
        store([("features", .array([.string("WA"), .string("DR")]))])))
    #expect(try StoreFilter.Condition(parsing: "floor=2").matches(store([("floor", .number("2"))])))
    #expect(
      try StoreFilter.Condition(parsing: "mobile_order=yes").matches(store([("mobile_order", .bool(true))])))
    #expect(
      !(try StoreFilter.Condition(parsing: "mobile_order=yes").matches(
        store([("mobile_order", .bool(false))]))))
    #expect(!(try StoreFilter.Condition(parsing: "brand=Starbucks").matches(store([]))))
  }

  @Test func notEqualsKeepsAbsentKeys() throws {
    let condition = try StoreFilter.Condition(parsing: "brand!=Dunkin'")
    #expect(condition.matches(store([])))
    #expect(condition.matches(store([("brand", .string("Starbucks"))])))
    #expect(!condition.matches(store([("brand", .string("Dunkin'"))])))
  }

  @Test func allConditionsMustHold() throws {
    let filter = try StoreFilter(parsing: ["drive_through=yes", "wheelchair"])
    #expect(filter.matches(store([("drive_through", .string("yes")), ("wheelchair", .string("limited"))])))
    #expect(!filter.matches(store([("drive_through", .string("yes"))])))
    #expect(StoreFilter.all.matches(store([])))
  }
}
