import HealthModel

/// What a run is asked to de-identify with: the key and the person whose shift applies. A value
/// that crosses threads (a query carries it to every gate of a parallel read); each stream makes
/// its own `Deidentifier` from it, which holds the per-stream caches.
///
/// For example:
/// ```swift
/// var query = ObjectQuery()
/// query.deidentification = Deidentification(key: key, person: "p017")
/// ```
public struct Deidentification: Sendable, Equatable {
    /// The method's name and version, as the manifest records them; a change to any rule
    /// changes the version.
    public static let method = "healthport-deidentify"
    public static let version = 1

    public let key: DeidentificationKey
    /// The person's key whose date shift applies (`""` for one export converted alone).
    public let person: String
    public let shift: DateShift

    public init(key: DeidentificationKey, person: String = "") {
        self.key = key
        self.person = person
        self.shift = DateShift(key: key, person: person)
    }

    /// The same key for another person (a batch makes one per export).
    public func forPerson(_ person: String) -> Deidentification {
        Deidentification(key: key, person: person)
    }

    /// A de-identifier for one stream of objects (one thread).
    public func makeDeidentifier() -> Deidentifier { Deidentifier(self) }

    public static func == (lhs: Deidentification, rhs: Deidentification) -> Bool {
        lhs.key == rhs.key && lhs.person == rhs.person
    }
}
