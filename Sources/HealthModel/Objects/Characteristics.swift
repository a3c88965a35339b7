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

    public var isEmpty: Bool {
        dateOfBirth == nil && biologicalSex == nil && bloodType == nil && fitzpatrickSkinType == nil
            && cardioFitnessMedicationsUse == nil && other.isEmpty
    }

    /// The characteristics whose type `isKept` accepts (given the full identifier, e.g.
    /// `HKCharacteristicTypeIdentifierDateOfBirth`); the others look unset. One rule for the
    /// policy (what the consumer may read) and the type filter (what the query names), so that
    /// a characteristic the model learns later is covered by both at once.
    public func keeping(_ isKept: (String) -> Bool) -> Characteristics {
        var kept = Characteristics()
        let prefix = "HKCharacteristicTypeIdentifier"
        if isKept(prefix + "DateOfBirth") { kept.dateOfBirth = dateOfBirth }
        if isKept(prefix + "BiologicalSex") { kept.biologicalSex = biologicalSex }
        if isKept(prefix + "BloodType") { kept.bloodType = bloodType }
        if isKept(prefix + "FitzpatrickSkinType") { kept.fitzpatrickSkinType = fitzpatrickSkinType }
        if isKept(prefix + "CardioFitnessMedicationsUse") { kept.cardioFitnessMedicationsUse = cardioFitnessMedicationsUse }
        kept.other = other.filter { isKept($0.name) }
        return kept
    }
}
