import GeoIndex

/// What compiling a store's opening hours reads of it, kept as a few small columns while its
/// record becomes a row: the loader lets each record go as soon as its row is written, and the
/// hours are compiled afterwards from these (on 1M stores, 44 bytes a store instead of a 1 KB
/// record alive until the end of reading).
///
/// Texts are kept once each, told apart by their bytes (`ExactText`): a text that differs from
/// another only in Unicode normalization is quoted in messages as the data spells it.
struct HoursInputs: Sendable {
  /// Per store, its location (`nil`: none usable).
  private(set) var coordinates: [Coordinate?] = []
  /// Per store, the number of its text in `texts` (`none`: it has none).
  private var zones: [UInt32] = []
  private var hours: [UInt32] = []
  private var countries: [UInt32] = []
  private var regions: [UInt32] = []
  /// Per store, the number of its list in `memberLists`: the members that name a service's hours
  /// or a pickup capacity (`opening_hours:*`, `pickup:*`), which a chain writes alike at most
  /// stores; list 0 is empty.
  private var extras: [UInt32] = []
  private var texts: [String] = []
  private var textNumbers: [ExactText: UInt32] = [:]
  private var memberLists: [[JSONObject.Member]] = [[]]
  private var memberListNumbers: [ExactText: UInt32] = [:]
  private static let none = UInt32.max

  var count: Int { coordinates.count }

  init(expectedCount: Int = 0) {
    coordinates.reserveCapacity(expectedCount)
    for column in [\HoursInputs.zones, \.hours, \.countries, \.regions, \.extras] {
      self[keyPath: column].reserveCapacity(expectedCount)
    }
  }

  /// Adds what the hours of `store` depend on, as the next store.
  mutating func append(_ store: Store) {
    append(HoursDraft(timezone: store.timezone, properties: store.properties), coordinate: store.coordinate)
  }

  /// Adds what the hours of a store at `coordinate` depend on, as its record's reader took it.
  mutating func append(_ draft: HoursDraft, coordinate: Coordinate?) {
    coordinates.append(coordinate)
    zones.append(number(of: draft.timezone))
    hours.append(number(of: draft.openingHours))
    countries.append(number(of: draft.country))
    regions.append(number(of: draft.region))
    extras.append(listNumber(of: draft))
  }

  /// Forgets the location of the store at `position` (its collection's coordinates cannot be used).
  mutating func removeCoordinate(at position: Int) { coordinates[position] = nil }

  /// Gives the store at `position` the time zone `name` when it has none of its own (its
  /// collection's `timezone`).
  mutating func setTimezoneIfNone(_ name: String, at position: Int) {
    if zones[position] == Self.none { zones[position] = number(of: name) }
  }

  /// What the hours of a store read, as the numbers of its texts: stores with equal keys (whose
  /// nearest places, when they need one, are in the same zone) settle alike, so their hours are
  /// compiled once.
  struct Key: Hashable {
    let zone: UInt32
    let hours: UInt32
    let country: UInt32
    let region: UInt32
    let extras: UInt32
    let located: Bool
  }

  /// The key of the store at `position`.
  func key(at position: Int) -> Key {
    Key(
      zone: zones[position], hours: hours[position], country: countries[position], region: regions[position],
      extras: extras[position], located: coordinates[position] != nil)
  }

  /// One store of each kind told apart by its texts and whether it is located (its `Key` but the
  /// service members, which it leaves out), in the order first met: for questions asked of every
  /// store whose answers depend on nothing else (`HoursResources.bundled`). The 1M benchmark
  /// file's stores are 72 kinds; asking each store made its texts a store.
  func distinctSubjects() -> [HoursSubject] {
    var seen = Set<Key>()
    var subjects: [HoursSubject] = []
    for position in 0..<count {
      let kind = Key(
        zone: zones[position], hours: hours[position], country: countries[position],
        region: regions[position],
        extras: 0, located: coordinates[position] != nil)
      guard seen.insert(kind).inserted else { continue }
      subjects.append(
        HoursSubject(
          coordinate: coordinates[position], timezone: text(zones[position]),
          openingHours: text(hours[position]),
          country: text(countries[position]), region: text(regions[position]), serviceMembers: []))
    }
    return subjects
  }

