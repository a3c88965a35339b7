/// One of Health Connect's record tables as the reader maps it: its name, its layout, the
/// column holding its value and what that value becomes in the model.
///
/// The names and layouts are AOSP's (`docs/health-connect.md` names the revision):
/// - **instant** records have `time`, `zone_offset` (seconds) and `local_date`;
/// - **interval** records have `start_time`, `start_zone_offset`, `end_time`,
///   `end_zone_offset` and `local_date`;
/// - **series** records are an interval parent with no value of its own and a child table of
///   `parent_key` (the parent's `row_id`), a value and `epoch_millis`;
/// - **sessions** (sleep, exercise) are intervals with children of their own (sleep stages);
/// - the tables newer database versions add (mindfulness sessions, activity intensity, skin
///   temperature with its deltas, planned exercise sessions) are intervals too, each with a
///   layout of its own; a database without one reads as before.
/// Every record also has `row_id`, a 16-byte `uuid`, `app_info_id`, `device_info_id`,
/// `recording_method`, `client_record_id` and `last_modified_time`.
struct RecordTable: Sendable {
    enum Layout: Sendable {
        case instant
        case interval
        /// The child table, its value column.
        case series(child: String, value: String)
        case sleepSession
        case exerciseSession
        /// An instant with a systolic and a diastolic value: HealthKit's blood pressure
        /// correlation and its two samples.
        case bloodPressure
        /// A cycle-tracking record (an instant, or the period's interval) whose codes become a
        /// category sample (`CycleTracking`).
        case cycleTracking(CycleTracking)
        /// An interval whose nutrients become HealthKit's food correlation and its dietary
        /// samples (`Nutrition`).
        case nutrition
        /// A mindfulness session (database version 14): HealthKit's mindful session, its type
        /// code, title and notes in metadata (`MindfulnessSession`).
        case mindfulnessSession
        /// An activity intensity (database version 16): a category sample of Health Connect's
        /// own, its value the intensity (`ActivityIntensity`).
        case activityIntensity
        /// A skin temperature (database version 11): its baseline and its deltas, samples of two
        /// types of Health Connect's own (`SkinTemperature`).
        case skinTemperature
        /// A planned exercise session (database version 12): a category sample of Health
        /// Connect's own over the planned interval (`PlannedExerciseSession`).
        case plannedExerciseSession
    }

    let name: String
    let layout: Layout
    /// The parent's value column (instant and interval tables).
    let valueColumn: String?
    /// The HealthKit type the records become.
    let typeIdentifier: String
    /// The unit written, and the factor from the stored unit to it.
    let unit: String
    let factor: Double
    /// How the measurement was taken, read into metadata (`MeasurementContext`), for the tables
    /// that keep it.
    var context: MeasurementContext? = nil

