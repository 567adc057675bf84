import FuzzSupport
import GeoIndex
import OpeningHours
import StoreLocator

/// Order documents on any text, and for those that read, pickup planning on the bundled data (as
/// `stores pickup --order FILE`): the order reads back from its own JSON, the plan's times are in
/// order, the assigned store exists, and the order written back with its plan is valid JSON that
/// reads back to itself.
@main enum OrderFuzz {
  nonisolated(unsafe) static var catalog: Catalog?

  static func main() {
    do {
      catalog = try Catalog.load(contentsOf: DefaultData.bundledPath)
    } catch {
      fatalError("cannot load the bundled data: \(error)")
    }
    runFuzzer { data, count in
      let input = fuzzInput(data, count)
      if let text = utf8Text(input) {
        OrderFuzz.check(text, now: Instant(secondsSinceEpoch: 1_781_517_600 + Int64(count) * 977))
      }
      return 0
    }
  }

  static func check(_ text: String, now: Instant) {
    guard let catalog, let document = try? OrderDocument(parsing: text) else { return }
    let written = JSONValue.object(document.object).jsonText
    fuzzCheck(
      (try? OrderDocument(parsing: written)) == document, "the order does not read back from \(written)")

    let request = document.pickupRequest(orderedAt: now)
    guard let plan = try? catalog.planPickup(request) else { return }
    for option in [plan.assignment, plan.earliest].compactMap({ $0 }) + plan.alternatives {
      fuzzCheck(option.arrivalAt >= now, "arrival \(option.arrivalAt) before the order at \(now)")
      fuzzCheck(
        option.pickupAt >= option.readyAt && option.pickupAt >= option.arrivalAt,
        "pickup \(option.pickupAt) before ready \(option.readyAt) or arrival \(option.arrivalAt)")
      fuzzCheck(catalog.store(withID: option.store.store.id) != nil, "a planned store is not in the catalog")
    }
    let back = document.writingBack(plan)
    let backText = JSONValue.object(back).jsonText
    guard case .object(let reread)? = try? JSONValue(parsing: backText) else {
      fuzzCheck(false, "the order written back is not a JSON object: \(backText)")
      return
    }
    fuzzCheck(reread == back, "the order written back does not read back: \(backText)")
  }
}
