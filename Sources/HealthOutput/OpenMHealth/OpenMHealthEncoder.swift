import HealthJSON
import HealthModel

/// Writes healthport's objects as IEEE 1752.1 / Open mHealth data points, one JSON object per
/// line: a header (`OpenMHealthHeader`) and a body in the shape of the schema the header names.
///
/// Which objects have a body, and which schema (`quantityRules`): steps (`step-count`), heart
/// rate (resting and walking heart rate as averages, at rest and active), body weight, blood glucose, oxygen saturation, respiratory rate, body temperature,
/// active and resting energy (`calories-burned`: both are energy the body burned, so a study
/// that wants them apart selects the type with `--type`), blood pressure correlations
/// (`blood-pressure`, from their systolic and diastolic members) and workouts
/// (`physical-activity`, with their distance and energy). Everything else is left out and
/// counted by reason (`tally`), never written under a schema that means something else: heart
/// rate variability (Open mHealth has no schema for SDNN), sleep samples (each is a stage of a
/// night, not an episode: `healthport sleep --format omh` writes the night's episode), other
/// categories, clinical records, ECGs and the rest.
///
/// Times are the export's, with the offset it printed: an instant is a `date_time`, an interval
/// a `time_interval` of its start and end (always an interval for the schemas that require one,
/// steps and calories).
///
/// For example (a heart rate sample of 72 count/min):
/// ```json
/// {"header":{"uuid":"…","user_id":"…","schema_id":{"namespace":"omh","name":"heart-rate","version":"2.0"},
///  "source_creation_date_time":"…","modality":"sensed","external_datasheets":[…]},
///  "body":{"heart_rate":{"value":72,"unit":"beats/min"},"effective_time_frame":{"date_time":"…"}}}
/// ```
final class OpenMHealthEncoder {
    /// How one quantity type's samples become bodies.
    struct QuantityRule {
        let schema: OpenMHealthSchema
        /// The body's member for the value (`heart_rate`).
        let key: StaticString
        let unit: OpenMHealthUnitRule
        /// Whether the schema takes a time interval only (cumulative measures).
        let requiresInterval: Bool
        /// `descriptive_statistic`, for types that are a statistic of other samples (HealthKit's
        /// resting and walking heart rates are averages).
        var statistic: StaticString? = nil
        /// `temporal_relationship_to_physical_activity` (`at rest` for resting heart rate).
        var activity: StaticString? = nil
    }

    private static func q(_ name: String) -> String { "HKQuantityTypeIdentifier" + name }

    /// The quantity types with an Open mHealth body.
    static let quantityRules: [String: QuantityRule] = [
        q("StepCount"): QuantityRule(schema: .stepCount, key: "step_count", unit: .count, requiresInterval: true),
        q("HeartRate"): QuantityRule(schema: .heartRate, key: "heart_rate", unit: .beatsPerMinute, requiresInterval: false),
        q("RestingHeartRate"): QuantityRule(
            schema: .heartRate, key: "heart_rate", unit: .beatsPerMinute, requiresInterval: false, statistic: "average",
            activity: "at rest"),
        q("WalkingHeartRateAverage"): QuantityRule(
            schema: .heartRate, key: "heart_rate", unit: .beatsPerMinute, requiresInterval: false, statistic: "average",
            activity: "active"),
        q("BodyMass"): QuantityRule(schema: .bodyWeight, key: "body_weight", unit: .mass, requiresInterval: false),
        q("BloodGlucose"): QuantityRule(schema: .bloodGlucose, key: "blood_glucose", unit: .bloodGlucose, requiresInterval: false),
        q("OxygenSaturation"): QuantityRule(
            schema: .oxygenSaturation, key: "oxygen_saturation", unit: .percent, requiresInterval: false),
        q("RespiratoryRate"): QuantityRule(
            schema: .respiratoryRate, key: "respiratory_rate", unit: .breathsPerMinute, requiresInterval: false),
        q("BodyTemperature"): QuantityRule(
            schema: .bodyTemperature, key: "body_temperature", unit: .temperature, requiresInterval: false),
        q("ActiveEnergyBurned"): QuantityRule(schema: .caloriesBurned, key: "kcal_burned", unit: .kilocalories, requiresInterval: true),
        q("BasalEnergyBurned"): QuantityRule(schema: .caloriesBurned, key: "kcal_burned", unit: .kilocalories, requiresInterval: true),
    ]