    /// The tables read, in the order they are read.
    static let all: [RecordTable] = [
        RecordTable(
            name: "steps_record_table", layout: .interval, valueColumn: "count", typeIdentifier: "HKQuantityTypeIdentifierStepCount",
            unit: "count", factor: 1),
        RecordTable(
            name: "distance_record_table", layout: .interval, valueColumn: "distance",
            typeIdentifier: "HKQuantityTypeIdentifierDistanceWalkingRunning", unit: "m", factor: 1),
        // Energy is stored in small calories (cal): a thousandth of HealthKit's kcal.
        RecordTable(
            name: "active_calories_burned_record_table", layout: .interval, valueColumn: "energy",
            typeIdentifier: "HKQuantityTypeIdentifierActiveEnergyBurned", unit: "kcal", factor: 0.001),
        // HealthKit has no total energy (it keeps active and basal apart): a type of its own.
        RecordTable(
            name: "total_calories_burned_record_table", layout: .interval, valueColumn: "energy",
            typeIdentifier: HealthConnectTypes.totalCaloriesBurned, unit: "kcal", factor: 0.001),
        // Weight is stored in grams.
        RecordTable(
            name: "weight_record_table", layout: .instant, valueColumn: "weight", typeIdentifier: "HKQuantityTypeIdentifierBodyMass",
            unit: "kg", factor: 0.001),
        RecordTable(
            name: "lean_body_mass_record_table", layout: .instant, valueColumn: "mass", typeIdentifier: "HKQuantityTypeIdentifierLeanBodyMass",
            unit: "kg", factor: 0.001),
        RecordTable(
            name: "bone_mass_record_table", layout: .instant, valueColumn: "mass", typeIdentifier: HealthConnectTypes.boneMass, unit: "kg",
            factor: 0.001),
        RecordTable(
            name: "body_water_mass_record_table", layout: .instant, valueColumn: "body_water_mass",
            typeIdentifier: HealthConnectTypes.bodyWaterMass, unit: "kg", factor: 0.001),
        // Basal metabolic rate is stored as a power, in watts (J/s): a day's 86,400 s over the
        // 4,184 J of a kilocalorie (AOSP's own bound, 10,000 kcal/day, is 484.259 W) makes 1 W
        // 20.650… kcal/d.
        RecordTable(
            name: "basal_metabolic_rate_record_table", layout: .instant, valueColumn: "basal_metabolic_rate",
            typeIdentifier: HealthConnectTypes.basalMetabolicRate, unit: "kcal/d", factor: 86_400 / 4_184),
        RecordTable(
            name: "height_record_table", layout: .instant, valueColumn: "height", typeIdentifier: "HKQuantityTypeIdentifierHeight", unit: "m",
            factor: 1),
        // Percentages are stored from 0 to 100; HealthKit holds them as fractions of 1, in "%".
        RecordTable(
            name: "body_fat_record_table", layout: .instant, valueColumn: "percentage",
            typeIdentifier: "HKQuantityTypeIdentifierBodyFatPercentage", unit: "%", factor: 0.01),
        RecordTable(
            name: "oxygen_saturation_record_table", layout: .instant, valueColumn: "percentage",
            typeIdentifier: "HKQuantityTypeIdentifierOxygenSaturation", unit: "%", factor: 0.01),
        RecordTable(
            name: "resting_heart_rate_record_table", layout: .instant, valueColumn: "beats_per_minute",
            typeIdentifier: "HKQuantityTypeIdentifierRestingHeartRate", unit: "count/min", factor: 1),
        RecordTable(
            name: "respiratory_rate_record_table", layout: .instant, valueColumn: "rate",
            typeIdentifier: "HKQuantityTypeIdentifierRespiratoryRate", unit: "count/min", factor: 1),
        RecordTable(
            name: "vo2_max_record_table", layout: .instant, valueColumn: "vo2_milliliters_per_minute_kilogram",
            typeIdentifier: "HKQuantityTypeIdentifierVO2Max", unit: "mL/min·kg", factor: 1),
        // Temperatures are stored in degrees Celsius, with where they were taken.
        RecordTable(
            name: "body_temperature_record_table", layout: .instant, valueColumn: "temperature",
            typeIdentifier: "HKQuantityTypeIdentifierBodyTemperature", unit: "degC", factor: 1, context: .temperature),
        RecordTable(
            name: "basal_body_temperature_record_table", layout: .instant, valueColumn: "temperature",
            typeIdentifier: "HKQuantityTypeIdentifierBasalBodyTemperature", unit: "degC", factor: 1, context: .temperature),
        // Blood glucose is stored in mmol/L; HealthKit's exports write mg/dL (glucose's molar
        // mass, 180.15588 g/mol, makes 1 mmol/L 18.015588 mg/dL).
        RecordTable(
            name: "blood_glucose_record_table", layout: .instant, valueColumn: "level",
            typeIdentifier: "HKQuantityTypeIdentifierBloodGlucose", unit: "mg/dL", factor: 18.015588, context: .bloodGlucose),
        // RMSSD, not HealthKit's SDNN: a different measure, so a type of its own.
        RecordTable(
            name: "heart_rate_variability_rmssd_record_table", layout: .instant, valueColumn: "heart_rate_variability_millis",
            typeIdentifier: HealthConnectTypes.heartRateVariabilityRMSSD, unit: "ms", factor: 1),
        // Hydration is stored in litres.
        RecordTable(
            name: "hydration_record_table", layout: .interval, valueColumn: "volume", typeIdentifier: "HKQuantityTypeIdentifierDietaryWater",
            unit: "mL", factor: 1000),
        RecordTable(
            name: "floors_climbed_record_table", layout: .interval, valueColumn: "floors",
            typeIdentifier: "HKQuantityTypeIdentifierFlightsClimbed", unit: "count", factor: 1),
        RecordTable(
            name: "wheelchair_pushes_record_table", layout: .interval, valueColumn: "count",
            typeIdentifier: "HKQuantityTypeIdentifierPushCount", unit: "count", factor: 1),
        // HealthKit keeps elevation only as a workout's metadata: a type of its own.
        RecordTable(
            name: "elevation_gained_record_table", layout: .interval, valueColumn: "elevation",
            typeIdentifier: HealthConnectTypes.elevationGained, unit: "m", factor: 1),
        RecordTable(
            name: "blood_pressure_record_table", layout: .bloodPressure, valueColumn: nil,
            typeIdentifier: "HKCorrelationTypeIdentifierBloodPressure", unit: "mmHg", factor: 1, context: .bloodPressure),
        RecordTable(
            name: "nutrition_record_table", layout: .nutrition, valueColumn: nil, typeIdentifier: Nutrition.typeIdentifier, unit: "",
            factor: 1),
        // Cycle tracking: category samples, their values from the records' codes.
        RecordTable(cycleTracking: .menstruationFlow, name: "menstruation_flow_record_table"),
        RecordTable(cycleTracking: .menstruationPeriod, name: "menstruation_period_record_table"),
        RecordTable(cycleTracking: .ovulationTest, name: "ovulation_test_record_table"),
        RecordTable(cycleTracking: .cervicalMucus, name: "cervical_mucus_record_table"),
        RecordTable(cycleTracking: .intermenstrualBleeding, name: "intermenstrual_bleeding_record_table"),
        RecordTable(cycleTracking: .sexualActivity, name: "sexual_activity_record_table"),
        RecordTable(
            name: "heart_rate_record_table", layout: .series(child: "heart_rate_record_series_table", value: "beats_per_minute"),
            valueColumn: nil, typeIdentifier: "HKQuantityTypeIdentifierHeartRate", unit: "count/min", factor: 1),
        // Series through an activity; their parents are named in CamelCase, their readings'
        // tables in snake case (AOSP's names).
        RecordTable(
            name: "SpeedRecordTable", layout: .series(child: "speed_record_table", value: "speed"), valueColumn: nil,
            typeIdentifier: HealthConnectTypes.speed, unit: "m/s", factor: 1),
        RecordTable(
            name: "PowerRecordTable", layout: .series(child: "power_record_table", value: "power"), valueColumn: nil,
            typeIdentifier: HealthConnectTypes.power, unit: "W", factor: 1),
        // A pedal's revolutions per minute: HealthKit's cycling cadence.
        RecordTable(
            name: "CyclingPedalingCadenceRecordTable",
            layout: .series(child: "cycling_pedaling_cadence_record_table", value: "revolutions_per_minute"), valueColumn: nil,
            typeIdentifier: "HKQuantityTypeIdentifierCyclingCadence", unit: "count/min", factor: 1),
        RecordTable(
            name: "StepsCadenceRecordTable", layout: .series(child: "steps_cadence_record_table", value: "rate"), valueColumn: nil,
            typeIdentifier: HealthConnectTypes.stepsCadence, unit: "count/min", factor: 1),
        RecordTable(
            name: "sleep_session_record_table", layout: .sleepSession, valueColumn: nil,
            typeIdentifier: "HKCategoryTypeIdentifierSleepAnalysis", unit: "", factor: 1),
        RecordTable(
            name: "exercise_session_record_table", layout: .exerciseSession, valueColumn: nil, typeIdentifier: "HKWorkoutTypeIdentifier",
            unit: "", factor: 1),
        // Tables newer database versions add, read after the others (a database that lacks one
        // is read as before: absent tables are skipped, `HealthConnectReader.absentTables`).
        RecordTable(
            name: "mindfulness_session_record_table", layout: .mindfulnessSession, valueColumn: nil,
            typeIdentifier: MindfulnessSession.typeIdentifier, unit: "", factor: 1),
        RecordTable(
            name: "activity_intensity_record_table", layout: .activityIntensity, valueColumn: nil,
            typeIdentifier: HealthConnectTypes.activityIntensity, unit: "", factor: 1),
        // The deltas are read as a series' readings, in their own unit (a temperature
        // difference); the baseline beside them.
        RecordTable(
            name: "skin_temperature_record_table", layout: .skinTemperature, valueColumn: nil, typeIdentifier: SkinTemperature.deltaType,
            unit: SkinTemperature.deltaUnit, factor: 1),
        RecordTable(
            name: "planned_exercise_session_record_table", layout: .plannedExerciseSession, valueColumn: nil,
            typeIdentifier: PlannedExerciseSession.typeIdentifier, unit: "", factor: 1),
    ]