  /// The store at `position`, as the hours see it.
  subscript(position: Int) -> HoursSubject {
    HoursSubject(
      coordinate: coordinates[position], timezone: text(zones[position]), openingHours: text(hours[position]),
      country: text(countries[position]), region: text(regions[position]),
      serviceMembers: memberLists[Int(extras[position])])
  }

  private func text(_ number: UInt32) -> String? { number == Self.none ? nil : texts[Int(number)] }

  private mutating func number(of text: String?) -> UInt32 {
    guard let text else { return Self.none }
    let key = ExactText(text)
    if let known = textNumbers[key] { return known }
    let number = UInt32(texts.count)
    texts.append(text)
    textNumbers[key] = number
    return number
  }

  private mutating func listNumber(of draft: HoursDraft) -> UInt32 {
    guard let key = draft.serviceKey else { return 0 }
    if let known = memberListNumbers[key] { return known }
    let number = UInt32(memberLists.count)
    memberLists.append(draft.serviceMembers)
    memberListNumbers[key] = number
    return number
  }
}

/// What `HoursInputs` keeps of one store's record, taken from it where it is read (on a reading
/// thread, in a large file), so that the thread that writes the rows only numbers the texts.
struct HoursDraft: Sendable {
  let timezone: String?
  let openingHours: String?
  /// The country and region as `Store.country` and `region` read them.
  let country: String?
  let region: String?
  /// The members that name a service's hours or a pickup capacity, in the record's order, and
  /// the text that tells such lists apart (`nil`: none).
  let serviceMembers: [JSONObject.Member]
  let serviceKey: ExactText?

  /// - Parameter address: The address keys of `properties`, when already found.
  init(timezone: String?, properties: JSONObject, address: AddressMembers? = nil) {
    self.timezone = timezone
    openingHours = properties["opening_hours"]?.scalarText
    let address = address ?? AddressMembers(properties)
    var unused: PropertyAliases = []
    country = Store.addressValue(Store.countryPosition, in: address, aliasesRead: &unused)
    region = Store.addressValue(Store.statePosition, in: address, aliasesRead: &unused)
    guard properties.contains(where: HoursSubject.isServiceMember) else {
      serviceMembers = []
      serviceKey = nil
      return
    }
    serviceMembers = properties.filter(HoursSubject.isServiceMember)
    serviceKey = ExactText(
      serviceMembers.map { $0.key + "\u{0}" + $0.value.jsonText }.joined(separator: "\u{1}"))
  }
}

/// A store as its opening hours see it (`HoursInputs`): where it is, the texts that choose its
/// zone, hours and holidays, and the members of its services' hours and pickup capacities.
struct HoursSubject: Sendable {
  let coordinate: Coordinate?
  let timezone: String?
  let openingHours: String?
  let country: String?
  let region: String?
  /// The `opening_hours:*` and `pickup:*` members, in the record's order.
  let serviceMembers: [JSONObject.Member]

  /// The prefix of the capacity properties (`CapacityProperty`), checked as the hours are.
  static let capacityPrefix = "pickup:"

  /// The country whose public holidays `PH` means (`InferredHolidays.country(given:inferred:)`).
  func holidayCountry(inferred: InferredHolidays?) -> String? {
    InferredHolidays.country(given: country, inferred: inferred)
  }

  /// The region of the country's holidays (`InferredHolidays.region(given:inferred:)`).
  func holidayRegion(inferred: InferredHolidays?) -> String? {
    InferredHolidays.region(given: region, inferred: inferred)
  }

  /// Whether `member` names a service's hours or a pickup capacity. Asked of every member of
  /// every record as it is read: a key whose first byte starts neither prefix is answered by that
  /// byte (the two `hasPrefix` of each key were a twentieth of a reading thread's time on 1M
  /// stores). A key whose first byte differs cannot start with either prefix, even by canonical
  /// equivalence: each prefix's first character is one ASCII scalar.
  static func isServiceMember(_ member: JSONObject.Member) -> Bool {
    let first = member.key.utf8.first
    if first == serviceHoursFirstByte, member.key.hasPrefix(Catalog.serviceHoursPrefix) { return true }
    return first == capacityFirstByte && member.key.hasPrefix(capacityPrefix)
  }

  private static let serviceHoursFirstByte = Catalog.serviceHoursPrefix.utf8.first
  private static let capacityFirstByte = capacityPrefix.utf8.first
}
