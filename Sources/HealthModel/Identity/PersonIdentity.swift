/// How an output names the person whose export it is, when it is not de-identified: an export
/// names no one, so the id is derived from the sex and the date of birth the consumer may see,
/// and from nothing else (FHIR's Patient id, Open mHealth's `user_id`; healthport-formats(5),
/// "FHIR").
///
/// Derived from what the consumer may see rather than from what one output shows: a `--type`
/// filter or a summary that reads no characteristic leaves the Patient showing nothing, yet
/// names the same person as the conversion of everything, so `convert`, `days` and `sleep`
/// agree. What a policy hides is never used: an id derived from a hidden birth date could be
/// found again by trying every date. A de-identified output names the person by a keyed
/// pseudonym instead (`Deidentifier.header`).
///
/// The id is `DerivedResourceID`'s for `Patient` and the two FHIR values: the Patient id
/// healthport has always written for those values. Two people with the same birth date and sex share it, and
/// everyone whose characteristics are hidden or unknown shares `noCharacteristics`.
public enum PersonIdentity {
    /// The id of a person of whom neither the sex nor the date of birth is known or visible.
    public static let noCharacteristics = derivedID(gender: nil, birthDate: nil)

    /// The id for the characteristics the consumer may see.
    public static func derivedID(_ characteristics: Characteristics?) -> String {
        derivedID(
            gender: characteristics?.biologicalSex.flatMap(gender),
            birthDate: characteristics?.dateOfBirth.flatMap(birthDate))
    }

    /// The id for FHIR's gender and birth date (`gender(_:)`, `birthDate(_:)`).
    public static func derivedID(gender: String?, birthDate: String?) -> String {
        DerivedResourceID.derive("Patient", [gender, birthDate]).uuidString
    }

    /// FHIR's `AdministrativeGender` of an exported sex: `HKBiologicalSexFemale` (or iOS 8's raw
    /// `1`) is `female`; not set is none.
    public static func gender(_ exported: String) -> String? {
        switch exported {
        case "HKBiologicalSexFemale", "1": return "female"
        case "HKBiologicalSexMale", "2": return "male"
        case "HKBiologicalSexOther", "3": return "other"
        default: return nil
        }
    }

    /// A date of birth as FHIR's `date` takes it: `yyyy-MM-dd`, or a year alone (a de-identified
    /// export keeps only the year); anything else (`90+`, a malformed value) is none.
    public static func birthDate(_ exported: String) -> String? {
        CalendarDate.parse(exported) != nil || isYear(exported) ? exported : nil
    }

    /// Four digits, not `0000`: a year as FHIR writes one (0001 to 9999).
    public static func isYear(_ text: String) -> Bool {
        text.utf8.count == 4 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && text != "0000"
    }
}
