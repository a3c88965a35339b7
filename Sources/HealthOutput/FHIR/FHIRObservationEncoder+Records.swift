import HealthJSON
import HealthModel

/// Correlations, workouts and the objects HealthKitOnFHIR does not map (activity summaries,
/// audiograms, vision prescriptions, unknown elements), each one Observation.
///
/// Where healthport writes a part of an object HealthKitOnFHIR has no code for (a workout's
/// duration, an activity ring, an audiogram's points), the component is coded in the same
/// HealthKit code system with the class and property name, as HealthKitOnFHIR codes the ECG's
/// (`HKElectrocardiogram.SamplingFrequency`): `HKWorkout.duration`, `HKActivitySummary.appleStandHours`.
extension FHIRObservationEncoder {
    /// A correlation (blood pressure, food) as one Observation whose components are its members,
    /// each coded as its own type is (HealthKitOnFHIR). The members also appear on their own:
    /// the export prints them at top level too, with the same uuids.
    func write(_ c: Correlation, to out: OutputBuffer) {
        let plan = begin(c.sample, to: out)
        var json = JSONEmitter(continuing: out)
        if !c.objects.isEmpty {
            json.key("component")
            json.beginArray()
            for member in c.objects {
                switch member {
                case .quantity(let q):
                    let memberPlan = self.plan(q.sample.sampleType)
                    FHIRJSON.component(memberPlan.codings, valueKey: "valueQuantity", to: &json) { json in
                        writeQuantity(q.quantity, plan: memberPlan, to: json.out)
                        json.raw("")
                    }
                case .category(let category):
                    let memberPlan = self.plan(category.sample.sampleType)
                    json.element()
                    json.beginObject()
                    json.key("code")
                    FHIRJSON.codeableConcept(memberPlan.codings, to: &json)
                    writeCategoryValue(category, plan: memberPlan, key: true, to: &json)
                    json.endObject()
                }
            }
            json.endArray()
        }
        end("correlation", metadata: c.sample.metadata, plan: plan, to: out)
    }

    /// A workout as HealthKitOnFHIR writes it (LOINC 73985-4 "Exercise activity", the physical
    /// activity categories, the activity type as the value), with its duration and totals as
    /// components. Events, activities, statistics and routes are not written.
    func write(_ w: Workout, to out: OutputBuffer) {
        let plan = begin(w.sample, to: out)
        var json = JSONEmitter(continuing: out)
        json.key("valueCodeableConcept")
        let name = w.workoutActivityType.name
        let code = mapping.workoutActivityValues[name] ?? Self.lowerCamel(name, droppingPrefix: "HKWorkoutActivityType")
        FHIRJSON.codeableConcept([.healthKit(code)], to: &json)
        let totals: [(String, String, String, Quantity?)] = [
            ("HKWorkout.duration", "min", "min", w.duration),
            ("HKWorkout.totalDistance", "m", "m", w.effectiveTotalDistance),
            ("HKWorkout.totalEnergyBurned", "kcal", "kcal", w.effectiveTotalEnergyBurned),
        ]
        writeComponents(
            totals.compactMap { code, unit, ucum, quantity in
                quantity.map { (FHIRCoding.healthKit(code), FHIRUnitMapping(healthKitUnit: unit, unit: unit, system: FHIRCoding.ucumSystem, code: ucum), $0) }
            }, to: &json)
        end("workout", metadata: w.sample.metadata, plan: plan, to: out)
    }

    /// Components of quantities converted to a unit of healthport's choosing (written as
    /// exported when they do not convert).
    private func writeComponents(_ parts: [(FHIRCoding, FHIRUnitMapping, Quantity)], to json: inout JSONEmitter) {
        guard !parts.isEmpty else { return }
        json.key("component")
        json.beginArray()
        for (coding, unit, quantity) in parts {
            FHIRJSON.component([coding], valueKey: "valueQuantity", to: &json) { json in
                if let conversion = FHIRUnitConversion(from: quantity.unit, to: unit.healthKitUnit) {
                    FHIRJSON.quantity(unit: unit, to: &json) { conversion.append(quantity.value, to: $0) }
                } else {
                    FHIRJSON.exportedQuantity(quantity, to: &json)
                }
            }
        }
        json.endArray()
    }

    /// HealthKit's Swift case name for an exported enum name (`HKWorkoutActivityTypeTaiChi` is
    /// `taiChi`), for activity types newer than the table.
    static func lowerCamel(_ name: String, droppingPrefix prefix: String) -> String {
        guard name.hasPrefix(prefix), name.count > prefix.count else { return name }
        let rest = name.dropFirst(prefix.count)
        return rest.prefix(1).lowercased() + rest.dropFirst()
    }

