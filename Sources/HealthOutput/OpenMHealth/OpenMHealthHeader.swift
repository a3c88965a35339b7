import HealthJSON
import HealthModel

/// An IEEE 1752.1 data point's header: what it is (`uuid`, `schema_id`), whose (`user_id`, the
/// FHIR Patient's id), when its source made it (`source_creation_date_time`), how it was
/// obtained (`modality`) and on what (`external_datasheets`).
///
/// The uuid is the object's own (`ObjectIdentity`), so a point written twice is the same point;
/// a day's or a night's, which no object has, is derived from what it sums
/// (`OpenMHealthSummaryEncoder`). The source's creation time is HealthKit's `creationDate` (when
/// the sample was saved); a sample exported without one gives its end, the earliest moment it
/// could have been saved. The modality is `self-reported` when the sample carries
/// `HKWasUserEntered` = 1 (typed into the Health app or an app that says so), `sensed`
/// otherwise. The datasheets name the source (the app or watch that saved the sample) and the
/// device's fields as the export prints them, after the gate: under `--deidentify` the names are
/// already pseudonyms and the versions gone, as in FHIR's Device resources.
struct OpenMHealthHeader {
    enum Modality: String {
        case sensed
        case selfReported = "self-reported"
    }

    let uuid: ObjectUUID
    let schema: OpenMHealthSchema
    let sourceCreation: ExportTimestamp
    let modality: Modality?
    /// The `external_datasheets` array as JSON bytes (`Datasheets`), or empty for none.
    let datasheets: [UInt8]

    init(uuid: ObjectUUID, schema: OpenMHealthSchema, sourceCreation: ExportTimestamp, modality: Modality?, datasheets: [UInt8] = []) {
        self.uuid = uuid
        self.schema = schema
        self.sourceCreation = sourceCreation
        self.modality = modality
        self.datasheets = datasheets
    }

    /// A sample's header, with its source's and device's datasheets already rendered.
    init(_ sample: SampleAttributes, schema: OpenMHealthSchema, datasheets: [UInt8]) {
        self.init(
            uuid: sample.uuid, schema: schema, sourceCreation: sample.creationDate ?? sample.endDate,
            modality: Self.isUserEntered(sample.metadata) ? .selfReported : .sensed, datasheets: datasheets)
    }

    /// The datasheets of a source and a device, rendered once per pair: samples come in long
    /// runs from one source on one device (as FHIR's `FHIRDeviceRegistry` finds), so the last
    /// pair's bytes are kept and a hit costs two comparisons and no allocation.
    final class Datasheets {
        private var lastSource: String? = nil
        private var lastToken: ObjectIdentifier? = nil
        /// Keeps the last device's storage alive, so its token cannot name another device.
        private var lastDevice: Device? = nil
        private var lastBytes: [UInt8] = []

        func bytes(source: String, device: Device?) -> [UInt8] {
            let token = device.map { $0.storageToken }
            if let lastSource, lastSource == source, token == lastToken { return lastBytes }
            var sheets: [(type: StaticString, reference: String)] = [("source", source)]
            if let device {
                if let name = device.name { sheets.append(("device", name)) }
                if let manufacturer = device.manufacturer { sheets.append(("manufacturer", manufacturer)) }
                if let model = device.model { sheets.append(("model", model)) }
                if let hardware = device.hardwareVersion { sheets.append(("hardware_version", hardware)) }
                if let software = device.softwareVersion { sheets.append(("software_version", software)) }
                if device.name == nil, device.model == nil, let text = device.unparsedDescription { sheets.append(("device", text)) }
            }
            let scratch = OutputBuffer(descriptor: -1, capacity: 512)
            var json = JSONEmitter(scratch)
            json.beginArray()
            for sheet in sheets {
                json.element()
                json.beginObject()
                json.key("datasheet_type")
                json.literal(sheet.type)
                json.key("datasheet_reference")
                json.string(sheet.reference)
                json.endObject()
            }
            json.endArray()
            lastSource = source
            lastToken = token
            lastDevice = device
            lastBytes = scratch.takeBytes()
            return lastBytes
        }
    }

    /// HealthKit's `HKMetadataKeyWasUserEntered`, exported as `HKWasUserEntered` = 1.
    static func isUserEntered(_ metadata: Metadata) -> Bool {
        switch metadata["HKWasUserEntered"] {
        case .number(let n)?: return n.value == 1
        case .string(let s)?: return s == "1" || s == "true"
        default: return false
        }
    }

    /// `{"header":{…},"body":{`: how every data point begins, a sample's
    /// (`OpenMHealthEncoder`) or a day's and a night's (`OpenMHealthSummaryEncoder`); the body's
    /// members follow.
    func beginPoint(userID: String, to out: OutputBuffer) -> JSONEmitter {
        var json = JSONEmitter(out)
        json.beginObject()
        write(to: &json, userID: userID)
        json.key("body")
        json.beginObject()
        return json
    }

    /// `"header":{…}`, with `user_id`, whose data point it is: the FHIR Patient's id
    /// (`FHIRPatient`), so a point and a Patient of the same person carry the same id.
    ///
    /// `user_id` is Open mHealth's header member for this ("The user this data point belongs
    /// to", `header-1.1` and `header-1.2`, which forbid no other member). The rest are IEEE
    /// 1752.1's members, whose header schema is not among the schemas `Scripts/check-omh.sh`
    /// reads (it checks the members itself); a platform whose header schema forbids other
    /// members drops `user_id`.
    func write(to json: inout JSONEmitter, userID: String) {
        json.key("header")
        json.beginObject()
        json.key("uuid")
        json.uuid(uuid)
        json.key("user_id")
        json.string(userID)
        json.key("schema_id")
        json.beginObject()
        json.key("namespace")
        json.string(schema.namespace)
        json.key("name")
        json.string(schema.name)
        json.key("version")
        json.string(schema.version)
        json.endObject()
        json.key("source_creation_date_time")
        json.date(sourceCreation)
        if let modality {
            json.key("modality")
            json.string(modality.rawValue)
        }
        if !datasheets.isEmpty {
            json.key("external_datasheets")
            json.rawValue(datasheets)
        }
        json.endObject()
    }
}
