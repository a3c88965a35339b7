import HealthJSON
import HealthModel
import HealthTables

/// The tables' schema, written once: for each table (`OutputTable`), its columns in order, with
/// each column's name and value. CSV writes these rows as fields (and takes its header row
/// from the names); a columnar writer implements `TableRowBuilder` to get the same columns
/// typed. Columns follow HealthKit's property names; nested properties are joined with `_`
/// (`quantity_value`, `sourceRevision_source_name`); `metadata` and `extensions` hold JSON
/// objects as text, so the column set never depends on the data (`healthport-formats(5)`).
///
/// Generic over the builder, and specialized for each within this module: the per-row cost is
/// the cells', nothing more.
enum TableRows {
    // MARK: Shared column groups

    @inline(__always)
    static func sampleHead<B: TableRowBuilder>(_ s: SampleAttributes, local: LocalColumns = .absent, into row: inout B) {
        row.uuid("uuid", s.uuid)
        row.string("sampleType", s.sampleType.identifier)
        row.date("startDate", s.startDate)
        row.date("endDate", s.endDate)
        if case .present(let times) = local {
            row.localDate("localStartDate", times?.start)
            row.localDate("localEndDate", times?.end)
            row.string("timeZone", times?.zone)
        }
    }

    @inline(__always)
    static func provenance<B: TableRowBuilder>(_ s: SampleAttributes, into row: inout B) {
        row.string("sourceRevision_source_name", s.sourceRevision.source.name)
        row.string("sourceRevision_version", s.sourceRevision.version)
        let d = s.device
        row.string("device_name", d?.name)
        row.string("device_manufacturer", d?.manufacturer)
        row.string("device_model", d?.model)
        row.string("device_hardwareVersion", d?.hardwareVersion)
        row.string("device_firmwareVersion", d?.firmwareVersion)
        row.string("device_softwareVersion", d?.softwareVersion)
        row.string("device_localIdentifier", d?.localIdentifier)
        row.string("device_udiDeviceIdentifier", d?.udiDeviceIdentifier)
        row.string("device_creationDate", d?.creationDate)
        row.string("device_description", d?.unparsedDescription)
        row.date("creationDate", s.creationDate)
    }

    @inline(__always)
    static func metadata<B: TableRowBuilder>(_ m: Metadata, into row: inout B) {
        row.json("metadata", m.isEmpty ? nil : { JSONObjectEncoder.writeMetadataObject(m, to: &$0) })
    }

    @inline(__always)
    static func extensions<B: TableRowBuilder>(_ e: Extensions, into row: inout B) {
        row.json("extensions", e.isEmpty ? nil : { JSONObjectEncoder.writeExtensionsObject(e, to: &$0) })
    }

    @inline(__always)
    static func tail<B: TableRowBuilder>(_ s: SampleAttributes, into row: inout B) {
        metadata(s.metadata, into: &row)
        extensions(s.extensions, into: &row)
    }

    // MARK: Samples

    static func quantitySample<B: TableRowBuilder>(_ q: QuantitySample, local: LocalColumns = .absent, into row: inout B) {
        sampleHead(q.sample, local: local, into: &row)
        row.number("quantity_value", q.quantity.value)
        row.string("quantity_unit", q.quantity.unit)
        row.int("count", q.count)
        provenance(q.sample, into: &row)
        tail(q.sample, into: &row)
    }

    static func beat<B: TableRowBuilder>(_ beat: InstantaneousBeatsPerMinute, of sample: ObjectUUID, into row: inout B) {
        row.uuid("sample_uuid", sample)
        row.number("bpm", beat.bpm)
        row.string("time", beat.time)
        row.date("date", beat.date, hundredths: beat.hundredths)
    }

    static func categorySample<B: TableRowBuilder>(_ c: CategorySample, local: LocalColumns = .absent, into row: inout B) {
        sampleHead(c.sample, local: local, into: &row)
        row.int("value", c.value.rawValue)
        row.string("valueName", c.value.name)
        provenance(c.sample, into: &row)
        tail(c.sample, into: &row)
    }

    static func correlation<B: TableRowBuilder>(_ c: Correlation, local: LocalColumns = .absent, into row: inout B) {
        sampleHead(c.sample, local: local, into: &row)
        row.string("objects", c.objects.map(\.sample.uuid.uuidString).joined(separator: " "))
        provenance(c.sample, into: &row)
        tail(c.sample, into: &row)
    }

    // MARK: Other objects

    static func activitySummary<B: TableRowBuilder>(_ a: ActivitySummary, into row: inout B) {
        row.uuid("uuid", a.uuid)
        row.string("dateComponents", a.dateComponents?.text)
        for measure in ActivitySummary.measures {
            for (name, value) in measure.valueAndGoal(in: a) { row.number(name + "_value", value) }
            if measure.unitIsExported { row.string(measure.name + "_unit", a.activeEnergyBurnedUnit) }
        }
        extensions(a.extensions, into: &row)
    }