    /// An activity summary (not a sample in HealthKit, and not in the table): the day as
    /// `effectiveDateTime` (a date), each ring and goal a component.
    func write(_ a: ActivitySummary, to out: OutputBuffer) {
        let plan = begin(a.uuid, type: .activitySummary, to: out)
        if let day = a.dateComponents {
            out.append(",\"effectiveDateTime\":\"")
            out.appendRaw(day.text)
            out.append(0x22)
        }
        var json = JSONEmitter(continuing: out)
        let rings = ActivitySummary.measures.flatMap { measure in
            measure.valueAndGoal(in: a).map { ($0.name, $0.value, measure.unit(in: a)) }
        }
        writeExportedComponents(
            rings.compactMap { name, value, unit in
                value.map { (FHIRCoding.healthKit("HKActivitySummary." + name), Quantity(value: $0, unit: unit)) }
            }, to: &json)
        end("activitySummary", plan: plan, to: out)
    }

    /// Components holding quantities as exported.
    private func writeExportedComponents(_ parts: [(FHIRCoding, Quantity)], to json: inout JSONEmitter) {
        guard !parts.isEmpty else { return }
        json.key("component")
        json.beginArray()
        for (coding, quantity) in parts {
            FHIRJSON.component([coding], valueKey: "valueQuantity", to: &json) { json in
                FHIRJSON.exportedQuantity(quantity, to: &json)
            }
        }
        json.endArray()
    }

    /// The extension URL holding a sensitivity point's frequency: in the namespace of
    /// HealthKit's documentation, as HealthKitOnFHIR's value code systems are.
    static let audiogramFrequencyURL = "https://developer.apple.com/documentation/healthkit/hkaudiogramsensitivitypoint/frequency"

    /// A hearing test: one component per ear and tested frequency, its sensitivity in dB HL as
    /// the value and its frequency in an extension of the component (a component holds one value).
    func write(_ a: Audiogram, to out: OutputBuffer) {
        let plan = begin(a.sample, to: out)
        var json = JSONEmitter(continuing: out)
        var opened = false
        for point in a.sensitivityPoints {
            for (ear, sensitivity) in [("leftEarSensitivity", point.leftEarSensitivity), ("rightEarSensitivity", point.rightEarSensitivity)] {
                guard let sensitivity else { continue }
                if !opened {
                    json.key("component")
                    json.beginArray()
                    opened = true
                }
                json.element()
                json.beginObject()
                if let frequency = point.frequency {
                    json.key("extension")
                    json.beginArray()
                    json.element()
                    json.beginObject()
                    json.key("url")
                    json.string(Self.audiogramFrequencyURL)
                    json.key("valueQuantity")
                    FHIRJSON.exportedQuantity(frequency, to: &json)
                    json.endObject()
                    json.endArray()
                }
                json.key("code")
                FHIRJSON.codeableConcept([.healthKit("HKAudiogramSensitivityPoint." + ear)], to: &json)
                json.key("valueQuantity")
                FHIRJSON.exportedQuantity(sensitivity, to: &json)
                json.endObject()
            }
        }
        if opened { json.endArray() }
        end("audiogram", metadata: a.sample.metadata, plan: plan, to: out)
    }

    /// A glasses or contacts prescription (no public export holds one): the prescription type as
    /// the value, the dates, and each eye's fields as components.
    func write(_ v: VisionPrescription, to out: OutputBuffer) {
        let plan = begin(v.uuid, type: v.sampleType, to: out)
        if let issued = v.dateIssued {
            writeEffective(start: issued, end: v.expirationDate ?? issued, to: out)
        }
        var json = JSONEmitter(continuing: out)
        json.field("valueString", v.prescriptionType)
        var parts: [(FHIRCoding, Quantity)] = []
        for (eye, lens) in [("rightEye", v.rightEye), ("leftEye", v.leftEye)] {
            guard let lens else { continue }
            for field in LensSpecification.fields {
                if let quantity = lens[attribute: field.attribute] {
                    parts.append((.healthKit("HKVisionPrescription.\(eye).\(field.property)"), quantity))
                }
            }
        }
        writeExportedComponents(parts, to: &json)
        end("visionPrescription", metadata: v.metadata, plan: plan, to: out)
    }

    /// An element healthport has no model for: coded with its name, each attribute a component
    /// holding the attribute's text.
    func write(_ u: UnknownObject, to out: OutputBuffer) {
        let plan = begin(u.uuid, type: ObjectType(identifier: u.element.name, kind: .other), to: out)
        var json = JSONEmitter(continuing: out)
        if !u.element.attributes.isEmpty {
            json.key("component")
            json.beginArray()
            for attribute in u.element.attributes {
                FHIRJSON.component([.healthKit(u.element.name + "." + attribute.name)], valueKey: "valueString", to: &json) { json in
                    json.string(attribute.value)
                }
            }
            json.endArray()
        }
        end("unknown", plan: plan, to: out)
    }
}
