import Hummingbird
import StoreLocator

/// What the service keeps for one request beside Hummingbird's own: its id and the catalog it
/// answers from, both chosen once by `ServiceMiddleware` before the route runs.
public struct StoresRequestContext: RequestContext {
  public var coreContext: CoreRequestContextStorage
  /// The `X-Request-Id` this request is logged and answered with.
  public var requestID: String = ""
  /// The data this request is answered from, read once from the `CatalogStore`; `nil` when none
  /// is loaded yet.
  public var loaded: LoadedCatalog?
  /// The stores' state this request is answered with, read once with `loaded`.
  public var states: StoreStates = .empty
  /// What the pickup slots held when the request came, read with `states`.
  public var bookings: SlotBookings = .empty
  /// Who keeps that state (the service's `StateKeeper`).
  public var stateSource: ObjectIdentifier?
  /// How old that state is, in seconds, when the storage has stopped confirming it.
  public var staleStateAge: Double?

  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
  }
}
