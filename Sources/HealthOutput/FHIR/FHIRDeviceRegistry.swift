import HealthJSON
import HealthModel

/// The Device resources a FHIR run writes: one per hardware device (`HKDevice`) and one per
/// source revision on it (the app or watch that saved the samples, `HKSourceRevision`), each
/// written once, when the first Observation that refers to it is written.
///
/// An Observation's `device` names the source's Device, whose `parent` is the hardware's: FHIR
/// gives an Observation one device, and HealthKit gives a sample two things (who saved it, on
/// what). Because Devices are written only for Observations that were written, a type the
/// policy denies leaves no Device of its own behind.
///
/// Samples come in long runs from one source on one device, so the last pair is remembered and
/// a hit costs two comparisons; distinct pairs are few (tens), kept in a dictionary.
final class FHIRDeviceRegistry {
    private struct Key: Hashable {
        var source: String
        var version: String?
        var device: Device?
    }

    /// Device lines not yet taken by the writer (NDJSON, one resource a line).
    let pending = OutputBuffer(descriptor: -1, capacity: 4096)
    private var ids: [Key: ObjectUUID] = [:]
    private var writtenHardware: Set<ObjectUUID> = []
    private var last: (source: String, version: String?, token: ObjectIdentifier?, id: ObjectUUID)? = nil
    /// Keeps the last device's storage alive, so its token cannot name another device.
    private var lastDevice: Device? = nil

    /// The id of the source Device for a sample saved by `revision` on `device`, writing the
    /// Device resources on first use.
    func sourceID(_ revision: SourceRevision, device: Device?) -> ObjectUUID {
        let token = device.map { $0.storageToken }
        if let last, last.token == token, last.source == revision.source.name, last.version == revision.version {
            return last.id
        }
        let key = Key(source: revision.source.name, version: revision.version, device: device)
        let id: ObjectUUID
        if let known = ids[key] {
            id = known
        } else {
            let hardware = device.map(hardwareID)
            if let device, let hardware, writtenHardware.insert(hardware).inserted { writeHardware(device, id: hardware) }
            id = FHIRResourceID.derive("Source", [revision.source.name, revision.version, hardware?.uuidString])
            writeSource(revision, id: id, parent: hardware)
            ids[key] = id
        }
        last = (revision.source.name, revision.version, token, id)
        lastDevice = device
        return id
    }

    /// A hardware device's id: from every field the export printed, so a device whose software
    /// was updated is a second Device (a Device has one set of versions).
    private func hardwareID(_ device: Device) -> ObjectUUID {
        FHIRResourceID.derive(
            "Device",
            [
                device.name, device.manufacturer, device.model, device.hardwareVersion, device.firmwareVersion,
                device.softwareVersion, device.localIdentifier, device.udiDeviceIdentifier, device.creationDate,
                device.unparsedDescription,
            ])
    }

    /// A Device resource's first members, its type and id; the caller writes the rest.
    private func beginDevice(_ id: ObjectUUID) -> JSONEmitter {
        var json = JSONEmitter(pending)
        json.beginObject()
        json.key("resourceType")
        json.literal("Device")
        json.key("id")
        json.uuid(id)
        return json
    }

    private func writeHardware(_ device: Device, id: ObjectUUID) {
        var json = beginDevice(id)
        if let udi = device.udiDeviceIdentifier {
            json.key("udiCarrier")
            json.beginArray()
            json.element()
            json.beginObject()
            json.key("deviceIdentifier")
            json.string(udi)
            json.endObject()
            json.endArray()
        }
        json.field("manufacturer", device.manufacturer)
        // FHIR has no empty strings: a device printed with an empty name has no deviceName.
        if let name = device.name ?? device.unparsedDescription, !name.isEmpty {
            json.key("deviceName")
            json.beginArray()
            json.element()
            json.beginObject()
            json.key("name")
            json.string(name)
            json.key("type")
            json.literal(device.name != nil ? "user-friendly-name" : "other")
            json.endObject()
            json.endArray()
        }
        json.field("modelNumber", device.model)
        json.key("type")
        FHIRJSON.codeableConcept([.healthKit("HKDevice", display: "Device")], to: &json)
        let versions: [(StaticString, String?)] = [
            ("hardware", device.hardwareVersion), ("firmware", device.firmwareVersion), ("software", device.softwareVersion),
        ]
        if versions.contains(where: { $0.1 != nil }) {
            json.key("version")
            json.beginArray()
            for (kind, value) in versions {
                guard let value else { continue }
                json.element()
                json.beginObject()
                json.key("type")
                json.beginObject()
                json.key("text")
                json.literal(kind)
                json.endObject()
                json.key("value")
                json.string(value)
                json.endObject()
            }
            json.endArray()
        }
        if let local = device.localIdentifier {
            json.key("identifier")
            json.beginArray()
            json.element()
            json.beginObject()
            json.key("value")
            json.string(local)
            json.endObject()
            json.endArray()
        }
        json.endObject()
        pending.append(0x0A)
    }

    private func writeSource(_ revision: SourceRevision, id: ObjectUUID, parent: ObjectUUID?) {
        var json = beginDevice(id)
        // FHIR has no empty strings: a source exported with an empty name has no deviceName.
        if !revision.source.name.isEmpty {
            json.key("deviceName")
            json.beginArray()
            json.element()
            json.beginObject()
            json.key("name")
            json.string(revision.source.name)
            json.key("type")
            json.literal("user-friendly-name")
            json.endObject()
            json.endArray()
        }
        json.key("type")
        FHIRJSON.codeableConcept([.healthKit("HKSource", display: "Source")], to: &json)
        if let version = revision.version, !version.isEmpty {
            json.key("version")
            json.beginArray()
            json.element()
            json.beginObject()
            json.key("value")
            json.string(version)
            json.endObject()
            json.endArray()
        }
        if let parent {
            json.key("parent")
            FHIRJSON.reference("Device", parent, to: &json)
        }
        json.endObject()
        pending.append(0x0A)
    }
}
