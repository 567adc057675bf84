import HTTPTypes
import Hummingbird

/// Every route the service answers, in one list: the router is built from it, a wrong method on
/// one of its paths is told apart from an unknown path (405 with `Allow`, not 404), and a test
/// holds it equal to the paths of the OpenAPI document.
public struct APIRoute: Hashable, Sendable, CustomStringConvertible {
  public let method: HTTPRequest.Method
  /// The path as OpenAPI writes it: `/v1/stores/{id}/hours`.
  public let path: String

  public init(_ method: HTTPRequest.Method, _ path: String) {
    self.method = method
    self.path = path
  }

  public var description: String { "\(method.rawValue) \(path)" }

  /// The path as Hummingbird's router writes it: `/v1/stores/:id/hours`.
  var routerPath: RouterPath {
    if path == "/" { return RouterPath("/") }
    return RouterPath(
      path.split(separator: "/").map { $0.hasPrefix("{") ? ":" + $0.dropFirst().dropLast() : $0 }
        .joined(separator: "/"))
  }

  public static let nearest = APIRoute(.get, "/v1/stores/nearest")
  public static let within = APIRoute(.get, "/v1/stores/within")
  public static let clusters = APIRoute(.get, "/v1/stores/clusters")
  public static let store = APIRoute(.get, "/v1/stores/{id}")
  public static let hours = APIRoute(.get, "/v1/stores/{id}/hours")
  public static let open = APIRoute(.get, "/v1/stores/{id}/open")
  public static let places = APIRoute(.get, "/v1/places")
  public static let pickup = APIRoute(.post, "/v1/pickup")
  public static let info = APIRoute(.get, "/v1/info")
  public static let storeState = APIRoute(.get, "/v1/stores/{id}/state")
  public static let changeStoreState = APIRoute(.patch, "/v1/stores/{id}/state")
  public static let storeStateHistory = APIRoute(.get, "/v1/stores/{id}/state/history")
  public static let changedStates = APIRoute(.get, "/v1/stores/state")
  public static let slots = APIRoute(.get, "/v1/stores/{id}/slots")
  public static let reservation = APIRoute(.get, "/v1/reservations/{id}")
  public static let confirmReservation = APIRoute(.post, "/v1/reservations/{id}/confirm")
  public static let releaseReservation = APIRoute(.delete, "/v1/reservations/{id}")
  public static let health = APIRoute(.get, "/healthz")
  public static let readiness = APIRoute(.get, "/readyz")
  public static let metrics = APIRoute(.get, "/metrics")
  public static let openAPI = APIRoute(.get, "/openapi.json")
  public static let reload = APIRoute(.post, "/admin/reload")
  public static let page = APIRoute(.get, "/")
  public static let pageFile = APIRoute(.get, "/page/{name}")
  public static let asset = APIRoute(.get, "/assets/{name}")

  /// Every route, as the router has them.
  public static let all: [APIRoute] = [
    nearest, within, clusters, store, hours, open, places, pickup, info, storeState, changeStoreState,
    storeStateHistory, changedStates, slots, reservation, confirmReservation, releaseReservation, health,
    readiness, metrics, openAPI,
    reload,
    page,
    pageFile, asset,
  ]

  /// The methods the routes take on `path` (a request path, such as `/v1/stores/nw-1/hours`),
  /// with HEAD wherever GET is; empty when no route has the path.
  /// - Complexity: O(r) in the number of routes.
  static func methods(forRequestPath path: String) -> [HTTPRequest.Method] {
    let segments = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    let matching = all.filter { route in
      let pattern = route.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
      return pattern.count == segments.count
        && zip(pattern, segments).allSatisfy { $0.hasPrefix("{") ? !$1.isEmpty : $0 == $1 }
    }
    // A literal path (`/v1/stores/nearest`) wins over a parameter one (`/v1/stores/{id}`), as in
    // the router.
    let literal = matching.filter { !$0.path.contains("{") }
    return (literal.isEmpty ? matching : literal).flatMap { $0.method == .get ? [.get, .head] : [$0.method] }
  }
}
