/// Why a place name does not name one place: the sentence to show, and the places that would
/// help the person choose.
public struct PlaceLookupError: Error, Sendable, CustomStringConvertible {
  public enum Kind: Sendable, Hashable {
    /// Several places have the name (and match the qualifiers): `candidates` lists them.
    case ambiguous
    /// No place has the name (with those qualifiers): `suggestions` lists close names.
    case unknown
    /// The text is not a place name: empty, too long, or too many qualifiers.
    case malformed
    /// The places file cannot be read.
    case unavailable
  }

  public let kind: Kind
  /// The sentence, without a final full stop.
  public let message: String
  /// The places an ambiguous name names, heaviest first (`PlaceIndex.resolve`: most populous, less
  /// with distance from a bias), at most `PlaceIndex.maximumCandidates`.
  public let candidates: [Place]
  /// Places with close names, best first.
  public let suggestions: [Place]

  public init(_ kind: Kind, _ message: String, candidates: [Place] = [], suggestions: [Place] = []) {
    self.kind = kind
    self.message = message
    self.candidates = candidates
    self.suggestions = suggestions
  }

  public var description: String { message }
}
