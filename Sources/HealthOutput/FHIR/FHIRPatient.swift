import HealthJSON
import HealthModel

/// The person as FHIR `Patient`: birth date and gender, from the characteristics the policy lets
/// through (the header a writer receives is already filtered), and nothing else about the person.
///
/// An export names no one and carries no identifier of the person, so the id is derived from
/// what the resource shows (`FHIRResourceID`). Two people with the same birth date and sex get
/// the same id: a server that holds many people's data gives each person's Patient its own id
/// (healthport-formats(5), "FHIR").
struct FHIRPatient: Equatable {
    var id: ObjectUUID
    /// FHIR's `AdministrativeGender`: `female`, `male` or `other`.
    var gender: String?
    /// `yyyy-MM-dd`, or `yyyy` alone (FHIR's `date` allows a year; a de-identified export keeps
    /// only the year of birth). A de-identified `90+` is no date: no birth date is written.
    var birthDate: String?

    /// The Patient for the characteristics, or `nil` when neither is known (no Patient is then
    /// written, and Observations have no subject).
    init?(_ characteristics: Characteristics?) {
        guard let characteristics else { return nil }
        gender = characteristics.biologicalSex.flatMap(Self.gender)
        birthDate = characteristics.dateOfBirth.flatMap { CalendarDate.parse($0) != nil || Self.isYear($0) ? $0 : nil }
        guard gender != nil || birthDate != nil else { return nil }
        id = FHIRResourceID.derive("Patient", [gender, birthDate])
    }

    /// Four digits, not `0000`: a year as FHIR writes one (0001 to 9999). A birth date FHIR
    /// would refuse is left out, never written: a refused Patient would leave every
    /// Observation's subject pointing at nothing.
    static func isYear(_ text: String) -> Bool {
        text.utf8.count == 4 && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && text != "0000"
    }

    /// `HKBiologicalSexFemale` (or iOS 8's raw `1`) is `female`; not set is no gender.
    static func gender(_ exported: String) -> String? {
        switch exported {
        case "HKBiologicalSexFemale", "1": return "female"
        case "HKBiologicalSexMale", "2": return "male"
        case "HKBiologicalSexOther", "3": return "other"
        default: return nil
        }
    }

    /// The Patient resource, one line.
    func write(to out: OutputBuffer) {
        var json = JSONEmitter(out)
        json.beginObject()
        json.key("resourceType")
        json.literal("Patient")
        json.key("id")
        json.uuid(id)
        json.field("gender", gender)
        json.field("birthDate", birthDate)
        json.endObject()
        out.append(0x0A)
    }

    /// `,"subject":{"reference":"Patient/…"}`, what every Observation carries.
    var subjectMember: [UInt8] {
        let out = OutputBuffer(descriptor: -1, capacity: 128)
        out.append(",\"subject\":")
        var json = JSONEmitter(out)
        FHIRJSON.reference("Patient", id, to: &json)
        return out.takeBytes()
    }
}
