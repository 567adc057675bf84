import Foundation
import Testing

/// Every command that takes a store id answers an unknown one the same way: exit 66 and the most
/// similar ids, most similar first.
@Suite struct StoreIDLookupCommandTests {
  @Test(arguments: [
    ["show", "nw-1O01"], ["hours", "nw-1O01"], ["open", "nw-1O01"],
    ["pickup", "--near", "51.5074,-0.1278", "--ready-in", "5m", "--store", "nw-1O01"],
  ])
  func anUnknownIDSuggestsTheClosestIDs(arguments: [String]) throws {
    let outcome = try StoresProcess.run(arguments)
    #expect(outcome.status == 66, "\(outcome.standardError)")
    #expect(outcome.standardError.contains("no store with id 'nw-1O01'"), "\(outcome.standardError)")
    // One edit away comes first, not the first ids of the file that share "nw-" (nw-0001…).
    #expect(outcome.standardError.contains("did you mean 'nw-1001'"), "\(outcome.standardError)")
  }
}
