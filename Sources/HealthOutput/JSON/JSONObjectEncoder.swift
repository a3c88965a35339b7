import HealthModel

/// Writes model values as JSON objects with HealthKit's property names; the schema is
/// documented in `healthport-formats(5)` and stable. Absent optional fields are omitted.
enum JSONObjectEncoder {
    /// One NDJSON line: the object and a line break (the NDJSON writers' record).
    @inline(__always)
    static func writeLine(_ object: HealthObject, to out: OutputBuffer) {
        var json = JSONEmitter(out)
        write(object, to: &json)
        out.append(0x0A)
    }

    static func write(_ object: HealthObject, to json: inout JSONEmitter) {
        switch object {
        case .quantitySample(let q): write(q, to: &json)
        case .categorySample(let c): write(c, to: &json)
        case .correlation(let c):
            json.beginObject()
            json.key("kind")
            json.literal("correlation")
            writeSample(c.sample, to: &json)
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
            writeTail(c.sample, to: &json)
            json.endObject()
        case .workout(let w): write(w, to: &json)
        case .activitySummary(let a): write(a, to: &json)
        case .clinicalRecord(let c): write(c, to: &json)
        case .audiogram(let a): write(a, to: &json)
        case .visionPrescription(let v): write(v, to: &json)
        case .electrocardiogram(let e): write(e, to: &json)
        case .unknown(let u):
            json.beginObject()
            json.key("kind")
            json.literal("unknown")
            json.key("uuid")
            json.uuid(u.uuid)
            json.key("element")
            write(u.element, to: &json)
            json.endObject()
        }
    }

    /// An ECG with its voltages (microvolts as exported), as `healthport ecg` writes it.
    static func write(_ ecg: Electrocardiogram, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("electrocardiogram")
        json.key("uuid")
        json.uuid(ecg.uuid)
        json.key("sampleType")
        json.string(Electrocardiogram.sampleType.identifier)
        json.key("file")
        json.string(ecg.file)
        if let date = ecg.recordedDate {
            json.key("startDate")
            json.date(date)
        }
        if let date = ecg.endDate {
            json.key("endDate")
            json.date(date)
        }
        json.field("classification", ecg.classification)
        if let raw = ecg.classificationRawValue {
            json.key("classificationRawValue")
            json.int(raw)
        }
        json.field("symptoms", ecg.symptoms)
        json.field("softwareVersion", ecg.softwareVersion)
        json.field("device", ecg.device)
        if let rate = ecg.samplingFrequency {
            json.key("samplingFrequency")
            json.number(ExportNumber(rate))
        }
        json.field("lead", ecg.lead)
        json.field("unit", ecg.unit)
        json.key("numberOfVoltageMeasurements")
        json.int(ecg.voltages.count)
        json.key("voltages")
        json.beginArray()
        for voltage in ecg.voltages {
            json.element()
            json.number(ExportNumber(voltage))
        }
        json.endArray()
        json.endObject()
    }

