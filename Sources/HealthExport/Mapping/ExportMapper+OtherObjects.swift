import Foundation
import HealthModel

/// The other top-level objects: activity summaries, clinical records, audiograms (their
/// sensitivity points) and vision prescriptions (their eyes).
extension ExportMapper {
    func startActivitySummary(_ attributes: AttributeView, _ parser: any ElementEventSource) -> ActivitySummary? {
        var object = ActivitySummary()
        for i in 0..<attributes.count {
            let name = String(decoding: attributes.name(i), as: UTF8.self)
            let value = attributes.value(i)
            switch name {
            case "dateComponents":
                guard let day = CalendarDate.parse(value) else {
                    fail(parser, .invalidAttribute, "invalid dateComponents \(Self.quoted(value)) on <ActivitySummary>")
                    return nil
                }
                object.dateComponents = day
            case "activeEnergyBurned": object.activeEnergyBurned = number(value, name, "ActivitySummary", parser)
            case "activeEnergyBurnedGoal": object.activeEnergyBurnedGoal = number(value, name, "ActivitySummary", parser)
            case "activeEnergyBurnedUnit": object.activeEnergyBurnedUnit = String(decoding: value, as: UTF8.self)
            case "appleMoveTime", "appleMoveMinutes": object.appleMoveTime = number(value, name, "ActivitySummary", parser)
            case "appleMoveTimeGoal", "appleMoveMinutesGoal":
                object.appleMoveTimeGoal = number(value, name, "ActivitySummary", parser)
            case "appleExerciseTime": object.appleExerciseTime = number(value, name, "ActivitySummary", parser)
            case "appleExerciseTimeGoal": object.appleExerciseTimeGoal = number(value, name, "ActivitySummary", parser)
            case "appleStandHours": object.appleStandHours = number(value, name, "ActivitySummary", parser)
            case "appleStandHoursGoal": object.appleStandHoursGoal = number(value, name, "ActivitySummary", parser)
            default: unknownAttribute("ActivitySummary", name, value, into: &object.extensions, parser)
            }
        }
        return object
    }

    func startClinicalRecord(_ attributes: AttributeView, _ parser: any ElementEventSource) -> ClinicalRecord {
        var fields: [String: String] = [:]
        var extensions = Extensions()
        var received: ExportTimestamp? = nil
        attributes.forEach { name, value in
            switch name {
            case "type", "identifier", "sourceName", "sourceURL", "fhirVersion", "resourceFilePath":
                fields[name] = String(decoding: value, as: UTF8.self)
            case "receivedDate": received = date(value, name, "ClinicalRecord", parser)
            default: unknownAttribute("ClinicalRecord", name, value, into: &extensions, parser)
            }
        }
        var object = ClinicalRecord(fhirResourceType: fields["type"] ?? "")
        object.identifier = fields["identifier"]
        object.sourceName = fields["sourceName"]
        object.sourceURL = fields["sourceURL"]
        object.fhirVersion = fields["fhirVersion"]
        object.resourceFilePath = fields["resourceFilePath"]
        object.receivedDate = received
        object.extensions = extensions
        return object
    }

