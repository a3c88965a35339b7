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
        let plan = self.plan(c.sample.sampleType)
        begin(c.sample.uuid, head: plan.head, to: out)
        writeSampleTimesAndDevice(c.sample, to: out)
        var json = JSONEmitter(out)
        json.raw("")
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
        writeMetadata(c.sample.metadata, to: out)
        out.append("}\n")
        tally.add(kind: "correlation", plan.coding)
    }

    /// A workout as HealthKitOnFHIR writes it (LOINC 73985-4 "Exercise activity", the physical
    /// activity categories, the activity type as the value), with its duration and totals as
    /// components. Events, activities, statistics and routes are not written.
    func write(_ w: Workout, to out: OutputBuffer) {
        let plan = self.plan(w.sample.sampleType)
        begin(w.sample.uuid, head: plan.head, to: out)
        writeSampleTimesAndDevice(w.sample, to: out)
        var json = JSONEmitter(out)
        json.raw("")
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
        writeMetadata(w.sample.metadata, to: out)
        out.append("}\n")
        tally.add(kind: "workout", plan.coding)
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
        let plan = self.plan(.activitySummary)
        begin(a.uuid, head: plan.head, to: out)
        if let day = a.dateComponents {
            out.append(",\"effectiveDateTime\":\"")
            out.appendRaw(day.text)
            out.append(0x22)
        }
        var json = JSONEmitter(out)
        json.raw("")
        let energyUnit = a.activeEnergyBurnedUnit ?? "kcal"
        let rings: [(String, ExportNumber?, String)] = [
            ("activeEnergyBurned", a.activeEnergyBurned, energyUnit),
            ("activeEnergyBurnedGoal", a.activeEnergyBurnedGoal, energyUnit),
            ("appleMoveTime", a.appleMoveTime, "min"),
            ("appleMoveTimeGoal", a.appleMoveTimeGoal, "min"),
            ("appleExerciseTime", a.appleExerciseTime, "min"),
            ("appleExerciseTimeGoal", a.appleExerciseTimeGoal, "min"),
            ("appleStandHours", a.appleStandHours, "count"),
            ("appleStandHoursGoal", a.appleStandHoursGoal, "count"),
        ]
        writeExportedComponents(
            rings.compactMap { name, value, unit in
                value.map { (FHIRCoding.healthKit("HKActivitySummary." + name), Quantity(value: $0, unit: unit)) }
            }, to: &json)
        out.append("}\n")
        tally.add(kind: "activitySummary", plan.coding)
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
        let plan = self.plan(a.sample.sampleType)
        begin(a.sample.uuid, head: plan.head, to: out)
        writeSampleTimesAndDevice(a.sample, to: out)
        var json = JSONEmitter(out)
        json.raw("")
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
        writeMetadata(a.sample.metadata, to: out)
        out.append("}\n")
        tally.add(kind: "audiogram", plan.coding)
    }

    /// A glasses or contacts prescription (no public export holds one): the prescription type as
    /// the value, the dates, and each eye's fields as components.
    func write(_ v: VisionPrescription, to out: OutputBuffer) {
        let plan = self.plan(v.sampleType)
        begin(v.uuid, head: plan.head, to: out)
        if let issued = v.dateIssued {
            writeEffective(start: issued, end: v.expirationDate ?? issued, to: out)
        }
        var json = JSONEmitter(out)
        json.raw("")
        if let type = v.prescriptionType {
            json.key("valueString")
            json.string(type)
        }
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
        writeMetadata(v.metadata, to: out)
        out.append("}\n")
        tally.add(kind: "visionPrescription", plan.coding)
    }

    /// An element healthport has no model for: coded with its name, each attribute a component
    /// holding the attribute's text.
    func write(_ u: UnknownObject, to out: OutputBuffer) {
        let plan = self.plan(ObjectType(identifier: u.element.name, kind: .other))
        begin(u.uuid, head: plan.head, to: out)
        var json = JSONEmitter(out)
        json.raw("")
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
        out.append("}\n")
        tally.add(kind: "unknown", plan.coding)
    }
}
