import Foundation
import HealthJSON
import HealthModel

/// A clinical record's FHIR resource as the FHIR output carries it.
///
/// Records are already FHIR, written by the provider: an R4 resource (`fhirVersion` 4.x) is
/// passed through as received, but for its `id`, which becomes healthport's uuid of the record
/// (so changes and diffs can update and delete it), and `meta.source`, set to the record's
/// `sourceURL` (where the provider serves it, which names the original id) when the resource
/// has none. Key order and number spellings are kept. A DSTU2 resource (1.0.2, what Health
/// Records downloaded before R4) is not R4 and would not validate as one: it is carried whole in
/// an R4 `DocumentReference`, base64 in an attachment of type
/// `application/fhir+json; fhirVersion=1.0`, dated when the phone received it.
enum FHIRClinicalResource {
    enum Outcome {
        /// A resource line (ending in a line break) of the type named.
        case resource(type: String, line: [UInt8])
        /// Left out, with why: the file is missing, or is not JSON.
        case leftOut(String)
    }

    static func make(_ record: ClinicalRecord, data: Data?, subject: FHIRPatient?) -> Outcome {
        guard let data else { return .leftOut("clinical records whose FHIR resource file is missing") }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        guard let parsed = try? JSONParser.parse(bytes), case .object(let members) = parsed else {
            return .leftOut("clinical records whose FHIR resource is not a JSON object")
        }
        if record.fhirVersion?.hasPrefix("4.") == true, let type = members.first(where: { $0.key == "resourceType" })?.value.stringValue,
            isResourceTypeName(type)
        {
            return .resource(type: type, line: passedThrough(members, record: record))
        }
        return .resource(type: "DocumentReference", line: documentReference(record, bytes: bytes, members: members, subject: subject))
    }

    /// FHIR resource type names are letters, starting with a capital; anything else is not a
    /// resource type and must not become a file name.
    static func isResourceTypeName(_ name: String) -> Bool {
        guard let first = name.utf8.first, (0x41...0x5A).contains(first), name.utf8.count <= 64 else { return false }
        return name.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
    }

    /// A URI FHIR accepts (`uri` has no whitespace).
    private static func isURI(_ text: String) -> Bool {
        !text.isEmpty && !text.unicodeScalars.contains { $0.properties.isWhitespace || $0.value < 0x20 }
    }

    private static func passedThrough(_ members: [(key: String, value: JSONValue)], record: ClinicalRecord) -> [UInt8] {
        var members = members
        let id = JSONValue.string(record.uuid.uuidString)
        if let index = members.firstIndex(where: { $0.key == "id" }) {
            members[index].value = id
        } else {
            let at = (members.firstIndex(where: { $0.key == "resourceType" }) ?? -1) + 1
            members.insert((key: "id", value: id), at: at)
        }
        if let source = record.sourceURL, isURI(source) {
            if let index = members.firstIndex(where: { $0.key == "meta" }) {
                if case .object(var meta) = members[index].value, !meta.contains(where: { $0.key == "source" }) {
                    meta.append((key: "source", value: .string(source)))
                    members[index].value = .object(meta)
                }
            } else {
                let at = (members.firstIndex(where: { $0.key == "id" }) ?? 0) + 1
                members.insert((key: "meta", value: .object([(key: "source", value: .string(source))])), at: at)
            }
        }
        let out = OutputBuffer(descriptor: -1, capacity: 4096)
        var json = JSONEmitter(out)
        write(.object(members), to: &json)
        out.append(0x0A)
        return out.takeBytes()
    }

    private static func documentReference(
        _ record: ClinicalRecord, bytes: [UInt8], members: [(key: String, value: JSONValue)], subject: FHIRPatient?
    ) -> [UInt8] {
        let resourceType = members.first(where: { $0.key == "resourceType" })?.value.stringValue ?? record.fhirResourceType
        let out = OutputBuffer(descriptor: -1, capacity: bytes.count * 4 / 3 + 1024)
        var json = JSONEmitter(out)
        json.beginObject()
        json.key("resourceType")
        json.literal("DocumentReference")
        json.key("id")
        json.uuid(record.uuid)
        if let source = record.sourceURL, isURI(source) {
            json.key("meta")
            json.beginObject()
            json.key("source")
            json.string(source)
            json.endObject()
        }
        json.key("status")
        json.literal("current")
        json.key("type")
        let version = record.fhirVersion ?? "unknown"
        FHIRJSON.codeableConcept(
            [.healthKit(record.clinicalType.identifier)], text: "FHIR \(version) \(resourceType) (HealthKit clinical record)", to: &json)
        if let subject {
            json.key("subject")
            subject.writeReference(to: &json)
        }
        json.field("date", record.receivedDate)
        if let name = record.sourceName {
            json.key("description")
            json.string("\(resourceType) from \(name)")
        }
        json.key("content")
        json.beginArray()
        json.element()
        json.beginObject()
        json.key("attachment")
        json.beginObject()
        json.key("contentType")
        let majorMinor = record.fhirVersion.map { $0.split(separator: ".").prefix(2).joined(separator: ".") }
        json.string("application/fhir+json" + (majorMinor.map { "; fhirVersion=\($0)" } ?? ""))
        json.key("data")
        json.string(Data(bytes).base64EncodedString())
        if let path = record.resourceFilePath {
            json.key("title")
            json.string(String(path.split(separator: "/").last ?? Substring(path)))
        }
        json.endObject()
        json.endObject()
        json.endArray()
        json.endObject()
        out.append(0x0A)
        return out.takeBytes()
    }

    /// A parsed value back as compact JSON, numbers as their text.
    static func write(_ value: JSONValue, to json: inout JSONEmitter) {
        switch value {
        case .null: json.null()
        case .bool(let b): json.literal(b ? "true" : "false")
        case .number(let text): json.raw(text)
        case .string(let s): json.string(s)
        case .array(let elements):
            json.beginArray()
            for element in elements {
                json.element()
                write(element, to: &json)
            }
            json.endArray()
        case .object(let members):
            json.beginObject()
            for member in members {
                json.key(string: member.key)
                write(member.value, to: &json)
            }
            json.endObject()
        }
    }
}
