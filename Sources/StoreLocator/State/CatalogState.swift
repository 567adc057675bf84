import OpeningHours

extension Catalog {
  /// The catalog as answers see it with `states` applied: closures and special days change the
  /// stores' hours in every open state, next change, pickup window and day listed; a paused
  /// ordering shows in each answer (`StoreMatch.ordering`) and keeps pickup from assigning it.
  ///
  /// The state is a value beside the catalog: the same catalog, state and request at the same
  /// time give the same answer, which names `stateVersion`. Applying an empty state gives back
  /// the catalog as it was.
  /// - Complexity: O(s) for the s stores the state names, compiling the hours of those with
  ///   closures or special days; answers then read a dictionary for those stores only.
  public func applying(_ states: StoreStates) -> Catalog {
    var copy = self
    let service = overlay?.service?.service
    copy.overlay =
      states.stores.isEmpty && service == nil && states.version == 0
      ? nil : ScheduleOverlay(table: table, service: service, states: states)
    return copy
  }

  /// The catalog as a request for `service` sees it: each store's hours for that service
  /// (`ServiceSchedules` says where they come from), with the state applied. `nil`: the stores'
  /// own hours.
  /// - Complexity: O(n) the first time a service is named on this data (every row is read
  ///   once), then O(1) for the same state.
  public func serving(_ service: String?) -> Catalog {
    guard service != overlay?.service?.service else { return self }
    var copy = self
    if let overlay {
      copy.overlay = overlay.serving(service, table: table)
    } else if service != nil {
      copy.overlay = ScheduleOverlay(table: table, service: service, states: .empty)
    }
    return copy
  }

  /// The state applied (`StoreStates.empty` when none is).
  public var states: StoreStates { overlay?.states ?? .empty }

  /// The version of the state applied: 0 when none is.
  public var stateVersion: Int64 { overlay?.states.version ?? 0 }

  /// The service whose hours answers give, or `nil` for the stores' own.
  public var service: String? { overlay?.service?.service }

  /// Whether the store at `position` takes orders at `instant`.
  func ordering(at position: Int, at instant: Instant) -> StoreState.Ordering {
    overlay?.ordering(at: position, at: instant) ?? .open
  }

  /// Whether `store` takes orders at `instant`, by its state.
  public func ordering(of store: Store, at instant: Instant) -> StoreState.Ordering {
    guard let position = position(of: store) else { return .open }
    return ordering(at: position, at: instant)
  }

  /// The temporary closure `instant` falls in for the store at `position`.
  func temporaryClosure(at position: Int, covering instant: Instant) -> StoreStatus.TemporaryClosure? {
    overlay?.closure(at: position, covering: instant).map {
      StoreStatus.TemporaryClosure(reason: $0.reason, until: $0.range.upperBound)
    }
  }

  /// Every service the data gives hours for (`opening_hours:<service>`), with how many stores
  /// give them, most first.
  public var servicesWithHours: [(service: String, stores: Int)] {
    table.servicesWithHours
  }
}

extension Catalog {
  /// A warning when the service asked for is one no store of the data names, neither with hours
  /// (`opening_hours:<service>`) nor as an attribute (`<service>=yes`): every store's hours for it
  /// are then unknown, which a misspelt service would otherwise leave unexplained.
  var unknownServiceNote: String? {
    guard let service, table.keyNumber(of: "opening_hours:" + service) == nil,
      table.keyNumber(of: service) == nil
    else { return nil }
    let known = table.serviceNames
    return
      "warning: no store gives opening_hours:\(service) or \(service), so every store's \(service) hours "
      + "are unknown" + (known.isEmpty ? "" : "; the data gives hours for \(known.joined(separator: ", "))")
  }
}

extension StoreTable {
  /// The services some store gives hours for (`opening_hours:<service>`), by name.
  /// - Complexity: O(k) in the number of distinct property keys.
  var serviceNames: [String] {
    (0..<keyCount).compactMap { number in
      let key = key(number: number)
      guard key.hasPrefix("opening_hours:") else { return nil }
      let service = String(key.dropFirst("opening_hours:".count))
      return ServiceName.isValid(service) ? service : nil
    }.sorted()
  }
}

extension Catalog {
  /// The hours text of the store at `position` as the data writes it: the service's when this
  /// catalog serves one (following `ServiceSchedules`' rule), else the store's `opening_hours`.
  func hoursText(at position: Int) -> String? {
    let own = table.scalarText(key: table.answerKeys.openingHours, at: position)
    guard let service = overlay?.service else { return own }
    switch service.source(at: position) {
    case .ownHours: return service.ownTexts[Int32(position)]
    case .storeHours: return own
    case .notOffered, .unknown: return nil
    }
  }
}

extension ServiceSchedules.Source {
  /// `own hours`, `store hours`, `not offered`, `unknown`: where a service's hours come from.
  var name: String {
    switch self {
    case .ownHours: "own hours"
    case .storeHours: "store hours"
    case .notOffered: "not offered"
    case .unknown: "unknown"
    }
  }
}
