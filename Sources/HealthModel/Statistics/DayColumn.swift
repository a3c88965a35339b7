/// One measure of the day table (`healthport days`): a person's day with its measures side by
/// side, as the Health app's summary shows them, one column each.
///
/// Every column is read from the daily summary of one type (`DailySummary`: a merged sum, a
/// daily average, stood hours, a time), from the night that ended that morning (`SleepNight`),
/// or from Apple's own rings for the day (`ActivitySummary`), never computed a second way. Its
/// name carries its unit (`distance_km`), so a spreadsheet's header says what the numbers are.
///
/// For example:
/// ```swift
/// DayColumn.all.map(\.name)     // ["steps", "distance_km", "flights", …, "apple_stand_hours"]
/// DayColumn.all[0].period       // .total: a week's steps are summed, with a daily average
/// ```
public struct DayColumn: Sendable, Hashable {
    /// Where the column's value comes from.
    public enum Figure: Sendable, Hashable {
        /// The type's daily `sum` (cumulative types).
        case sum
        /// The type's daily `average` (discrete types).
        case average
        /// The type's daily `count` (stood hours, workouts).
        case count
        /// The type's daily `duration` (mindful sessions, workouts).
        case duration
        /// The night's asleep time, time in bed, naps.
        case asleep, inBed, naps
        /// Apple's rings for the day.
        case ringMove, ringExercise, ringStand
    }

    /// How a week or a month sums the column (`DayPeriodRow`).
    public enum PeriodRule: Sendable, Hashable {
        /// A total over the period, and its average per day with a value (steps, energy).
        case total
        /// The average of the days with a value (heart rate, weight, a night's sleep).
        case average
    }

    /// The column's name in CSV, JSON, Parquet and the store: snake case, the unit last.
    public let name: String
    /// Its short heading in the text table.
    public let heading: String
    /// Its name for a person, in words (the report's tables).
    public let title: String
    /// The type it is read from (`nil` for the rings).
    public let type: String?
    public let figure: Figure
    /// The unit of its values (a HealthKit unit string: `km`, `kcal`, `min`, `count/min`); `%`
    /// columns hold percentages (97, not 0.97).
    public let unit: String
    public let period: PeriodRule
    /// The decimals a day's value keeps: what the Health app shows (whole steps, kilocalories,
    /// minutes and beats per minute; kilometres to 10 m; weight to 100 g). A period's averages
    /// keep one more. Rounded once, where the row is made, so a file, the text and the store
    /// agree, and a column's period total is the sum a spreadsheet would make of its days.
    public let decimals: Int

    /// Whether the text table shows the value as hours and minutes (the unit is minutes).
    public var isTime: Bool { unit == "min" }

    init(_ name: String, _ heading: String, _ title: String, _ type: String?, _ figure: Figure, _ unit: String, _ period: PeriodRule, _ decimals: Int = 0) {
        self.name = name
        self.heading = heading
        self.title = title
        self.type = type
        self.figure = figure
        self.unit = unit
        self.period = period
        self.decimals = decimals
    }

    /// `value` rounded to `decimals` (halves away from zero).
    public func rounded(_ value: Double, extraDecimals: Int = 0) -> Double {
        let scale = pow10(decimals + extraDecimals)
        return (value * scale).rounded() / scale
    }

    private func pow10(_ n: Int) -> Double {
        var result = 1.0
        for _ in 0..<max(0, n) { result *= 10 }
        return result
    }

    private static func q(_ name: String) -> String { "HKQuantityTypeIdentifier" + name }
    private static let sleep = "HKCategoryTypeIdentifierSleepAnalysis"
    private static let workout = "HKWorkoutTypeIdentifier"

    /// Every column, in the table's order: activity, heart, body, sleep, mind, workouts, and
    /// Apple's rings last, beside the computed move, exercise and stand.
    public static let all: [DayColumn] = [
        DayColumn("steps", "steps", "Steps", q("StepCount"), .sum, "count", .total),
        DayColumn("distance_km", "km", "Walking + running distance", q("DistanceWalkingRunning"), .sum, "km", .total, 2),
        DayColumn("flights", "flights", "Flights climbed", q("FlightsClimbed"), .sum, "count", .total),
        DayColumn("active_energy_kcal", "active", "Active energy", q("ActiveEnergyBurned"), .sum, "kcal", .total),
        DayColumn("resting_energy_kcal", "resting", "Resting energy", q("BasalEnergyBurned"), .sum, "kcal", .total),
        DayColumn("exercise_min", "exercise", "Exercise", q("AppleExerciseTime"), .sum, "min", .total),
        DayColumn("move_min", "move", "Move time", q("AppleMoveTime"), .sum, "min", .total),
        DayColumn("stand_hours", "stand", "Stand hours", "HKCategoryTypeIdentifierAppleStandHour", .count, "count", .total),
        DayColumn("resting_heart_rate_bpm", "rest HR", "Resting heart rate", q("RestingHeartRate"), .average, "count/min", .average),
        DayColumn("walking_heart_rate_bpm", "walk HR", "Walking heart rate", q("WalkingHeartRateAverage"), .average, "count/min", .average),
        DayColumn("hrv_sdnn_ms", "HRV", "Heart rate variability (SDNN)", q("HeartRateVariabilitySDNN"), .average, "ms", .average),
        DayColumn("respiratory_rate_per_min", "resp", "Respiratory rate", q("RespiratoryRate"), .average, "count/min", .average, 1),
        DayColumn("blood_oxygen_pct", "SpO2", "Blood oxygen", q("OxygenSaturation"), .average, "%", .average),
        DayColumn("vo2max_ml_kg_min", "VO2max", "VO2 max", q("VO2Max"), .average, "mL/min·kg", .average, 1),
        DayColumn("weight_kg", "kg", "Weight", q("BodyMass"), .average, "kg", .average, 1),
        DayColumn("body_fat_pct", "fat", "Body fat", q("BodyFatPercentage"), .average, "%", .average, 1),
        DayColumn("asleep_min", "asleep", "Asleep", sleep, .asleep, "min", .average),
        DayColumn("in_bed_min", "in bed", "In bed", sleep, .inBed, "min", .average),
        DayColumn("naps_min", "naps", "Naps", sleep, .naps, "min", .total),
        DayColumn("mindful_min", "mindful", "Mindful time", "HKCategoryTypeIdentifierMindfulSession", .duration, "min", .total),
        DayColumn("workouts", "workouts", "Workouts", workout, .count, "count", .total),
        DayColumn("workout_min", "workout", "Workout time", workout, .duration, "min", .total),
        DayColumn("apple_move_kcal", "ring move", "Apple's move ring", nil, .ringMove, "kcal", .total),
        DayColumn("apple_exercise_min", "ring ex", "Apple's exercise ring", nil, .ringExercise, "min", .total),
        DayColumn("apple_stand_hours", "ring stand", "Apple's stand ring", nil, .ringStand, "count", .total),
    ]

    /// The types the table reads (sleep and workouts included).
    public static let types: Set<String> = Set(all.compactMap(\.type))
}
