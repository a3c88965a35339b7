/// The person's characteristics, from the export's `Me` element.
///
/// Values are kept as exported (`HKBiologicalSexFemale`; integers in iOS 8 exports). An empty
/// attribute means "not set", and so does a missing `Me`. `dateOfBirth` is personal data: it is
/// the one place besides ECG files and the CDA document where it appears.
public struct Characteristics: Hashable, Sendable {
    /// `yyyy-MM-dd`, as exported; `nil` when empty or absent.
    public var dateOfBirth: String?
    public var biologicalSex: String?
    public var bloodType: String?
    public var fitzpatrickSkinType: String?
    /// Not a public HealthKit constant; seen as `None`.
    public var cardioFitnessMedicationsUse: String?
    /// Characteristics this model does not name, as exported.
    public var other: [GenericAttribute]

    public init() {
        self.other = []
    }

    /// Each characteristic the model names: its name in healthport's JSON and tables, its
    /// HealthKit identifier (the attribute of the export's `Me`) and its property, in the
    /// export's order: the one list every reader and writer of characteristics goes through.
    public static let fields: [(name: String, identifier: String, keyPath: WritableKeyPath<Characteristics, String?> & Sendable)] = [
        ("dateOfBirth", "HKCharacteristicTypeIdentifierDateOfBirth", \.dateOfBirth),
        ("biologicalSex", "HKCharacteristicTypeIdentifierBiologicalSex", \.biologicalSex),
        ("bloodType", "HKCharacteristicTypeIdentifierBloodType", \.bloodType),
        ("fitzpatrickSkinType", "HKCharacteristicTypeIdentifierFitzpatrickSkinType", \.fitzpatrickSkinType),
        ("cardioFitnessMedicationsUse", "HKCharacteristicTypeIdentifierCardioFitnessMedicationsUse", \.cardioFitnessMedicationsUse),
    ]

    public var isEmpty: Bool {
        Self.fields.allSatisfy { self[keyPath: $0.keyPath] == nil } && other.isEmpty
    }

    /// The characteristics whose type `isKept` accepts (given the full identifier, e.g.
    /// `HKCharacteristicTypeIdentifierDateOfBirth`); the others look unset. One rule for the
    /// policy (what the consumer may read) and the type filter (what the query names), so that
    /// a characteristic the model learns later is covered by both at once.
    public func keeping(_ isKept: (String) -> Bool) -> Characteristics {
        var kept = Characteristics()
        for field in Self.fields where isKept(field.identifier) { kept[keyPath: field.keyPath] = self[keyPath: field.keyPath] }
        kept.other = other.filter { isKept($0.name) }
        return kept
    }
}
