import HealthModel

/// Writes model values as JSON objects with HealthKit's property names; the schema is
/// documented in `healthport-formats(5)` and stable. Absent optional fields are omitted.
package enum JSONObjectEncoder {
    /// One NDJSON line: the object and a line break (the NDJSON writers' record).
    @inline(__always)
    package static func writeLine(_ object: HealthObject, to out: OutputBuffer, localTimes: LocalTimes? = nil) {
        var json = JSONEmitter(out, localTimes: localTimes)
        write(object, to: &json)
        out.append(0x0A)
    }

    /// The export's header as NDJSON's first line, `{"kind":"export",…}` with its line break:
    /// what `NDJSONWriter.begin` writes, and what the store keeps of each import (without the
    /// writers, which the store does not link).
    package static func writeHeaderLine(_ header: ExportHeader, to out: OutputBuffer, localTimes: LocalTimes? = nil) {
        var json = JSONEmitter(out, localTimes: localTimes)
        begin("export", to: &json)
        write(header: header, to: &json)
        json.endObject()
        out.append(0x0A)
    }

    package static func write(_ object: HealthObject, to json: inout JSONEmitter) {
        switch object {
        case .quantitySample(let q): write(q, to: &json)
        case .categorySample(let c): write(c, to: &json)
        case .correlation(let c):
            writeSampleObject("correlation", c.sample, to: &json) { json in
                json.key("objects")
                json.beginArray()
                for member in c.objects {
                    json.element()
                    switch member {
                    case .quantity(let q): write(q, to: &json)
                    case .category(let cat): write(cat, to: &json)
                    }
                }
                json.endArray()
            }
        case .workout(let w): write(w, to: &json)
        case .activitySummary(let a): write(a, to: &json)
        case .clinicalRecord(let c): write(c, to: &json)
        case .audiogram(let a): write(a, to: &json)
        case .visionPrescription(let v): write(v, to: &json)
        case .electrocardiogram(let e): write(e, to: &json)
        case .unknown(let u):
            begin("unknown", uuid: u.uuid, to: &json)
            json.key("element")
            write(u.element, to: &json)
            json.endObject()
        }
    }

    /// `{"kind":"…"`, and the uuid of an object that is not a sample (a sample's comes with its
    /// sample attributes, `writeSample`): how every object of healthport's JSON begins.
    @inline(__always)
    package static func begin(_ kind: StaticString, uuid: ObjectUUID? = nil, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal(kind)
        if let uuid {
            json.key("uuid")
            json.uuid(uuid)
        }
    }

    /// The first NDJSON line and the JSON document's header: what the export says about itself.
    package static func write(header: ExportHeader, to json: inout JSONEmitter) {
        json.field("formatVersion", HealthOutputFormat.version)
        json.field("locale", header.locale)
        json.field("exportDate", header.exportDate)
        json.field("exportVersion", header.exportVersion)
        // Apple's, the platform of every NDJSON before this field, goes unsaid.
        if header.platform != .appleHealth { json.field("platform", header.platform.rawValue) }
        // The zone the local times that follow are in, when the output gives them.
        json.field("timeZone", json.localTimes?.personZoneName ?? (json.localTimes == nil ? header.timeZone : nil))
        if let me = header.characteristics, !me.isEmpty {
            json.key("characteristics")
            json.beginObject()
            for field in Characteristics.fields {
                guard let value = me[keyPath: field.keyPath] else { continue }
                json.key(string: field.name)
                json.string(value)
            }
            for other in me.other {
                json.key(string: other.name)
                json.string(other.value)
            }
            json.endObject()
        }
        // A Health Connect export's priority list, which decides its totals (`HealthConnectRanking`):
        // kept, so that NDJSON read back totals as the export does.
        if let priority = header.healthConnectPriority, !priority.apps.isEmpty {
            json.key("healthConnectPriority")
            json.beginObject()
            for category in HealthConnectPriority.Category.allCases {
                guard let apps = priority.apps[category] else { continue }
                json.key(string: category.name)
                json.beginArray()
                for app in apps {
                    json.element()
                    json.string(app)
                }
                json.endArray()
            }
            json.endObject()
        }
    }
}