    static let systolic = q("BloodPressureSystolic")
    static let diastolic = q("BloodPressureDiastolic")
    static let bloodPressure = "HKCorrelationTypeIdentifierBloodPressure"
    static let sleepAnalysis = "HKCategoryTypeIdentifierSleepAnalysis"

    var tally = OpenMHealthTally()
    /// Every header's `user_id`: the FHIR Patient's id of the header the writer received
    /// (`OpenMHealthWriter.begin`).
    var userID = FHIRPatient(nil).id

    /// Writes one object's data point line, or counts why it has none. Returns whether a line
    /// was written.
    @discardableResult
    func write(_ object: HealthObject, to out: OutputBuffer) -> Bool {
        switch object {
        case .quantitySample(let q): return write(q, to: out)
        case .correlation(let c): return write(c, to: out)
        case .workout(let w): return write(w, to: out)
        case .categorySample(let c):
            let identifier = c.sample.sampleType.identifier
            if identifier == Self.sleepAnalysis {
                tally.leaveOut("sleep samples (stages of a night, not episodes: the nights are written as sleep episodes)")
            } else {
                leaveOutWithoutSchema(identifier)
            }
        case .activitySummary: tally.leaveOut("activity summaries (no Open mHealth schema; the day table's figures are written per day)")
        case .clinicalRecord: tally.leaveOut("clinical records (FHIR resources, which the FHIR format passes through)")
        case .audiogram: tally.leaveOut("audiograms (no Open mHealth schema)")
        case .visionPrescription: tally.leaveOut("vision prescriptions (no Open mHealth schema)")
        case .electrocardiogram: tally.leaveOut("electrocardiograms (no Open mHealth schema)")
        case .unknown(let u): tally.leaveOut("\(u.sampleType ?? u.element.name) (no Open mHealth schema)")
        }
        return false
    }

    func write(_ sample: QuantitySample, to out: OutputBuffer) -> Bool {
        let identifier = sample.sample.sampleType.identifier
        guard let rule = Self.quantityRules[identifier] else {
            if identifier == Self.systolic || identifier == Self.diastolic {
                // Apple's export lists a correlation's members again as samples of their own.
                tally.leaveOut("\(identifier) (written in its blood pressure correlation's data point)")
            } else {
                leaveOutWithoutSchema(identifier)
            }
            return false
        }
        guard let plan = rule.unit.plan(for: sample.quantity.unit) else {
            tally.leaveOut("\(identifier) in \(sample.quantity.unit) (does not convert to \(rule.unit.targetName), the unit \(rule.schema.text) takes)")
            return false
        }
        var json = header(sample.sample, rule.schema).beginPoint(userID: userID, to: out)
        json.key(rule.key)
        Self.unitValue(sample.quantity.value, plan, to: &json)
        Self.timeFrame(start: sample.sample.startDate, end: sample.sample.endDate, interval: rule.requiresInterval, to: &json)
        Self.qualifiers(statistic: rule.statistic, activity: rule.activity, to: &json)
        end(rule.schema, json: &json)
        return true
    }

    /// A blood pressure correlation, from its systolic and diastolic members.
    func write(_ correlation: Correlation, to out: OutputBuffer) -> Bool {
        let identifier = correlation.sample.sampleType.identifier
        guard identifier == Self.bloodPressure else {
            leaveOutWithoutSchema(identifier)
            return false
        }
        var systolic: Quantity? = nil
        var diastolic: Quantity? = nil
        for case .quantity(let member) in correlation.objects {
            switch member.sample.sampleType.identifier {
            case Self.systolic: systolic = member.quantity
            case Self.diastolic: diastolic = member.quantity
            default: break
            }
        }
        let rule = OpenMHealthUnitRule.millimetresOfMercury
        guard let systolic, let diastolic else {
            tally.leaveOut("blood pressure without both a systolic and a diastolic value")
            return false
        }
        guard let systolicPlan = rule.plan(for: systolic.unit), let diastolicPlan = rule.plan(for: diastolic.unit) else {
            tally.leaveOut("blood pressure in a unit that does not convert to mmHg")
            return false
        }
        var json = header(correlation.sample, .bloodPressure).beginPoint(userID: userID, to: out)
        json.key("systolic_blood_pressure")
        Self.unitValue(systolic.value, systolicPlan, to: &json)
        json.key("diastolic_blood_pressure")
        Self.unitValue(diastolic.value, diastolicPlan, to: &json)
        Self.timeFrame(start: correlation.sample.startDate, end: correlation.sample.endDate, interval: false, to: &json)
        end(.bloodPressure, json: &json)
        return true
    }