    static func clinicalRecord<B: TableRowBuilder>(_ c: ClinicalRecord, into row: inout B) {
        row.uuid("uuid", c.uuid)
        row.string("clinicalType", c.clinicalType.isHealthKitClinicalType ? c.clinicalType.identifier : nil)
        row.date("receivedDate", c.receivedDate)
        row.string("sourceRevision_source_name", c.sourceName)
        row.string("fhirResource_resourceType", c.fhirResourceType)
        row.string("fhirResource_identifier", c.identifier)
        row.string("fhirResource_sourceURL", c.sourceURL)
        row.string("fhirResource_fhirVersion", c.fhirVersion)
        row.string("fhirResource_resourceFilePath", c.resourceFilePath)
        extensions(c.extensions, into: &row)
    }

    static func audiogram<B: TableRowBuilder>(_ a: Audiogram, into row: inout B) {
        sampleHead(a.sample, into: &row)
        provenance(a.sample, into: &row)
        tail(a.sample, into: &row)
    }

    static func sensitivityPoint<B: TableRowBuilder>(_ p: SensitivityPoint, of audiogram: ObjectUUID, into row: inout B) {
        row.uuid("audiogram_uuid", audiogram)
        row.number("frequency_value", p.frequency?.value)
        row.string("frequency_unit", p.frequency?.unit)
        row.number("leftEarSensitivity_value", p.leftEarSensitivity?.value)
        row.string("leftEarSensitivity_unit", p.leftEarSensitivity?.unit)
        row.number("rightEarSensitivity_value", p.rightEarSensitivity?.value)
        row.string("rightEarSensitivity_unit", p.rightEarSensitivity?.unit)
        row.bool("leftEarMasked", p.leftEarMasked)
        row.bool("rightEarMasked", p.rightEarMasked)
        for bound in SensitivityPoint.clampingBounds { row.number(bound.name, p[keyPath: bound.keyPath]) }
        extensions(p.extensions, into: &row)
    }

    static func visionPrescription<B: TableRowBuilder>(_ v: VisionPrescription, into row: inout B) {
        row.uuid("uuid", v.uuid)
        row.string("sampleType", v.sampleType.identifier)
        row.string("prescriptionType", v.prescriptionType)
        row.date("dateIssued", v.dateIssued)
        row.date("expirationDate", v.expirationDate)
        row.string("brand", v.brand)
        for (name, eye) in [("rightEye", v.rightEye), ("leftEye", v.leftEye)] {
            for field in LensSpecification.fields {
                let value = eye?[attribute: field.attribute]
                row.number("\(name)_\(field.property)_value", value?.value)
                row.string("\(name)_\(field.property)_unit", value?.unit)
            }
        }
        row.string("attachments", v.attachments.isEmpty ? nil : v.attachments.joined(separator: " "))
        metadata(v.metadata, into: &row)
        extensions(v.extensions, into: &row)
        // A lens's own unknown attributes, after the prescription's (the columns of one eye
        // stay together above, as the export prints them).
        for (name, eye) in [("rightEye", v.rightEye), ("leftEye", v.leftEye)] {
            let lens = eye?.extensions ?? .none
            row.json("\(name)_extensions", lens.isEmpty ? nil : { JSONObjectEncoder.writeExtensionsObject(lens, to: &$0) })
        }
    }

    static func unknownElement<B: TableRowBuilder>(_ u: UnknownObject, into row: inout B) {
        row.uuid("uuid", u.uuid)
        row.json("element") { JSONObjectEncoder.write(u.element, to: &$0) }
    }

    // MARK: Changes and the export

    static func deletedObject<B: TableRowBuilder>(_ uuid: ObjectUUID, type: String, into row: inout B) {
        row.uuid("uuid", uuid)
        row.string("sampleType", type)
    }

    static func export<B: TableRowBuilder>(_ header: ExportHeader, into row: inout B) {
        row.int("formatVersion", HealthOutputFormat.version)
        row.string("locale", header.locale)
        row.date("exportDate", header.exportDate)
        row.int("exportVersion", header.exportVersion)
        row.string("timeZone", header.timeZone)
        let me = header.characteristics
        for field in Characteristics.fields { row.string(field.name, me?[keyPath: field.keyPath]) }
        let other = me?.other ?? []
        row.json("otherCharacteristics", other.isEmpty ? nil : { json in
            json.beginObject()
            for attribute in other {
                json.key(string: attribute.name)
                json.string(attribute.value)
            }
            json.endObject()
        })
    }
}

/// The local-time columns of a sample's row (`localStartDate`, `localEndDate`, `timeZone`):
/// absent from an output that gives no local times (a de-identified one, whose zone would
/// locate the person), present in every other, empty where the sample's zone is unknown.
enum LocalColumns {
    case absent
    case present(LocalTimes.Times?)
}