    /// The columns the reader selects from the table itself, in order (the common ones first).
    var columns: [String] {
        var columns = ["row_id", "uuid", "app_info_id", "device_info_id", "recording_method", "client_record_id", "last_modified_time"]
        switch layout {
        case .instant, .bloodPressure: columns += ["time", "zone_offset"]
        case .interval, .series, .sleepSession, .exerciseSession, .nutrition, .mindfulnessSession, .activityIntensity, .skinTemperature,
            .plannedExerciseSession:
            columns += ["start_time", "start_zone_offset", "end_time", "end_zone_offset"]
        case .cycleTracking(let record):
            columns += record.isInstant ? ["time", "zone_offset"] : ["start_time", "start_zone_offset", "end_time", "end_zone_offset"]
        }
        if let valueColumn { columns.append(valueColumn) }
        switch layout {
        case .sleepSession: columns += ["title", "notes"]
        case .exerciseSession: columns += ["exercise_type", "title", "notes"]
        case .bloodPressure: columns += ["systolic", "diastolic"]
        case .cycleTracking(let record): columns += record.columns
        case .nutrition: columns += Nutrition.columns
        case .mindfulnessSession: columns += MindfulnessSession.columns
        case .activityIntensity: columns += ActivityIntensity.columns
        case .skinTemperature: columns += SkinTemperature.columns
        case .plannedExerciseSession: columns += PlannedExerciseSession.columns
        default: break
        }
        if let context { columns += context.columns }
        return columns
    }