    static func write(_ q: QuantitySample, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("quantitySample")
        writeSample(q.sample, to: &json)
        json.key("quantity")
        json.quantity(q.quantity)
        json.key("count")
        json.int(q.count)
        if !q.instantaneousBeatsPerMinute.isEmpty {
            json.key("instantaneousBeatsPerMinute")
            json.beginArray()
            for beat in q.instantaneousBeatsPerMinute {
                json.element()
                json.beginObject()
                json.key("bpm")
                json.number(beat.bpm)
                json.key("time")
                json.string(beat.time)
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
            json.endArray()
        }
        writeTail(q.sample, to: &json)
        json.endObject()
    }

    static func write(_ c: CategorySample, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("categorySample")
        writeSample(c.sample, to: &json)
        if let raw = c.value.rawValue {
            json.key("value")
            json.int(raw)
        }
        if let name = c.value.name {
            json.key("valueName")
            json.string(name)
        }
        writeTail(c.sample, to: &json)
        json.endObject()
    }

    /// `uuid`, `sampleType`, `startDate`, `endDate`: the fields every sample starts with.
    static func writeSample(_ s: SampleAttributes, to json: inout JSONEmitter) {
        json.key("uuid")
        json.uuid(s.uuid)
        json.key("sampleType")
        json.string(s.sampleType.identifier)
        json.key("startDate")
        json.date(s.startDate)
        json.key("endDate")
        json.date(s.endDate)
    }

    /// Provenance, metadata and pass-through: the fields every sample ends with.
    static func writeTail(_ s: SampleAttributes, to json: inout JSONEmitter) {
        json.key("sourceRevision")
        json.beginObject()
        json.key("source")
        json.beginObject()
        json.key("name")
        json.string(s.sourceRevision.source.name)
        json.endObject()
        if let version = s.sourceRevision.version {
            json.key("version")
            json.string(version)
        }
        json.endObject()
        if let device = s.device {
            json.key("device")
            json.device(device)
        }
        if let creation = s.creationDate {
            json.key("creationDate")
            json.date(creation)
        }
        writeMetadata(s.metadata, to: &json)
        writeExtensions(s.extensions, to: &json)
    }

    static func write(_ d: Device, to json: inout JSONEmitter) {
        json.beginObject()
        json.field("name", d.name)
        json.field("manufacturer", d.manufacturer)
        json.field("model", d.model)
        json.field("hardwareVersion", d.hardwareVersion)
        json.field("firmwareVersion", d.firmwareVersion)
        json.field("softwareVersion", d.softwareVersion)
        json.field("localIdentifier", d.localIdentifier)
        json.field("udiDeviceIdentifier", d.udiDeviceIdentifier)
        json.field("creationDate", d.creationDate)
        json.field("description", d.unparsedDescription)
        json.endObject()
    }

    /// Metadata as an object; a key printed twice with different values maps to an array of
    /// its values (the export can do that, quirk Q8; JSON objects should not repeat keys).
    static func writeMetadata(_ m: Metadata, to json: inout JSONEmitter) {
        guard !m.isEmpty else { return }
        json.key("metadata")
        json.beginObject()
        let entries = m.entries
        var hasRepeats = false
        if entries.count > 1 {
            outer: for i in 1..<entries.count {
                for j in 0..<i where entries[j].key == entries[i].key {
                    hasRepeats = true
                    break outer
                }
            }
        }
        if !hasRepeats {
            for entry in entries {
                json.key(string: entry.key)
                write(entry.value, to: &json)
            }
        } else {
            var done = Set<String>()
            for entry in entries where !done.contains(entry.key) {
                done.insert(entry.key)
                let values = entries.filter { $0.key == entry.key }
                json.key(string: entry.key)
                if values.count == 1 {
                    write(entry.value, to: &json)
                } else {
                    json.beginArray()
                    for value in values {
                        json.element()
                        write(value.value, to: &json)
                    }
                    json.endArray()
                }
            }
        }
        json.endObject()
    }

    static func write(_ value: MetadataValue, to json: inout JSONEmitter) {
        switch value {
        case .string(let s): json.string(s)
        case .number(let n): json.number(n)
        case .date(let d): json.date(d)
        case .quantity(let q): json.quantity(q)
        }
    }

    static func writeExtensions(_ e: Extensions, to json: inout JSONEmitter) {
        guard !e.isEmpty else { return }
        json.key("extensions")
        json.beginObject()
        if !e.attributes.isEmpty {
            json.key("attributes")
            json.beginObject()
            for attribute in e.attributes {
                json.key(string: attribute.name)
                json.string(attribute.value)
            }
            json.endObject()
        }
        if !e.elements.isEmpty {
            json.key("elements")
            json.beginArray()
            for element in e.elements {
                json.element()
                write(element, to: &json)
            }
            json.endArray()
        }
        json.endObject()
    }

    static func write(_ element: GenericElement, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("name")
        json.string(element.name)
        if !element.attributes.isEmpty {
            json.key("attributes")
            json.beginObject()
            for attribute in element.attributes {
                json.key(string: attribute.name)
                json.string(attribute.value)
            }
            json.endObject()
        }
        if let text = element.text {
            json.key("text")
            json.string(text)
        }
        if !element.children.isEmpty {
            json.key("children")
            json.beginArray()
            for child in element.children {
                json.element()
                write(child, to: &json)
            }
            json.endArray()
        }
        json.endObject()
    }

    static func write(_ w: Workout, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("workout")
        writeSample(w.sample, to: &json)
        json.key("workoutActivityType")
        json.string(w.workoutActivityType.name)
        if let d = w.duration {
            json.key("duration")
            json.quantity(d)
        }
        if let d = w.totalDistance {
            json.key("totalDistance")
            json.quantity(d)
        }
        if let e = w.totalEnergyBurned {
            json.key("totalEnergyBurned")
            json.quantity(e)
        }
        if !w.workoutEvents.isEmpty {
            json.key("workoutEvents")
            writeEvents(w.workoutEvents, to: &json)
        }
        if !w.workoutActivities.isEmpty {
            json.key("workoutActivities")
            json.beginArray()
            for activity in w.workoutActivities {
                json.element()
                json.beginObject()
                json.key("uuid")
                json.string(activity.uuid)
                json.key("startDate")
                json.date(activity.startDate)
                if let end = activity.endDate {
                    json.key("endDate")
                    json.date(end)
                }
                if let d = activity.duration {
                    json.key("duration")
                    json.quantity(d)
                }
                if !activity.workoutEvents.isEmpty {
                    json.key("workoutEvents")
                    writeEvents(activity.workoutEvents, to: &json)
                }
                if !activity.statistics.isEmpty {
                    json.key("statistics")
                    writeStatistics(activity.statistics, to: &json)
                }
                writeMetadata(activity.metadata, to: &json)
                writeExtensions(activity.extensions, to: &json)
                json.endObject()
            }
            json.endArray()
        }
        if !w.statistics.isEmpty {
            json.key("statistics")
            writeStatistics(w.statistics, to: &json)
        }
        if !w.routes.isEmpty {
            json.key("routes")
            json.beginArray()
            for route in w.routes {
                json.element()
                json.beginObject()
                writeSample(route.sample, to: &json)
                if let file = route.fileReference {
                    json.key("fileReference")
                    json.string(file)
                }
                if !route.locations.isEmpty {
                    json.key("locations")
                    json.beginArray()
                    for location in route.locations {
                        json.element()
                        write(location, to: &json)
                    }
                    json.endArray()
                }
                writeTail(route.sample, to: &json)
                json.endObject()
            }
            json.endArray()
        }
        writeTail(w.sample, to: &json)
        json.endObject()
    }

    static func write(_ l: RouteLocation, to json: inout JSONEmitter) {
        json.beginObject()
        if let date = l.date {
            json.key("date")
            json.date(date)
        }
        json.field("latitude", l.latitude)
        json.field("longitude", l.longitude)
        json.field("altitude", l.altitude)
        json.field("horizontalAccuracy", l.horizontalAccuracy)
        json.field("verticalAccuracy", l.verticalAccuracy)
        json.field("course", l.course)
        json.field("speed", l.speed)
        json.endObject()
    }

    static func writeEvents(_ events: [WorkoutEvent], to json: inout JSONEmitter) {
        json.beginArray()
        for event in events {
            json.element()
            json.beginObject()
            json.key("type")
            json.string(event.type.name)
            json.key("date")
            json.date(event.date)
            if let d = event.duration {
                json.key("duration")
                json.quantity(d)
            }
            writeMetadata(event.metadata, to: &json)
            writeExtensions(event.extensions, to: &json)
            json.endObject()
        }
        json.endArray()
    }

    static func writeStatistics(_ statistics: [WorkoutStatistics], to json: inout JSONEmitter) {
        json.beginArray()
        for s in statistics {
            json.element()
            json.beginObject()
            json.key("quantityType")
            json.string(s.quantityType.identifier)
            json.key("startDate")
            json.date(s.startDate)
            json.key("endDate")
            json.date(s.endDate)
            json.field("sum", s.sum)
            json.field("average", s.average)
            json.field("minimum", s.minimum)
            json.field("maximum", s.maximum)
            if let unit = s.unit {
                json.key("unit")
                json.string(unit)
            }
            writeExtensions(s.extensions, to: &json)
            json.endObject()
        }
        json.endArray()
    }

    static func write(_ a: ActivitySummary, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("activitySummary")
        json.key("uuid")
        json.uuid(a.uuid)
        if let day = a.dateComponents {
            json.key("dateComponents")
            json.string(day.text)
        }
        func field(_ key: StaticString, _ value: ExportNumber?, _ unit: String) {
            if let value {
                json.key(key)
                json.quantity(Quantity(value: value, unit: unit))
            }
        }
        let energyUnit = a.activeEnergyBurnedUnit ?? "kcal"
        field("activeEnergyBurned", a.activeEnergyBurned, energyUnit)
        field("activeEnergyBurnedGoal", a.activeEnergyBurnedGoal, energyUnit)
        field("appleMoveTime", a.appleMoveTime, "min")
        field("appleMoveTimeGoal", a.appleMoveTimeGoal, "min")
        field("appleExerciseTime", a.appleExerciseTime, "min")
        field("appleExerciseTimeGoal", a.appleExerciseTimeGoal, "min")
        field("appleStandHours", a.appleStandHours, "count")
        field("appleStandHoursGoal", a.appleStandHoursGoal, "count")
        writeExtensions(a.extensions, to: &json)
        json.endObject()
    }

    /// A clinical record; `resource` is its FHIR resource as compact JSON (`CompactJSON`),
    /// embedded as `fhirResource.data` by `healthport clinical`.
    static func write(_ c: ClinicalRecord, resource: [UInt8]? = nil, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("clinicalRecord")
        json.key("uuid")
        json.uuid(c.uuid)
        json.key("clinicalType")
        json.string(c.clinicalType.identifier)
        if let received = c.receivedDate {
            json.key("receivedDate")
            json.date(received)
        }
        if let source = c.sourceName {
            json.key("sourceRevision")
            json.beginObject()
            json.key("source")
            json.beginObject()
            json.key("name")
            json.string(source)
            json.endObject()
            json.endObject()
        }
        json.key("fhirResource")
        json.beginObject()
        json.key("resourceType")
        json.string(c.fhirResourceType)
        json.field("identifier", c.identifier)
        json.field("sourceURL", c.sourceURL)
        json.field("fhirVersion", c.fhirVersion)
        json.field("resourceFilePath", c.resourceFilePath)
        if let resource {
            json.key("data")
            json.rawValue(resource)
        }
        json.endObject()
        writeExtensions(c.extensions, to: &json)
        json.endObject()
    }

    static func write(_ a: Audiogram, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("audiogram")
        writeSample(a.sample, to: &json)
        json.key("sensitivityPoints")
        json.beginArray()
        for p in a.sensitivityPoints {
            json.element()
            json.beginObject()
            json.field("frequency", p.frequency)
            json.field("leftEarSensitivity", p.leftEarSensitivity)
            json.field("rightEarSensitivity", p.rightEarSensitivity)
            if let masked = p.leftEarMasked {
                json.key("leftEarMasked")
                json.string(masked)
            }
            if let masked = p.rightEarMasked {
                json.key("rightEarMasked")
                json.string(masked)
            }
            json.field("leftEarClampingRangeLowerBound", p.leftEarClampingRangeLowerBound)
            json.field("leftEarClampingRangeUpperBound", p.leftEarClampingRangeUpperBound)
            json.field("rightEarClampingRangeLowerBound", p.rightEarClampingRangeLowerBound)
            json.field("rightEarClampingRangeUpperBound", p.rightEarClampingRangeUpperBound)
            writeExtensions(p.extensions, to: &json)
            json.endObject()
        }
        json.endArray()
        writeTail(a.sample, to: &json)
        json.endObject()
    }

    static func write(_ v: VisionPrescription, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("kind")
        json.literal("visionPrescription")
        json.key("uuid")
        json.uuid(v.uuid)
        json.key("sampleType")
        json.string(v.sampleType.identifier)
        if let type = v.prescriptionType {
            json.key("prescriptionType")
            json.string(type)
        }
        if let d = v.dateIssued {
            json.key("dateIssued")
            json.date(d)
        }
        if let d = v.expirationDate {
            json.key("expirationDate")
            json.date(d)
        }
        if let brand = v.brand {
            json.key("brand")
            json.string(brand)
        }
        for (key, eye) in [("rightEye", v.rightEye), ("leftEye", v.leftEye)] {
            guard let eye else { continue }
            json.key(string: key)
            json.beginObject()
            for field in LensSpecification.fields {
                if let value = eye[attribute: field.attribute] {
                    json.key(string: field.property)
                    json.quantity(value)
                }
            }
            writeExtensions(eye.extensions, to: &json)
            json.endObject()
        }
        if !v.attachments.isEmpty {
            json.key("attachments")
            json.beginArray()
            for attachment in v.attachments {
                json.element()
                json.string(attachment)
            }
            json.endArray()
        }
        writeMetadata(v.metadata, to: &json)
        writeExtensions(v.extensions, to: &json)
        json.endObject()
    }

    /// The first NDJSON line and the JSON document's header: what the export says about itself.
    static func write(header: ExportHeader, to json: inout JSONEmitter) {
        json.key("formatVersion")
        json.int(HealthOutputFormat.version)
        if let locale = header.locale {
            json.key("locale")
            json.string(locale)
        }
        if let date = header.exportDate {
            json.key("exportDate")
            json.date(date)
        }
        if let version = header.exportVersion {
            json.key("exportVersion")
            json.int(version)
        }
        if let me = header.characteristics, !me.isEmpty {
            json.key("characteristics")
            json.beginObject()
            json.field("dateOfBirth", me.dateOfBirth)
            json.field("biologicalSex", me.biologicalSex)
            json.field("bloodType", me.bloodType)
            json.field("fitzpatrickSkinType", me.fitzpatrickSkinType)
            json.field("cardioFitnessMedicationsUse", me.cardioFitnessMedicationsUse)
            for other in me.other {
                json.key(string: other.name)
                json.string(other.value)
            }
            json.endObject()
        }
    }
}

/// Facts about healthport's output formats.
public enum HealthOutputFormat {
    /// The version of the JSON, NDJSON and CSV schemas. Bumped on any incompatible change.
    public static let version = 1
}

/// Parts of healthport's JSON for callers that keep them apart (the store keeps each distinct
/// device once).
public enum ModelJSON {
    /// A device object, as the object writers embed it.
    public static func encode(_ device: Device) -> [UInt8] {
        let buffer = OutputBuffer(descriptor: -1, capacity: 512)
        var json = JSONEmitter(buffer)
        JSONObjectEncoder.write(device, to: &json)
        return buffer.takeBytes()
    }
}
