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
    public static let version = 2

    public let key: DeidentificationKey
    /// The person's key whose date shift applies (`""` for one export converted alone).
    public let person: String
    public let shift: DateShift
    /// The file the key was read from, when it came from one: an input of every run that uses
    /// it, so no output, anchor or manifest may replace it (the key links a person's exports
    /// for years; once replaced, later exports never line up).
    public let keyFile: String?

    public init(key: DeidentificationKey, person: String = "", keyFile: String? = nil) {
        self.key = key
        self.person = person
        self.shift = DateShift(key: key, person: person)
        self.keyFile = keyFile
    }

    /// The same key for another person (a batch makes one per export).
    public func forPerson(_ person: String) -> Deidentification {
        Deidentification(key: key, person: person, keyFile: keyFile)
    }

    /// A de-identifier for one stream of objects (one thread).
    public func makeDeidentifier() -> Deidentifier { Deidentifier(self) }

    public static func == (lhs: Deidentification, rhs: Deidentification) -> Bool {
        lhs.key == rhs.key && lhs.person == rhs.person
    }
}