    func startSensitivityPoint(_ attributes: AttributeView, _ parser: any ElementEventSource) -> SensitivityPoint {
        var quantities = QuantityAttributes()
        var object = SensitivityPoint()
        attributes.forEach { name, value in
            switch name {
            case "frequencyValue", "leftEarValue", "rightEarValue":
                quantities.value(number(value, name, "SensitivityPoint", parser), of: String(name.dropLast(5)))
            case "frequencyUnit", "leftEarUnit", "rightEarUnit":
                quantities.unit(value, of: String(name.dropLast(4)))
            case "leftEarMasked", "rightEarMasked":
                let text = String(decoding: value, as: UTF8.self)
                guard let flag = SensitivityPoint.maskedFlag(exported: text) else {
                    // Not a Boolean: kept as written, where unmodelled attributes go.
                    object.extensions.attributes.append(GenericAttribute(name: name, value: text))
                    warnings.warn(
                        "masked:\(name)", "\(name) on <SensitivityPoint> is neither 0 nor 1; kept as written in extensions",
                        at: self.location(parser))
                    return
                }
                if name == "leftEarMasked" { object.leftEarMasked = flag } else { object.rightEarMasked = flag }
            case "leftEarClampingRangeLowerBound": object.leftEarClampingRangeLowerBound = number(value, name, "SensitivityPoint", parser)
            case "leftEarClampingRangeUpperBound": object.leftEarClampingRangeUpperBound = number(value, name, "SensitivityPoint", parser)
            case "rightEarClampingRangeLowerBound": object.rightEarClampingRangeLowerBound = number(value, name, "SensitivityPoint", parser)
            case "rightEarClampingRangeUpperBound": object.rightEarClampingRangeUpperBound = number(value, name, "SensitivityPoint", parser)
            default: unknownAttribute("SensitivityPoint", name, value, into: &object.extensions, parser)
            }
        }
        object.frequency = quantities.quantity("frequency")
        object.leftEarSensitivity = quantities.quantity("leftEar")
        object.rightEarSensitivity = quantities.quantity("rightEar")
        return object
    }

    func startVisionPrescription(_ attributes: AttributeView, _ parser: any ElementEventSource) -> VisionPrescription {
        var object = VisionPrescription()
        attributes.forEach { name, value in
            switch name {
            case "type": object.prescriptionType = String(decoding: value, as: UTF8.self)
            case "dateIssued": object.dateIssued = date(value, name, "VisionPrescription", parser)
            case "expirationDate": object.expirationDate = value.count == 0 ? nil : date(value, name, "VisionPrescription", parser)
            case "brand": object.brand = String(decoding: value, as: UTF8.self)
            default: unknownAttribute("VisionPrescription", name, value, into: &object.extensions, parser)
            }
        }
        return object
    }

    func startEye(_ attributes: AttributeView, _ parser: any ElementEventSource) -> LensSpecification {
        var quantities = QuantityAttributes()
        var object = LensSpecification()
        let stems = Set(LensSpecification.fields.map(\.attribute))
        attributes.forEach { name, value in
            if stems.contains(name) {
                quantities.value(number(value, name, "Eye", parser), of: name)
            } else if name.hasSuffix("Unit"), stems.contains(String(name.dropLast(4))) {
                quantities.unit(value, of: String(name.dropLast(4)))
            } else {
                unknownAttribute("Eye", name, value, into: &object.extensions, parser)
            }
        }
        for field in LensSpecification.fields { object[keyPath: field.keyPath] = quantities.quantity(field.attribute) }
        return object
    }

    /// A clinical record gets its uuid (from its index entry, never from its clinical type), then
    /// an Observation its HealthKit type from its resource.
    func finishClinicalRecord(_ record: ClinicalRecord, _ parser: any ElementEventSource) {
        var object = HealthObject.clinicalRecord(record)
        assigner.assign(&object)
        if record.fhirResourceType == "Observation", case .clinicalRecord(var assigned) = object {
            if let clinicalTypes {
                if let type = clinicalTypes.clinicalType(of: assigned) {
                    assigned.clinicalType = type
                    object = .clinicalRecord(assigned)
                }
            } else {
                warnings.warn(
                    "observationWithoutResource",
                    "Observation clinical records are typed as lab results: their FHIR resources (which tell vital signs) are not in this input; read the whole export folder or zip",
                    at: location(parser))
            }
        }
        deliver(object, parser)
    }

    /// An Observation's index entry reads as a lab result; a filter that wants vital signs keeps
    /// it too, and the gate decides once its type is known.
    func wantsObservation(_ identifier: String, _ typeFilter: Set<String>) -> Bool {
        identifier == ObjectType.clinical(fhirResourceType: "Observation").identifier
            && typeFilter.contains(ObjectType.clinical(fhirResourceType: "Observation", categoryCodes: ["vital-signs"]).identifier)
    }
}

