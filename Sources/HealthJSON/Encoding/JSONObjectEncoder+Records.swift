import HealthModel

/// Records without samples' common shape: electrocardiograms, activity summaries, clinical
/// records, audiograms and vision prescriptions.
extension JSONObjectEncoder {
    /// An ECG with its voltages (microvolts as exported), as `healthport ecg` writes it.
    package static func write(_ ecg: Electrocardiogram, to json: inout JSONEmitter) {
        begin("electrocardiogram", uuid: ecg.uuid, to: &json)
        json.field("sampleType", Electrocardiogram.sampleType.identifier)
        json.field("file", ecg.file)
        json.field("startDate", ecg.recordedDate)
        json.field("endDate", ecg.endDate)
        json.field("classification", ecg.classification)
        json.field("classificationRawValue", ecg.classificationRawValue)
        json.field("symptoms", ecg.symptoms)
        json.field("softwareVersion", ecg.softwareVersion)
        json.field("device", ecg.device)
        if let rate = ecg.samplingFrequency {
            json.field("samplingFrequency", ExportNumber(rate))
        }
        json.field("lead", ecg.lead)
        json.field("unit", ecg.unit)
        json.field("numberOfVoltageMeasurements", ecg.voltages.count)
        json.key("voltages")
        json.beginArray()
        for voltage in ecg.voltages {
            json.element()
            json.number(ExportNumber(voltage))
        }
        json.endArray()
        json.endObject()
    }

    package static func write(_ a: ActivitySummary, to json: inout JSONEmitter) {
        begin("activitySummary", uuid: a.uuid, to: &json)
        json.field("dateComponents", a.dateComponents?.text)
        for measure in ActivitySummary.measures {
            let unit = measure.unit(in: a)
            for (name, value) in measure.valueAndGoal(in: a) {
                guard let value else { continue }
                json.key(string: name)
                json.quantity(Quantity(value: value, unit: unit))
            }
        }
        writeExtensions(a.extensions, to: &json)
        json.endObject()
    }

    /// A clinical record; `resource` is its FHIR resource as compact JSON (`CompactJSON`),
    /// embedded as `fhirResource.data` by `healthport clinical`.
    package static func write(_ c: ClinicalRecord, resource: [UInt8]? = nil, to json: inout JSONEmitter) {
        begin("clinicalRecord", uuid: c.uuid, to: &json)
        // HealthKit's clinical type; a resource HealthKit has none for (`Patient`) has no member.
        if c.clinicalType.isHealthKitClinicalType {
            json.field("clinicalType", c.clinicalType.identifier)
        }
        json.field("receivedDate", c.receivedDate)
        if let source = c.sourceName {
            json.key("sourceRevision")
            json.beginObject()
            json.key("source")
            json.beginObject()
            json.field("name", source)
            json.endObject()
            json.endObject()
        }
        json.key("fhirResource")
        json.beginObject()
        json.field("resourceType", c.fhirResourceType)
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

    package static func write(_ a: Audiogram, to json: inout JSONEmitter) {
        writeSampleObject("audiogram", a.sample, to: &json) { json in
            json.key("sensitivityPoints")
            json.beginArray()
            for p in a.sensitivityPoints {
                json.element()
                json.beginObject()
                json.field("frequency", p.frequency)
                json.field("leftEarSensitivity", p.leftEarSensitivity)
                json.field("rightEarSensitivity", p.rightEarSensitivity)
                json.field("leftEarMasked", p.leftEarMasked)
                json.field("rightEarMasked", p.rightEarMasked)
                for bound in SensitivityPoint.clampingBounds { json.field(named: bound.name, p[keyPath: bound.keyPath]) }
                writeExtensions(p.extensions, to: &json)
                json.endObject()
            }
            json.endArray()
        }
    }

    package static func write(_ v: VisionPrescription, to json: inout JSONEmitter) {
        begin("visionPrescription", uuid: v.uuid, to: &json)
        json.field("sampleType", v.sampleType.identifier)
        json.field("prescriptionType", v.prescriptionType)
        json.field("dateIssued", v.dateIssued)
        json.field("expirationDate", v.expirationDate)
        json.field("brand", v.brand)
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
        json.field("attachments", v.attachments) { $0.string($1) }
        writeMetadata(v.metadata, to: &json)
        writeExtensions(v.extensions, to: &json)
        json.endObject()
    }
}
