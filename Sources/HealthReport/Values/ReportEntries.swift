import HealthModel

/// One night's sleep, from the sleep analysis category samples: seconds per stage, as
/// `healthport sleep` sums them (overlapping sources resolved, never added).
///
/// A night runs from 18:00 to 18:00 and is named by its morning: sleep from 23:00 on 1 March and
/// from 01:00 on 2 March are both the night of 2 March.
public struct ReportSleepNight: Sendable {
    public enum Stage: Int, Sendable, CaseIterable {
        // HealthKit's raw values (HKCategoryValueSleepAnalysis).
        case inBed = 0, asleepUnspecified = 1, awake = 2, core = 3, deep = 4, rem = 5

        public var title: String {
            switch self {
            case .inBed: return "In bed"
            case .asleepUnspecified: return "Asleep (no stage)"
            case .awake: return "Awake"
            case .core: return "Core"
            case .deep: return "Deep"
            case .rem: return "REM"
            }
        }
    }

    /// The night's date, `yyyy-MM-dd`.
    public var night: String
    /// Seconds per stage.
    public var seconds: [Stage: Double]

    public init(night: String, seconds: [Stage: Double]) {
        self.night = night
        self.seconds = seconds
    }
}

/// A blood pressure reading: one blood pressure correlation's systolic and diastolic samples.
public struct BloodPressureReading: Sendable {
    public var date: ExportTimestamp
    public var systolic: Double
    public var diastolic: Double
    public init(date: ExportTimestamp, systolic: Double, diastolic: Double) {
        self.date = date
        self.systolic = systolic
        self.diastolic = diastolic
    }
}

/// A workout as the report lists it, with its routes' points reduced for a small map.
public struct WorkoutEntry: Sendable {
    public struct Point: Sendable {
        public var latitude: Double
        public var longitude: Double
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    public var start: ExportTimestamp
    public var end: ExportTimestamp
    /// `HKWorkoutActivityTypeRunning`.
    public var activityType: String
    public var source: String
    /// Minutes.
    public var duration: Double?
    public var distance: Quantity?
    public var energy: Quantity?
    /// Each route's points, at most a few hundred each.
    public var routes: [[Point]]

    public init(
        start: ExportTimestamp, end: ExportTimestamp, activityType: String, source: String, duration: Double?, distance: Quantity?,
        energy: Quantity?, routes: [[Point]] = []
    ) {
        self.start = start
        self.end = end
        self.activityType = activityType
        self.source = source
        self.duration = duration
        self.distance = distance
        self.energy = energy
        self.routes = routes
    }

    /// `Running` for `HKWorkoutActivityTypeRunning`.
    public var activityTitle: String {
        let prefix = "HKWorkoutActivityType"
        return ReportNames.words(activityType.hasPrefix(prefix) ? String(activityType.dropFirst(prefix.count)) : activityType)
    }
}

/// The first seconds of an ECG recording, as drawn.
public struct ElectrocardiogramTrace: Sendable {
    public var recorded: ExportTimestamp?
    public var classification: String?
    /// Hertz of `voltages` (after any reduction for drawing).
    public var samplingFrequency: Double
    public var unit: String
    public var voltages: [Double]

    public init(recorded: ExportTimestamp?, classification: String?, samplingFrequency: Double, unit: String, voltages: [Double]) {
        self.recorded = recorded
        self.classification = classification
        self.samplingFrequency = samplingFrequency
        self.unit = unit
        self.voltages = voltages
    }
}
