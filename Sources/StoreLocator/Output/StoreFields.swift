import OpeningHours

/// A member of the store objects of every answer, in the order they are written.
enum StoreMember: Int, CaseIterable {
  case id, name, brand, address, latitude, longitude, distance, timeZone, openingHours
  case state, comment, nextChange, statusText, ordering, orderingNote, phone, website, properties

  /// Its name in the JSON.
  var key: StaticString {
    switch self {
    case .id: "id"
    case .name: "name"
    case .brand: "brand"
    case .address: "address"
    case .latitude: "latitude"
    case .longitude: "longitude"
    case .distance: "distance_m"
    case .timeZone: "timezone"
    case .openingHours: "opening_hours"
    case .state: "state"
    case .comment: "comment"
    case .nextChange: "next_change"
    case .statusText: "status_text"
    case .ordering: "ordering"
    case .orderingNote: "ordering_note"
    case .phone: "phone"
    case .website: "website"
    case .properties: "properties"
    }
  }

  /// `,"name":` for each member, by raw value: what an answer writes before the member's value
  /// (`JSONBytes.appendKey(of:first:)`).
  static let keyPrefixes: [[UInt8]] = allCases.map { member in
    [UInt8(ascii: ","), UInt8(ascii: "\"")] + member.key.withUTF8Buffer { Array($0) }
      + [UInt8(ascii: "\""), UInt8(ascii: ":")]
  }

  /// Whether writing it needs the store's opening state at the query's time (ordering is read
  /// at the instant the state gives, in the store's zone).
  var needsStatus: Bool {
    (StoreMember.state.rawValue...StoreMember.orderingNote.rawValue).contains(rawValue)
  }
}

/// The members of each store an answer writes (`fields=id,distance_m`, `--fields`): an app asks
/// for what it shows and gets, and pays for, no more.
///
/// The members keep the order of `StoreMatch.memberNames` whatever order they are asked in, and
/// `id` is always written: an answer whose stores cannot be told apart is of no use to an order
/// flow. Without `fields` every member is written, as before. A selection without the open-state
/// members (`state`, `comment`, `next_change`, `status_text`) and without `ordering` and
/// `ordering_note` evaluates no opening hours for the stores it lists (a condition such as
/// `open_now` still does, to choose them).
public struct StoreFields: Hashable, Sendable {
  /// Bit `i` stands for `StoreMatch.memberNames[i]`.
  let bits: UInt32

  /// Every member: the default answer.
  public static let all = StoreFields(bits: (1 << UInt32(StoreMember.allCases.count)) - 1)

  /// The most names one `fields` value may list (each member once, and a few repeats).
  public static let maximumNames = 64

  private init(bits: UInt32) { self.bits = bits }

  /// The members named in `names` (each one of `StoreMatch.memberNames`), and `id`.
  public init(_ names: [String]) throws(StoreFieldsError) {
    var bits: UInt32 = 1 << UInt32(StoreMember.id.rawValue)
    guard names.count <= Self.maximumNames else { throw .tooMany(names.count) }
    for name in names {
      guard let index = StoreMatch.memberNames.firstIndex(of: name) else {
        throw .unknown(name, closest: EditDistance.closest(to: name, among: StoreMatch.memberNames, below: 4))
      }
      bits |= 1 << UInt32(index)
    }
    self.bits = bits
  }

  /// Reads a comma-separated list of member names, such as `id,name,distance_m,state`; spaces
  /// around a name are ignored.
  public init(parsing text: String) throws(StoreFieldsError) {
    let names = text.split(separator: ",", omittingEmptySubsequences: false).map { part in
      let start = part.firstIndex { $0 != " " } ?? part.endIndex
      let end = part.lastIndex { $0 != " " }.map(part.index(after:)) ?? start
      return String(part[start..<end])
    }
    guard names.count <= Self.maximumNames else { throw .tooMany(names.count) }
    if let position = names.firstIndex(of: "") {
      throw .empty(position: position + 1, count: names.count)
    }
    try self.init(names)
  }

  /// Whether the member `name` (one of `StoreMatch.memberNames`) is written.
  public func contains(_ name: String) -> Bool {
    StoreMatch.memberNames.firstIndex(of: name).map { contains(index: $0) } ?? false
  }

  /// Whether the member at `index` of `StoreMatch.memberNames` is written.
  func contains(index: Int) -> Bool { bits & (1 << UInt32(index)) != 0 }

  /// Whether `member` is written.
  func contains(_ member: StoreMember) -> Bool { contains(index: member.rawValue) }

  /// The names written, in the order answers write them.
  public var names: [String] {
    StoreMatch.memberNames.indices.filter(contains(index:)).map { StoreMatch.memberNames[$0] }
  }

  /// Whether every member is written (the default answer).
  public var isAll: Bool { self == .all }

  /// Whether the answer needs each store's opening state at the query's time: its open-state or
  /// ordering members.
  var needsStatus: Bool { StoreMember.allCases.contains { $0.needsStatus && contains($0) } }
}

/// Why a `fields` value is not a list of store members.
public enum StoreFieldsError: Error, Sendable, CustomStringConvertible {
  case unknown(String, closest: String?)
  case empty(position: Int, count: Int)
  case tooMany(Int)

  public var description: String {
    switch self {
    case .unknown(let name, let closest):
      let hint = closest.map { "; did you mean \($0)?" } ?? ""
      return "\(MessageText.quoted(name)) is not a store member\(hint) (members: "
        + StoreMatch.memberNames.joined(separator: ", ") + ")"
    case .empty(let position, let count):
      return count == 1
        ? "names no member; give a comma-separated list such as id,name,distance_m"
        : "name \(position) of \(count) is empty; separate member names with single commas"
    case .tooMany(let count):
      return "lists \(count) names; at most \(StoreFields.maximumNames) are read"
    }
  }
}

extension StoreFields {
  /// Writes the member `"fields": [names]` of an answer that is not the default one, which
  /// tells an answer with these members from one with every member.
  func write(to output: inout JSONBytes) {
    guard !isAll else { return }
    output.appendKey("fields")
    output.append(.array(names.map(JSONValue.string)))
  }
}

extension Catalog {
  /// `matches` with each store's status at `time` when `fields` writes it (`withStatus`), as
  /// they are otherwise: a selection such as `id,distance_m` evaluates no opening hours.
  func withStatus(
    _ matches: consuming [StoreMatch], at time: TimeQuery, for fields: StoreFields
  ) -> [StoreMatch] {
    fields.needsStatus ? withStatus(matches, at: time) : matches
  }
}

extension RequestParameters {
  /// The `fields` parameter: the store members the answer writes; every member when not given.
  /// Given several times (`fields=id&fields=name`, as clients that repeat an array's name write
  /// it), the lists add up.
  func storeFields() throws(RequestError) -> StoreFields {
    let lists = values("fields")
    guard !lists.isEmpty else { return .all }
    do throws(StoreFieldsError) { return try StoreFields(parsing: lists.joined(separator: ",")) } catch {
      throw RequestError(
        .invalid, parameter: spelling(of: "fields"), "\(spelling(of: "fields")): \(error.description)")
    }
  }
}

extension JSONBytes {
  /// `,"name":` before `member`'s value (without the comma for the first member), copied in one
  /// move: the four appends of `appendKey(_:first:)` a member were a tenth of writing a store.
  mutating func appendKey(of member: StoreMember, first: Bool) {
    StoreMember.keyPrefixes[member.rawValue].withUnsafeBytes { prefix in
      append(first ? UnsafeRawBufferPointer(rebasing: prefix.dropFirst()) : prefix)
    }
  }
}