    /// A workout as a physical activity: its activity in words (`Running`), its interval, and
    /// its distance and energy when it has them.
    func write(_ workout: Workout, to out: OutputBuffer) -> Bool {
        var json = header(workout.sample, .physicalActivity).beginPoint(userID: userID, to: out)
        json.key("activity_name")
        json.string(workout.workoutActivityType.words)
        Self.timeFrame(start: workout.sample.startDate, end: workout.sample.endDate, interval: true, to: &json)
        if let distance = workout.effectiveTotalDistance, let plan = OpenMHealthUnitRule.length.plan(for: distance.unit) {
            json.key("distance")
            Self.unitValue(distance.value, plan, to: &json)
        }
        if let energy = workout.effectiveTotalEnergyBurned, let plan = OpenMHealthUnitRule.kilocalories.plan(for: energy.unit) {
            json.key("kcal_burned")
            Self.unitValue(energy.value, plan, to: &json)
        }
        end(.physicalActivity, json: &json)
        return true
    }

    // MARK: Parts

    private let datasheets = OpenMHealthHeader.Datasheets()
    /// `<identifier> (no Open mHealth schema)`, made once per type: a type left out is left out
    /// sample after sample.
    private var withoutSchema: [String: String] = [:]

    func leaveOutWithoutSchema(_ identifier: String) {
        if let reason = withoutSchema[identifier] {
            tally.leaveOut(reason)
            return
        }
        let reason = "\(identifier) (no Open mHealth schema)"
        withoutSchema[identifier] = reason
        tally.leaveOut(reason)
    }

    /// A sample's header, its datasheets from the cache.
    @inline(__always)
    func header(_ sample: SampleAttributes, _ schema: OpenMHealthSchema) -> OpenMHealthHeader {
        OpenMHealthHeader(
            sample, schema: schema, datasheets: datasheets.bytes(source: sample.sourceRevision.source.name, device: sample.device))
    }


    /// Closes the body and the data point, ends the line, counts it.
    func end(_ schema: OpenMHealthSchema, json: inout JSONEmitter) {
        json.endObject()
        json.endObject()
        json.out.append(0x0A)
        tally.add(schema)
    }

    /// `{"value":…,"unit":"…"}`, the value converted as `plan` says.
    static func unitValue(_ value: ExportNumber, _ plan: OpenMHealthUnitRule.Plan, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("value")
        plan.conversion.append(value, to: json.out)
        json.raw("")
        json.key("unit")
        json.string(plan.unitName)
        json.endObject()
    }

    /// `{"value":…,"unit":"…"}` for a figure healthport computed (a day's, a night's).
    static func unitValue(_ value: Double, unit: String, to json: inout JSONEmitter) {
        json.beginObject()
        json.key("value")
        FHIRUnitConversion.append(value, to: json.out)
        json.raw("")
        json.key("unit")
        json.string(unit)
        json.endObject()
    }

    /// `descriptive_statistic` and `temporal_relationship_to_physical_activity`, when the measure
    /// has them (a day's average heart rate, a resting one).
    static func qualifiers(statistic: StaticString?, activity: StaticString?, to json: inout JSONEmitter) {
        if let statistic {
            json.key("descriptive_statistic")
            json.literal(statistic)
        }
        if let activity {
            json.key("temporal_relationship_to_physical_activity")
            json.literal(activity)
        }
    }

    /// `"effective_time_frame"`: a `date_time` for an instant (unless the schema takes intervals
    /// only), else a `time_interval` of the start and the end.
    static func timeFrame(start: ExportTimestamp, end: ExportTimestamp, interval: Bool, to json: inout JSONEmitter) {
        json.key("effective_time_frame")
        json.beginObject()
        if !interval && start.secondsSince1970 == end.secondsSince1970 {
            json.key("date_time")
            json.date(start)
        } else {
            json.key("time_interval")
            json.beginObject()
            json.key("start_date_time")
            json.date(start)
            json.key("end_date_time")
            json.date(end)
            json.endObject()
        }
        json.endObject()
    }
}
