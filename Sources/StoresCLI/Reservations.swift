import ArgumentParser
import OpeningHours
import StoreLocator
import StoresState

extension StoresCommand {
  struct Reservations: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "reservation",
      abstract: "Show, confirm or release a pickup slot held with `stores pickup --reserve`.",
      discussion: """
        A hold counts in its slot until confirmed (kept), released (freed) or until it expires by \
        itself, unconfirmed. Confirming one that expired or was released fails (exit 69), never \
        in silence. The state's storage is --state (default the file beside the data).

        Examples:
          stores reservation show r_0123456789abcdefghjkmnpqrs
          stores reservation confirm r_0123456789abcdefghjkmnpqrs
          stores reservation release r_0123456789abcdefghjkmnpqrs
        """)

    enum Action: String, ExpressibleByArgument, CaseIterable {
      case show, confirm, release
    }

    @Argument(help: "show, confirm or release.") var action: Action
    @Argument(help: "The reservation's id (r_…).") var id: String
    @OptionGroup var stateStorage: StateStorageOption
    @OptionGroup var dataOptions: DataOptions
    @Option(help: "text or json.") var format: StateFormat = .text

    func run() throws {
      let target = StateTarget(state: stateStorage.state, server: nil, dataOptions: dataOptions)
      let now = Instant.now()
      let (id, action) = (id, action)
      let update = try StoresCommand.State.reportingValue {
        try target.withStorage { storage in
          do {
            switch action {
            case .show:
              return try await storage.reservation(id, at: now).map { ReservationUpdate.done($0) } ?? .unknown
            case .confirm: return try await storage.confirm(reservation: id, at: now)
            case .release: return try await storage.release(reservation: id, at: now)
            }
          } catch let error as StateStorageError {
            throw StateCommandFailure(storage: error)
          }
        }
      }
      switch update {
      case .done(let reservation): write(reservation, at: now)
      case .refused(let reservation):
        write(reservation, at: now)
        standardError(
          "stores: reservation \(id) "
            + (reservation.status == .expired
              ? "expired at \(reservation.expiresAt) unconfirmed; its place was freed"
              : "was released at \(reservation.changedAt)") + ": plan the pickup again")
        throw ExitCode(69)
      case .unknown:
        standardError("stores: no reservation has the id \"\(id)\"")
        throw ExitCode.inputMissing
      }
    }

    private func write(_ reservation: Reservation, at now: Instant) {
      switch format {
      case .json: standardOutput(JSONValue.object(reservation.jsonObject(at: now)).jsonText + "\n")
      case .text:
        standardOutput(
          "\(reservation.id): \(reservation.status(at: now).rawValue), \(reservation.slot.storeID)"
            + "\(reservation.slot.service.map { " \($0)" } ?? "") slot \(reservation.slot.start)–\(reservation.slotEnd)"
            + (reservation.status(at: now) == .held ? ", held until \(reservation.expiresAt)" : "")
            + "\n")
      }
    }
  }
}
