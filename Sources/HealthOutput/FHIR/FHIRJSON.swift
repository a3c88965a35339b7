import HealthJSON
import HealthModel

/// FHIR's JSON data types written through `JSONEmitter`: `Coding`, `CodeableConcept`,
/// `Reference`, `Quantity`, and healthport's metadata extension. Cold or per-type helpers: the
/// per-record parts of an Observation are bytes cached per type (`FHIRObservationEncoder`).
enum FHIRJSON {
    static func coding(_ coding: FHIRCoding, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("system", coding.system)
        json.field("code", coding.code)
        json.field("display", coding.display)
        json.endObject()
    }

    /// `{"coding":[…]}`, with `text` when given.
    static func codeableConcept(_ codings: [FHIRCoding], text: String? = nil, to json: inout JSONEmitter) {
        json.beginObject()
        if !codings.isEmpty {
            json.key("coding")
            json.beginArray()
            for c in codings {
                json.element()
                coding(c, to: &json)
            }
            json.endArray()
        }
        if let text {
            json.field("text", text)
        }
        json.endObject()
    }

    /// `{"reference":"Type/uuid"}`.
    static func reference(_ type: StaticString, _ id: ObjectUUID, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("reference")
        let out = json.out
        out.append(0x22)
        out.append(type)
        out.append(0x2F)
        let p = out.reserve(ObjectUUID.textLength)
        id.format(into: p)
        out.advance(by: ObjectUUID.textLength)
        out.append(0x22)
        json.raw("")
        json.endObject()
    }

    /// A `Quantity` in a table unit: the value (already converted) and the unit's text, system
    /// and code. The value is written by `value`.
    static func quantity(unit: FHIRUnitMapping, to json: inout JSONEmitter, value: (OutputBuffer) -> Void) {
        json.beginObject()
        json.key("value")
        value(json.out)
        json.raw("")
        unitMembers(unit, to: &json)
        json.endObject()
    }

    /// A `Quantity` healthport computed (a day's total, a night's time asleep): the value at
    /// FHIR's precision (`FHIRUnitConversion.append`), its unit's text, and the unit in UCUM.
    static func computedQuantity(_ value: Double, unit: String, ucum: String, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("value")
        FHIRUnitConversion.append(value, to: json.out)
        json.raw("")
        json.field("unit", unit)
        json.field("system", FHIRCoding.ucumSystem)
        json.field("code", ucum)
        json.endObject()
    }

    /// `"unit":…,"system":…,"code":…` of a table unit (system and code only when the table has
    /// them).
    static func unitMembers(_ unit: FHIRUnitMapping, to json: inout JSONEmitter) {
        json.field("unit", unit.unit)
        if let system = unit.system, let code = unit.code {
            json.field("system", system)
            json.field("code", code)
        }
    }

    /// A `Quantity` as the export printed it: its number, HealthKit's unit as `unit`, and UCUM's
    /// code when healthport knows it for certain (`FHIRUCUM`).
    static func exportedQuantity(_ quantity: Quantity, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("value", quantity.value)
        if !quantity.unit.isEmpty {
            json.field("unit", quantity.unit)
            if let code = FHIRUCUM.code(forHealthKitUnit: quantity.unit) {
                json.key("system")
                json.literal("http://unitsofmeasure.org")
                json.field("code", code)
            }
        }
        json.endObject()
    }

    /// A component: `{"code":{…},"valueX":…}`; the value is written by `value` after its key.
    static func component(
        _ codings: [FHIRCoding], text: String? = nil, valueKey: StaticString, to json: inout JSONEmitter,
        value: (inout JSONEmitter) -> Void
    ) {
        json.element()
        json.beginObject()
        json.key("code")
        codeableConcept(codings, text: text, to: &json)
        json.key(valueKey)
        value(&json)
        json.endObject()
    }

    /// HealthKitOnFHIR's extension URL for an object's metadata; each entry is a nested
    /// extension at this URL, `/`, and the key (percent-encoded where a URI needs it).
    static let metadataURL = "https://bdh.stanford.edu/fhir/defs/metadata"

    /// A metadata key as the last segment of its extension's URL: unreserved characters
    /// (RFC 3986) as they are, every other byte percent-encoded, so a key with spaces
    /// (`Health Mate App Version`) is still a valid `uri`.
    static func urlSegment(_ key: String) -> String {
        var text = ""
        for byte in key.utf8 {
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E:
                text.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                text += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]], as: UTF8.self)
            }
        }
        return text
    }

    /// `"category":[…]`, one CodeableConcept per coding; nothing for none (FHIR has no empty
    /// arrays).
    static func categories(_ categories: [FHIRCoding], to json: inout JSONEmitter) {
        guard !categories.isEmpty else { return }
        json.key("category")
        json.beginArray()
        for category in categories {
            json.element()
            codeableConcept([category], to: &json)
        }
        json.endArray()
    }

    /// `{"resourceType":"Observation","id":…,"status":"final"`, its categories, its code and its
    /// subject: how a day's and a night's Observation begin (a sample's begins the same way,
    /// from bytes made once per type: `FHIRObservationEncoder.begin`).
    static func beginObservation(
        id: ObjectUUID, categories: [FHIRCoding], codings: [FHIRCoding], subject: FHIRPatient, to json: inout JSONEmitter
    ) {
        json.beginObject()
        json.key("resourceType")
        json.literal("Observation")
        json.key("id")
        json.uuid(id)
        json.key("status")
        json.literal("final")
        Self.categories(categories, to: &json)
        json.key("code")
        codeableConcept(codings, to: &json)
        json.key("subject")
        subject.writeReference(to: &json)
    }
}
