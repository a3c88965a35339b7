import HealthModel

/// Samples: quantity and category samples, the attributes every sample shares (source, device,
/// metadata), and elements passed through.
extension JSONObjectEncoder {
    package static func write(_ q: QuantitySample, to json: inout JSONEmitter) {
        writeSampleObject("quantitySample", q.sample, to: &json) { json in
            json.key("quantity")
            json.quantity(q.quantity)
            json.field("count", q.count)
            json.field("instantaneousBeatsPerMinute", q.instantaneousBeatsPerMinute) { json, beat in
                json.beginObject()
                json.field("bpm", beat.bpm)
                json.field("time", beat.time)
                if let date = beat.date {
                    json.key("date")
                    if let hundredths = beat.hundredths {
                        json.date(date, hundredths: hundredths)
                    } else {
                        json.date(date)
                    }
                }
                json.endObject()
            }
        }
    }

    package static func write(_ c: CategorySample, to json: inout JSONEmitter) {
        writeSampleObject("categorySample", c.sample, to: &json) { json in
            json.field("value", c.value.rawValue)
            json.field("valueName", c.value.name)
        }
    }

    /// A sample's object: its kind, the fields every sample starts with (`writeSample`), the
    /// kind's own fields (`fields`), then the fields every sample ends with (`writeTail`).
    @inline(__always)
    package static func writeSampleObject(
        _ kind: StaticString, _ s: SampleAttributes, to json: inout JSONEmitter, _ fields: (inout JSONEmitter) -> Void
    ) {
        begin(kind, to: &json)
        writeSample(s, to: &json)
        fields(&json)
        writeTail(s, to: &json)
        json.endObject()
    }

    /// `uuid`, `sampleType`, `startDate`, `endDate`: the fields every sample starts with; and,
    /// in an output that gives them (`JSONEmitter.localTimes`), the wall-clock start and end in
    /// the zone the sample happened in, with that zone's name (`LocalTimes`).
    package static func writeSample(_ s: SampleAttributes, to json: inout JSONEmitter) {
        json.key("uuid")
        json.uuid(s.uuid)
        json.field("sampleType", s.sampleType.identifier)
        json.field("startDate", s.startDate)
        json.field("endDate", s.endDate)
        if let local = json.localTimes?.times(of: s) {
            json.key("localStartDate")
            json.localDate(local.start)
            json.key("localEndDate")
            json.localDate(local.end)
            json.field("timeZone", local.zone)
        }
    }

    /// Provenance, metadata and pass-through: the fields every sample ends with.
    package static func writeTail(_ s: SampleAttributes, to json: inout JSONEmitter) {
        json.key("sourceRevision")
        json.beginObject()
        json.key("source")
        json.beginObject()
        json.field("name", s.sourceRevision.source.name)
        // A Health Connect app's package name (Apple's exports have none): what its export's
        // priority list names the app by, so NDJSON read back totals as the export does.
        json.field("bundleIdentifier", s.sourceRevision.source.bundleIdentifier)
        json.endObject()
        json.field("version", s.sourceRevision.version)
        json.endObject()
        if let device = s.device {
            json.key("device")
            json.device(device)
        }
        json.field("creationDate", s.creationDate)
        writeMetadata(s.metadata, to: &json)
        writeExtensions(s.extensions, to: &json)
    }

    package static func write(_ d: Device, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("name", d.name)
        json.field("manufacturer", d.manufacturer)
        json.field("model", d.model)
        json.field("hardwareVersion", d.hardwareVersion)
        json.field("firmwareVersion", d.firmwareVersion)
        json.field("softwareVersion", d.softwareVersion)
        json.field("localIdentifier", d.localIdentifier)
        json.field("udiDeviceIdentifier", d.udiDeviceIdentifier)
        // Written as every other date (ISO 8601) when it is Apple's own form, which reads back
        // exactly; anything else as printed.
        if let text = d.creationDate, let date = ExportTimestamp.parse(text), date.exportText == text {
            json.field("creationDate", date)
        } else {
            json.field("creationDate", d.creationDate)
        }
        json.field("description", d.unparsedDescription)
        json.endObject()
    }

    /// Metadata as an object; a key printed twice with different values maps to an array of
    /// its values (the export can do that, quirk Q8; JSON objects should not repeat keys).
    /// The `"metadata":{…}` member of an object; nothing when there is no metadata.
    package static func writeMetadata(_ m: Metadata, to json: inout JSONEmitter) {
        json.object("metadata", omittedIf: m.isEmpty) { writeMetadataObject(m, to: &$0) }
    }

    /// The metadata as a JSON object on its own (a CSV cell).
    package static func writeMetadataObject(_ m: Metadata, to json: inout JSONEmitter) {
        json.beginObject()
        let entries = m.entries
        if !hasRepeatedKeys(entries) {
            for entry in entries {
                json.key(string: entry.key)
                write(entry.value, to: &json)
            }
        } else {
            // Each key once, where it first appears, with all its values in order: the entries
            // of each key, found in one pass (filtering the list for each key was quadratic).
            var valuesByKey: [String: [Int]] = [:]
            for (index, entry) in entries.enumerated() { valuesByKey[entry.key, default: []].append(index) }
            for (index, entry) in entries.enumerated() {
                guard let values = valuesByKey[entry.key], values[0] == index else { continue }
                json.key(string: entry.key)
                if values.count == 1 {
                    write(entry.value, to: &json)
                } else {
                    json.beginArray()
                    for value in values {
                        json.element()
                        write(entries[value].value, to: &json)
                    }
                    json.endArray()
                }
            }
        }
        json.endObject()
    }

    /// Whether a key appears twice: a scan for the usual few entries, allocation-free; a set
    /// past 16 (100,000 distinct keys took 21 s scanned).
    package static func hasRepeatedKeys(_ entries: [MetadataEntry]) -> Bool {
        guard entries.count > 1 else { return false }
        if entries.count <= 16 {
            for i in 1..<entries.count {
                for j in 0..<i where entries[j].key == entries[i].key { return true }
            }
            return false
        }
        var keys = Set<String>(minimumCapacity: entries.count)
        for entry in entries where !keys.insert(entry.key).inserted { return true }
        return false
    }

    package static func write(_ value: MetadataValue, to json: inout JSONEmitter) {
        switch value {
        case .string(let s): json.string(s)
        case .number(let n): json.number(n)
        case .date(let d): json.date(d)
        case .quantity(let q): json.quantity(q)
        }
    }

    /// The `"extensions":{…}` member of an object; nothing when there is none.
    package static func writeExtensions(_ e: Extensions, to json: inout JSONEmitter) {
        json.object("extensions", omittedIf: e.isEmpty) { writeExtensionsObject(e, to: &$0) }
    }

    /// The extensions as a JSON object on its own (a CSV cell).
    package static func writeExtensionsObject(_ e: Extensions, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("attributes", e.attributes)
        json.field("elements", e.elements) { write($1, to: &$0) }
        json.endObject()
    }

    package static func write(_ element: GenericElement, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("name", element.name)
        json.field("attributes", element.attributes)
        json.field("text", element.text)
        json.field("children", element.children) { write($1, to: &$0) }
        json.endObject()
    }
}