    /// A table of rows that belong to a record (`parent_key` is the record's `row_id`).
    struct ChildTable: Sendable {
        let name: String
        /// The columns read, `parent_key` first.
        let columns: [String]
        /// The column the rows of one record are read in order of.
        let order: String
        /// Whether the record table cannot be without it (older databases lack a route, lap or
        /// segment table; none lacks a series' values, a session's stages or a skin
        /// temperature's deltas).
        let required: Bool
    }

    /// The child tables read beside the records, for the layouts that have them.
    var children: [ChildTable] {
        switch layout {
        case .series(let child, let value):
            return [ChildTable(name: child, columns: ["parent_key", value, "epoch_millis"], order: "epoch_millis", required: true)]
        case .sleepSession:
            return [
                ChildTable(
                    name: "sleep_stages_table", columns: ["parent_key", "stage_start_time", "stage_end_time", "stage_type"],
                    order: "stage_start_time", required: true)
            ]
        case .exerciseSession:
            return [
                ChildTable(
                    name: "exercise_route_table",
                    columns: ["parent_key", "timestamp_millis", "latitude", "longitude", "altitude", "horizontal_accuracy", "vertical_accuracy"],
                    order: "timestamp_millis", required: false),
                ChildTable(
                    name: "exercise_laps_table", columns: ["parent_key", "lap_start_time", "lap_end_time", "lap_length"], order: "lap_start_time",
                    required: false),
                ChildTable(
                    name: "exercise_segments_table",
                    columns: ["parent_key", "segment_start_time", "segment_end_time", "segment_type", "repetitions_count"],
                    order: "segment_start_time", required: false),
            ]
        case .skinTemperature:
            return [SkinTemperature.deltas]
        case .instant, .interval, .bloodPressure, .cycleTracking, .nutrition, .mindfulnessSession, .activityIntensity,
            .plannedExerciseSession:
            return []
        }
    }

    /// The types the table's records become: a query selecting any of them reads the table.
    var producedTypes: Set<String> {
        switch layout {
        case .bloodPressure:
            return [typeIdentifier, BloodPressure.systolic, BloodPressure.diastolic]
        case .cycleTracking(let record):
            return record.producedTypes
        case .nutrition:
            return Nutrition.producedTypes
        case .skinTemperature:
            return [SkinTemperature.baselineType, SkinTemperature.deltaType]
        default:
            return [typeIdentifier]
        }
    }

    /// The two members of a blood pressure correlation.
    enum BloodPressure {
        static let systolic = "HKQuantityTypeIdentifierBloodPressureSystolic"
        static let diastolic = "HKQuantityTypeIdentifierBloodPressureDiastolic"
    }
}

extension RecordTable {
    /// A cycle-tracking table: its type is the record's (`CycleTracking`), its values codes.
    init(cycleTracking record: CycleTracking, name: String) {
        self.init(name: name, layout: .cycleTracking(record), valueColumn: nil, typeIdentifier: record.typeIdentifier, unit: "", factor: 1)
    }
}
