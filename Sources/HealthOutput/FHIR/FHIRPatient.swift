import HealthJSON
import HealthModel

/// The person as FHIR `Patient`: birth date and gender, from the characteristics the policy lets
/// through (the header a writer receives is already filtered), and nothing else about the person.
///
/// Every output has one, and every Observation (per sample, per day, per night) and
/// DocumentReference refers to it: a resource says whose data it is even where the folder it
/// sits in is the only other clue. Its id is the header's `personID`, which the query's gate
/// sets (healthport-formats(5), "FHIR"):
/// - de-identified (`--deidentify`): the person's keyed pseudonym (`person-3f9a1c2b7d04`),
///   never anything derived from a birth date: the same person under the same key every time,
///   unrelated under another key;
/// - otherwise derived from the sex and birth date the consumer may see (`PersonIdentity`),
///   which is all an export says about the person, whatever this output shows of them: two
///   people with the same birth date and sex get the same id, and so does everyone whose
///   characteristics are hidden or unknown (`PersonIdentity.noCharacteristics`). A server that
///   holds many people's data gives each person's Patient its own id.
///
/// A header that did not pass a gate (a test's) has no `personID`: the id is then derived from
/// what the Patient shows. Open mHealth's data points carry the same id as their `user_id`.
struct FHIRPatient: Equatable {
    /// A FHIR id (`[A-Za-z0-9\-.]{1,64}`): a derived uuid, or the pseudonym.
    var id: String
    /// FHIR's `AdministrativeGender`: `female`, `male` or `other`.
    var gender: String?
    /// `yyyy-MM-dd`, or `yyyy` alone (FHIR's `date` allows a year; a de-identified export keeps
    /// only the year of birth). A de-identified `90+` is no date: no birth date is written.
    var birthDate: String?

    /// The id of a Patient that shows neither a gender nor a birth date, outside de-identified
    /// output: the same for everyone, documented in healthport-formats(5).
    static let noCharacteristicsID = PersonIdentity.noCharacteristics

    /// The Patient of the header the writer received: its characteristics and its `personID`.
    init(_ header: ExportHeader) {
        self.init(header.characteristics, personID: header.personID)
    }

    /// - Parameter personID: the id the output names the person by; `nil`: derived from what
    ///   the Patient shows. An id FHIR would refuse is not taken (every Observation's subject
    ///   would point at a Patient no server keeps).
    init(_ characteristics: Characteristics?, personID: String? = nil) {
        gender = characteristics?.biologicalSex.flatMap(PersonIdentity.gender)
        // A birth date FHIR would refuse is left out, never written: a refused Patient would
        // leave every Observation's subject pointing at nothing.
        birthDate = characteristics?.dateOfBirth.flatMap(PersonIdentity.birthDate)
        if let personID, Self.isFHIRID(personID) {
            id = personID
        } else {
            id = PersonIdentity.derivedID(gender: gender, birthDate: birthDate)
        }
    }

    /// FHIR R4's `id`: 1 to 64 of ASCII letters, digits, `-` and `.`.
    static func isFHIRID(_ text: String) -> Bool {
        let bytes = text.utf8
        return (1...64).contains(bytes.count)
            && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) || $0 == 0x2D || $0 == 0x2E }
    }

    /// `HKBiologicalSexFemale` (or iOS 8's raw `1`) is `female`; not set is no gender.
    static func gender(_ exported: String) -> String? { PersonIdentity.gender(exported) }

    /// The Patient resource, one line.
    func write(to out: OutputBuffer) {
        var json = JSONEmitter(out)
        json.beginObject()
        json.key("resourceType")
        json.literal("Patient")
        json.key("id")
        json.string(id)
        json.field("gender", gender)
        json.field("birthDate", birthDate)
        json.endObject()
        out.append(0x0A)
    }

    /// `{"reference":"Patient/…"}`, as the value of a resource's `subject`.
    func writeReference(to json: inout JSONEmitter) {
        json.beginObject()
        json.key("reference")
        json.string("Patient/" + id)
        json.endObject()
    }

    /// `,"subject":{"reference":"Patient/…"}`, what every Observation carries.
    var subjectMember: [UInt8] {
        let out = OutputBuffer(descriptor: -1, capacity: 128)
        out.append(",\"subject\":")
        var json = JSONEmitter(out)
        writeReference(to: &json)
        return out.takeBytes()
    }
}
